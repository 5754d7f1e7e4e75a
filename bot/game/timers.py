"""Turn deadlines and lobby expiry, by one periodic sweep over the open games (and the seasons' ends).

Deadlines live in the games (and in the database), not in timers: every second the sweep looks for a
turn or lobby whose time is up, refreshes the messages of a turn about to end, pings a seat that
has not acted within the ping delay, and acts through
the service under the game's lock. So nothing is held for a game between two moves, a restart
needs nothing re-armed, and a deadline whose work failed once (a full disk) is simply found
again by the next sweep.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from bot.game import computers, slots
from bot.game.core import Core
from bot.game.decisions import Closing
from bot.game.turns import computer_action, timeout_action
from bot.ops.health import Heartbeat
from bot.ui.render import WARN_SECONDS
from durak.engine import awaited
from storage.models import Game, Status

log = logging.getLogger(__name__)
SWEEP_SECONDS = 1.0
UNSEEN_LIMIT = 300.0  # the longest a turn waits past its deadline for the awaited player's hand to arrive


async def logged(game_id: int, work: Awaitable[None]) -> None:
    """A timed job: a failure is logged, and the next sweep tries an overdue deadline again."""
    try:
        await work
    except Exception:
        log.exception("game %s: timed work failed; the next sweep tries again", game_id)


class Timers:
    def __init__(self, service: Core) -> None:
        self.service = service
        self.heartbeat = Heartbeat(None)  # the health file, rewritten by the sweep

    def start(self) -> None:
        clock = self.service.clock
        clock.call_at(clock.now() + SWEEP_SECONDS, self.sweep)

    async def sweep(self) -> None:
        service = self.service
        self.start()  # the next sweep first: whatever happens below, sweeping goes on
        self.heartbeat.beat()
        now = service.clock.now()
        for game in list(service.store.games.values()):
            if game.status is Status.LOBBY and now >= game.updated_at + service.lobby_timeout:
                await logged(game.id, self.expire_lobby(game.id))
            elif game.state is not None:
                deadline = self.turn_deadline(game)
                if deadline is not None and now >= deadline:
                    await logged(game.id, self.turn_timeout(game.id, game.state.moves))
                elif deadline is not None and now >= deadline - WARN_SECONDS and game.turn_timeout > 2 * WARN_SECONDS:
                    await logged(game.id, self._warn(game.id, game.state.moves))
                else:
                    await self._ping(game, now)
                if game.status is Status.PLAYING and now >= game.updated_at + self.service.computer_pause + 1:
                    self.computer_soon(game, now)  # one a restart or a failed attempt left waiting
        await self.service.chores(now)

    def computer_soon(self, game: Game, now: float | None = None) -> None:
        """If the game waits for a computer seat, play its move after the pause, or at ``now`` (the sweep's
        time: the pause is long over); one move at a time per game."""
        waiting = computers.waiting_computer(game)
        thinker = self.service.thinker
        if waiting is None or game.id in thinker.busy:
            return
        thinker.busy.add(game.id)
        clock = self.service.clock
        start = now if now is not None else clock.now() + self.service.computer_pause
        clock.call_at(start, lambda: self._computer_turn(game, *waiting))

    async def _computer_turn(self, game: Game, seat: int, level: str) -> None:
        service = self.service
        assert game.state is not None
        moves = game.state.moves
        try:
            action = await service.thinker.move(game, seat, level)

            async def work(fresh: Game) -> None:
                if fresh.status is not Status.PLAYING or fresh.state is None or fresh.state.moves != moves:
                    return  # someone moved meanwhile: the computer looks again at the new position
                await service.advance(fresh, [(seat, computer_action(fresh.state, seat, action), False)])

            await service.with_game(game.id, work)
        except Exception:
            log.exception("game %s: the computer's move failed; the sweep tries again", game.id)
            return
        finally:
            service.thinker.busy.discard(game.id)
        fresh = service.store.games.get(game.id)  # its write could not schedule the next: this one was busy
        if fresh is not None and fresh.status is Status.PLAYING:
            self.computer_soon(fresh)

    async def _ping(self, game: Game, now: float) -> None:
        """Write the ping of a seat that has not acted within the delay (see ``slots.ping_due``)."""
        service = self.service
        if not slots.ping_pending(game, service.store.ui_of(game.id), service.directory.default_language, now,
                                  service.ping_delay):
            return

        async def work(fresh: Game) -> None:  # under the lock: a move made meanwhile is not overwritten
            await service.refresh(fresh)

        await logged(game.id, service.with_game(game.id, work))

    def turn_deadline(self, game: Game) -> float | None:
        """When the turn ends: ``turn_timeout`` seconds after every awaited player was shown the position,
        never before the stored deadline (which a restart keeps). While an awaited player's hand is still
        on its way (the bot's own backlog, Telegram's budget, a slow network) the turn does not end: no
        one is timed out for a move he could not see; a chat Telegram keeps failing holds the game up to
        UNSEEN_LIMIT seconds past the stored deadline."""
        if game.deadline is None or game.state is None:
            return None
        ui = self.service.store.ui_of(game.id)
        deadline = game.deadline
        for seat in awaited(game.state):
            shown = ui.shown_at.get(seat)
            if shown is not None:
                deadline = max(deadline, shown + game.turn_timeout)
            elif seat in ui.unseen and self.service.outbox.owes(game.seats[seat].user.id):
                return game.deadline + UNSEEN_LIMIT
        return deadline

    async def _warn(self, game_id: int, moves: int) -> None:
        """Show the last seconds of a turn, once per move. Under the game's lock, as stored now: the sweep's copy
        may be older than a move made while it awaited another game's work (its messages would go back)."""
        service = self.service

        async def work(game: Game) -> None:
            ui = service.store.ui_of(game.id)
            if game.state is not None and game.state.moves == moves and ui.warned != moves:
                ui.warned = moves
                await service.refresh(game)

        await service.with_game(game_id, work)

    async def turn_timeout(self, game_id: int, moves: int) -> None:
        """The awaited players' time ran out: each makes a careful move. A late or repeated call does nothing."""
        service = self.service

        async def work(game: Game) -> None:
            state = game.state
            if state is None or state.moves != moves or game.deadline is None:
                return
            deadline = self.turn_deadline(game)
            if deadline is None or service.clock.now() < deadline - 0.001:
                return
            forced = [(seat, action, True) for seat in awaited(state)
                      if (action := timeout_action(state, seat)) is not None]
            await service.advance(game, forced)

        await service.with_game(game_id, work)

    async def expire_lobby(self, game_id: int) -> None:
        service = self.service

        async def work(game: Game) -> None:
            if game.status is not Status.LOBBY:
                return
            if service.clock.now() < game.updated_at + service.lobby_timeout - 0.001:
                return  # touched since
            await service.close(game, Status.CANCELLED, Closing.EXPIRED)

        await service.with_game(game_id, work)
