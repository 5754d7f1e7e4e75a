"""Closing seasons: when a season ends, each chat that played in it gets its final table, once.

The sweep asks every ``CHECK_SECONDS`` whether a season just ended (of each length a chat may choose) holds games
of a chat this process leads and has not been closed; its table and its message are written in one transaction
that only the first closer wins (``Repo.close_season``), so a restart or a second process never posts it twice,
and a crash before the commit leaves it for the next look. A season of games with computers only closes quietly.
"""

from __future__ import annotations

import logging

from bot.game.core import Core
from bot.stats import season_text
from bot.stats.seasons import Length, Standing, previous
from bot.stats.service import StatsService
from storage.models import Owed, SeasonPlace
from storage.repo import Repo
from storage.slots import note_slot

log = logging.getLogger(__name__)
CHECK_SECONDS = 60.0


class SeasonCloser:
    def __init__(self, core: Core, repo: Repo) -> None:
        self.core = core
        self.repo = repo
        self.stats = StatsService(repo, core.directory)
        self.checked = 0.0

    async def close_due(self, now: float) -> None:
        """Close every season that ended before ``now`` in the chats led here (at most once a ``CHECK_SECONDS``)."""
        if now < self.checked + CHECK_SECONDS:
            return
        self.checked = now
        try:
            await self._close_due(now)
        except Exception:  # a failed look (a full disk) is only tried again: the sweep must go on
            log.exception("closing the seasons failed; the next look tries again")

    async def _close_due(self, now: float) -> None:
        for length in Length:
            period = previous(length, now)
            for chat_id in await self.repo.seasons_to_close(length.value, period.key, period.start, period.end):
                if self.repo.owns(chat_id):
                    await self._close(chat_id, period.key, *await self.stats.season_table(chat_id, period))

    async def _close(self, chat_id: int, key: str, rows: list[Standing], names: dict[int, str]) -> None:
        places = [SeasonPlace(chat_id, key, s.user_id, place, s.games, s.points, s.firsts, s.duraks)
                  for place, s in enumerate(rows, 1)]
        owed = []
        if rows:
            tr = await self.core.directory.chat_tr(chat_id)
            owed.append(Owed(chat_id, note_slot("season", key), season_text.final(tr, key, rows, names)))
        gold = [(rows[0].user_id, "season_gold")] if rows else []
        if await self.repo.close_season(chat_id, key, places, owed, gold) and owed:
            log.info("chat %s: season %s closed", chat_id, key)
            self.core.outbox.kick(chat_id)
