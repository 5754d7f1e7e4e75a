"""The bot's worker processes (a hard computer's thinking, the reviews): pools whose processes end with the bot
however it ends, and that stop without a word.

Two faults an operator met with ``ProcessPoolExecutor`` used as it comes:

- a bot killed (``kill -9``, the OOM killer) left its workers and their resource tracker running for good, and a
  crash loop piled them up: each worker now has the kernel end it with its bot (``bot.game.thinking.die_with``,
  given the bot's pid here); the resource tracker ends by itself once the bot and the workers are gone;
- a stop while a review ran printed a traceback after "Application.stop() complete": CPython 3.11's
  ``terminate_broken`` fails every pending future with the broken pool, one already cancelled included
  (``InvalidStateError``). A caller called off here never cancels the pool's future, and a pool is ended without
  cancelling its futures: each fails once, and nobody waits for it any more.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def spawn_pool(processes: int, initializer: Callable[..., None], *initargs: Any) -> ProcessPoolExecutor:
    """A pool of ``processes`` spawned, not forked, processes (the bot's threads, SQLite's and HTTP's, stay out of
    them); ``initializer`` gets the bot's pid first, then ``initargs``. They are started from the event loop's
    thread: the kernel's parent-death signal follows the thread that started a process, and that thread lives as
    long as the bot."""
    return ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"),
                               initializer=initializer, initargs=(os.getpid(), *initargs))


async def in_pool(pool: ProcessPoolExecutor, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in one of the pool's processes. Cancelled, the caller leaves the work to finish or fail in the
    pool (see the module's text); its outcome is then read and dropped."""
    future = asyncio.wrap_future(pool.submit(fn, *args))
    future.add_done_callback(_read)  # the shield drops its own reading when the caller is called off
    return await asyncio.shield(future)


def _read(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # read: asyncio logs an outcome nobody read


def pool_pids(pool: ProcessPoolExecutor | None) -> list[int]:
    """The pids of a pool's processes now running."""
    processes = getattr(pool, "_processes", None) or {}
    return [p.pid for p in processes.values() if p.pid is not None]


def end_pool(pool: ProcessPoolExecutor | None) -> None:
    """Stop a pool at once, a worker that hangs included: the work in it fails with the broken pool."""
    if pool is None:
        return
    # ProcessPoolExecutor has no public way to stop a worker that hangs: end its processes
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()
    pool.shutdown(wait=False)  # not cancel_futures: a future cancelled here would be failed a second time
