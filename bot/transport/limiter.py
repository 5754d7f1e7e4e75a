"""PTB's rate limiter with an overall budget that can be shared: a process that leads a part of the games
(``bot.game.shares``) spends that part of the token's calls a second, its outbox's and its direct answers' alike, so
that the processes together stay within Telegram's ~30 a second."""

from __future__ import annotations

from aiolimiter import AsyncLimiter
from telegram.ext import AIORateLimiter


class SharedLimiter(AIORateLimiter):
    """One call per slot of ``1 / per_second`` seconds overall (never a burst), one per slot of
    ``group_spacing`` seconds in a group, ``max_retries`` retries after a 429."""

    def __init__(self, per_second: float, group_spacing: float, max_retries: int) -> None:
        super().__init__(overall_max_rate=1, overall_time_period=1 / per_second, group_max_rate=1,
                         group_time_period=group_spacing, max_retries=max_retries)
        self.per_second = per_second

    def share(self, part: float) -> None:
        """Spend ``part`` (0–1] of the overall budget from now on (the calls already waiting keep their slot)."""
        # PTB keeps the overall limiter in this attribute (pinned below 23 in pyproject.toml): a new one with the
        # new spacing replaces it; tests/bot/transport/test_limiter.py checks the calls it lets through
        self._base_limiter = AsyncLimiter(max_rate=1, time_period=1 / (self.per_second * part))
