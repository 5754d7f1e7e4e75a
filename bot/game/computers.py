"""Computer seats: who they are, what they know, and their moves, thought out off the event loop.

A computer is a user of its own (migration 007): level l (1 easy, 2 normal, 3 hard) and the k-th
computer of that level at a table have the id -(1000 + 10 l + k), so a computer seat is stored,
dealt and scored like any other. It has no private chat: no hand or ping is ever owed to it.

Its move comes from the seat's :class:`~durak.record.Knowledge` (``durak.ai.choose``), built from
the game's public log (cards picked up, shown, laid, and who holds the face-up trump card), never
from the other hands. ``hard`` searches for up to ``budget_ms`` in a separate process, so presses
are answered while it thinks. Each computer move is played a short pause (``PAUSE``) after the
move it answers, so people can follow the table (``Timers.computer_soon``); the sweep plays one
that a restart or a failure left waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from bot.game.thinking import start_thinker, think
from bot.game.workers import end_pool, in_pool, pool_pids, spawn_pool
from durak import Action, Ev, Event
from durak.ai import choose
from durak.cards import parse_card
from durak.engine import awaited
from durak.record import Knowledge, Record, knowledge
from durak.setup import lowest_trump_leads
from storage.computers import MOST, computer_id, level_of
from storage.models import Game

PAUSE = 1.0          # seconds between a move and a computer's answer to it
THINK_LIMIT = 10.0    # seconds past its budget before a computer's thinking counts as failed
log = logging.getLogger(__name__)


def next_computer(game: Game, level: str) -> int | None:
    """The id of the next computer of ``level`` for this table; None when MOST already sit there."""
    seated = {s.user.id for s in game.seats}
    return next((i for k in range(1, MOST + 1) if (i := computer_id(level, k)) not in seated), None)


def computer_seats(game: Game) -> dict[int, str]:
    """Seat -> level of every computer at the table."""
    return {s.seat: level for s in game.seats if (level := level_of(s.user.id)) is not None}


def record_of(game: Game) -> Record:
    """The public record of a game in progress, from its log: what the table saw each player pick up and
    show, less what he laid since; the discard; and the face-up trump card with whoever drew it."""
    assert game.state is not None
    events = [Event(Ev(e["k"]), e.get("s"), tuple(parse_card(c) for c in e.get("c", ())), e.get("o"), e.get("n", 0))
              for e in game.log if e.get("k") in _KINDS]
    return Record.start(game.state, events, lowest_trump_leads(game.rules, len(game.seats), game.previous))


_KINDS = {e.value for e in Ev}


def waiting_computer(game: Game) -> tuple[int, str] | None:
    """The computer seat the game waits for now, with its level."""
    state = game.state
    if state is None or state.over:
        return None
    levels = computer_seats(game)
    return next(((seat, levels[seat]) for seat in awaited(state) if seat in levels), None)


class Thinker:
    """Chooses computer moves; ``hard`` thinks in a worker process (started on first use).

    A computer never holds a game up: when its thinking fails (an error, a worker that died, or one
    that has not answered within ``limit_s``) the failure is logged and the normal player's move is
    played at once; a worker that failed is replaced for the next move.

    The one worker thinks of one move at a time, and ``hard`` thinks as long as its budget allows. So a
    move asked for while others wait for the worker gets a share of the budget (the budget divided by the
    hard moves waiting, its own included): with many hard tables a move waits about one budget in all,
    not a budget for every move ahead of it (past ``limit_s`` it would fall back to the normal move)."""

    def __init__(self, budget_ms: float, limit_s: float | None = None, idle_cpu: bool = True) -> None:
        self.budget_ms = budget_ms
        self.idle_cpu = idle_cpu  # the thinking (and the reviews) only on CPU the bot leaves idle
        self.limit_s = limit_s if limit_s is not None else THINK_LIMIT + budget_ms / 1000
        self._pool: ProcessPoolExecutor | None = None
        self.busy: set[int] = set()  # games whose computer is thinking now
        self.failures = 0            # thinking that failed and fell back to the normal player
        self.waiting = 0             # hard moves handed to the worker and not yet answered
        self.pressing: ctypes.c_int = multiprocessing.get_context("spawn").RawValue(ctypes.c_int, 0)  # presses in hand
        self.thinking: ctypes.c_int = multiprocessing.get_context("spawn").RawValue(ctypes.c_int, 0)  # hard moves asked
        # the load test's figures (bot.ops.metrics): each hard move's budget (ms) and the tree's iterations
        self.record: list[tuple[float, int]] | None = None

    @contextlib.contextmanager
    def press(self) -> Iterator[None]:
        """Around the handling of a person's press: the thinking process waits meanwhile."""
        self.pressing.value += 1
        try:
            yield
        finally:
            self.pressing.value -= 1

    async def move(self, game: Game, seat: int, level: str) -> Action | None:
        """The computer's move at ``seat``; None: the careful move of a timed-out seat (turns.timeout_action)."""
        assert game.state is not None
        seed = game.id * 1_000_003 + game.state.moves
        try:
            k = knowledge(game.state, seat, record_of(game))
        except Exception:
            log.exception("game %s: seat %s's knowledge could not be built from the log", game.id, seat)
            self.failures += 1
            return None
        if level == "hard":
            if self._pool is None:
                self._pool = spawn_pool(1, start_thinker, self.pressing, self.idle_cpu)
            pool = self._pool
            self.waiting += 1
            self.thinking.value += 1  # the reviews step aside meanwhile (bot.game.reviews)
            try:
                return await asyncio.wait_for(self._think(pool, k, seed, self.budget_ms / self.waiting),
                                              self.limit_s)
            except Exception:
                self.failures += 1
                if pool is self._pool:
                    log.exception("game %s: the hard computer's thinking failed; it plays the normal move", game.id)
                    self.close()  # a worker that died or hangs is not used again
                else:  # another game's failure ended the pool with this move still queued in it
                    log.warning("game %s: the hard computer's worker was replaced; it plays the normal move", game.id)
            finally:
                self.waiting -= 1
                self.thinking.value -= 1
        try:
            return choose("normal" if level == "hard" else level, k, seed)
        except Exception:
            log.exception("game %s: the %s computer failed; it plays the careful move", game.id, level)
            self.failures += 1
            return None

    async def _think(self, pool: ProcessPoolExecutor, k: Knowledge, seed: int, budget_ms: float) -> Action | None:
        thought = await in_pool(pool, think, k, seed, budget_ms)
        if self.record is not None:
            self.record.append((round(budget_ms, 1), thought.iterations))
        return thought.action

    def workers(self) -> list[int]:
        """The pids of the thinking processes now running."""
        return pool_pids(self._pool)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        end_pool(pool)

