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


class Clock(Protocol):
    def now(self) -> float: ...

    def call_at(self, when: float, work: Work) -> None: ...


class RealClock:
    """Wall-clock time; timers on the running event loop (they die with the process, by design)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, work: Work) -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(max(0.0, when - self.now()), self._start, work)

    def _start(self, work: Work) -> None:
        task = asyncio.create_task(_guarded(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def _guarded(work: Work) -> None:
    try:
        await work()
    except Exception:
        log.exception("a timer failed")
