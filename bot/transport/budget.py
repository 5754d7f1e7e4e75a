"""The bot's overall Telegram budget as the outbox spends it: evenly spaced slots, shared fairly among chats.

Telegram allows a bot about 30 calls a second. When more is owed than that (a few hundred busy
tables), every slot is a choice of which chat to call, and the choice is what players feel:

- the hand of a player who must act goes first (and, while the budget is not ``short``, the mover's own
  hand, to see his card leave it): the game waits for him, and every other message follows from his moves;
- then the group's table, then the hands of players the game is not waiting for;
- but no message may show an old position for ever: one whose first unsent change is older than its
  ``OVERDUE`` bound goes ahead of everything, the longest overdue first. So under any load each table
  and each hand is refreshed at a steady pace (about ``OVERDUE`` plus the queue's own wait), and the
  players who must act share what that leaves;
- within a kind, the chat that has waited longest goes first (round-robin: no chat starves): a table or a
  waiting hand counted from its oldest unsent change, the hand of a player who must act from when his turn
  began (turns are served in the order they began, whatever his hand owed before: the fairest order for the
  players the games wait for, and the one that keeps the longest of their waits shortest).

A chat waits in the queue with its newest content unread: the content is read when its slot comes,
so the moves made meanwhile fold into one call (fold by need: with slots to spare nothing waits).
PTB's own limiter stays behind this gate for the calls that do not go through the outbox (replies to
commands).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections import deque
from dataclasses import dataclass
from typing import Protocol

ACTING, TABLE, WAITING = 0, 1, 2
# seconds a message of each kind may show an old position before it goes ahead of the players who must act:
# so that a refresh of each table and hand costs a fixed share of the budget (200 busy tables every 40 s: 5
# calls a second of the 27) and the rest goes to the players the games wait for. 40 s, not 25: more moves and
# the player who must act served sooner, while every table is still refreshed well within a minute (the
# figures: docs/performance.md, "How many busy games one bot token carries")
OVERDUE = {ACTING: math.inf, TABLE: 40.0, WAITING: 40.0}
# the outbox's share of the bot's overall budget: the rest is for replies to commands, which only PTB's limiter
# spaces; and PTB's limiter (aiolimiter, one call per slot) lets through about 29.3 a second when 30 are asked
# for: fed 30 a second by the outbox, a queue grew inside it without bound, first come first served, and every
# call, the hand of the player who must act included, waited in it (13 s at 200 games)
OUTBOX_SHARE = 0.9
SHORT_WINDOW = 2.0  # seconds over which the budget counts as short when nearly every slot was taken
SHORT_SHARE = 0.8


@dataclass
class _Waiter:
    kind: int
    since: float  # loop time of the chat's oldest change not yet sent (of a player who must act: his turn's start)
    due: float    # when it goes ahead of everything (a promotion keeps the bound of what it was owed before)
    future: asyncio.Future[None]


class Ticker(Protocol):
    """The budget's and the outbox's time: the event loop's, or a test's that moves on at once when they wait."""

    def time(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...

    async def wake_or_sleep(self, wake: asyncio.Event, seconds: float) -> None:
        """Until ``wake`` is set or ``seconds`` have passed."""


class LoopTicker:
    def time(self) -> float:
        return asyncio.get_running_loop().time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def wake_or_sleep(self, wake: asyncio.Event, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):  # not wait_for: on 3.11 it may lose a cancellation
                await wake.wait()


class Budget:
    def __init__(self, per_second: float, overdue: dict[int, float] | None = None,
                 ticker: Ticker | None = None) -> None:
        self.ticker = ticker or LoopTicker()
        self.spacing = 1 / per_second
        self.overdue = overdue or OVERDUE
        self._free_at = 0.0  # loop time of the next free slot
        self._waiting: dict[int, _Waiter] = {}  # chat -> its worker's wait (one worker per chat)
        self._dispatcher: asyncio.Task[None] | None = None
        self._taken: deque[float] = deque()  # when the slots of the last SHORT_WINDOW seconds were given

    @property
    def queued(self) -> int:
        """Chats waiting for a slot now."""
        return len(self._waiting)

    @property
    def short(self) -> bool:
        """More is owed than the budget carries: chats wait for slots, or nearly every slot of the last
        seconds was taken (a queue that empties between two slots is still a full budget)."""
        if self._waiting:
            return True
        now = self.ticker.time()
        while self._taken and self._taken[0] < now - SHORT_WINDOW:
            self._taken.popleft()
        return len(self._taken) * self.spacing >= SHORT_SHARE * SHORT_WINDOW

    def _give(self, now: float) -> None:
        self._free_at = now + self.spacing
        self._taken.append(now)
        if len(self._taken) > 2 * SHORT_WINDOW / self.spacing:
            self._taken.popleft()

    async def take(self, chat_id: int, kind: int, since: float) -> None:
        """Wait for a slot for ``chat_id``, whose oldest unsent change of ``kind`` dates from ``since`` (for
        ``ACTING``: when the player's turn began)."""
        if not self._waiting and self.ticker.time() >= self._free_at:
            self._give(self.ticker.time())
            return
        waiter = _Waiter(kind, since, since + self.overdue[kind], asyncio.get_running_loop().create_future())
        self._waiting[chat_id] = waiter
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.create_task(self._dispatch(), name="outbox-budget")
        try:
            await waiter.future
        finally:
            if self._waiting.get(chat_id) is waiter:  # cancelled while waiting: its place goes
                del self._waiting[chat_id]

    def promote(self, chat_id: int, kind: int, since: float) -> None:
        """A waiting chat is now owed something more urgent (its player must act, from ``since`` on)."""
        waiter = self._waiting.get(chat_id)
        if waiter is not None and kind < waiter.kind:
            waiter.kind, waiter.since = kind, since
            waiter.due = min(waiter.due, since + self.overdue[kind])

    def _key(self, waiter: _Waiter, now: float) -> tuple[float, float, float]:
        due = waiter.due
        return (0, due, 0) if now >= due else (1, waiter.kind, waiter.since)

    async def close(self) -> None:
        """Stop handing out slots (the bot stops): nobody is left waiting on a sleeping dispatcher."""
        if self._dispatcher is not None:
            self._dispatcher.cancel()
            await asyncio.gather(self._dispatcher, return_exceptions=True)

    async def _dispatch(self) -> None:
        while self._waiting:
            wait = self._free_at - self.ticker.time()
            if wait > 0:
                await self.ticker.sleep(wait)
                if not self._waiting:
                    break
            now = self.ticker.time()
            chat_id = min(self._waiting, key=lambda c: self._key(self._waiting[c], now))
            waiter = self._waiting.pop(chat_id)
            if waiter.future.done():  # its worker was cancelled meanwhile: the slot goes to the next
                continue
            self._give(now)
            waiter.future.set_result(None)
