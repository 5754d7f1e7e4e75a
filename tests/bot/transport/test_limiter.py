"""PTB's rate limiter with a shared overall budget (bot/transport/limiter.py): a process leading a quarter of the
partitions lets a quarter of the token's calls through."""

from __future__ import annotations

import asyncio
import time

from bot.transport.limiter import SharedLimiter


async def calls_take(limiter: SharedLimiter, calls: int) -> float:
    """Seconds for ``calls`` messages to private chats, sent at once, to get through."""
    async def call() -> bool:
        return True

    started = time.monotonic()
    await asyncio.gather(*(limiter.process_request(call, (), {}, "sendMessage", {"chat_id": 100 + n}, None)
                           for n in range(calls)))
    return time.monotonic() - started


async def test_a_share_of_the_overall_budget_spaces_the_calls_by_that_share() -> None:
    limiter = SharedLimiter(per_second=100, group_spacing=0.01, max_retries=0)
    limiter.share(0.25)  # 25 a second, where 10 calls would take 90 ms
    await calls_take(limiter, 1)
    quarter = await calls_take(limiter, 10)
    assert quarter >= 9 * 0.04 * 0.9, quarter  # nine spacings of 40 ms at least (a slow machine only adds)
