"""Each finished game's review (``durak.review``), made after the game and kept with it; each person who played
is told in his private chat: his accuracy, his labels, his costliest move, and a button to the Mini App's review.

The judging runs in processes of their own at idle priority, as the computers' thinking does
(``bot.game.computers``), and steps aside while the bot handles a press or a computer thinks: a review never
slows a game. One game at a time, oldest first, its moves judged in two such processes side by side. A review
is written once, with its messages, in one transaction (``Repo.save_review``): a stop or a crash before that
leaves the game unreviewed, and the bot reviews it at its next start (games finished in the last
``REVIEW_DAYS`` days). Only people's own choices are judged: a computer's seat, and a move made for a player (his
timer ran out, he was away, the rules left one move), are not.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import orjson

from bot.game.core import PageLinks
from bot.game.directory import Directory
from bot.game.puzzles import next_button, puzzle_count
from bot.game.slots import markup_json
from bot.game.thinking import judge_endgame, judge_one, start_reviewer, step_aside, to_judge
from bot.game.workers import end_pool, in_pool, pool_pids, spawn_pool
from bot.transport.outbox import Outbox
from bot.ui import fit, review_text
from bot.ui.i18n import Translator
from bot.ui.labels import lettered
from durak.actions import Action, action_to_json
from durak.review import Judged, puzzle, seat_review
from durak.review.game import ending_of
from durak.review.judge import DEALS_MAX
from durak.setup import lowest_trump_leads
from durak.state import State
from storage.computers import is_computer
from storage.models import Away, Game, Owed, Status
from storage.repo import CorruptRow, Repo
from storage.slots import review_slot

HISTORY_GAMES = 10  # games /history lists
REVIEW_LIMIT = 600.0  # seconds a game's review may take before its processes count as hung
RETRY_SECONDS = 30.0  # after a failure of the database, the reviews are tried again this soon
REVIEW_PROCESSES = min(2, os.cpu_count() or 1)  # a game's decisions are judged side by side, on idle CPU alone
REVIEW_DAYS = 7  # the unreviewed games that ended this many days ago at most are reviewed
log = logging.getLogger(__name__)


def kept(judged: list[Judged], people: frozenset[int], puzzles: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The review as it is kept (JSON): each seat's figures and each judged move with every move weighed there and
    its value (the Mini App's Retry shows them without judging again); ``puzzles``: the moves whose position is a
    puzzle (``durak.review.puzzle``)."""
    seats = {}
    for seat in sorted(people):
        r = seat_review(judged, seat)
        seats[str(seat)] = {"moves": r.moves, "accuracy": r.accuracy, "inaccuracies": r.inaccuracies,
                            "mistakes": r.mistakes, "blunders": r.blunders}
    return {"seats": seats, "moves": [
        {"n": j.decision.n, "seat": j.decision.seat, "cost": round(j.verdict.cost, 4), "label": j.verdict.label,
         "leading": not j.decision.knowledge.view.table, "taking": j.decision.knowledge.view.taking,
         "played": action_to_json(j.verdict.played), "best": action_to_json(j.verdict.best),
         "values": [[action_to_json(a), round(v, 4)] for a, v in j.verdict.values],
         **({"puzzle": True} if j.decision.n in puzzles else {})} for j in judged]}


def review_game(deal: State, moves: list[tuple[int, Action]], auto: frozenset[int], people: frozenset[int],
                deals_max: int = DEALS_MAX, seed: int = 0,
                between: Callable[[], object] | None = step_aside, lowest_leads: bool = False) -> dict[str, Any]:
    """A whole review in one process (the bot shares a game's decisions among its reviewing processes)."""
    decisions = to_judge(deal, moves, auto, people, lowest_leads)
    known = ending_of(decisions)
    verdicts = dict(zip(known, judge_endgame([decisions[i] for i in known], deals_max, seed, between), strict=True))
    judged = [Judged(d, v) for i, d in enumerate(decisions)
              if (v := verdicts[i] if i in verdicts else judge_one(d, deals_max, seed, between)) is not None]
    puzzles = frozenset(j.decision.n for j in judged if puzzle.candidate(j.verdict.values) and puzzle.stable(
        j.verdict, None if j.verdict.exact else judge_one(j.decision, deals_max, second_seed(seed), between,
                                                          j.verdict.playon)))
    return kept(judged, people, puzzles)


def second_seed(seed: int) -> int:
    """The seed a puzzle's position is judged again with: its answer must not hang on the first one's deals."""
    return -1 - seed


# ------------------------------------------------------------ in the bot

def people_of(game: Game) -> frozenset[int]:
    """The seats of the people at the table (computers are not reviewed)."""
    return frozenset(s.seat for s in game.seats if not is_computer(s.user))


class NotReviewable(Exception):
    """This game's review cannot be made (its record unreadable, its judging failed): it is not tried again
    before the next start. Any other failure (the database away) is tried again in a while."""


class Reviewer:
    """Reviews finished games one at a time in its idle processes, keeps each review and announces it.

    The games to review are read from the database (finished, recorded, no review yet, oldest first), never queued
    in memory: a backlog under load costs no memory, and a start finds the games a stop left unreviewed."""

    def __init__(self, repo: Repo, directory: Directory, outbox: Outbox, pressing: ctypes.c_int,
                 thinking: ctypes.c_int, deals_max: int = DEALS_MAX, idle_cpu: bool = True) -> None:
        self.repo = repo
        self.directory = directory
        self.outbox = outbox
        self.deals_max = deals_max
        self.links: PageLinks | None = None
        self._shared = (pressing, thinking, idle_cpu)
        self._wake = asyncio.Event()
        self._failed: set[int] = set()  # games whose review failed: tried again at the next start
        self._task: asyncio.Task[None] | None = None
        self._pool: ProcessPoolExecutor | None = None
        self.made = 0      # reviews kept by this process (the load test's figures)
        self.idle = asyncio.Event()  # set while no game waits for its review (tests wait on it)
        self.idle.set()
        self._stopped = False
        self._saving = asyncio.Lock()  # held while a review is written: a hand-over waits for it (:meth:`settle`)

    def soon(self) -> None:
        """A game finished (or the bot started): review what waits, after the reviews in hand."""
        if self._stopped:  # a game finished while the bot stops: the next start reviews it
            return
        self.idle.clear()
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        self._stopped = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._close_pool()  # a review half made is made again at the next start

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            game_id = None
            try:
                since = time.time() - REVIEW_DAYS * 86400
                waiting = [g for g in await self.repo.unreviewed(since, len(self._failed) + 1)
                           if g not in self._failed]
                if not waiting:
                    self.idle.set()
                    await self._wake.wait()
                    continue
                game_id = waiting[0]
                await self._review(game_id)
            except asyncio.CancelledError:
                raise
            except NotReviewable:
                log.exception("game %s could not be reviewed; the next start tries again", game_id)
                self._failed.add(game_id or 0)
            except Exception:  # the database away for a moment: the games wait in it
                log.exception("reviewing game %s failed; trying again in %.0f s", game_id, RETRY_SECONDS)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(RETRY_SECONDS):
                        await self._wake.wait()

    def workers(self) -> list[int]:
        """The pids of the reviewing processes now running."""
        return pool_pids(self._pool)

    def _close_pool(self) -> None:
        pool, self._pool = self._pool, None
        end_pool(pool)

    async def _review(self, game_id: int) -> None:
        try:
            game = await self.repo.game(game_id)
        except CorruptRow as e:
            raise NotReviewable(str(e)) from e
        if game is None or game.status is not Status.FINISHED or game.deal is None:
            raise NotReviewable(f"game {game_id} is no finished game with its moves")
        people = people_of(game)
        if not people:  # nobody to tell: kept empty, so that it is not looked at again
            await self.repo.save_review(game.id, orjson.dumps({"seats": {}, "moves": []}).decode(), [])
            return
        if self._pool is None:
            self._pool = spawn_pool(REVIEW_PROCESSES, start_reviewer, *self._shared)
        started, pool = time.monotonic(), self._pool
        try:
            async with asyncio.timeout(REVIEW_LIMIT):
                decisions = await in_pool(pool, to_judge, game.deal, list(game.moves), game.auto, people,
                                          lowest_trump_leads(game.rules, len(game.seats), game.previous))
                known = ending_of(decisions)  # the endgame where every card is known: one process, first
                rest = [i for i in range(len(decisions)) if i not in known]
                ending = asyncio.ensure_future(  # a task before the others: the pool is given it first
                    in_pool(pool, judge_endgame, [decisions[i] for i in known], self.deals_max, game.id))
                verdicts = asyncio.gather(*(in_pool(pool, judge_one, decisions[i], self.deals_max, game.id)
                                            for i in rest))
                exact, sampled = await asyncio.gather(ending, verdicts)
                found = dict(zip(known + rest, exact + sampled, strict=True))
                judged = [Judged(d, v) for i, d in enumerate(decisions) if (v := found[i]) is not None]
                again = [j for j in judged if puzzle.candidate(j.verdict.values) and not j.verdict.exact]
                seconds = await asyncio.gather(*(in_pool(pool, judge_one, j.decision, self.deals_max,  # its puzzles,
                                                         second_seed(game.id), step_aside, j.verdict.playon)
                                                 for j in again))  # judged again by the same play-on
        except Exception as e:  # a judging error, a worker that died or hung: its processes are ended
            self._close_pool()
            raise NotReviewable(f"game {game_id}: {e!r}") from e
        second = {j.decision.n: v for j, v in zip(again, seconds, strict=True)}
        puzzles = frozenset(j.decision.n for j in judged if puzzle.stable(j.verdict, second.get(j.decision.n)))
        review = kept(judged, people, puzzles)
        owed = await self._announcements(game, review)
        async with self._saving:
            if not self.repo.owns(game.chat_id):  # handed over while it was judged: its new lead reviews it
                log.info("game %s is reviewed where its chat is led now", game.id)
                return
            if await self.repo.save_review(game.id, orjson.dumps(review).decode(), owed):
                self.made += 1
                self.outbox.kick(*{o.chat_id for o in owed}, lazy={o.chat_id for o in owed})
                log.info("game %s reviewed in %.1f s", game.id, time.monotonic() - started)

    async def settle(self) -> None:
        """Return once no review is being written: one begun before this process let its chat go is in the
        database by then (the chat's next lead delivers its messages), and one after finds the chat not led here."""
        async with self._saving:
            pass

    def review_link(self, game_id: int) -> str:
        assert self.links is not None
        return self.links.hand(game_id) + "&review=1"

    async def history(self, tr: Translator, user_id: int) -> tuple[str, list[list[dict[str, Any]]] | None]:
        """/history in a private chat: his last games with their reviews, and a button to each review kept."""
        entries = await self.repo.history(user_id, HISTORY_GAMES)
        buttons = [{"text": f"📊 #{e.game_id}", "web_app": {"url": self.review_link(e.game_id)}}
                   for e in entries if e.review is not None and self.links is not None]
        rows = fit.rows(buttons, lambda b: str(b["text"]), most=5)
        return review_text.history(tr, entries, reviewing=self.deals_max > 0), rows or None

    async def _announcements(self, game: Game, review: dict[str, Any]) -> list[Owed]:
        """Each person's summary in his private chat, with the button to his review on the Mini App."""
        owed = []
        for s in game.seats:
            if is_computer(s.user) or s.away is Away.UNREACHABLE:
                continue
            user = await self.directory.user(s.user.id) or s.user
            tr = self.directory.user_tr(user, None)
            text = lettered(review_text.summary(tr, game, review, s.seat), tr)
            rows: list[list[dict[str, Any]]] = []
            if self.links is not None:
                rows.append([{"text": tr.gettext("📊 Open the review"), "web_app": {"url": self.review_link(game.id)}}])
            if puzzle_count(review, s.seat):  # a position of this game where one move was clearly best
                rows.append([{**next_button(tr), "text": tr.gettext("🧩 Solve a puzzle from this game")}])
            owed.append(Owed(s.user.id, review_slot(s.seat), text, markup_json(rows) if rows else None))
        return owed
