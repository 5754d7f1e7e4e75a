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
