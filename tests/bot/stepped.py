"""Time for the budget and the outbox (their ``Ticker``) that moves on at once when they wait, and when a test
says so: a minute of Telegram's budgets takes no real time."""

from __future__ import annotations

import asyncio


class SteppedTicker:
    def __init__(self) -> None:
        self.t = 1000.0

    def time(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.t += seconds
        await asyncio.sleep(0)

    async def wake_or_sleep(self, wake: asyncio.Event, seconds: float) -> None:
        if not wake.is_set():
            self.t += seconds
        await asyncio.sleep(0)
