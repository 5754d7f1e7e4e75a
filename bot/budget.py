"""The bot's overall Telegram budget as the outbox spends it: evenly spaced, the most urgent first.

Telegram allows a bot about 30 calls a second. When more is owed than that, what waits should be
the group's table and the hands of players the game is not waiting for, never the hand of the
player who must act. PTB's limiter serves its waiters in arrival order; this gate hands out the
same evenly spaced slots by priority (0 first), then arrival. PTB's limiter stays behind it for
the calls that do not go through the outbox (replies to commands).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools

URGENT, LATER = 0, 1


class Budget:
    def __init__(self, per_second: float) -> None:
        self.spacing = 1 / per_second
        self._free_at = 0.0  # loop time of the next free slot
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._dispatcher: asyncio.Task[None] | None = None

    async def take(self, priority: int) -> None:
        """Wait for a slot; with others waiting, the lower ``priority`` goes first."""
        loop = asyncio.get_running_loop()
        if not self._waiting and loop.time() >= self._free_at:
            self._free_at = loop.time() + self.spacing
            return
        future: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.create_task(self._dispatch(), name="outbox-budget")
        await future

    async def close(self) -> None:
        """Stop handing out slots (the bot stops): nobody is left waiting on a sleeping dispatcher."""
        if self._dispatcher is not None:
            self._dispatcher.cancel()
            await asyncio.gather(self._dispatcher, return_exceptions=True)

    async def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting:
            wait = self._free_at - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            _, _, future = heapq.heappop(self._waiting)
            if future.done():  # its worker was cancelled meanwhile: the slot goes to the next
                continue
            self._free_at = loop.time() + self.spacing
            future.set_result(None)
