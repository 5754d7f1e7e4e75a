"""Time for the service: ``now()`` and ``call_at()``. Tests use a clock they move by hand.

Deadlines are absolute (``now()`` seconds) and stored with the game, so a restarted bot's sweep
(:mod:`bot.game.timers`) finds each one with the time it had left; nothing is re-armed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger(__name__)
Work = Callable[[], Awaitable[None]]
CLOSE_WAIT = 15.0  # seconds a stop waits for the timed work running then (a hard move thinks up to ~10 s)


class Clock(Protocol):
    def now(self) -> float: ...

    def call_at(self, when: float, work: Work) -> None: ...

    async def close(self, wait: float = ...) -> None:
        """The bot stops: no timer fires any more (what one was to do, the next start's sweep finds)."""


class RealClock:
    """Wall-clock time; timers on the running event loop, until the bot stops (``close``)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        self._handles: set[asyncio.TimerHandle] = set()
        self._closed = False

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, work: Work) -> None:
        if self._closed:
            return

        def start() -> None:
            self._handles.discard(handle)
            self._start(work)

        handle = asyncio.get_running_loop().call_later(max(0.0, when - self.now()), start)
        self._handles.add(handle)

    def _start(self, work: Work) -> None:
        task = asyncio.create_task(_guarded(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self, wait: float = CLOSE_WAIT) -> None:
        """No timer starts any more; the work of those running now ends first, or is cancelled after ``wait``
        seconds (one stuck on a database that went away must not hold the stop). A stopped bot's sweep ran on
        every second against its closed database where the event loop outlives it (the tests' bots)."""
        self._closed = True
        for handle in self._handles:
            handle.cancel()
        self._handles.clear()
        if self._tasks:
            _, stuck = await asyncio.wait(set(self._tasks), timeout=wait)
            for task in stuck:
                task.cancel()
            await asyncio.gather(*stuck, return_exceptions=True)


async def _guarded(work: Work) -> None:
    try:
        await work()
    except Exception:
        log.exception("a timer failed")
