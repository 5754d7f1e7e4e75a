"""A clock the tests move by hand: timers fire when the test advances time, never on their own."""

from __future__ import annotations

import heapq
import itertools

from bot.game.clock import Work


class ManualClock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start
        self._pending: list[tuple[float, int, Work]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.t

    def call_at(self, when: float, work: Work) -> None:
        heapq.heappush(self._pending, (when, next(self._order), work))

    async def advance(self, seconds: float) -> None:
        """Move time forward, running every timer that falls due, in order, to completion."""
        target = self.t + seconds
        while self._pending and self._pending[0][0] <= target:
            when, _, work = heapq.heappop(self._pending)
            self.t = max(self.t, when)
            await work()
        self.t = target

    def forget_timers(self) -> None:
        """A killed process's timers die with it."""
        self._pending.clear()

    @property
    def pending(self) -> int:
        return len(self._pending)

    async def close(self, wait: float = 0.0) -> None:
        """The bot stopped: its timers go (the clock goes on, for the next start)."""
        self.forget_timers()
