"""The bot's clock stops with the bot: a stopped bot's sweep went on every second against its closed database
wherever the event loop outlived it (the tests' bots, on one loop per worker: thousands of «timed work failed»)."""

from __future__ import annotations

import asyncio

from bot.game.clock import RealClock


async def test_a_closed_clock_starts_no_timer_and_waits_for_the_one_running() -> None:
    clock, ran, running = RealClock(), [], asyncio.Event()

    async def slow() -> None:
        running.set()
        await asyncio.sleep(0.05)
        ran.append("slow")

    async def late() -> None:
        ran.append("late")

    now = clock.now()
    clock.call_at(now, slow)
    clock.call_at(now + 0.05, late)
    await running.wait()
    await clock.close()
    assert ran == ["slow"], "the timer running when it closed ended first"
    clock.call_at(clock.now(), late)  # after the close: nothing
    passed = asyncio.Event()
    asyncio.get_running_loop().call_later(0.1, passed.set)  # after both were due: the loop runs timers in order
    await passed.wait()
    assert ran == ["slow"]


async def test_a_timer_stuck_at_the_close_is_cancelled_after_the_wait() -> None:
    """A timer's work stuck on a database that went away (a process that lost its connection stops) must not hold
    the stop for ever."""
    clock, started, ended = RealClock(), asyncio.Event(), []

    async def stuck() -> None:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            ended.append("cancelled")
            raise

    clock.call_at(clock.now(), stuck)
    await started.wait()
    await clock.close(wait=0.05)
    assert ended == ["cancelled"]
