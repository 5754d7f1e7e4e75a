"""Ratings and their history, the finished games' results as the tables count them, and the panels (/top, /stats
messages whose buttons page them)."""

from __future__ import annotations

from collections.abc import Sequence

from storage.database import SqlRow
from storage.models import LastGame, PlayedGame
from storage.rows import Rows


class StatRows(Rows):
    async def ratings(self, scope: int, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.db.all(f"SELECT user_id, mu, sigma FROM ratings WHERE scope = ? AND user_id IN ({marks})",
                                 (scope, *user_ids))
        return {r["user_id"]: (r["mu"], r["sigma"]) for r in rows}

    async def all_ratings(self, scope: int) -> dict[int, tuple[float, float]]:
        rows = await self.db.all("SELECT user_id, mu, sigma FROM ratings WHERE scope = ?", (scope,))
        return {r["user_id"]: (r["mu"], r["sigma"]) for r in rows}

    async def rating_history(self, scope: int, user_id: int, last: int) -> list[float]:
        rows: list[SqlRow] = await self.db.all(
            "SELECT h.ordinal FROM rating_history h JOIN games g ON g.id = h.game_id WHERE h.scope = ? AND "
            "h.user_id = ? ORDER BY g.finished_at DESC, g.id DESC LIMIT ?", (scope, user_id, last))
        return [r["ordinal"] for r in reversed(rows)]

    async def last_game(self, chat_id: int, thread_id: int) -> LastGame | None:
        """The last game finished at a table (a chat's topic), with who sat at it."""
        row = await self.db.one(
            "SELECT id, series, goal, finished_at FROM games WHERE chat_id = ? AND thread_id = ? "
            "AND status = 'finished' ORDER BY finished_at DESC, id DESC LIMIT 1", (chat_id, thread_id))
        if row is None:
            return None
        seated = await self.db.all("SELECT user_id FROM game_results WHERE game_id = ?", (row["id"],))
        return LastGame(int(row["id"]), row["series"], str(row["goal"]), float(row["finished_at"] or 0.0),
                        frozenset(int(r["user_id"]) for r in seated))

    async def played(self, chat_id: int | None = None, user_id: int | None = None, preset: str | None = None,
                     series: int | None = None, between: tuple[float, float] | None = None
                     ) -> list[tuple[int, PlayedGame]]:
        """(user id, game) for every seat of finished games, in a chat or everywhere, of one game (preset) or all,
        of one evening (``series``), finished ``between`` two moments (a season: [start, end)), oldest first."""
        where: list[str] = ["g.status = 'finished'"]
        params: list[int | str | float] = []
        if between is not None:
            where.append("g.finished_at >= ? AND g.finished_at < ?")
            params += between
        if series is not None:
            where.append("g.series = ?")
            params.append(series)
        if preset is not None:
            where.append(f"{self.db.json_text('g.rules', 'preset')} = ?")
            params.append(preset)
        if chat_id is not None:
            where.append("g.chat_id = ?")
            params.append(chat_id)
        if user_id is not None:
            where.append("r.user_id = ?")
            params.append(user_id)
        rows = await self.db.all(
            "SELECT r.*, g.chat_id, g.finished_at, (SELECT COUNT(*) FROM game_results x WHERE x.game_id = r.game_id) "
            "AS players, (SELECT MAX(place) FROM game_results x WHERE x.game_id = r.game_id) AS last_place, "
            f"(SELECT {self.db.joined('x.user_id')} FROM game_results x WHERE x.game_id = r.game_id) AS seated "
            f"FROM game_results r JOIN games g ON g.id = r.game_id WHERE {' AND '.join(where)} "
            "ORDER BY g.finished_at, g.id", params)
        return [(r["user_id"], _played(r)) for r in rows]

    async def finished_ids(self) -> list[int]:
        """Every finished game, oldest first."""
        rows = await self.db.all("SELECT id FROM games WHERE status = 'finished' ORDER BY finished_at, id")
        return [int(r["id"]) for r in rows]

    async def presets_played(self, user_id: int) -> set[str]:
        """The games (presets) of his finished games."""
        preset = self.db.json_text("g.rules", "preset")
        rows = await self.db.all(f"SELECT DISTINCT {preset} AS preset FROM game_results r JOIN games g ON "
                                 "g.id = r.game_id WHERE r.user_id = ? AND g.status = 'finished'", (user_id,))
        return {str(r["preset"]) for r in rows if r["preset"]}

    async def add_panel(self, chat_id: int, message_id: int, kind: str) -> None:
        async with self.db.write() as conn:
            await conn.execute("INSERT INTO panels (chat_id, message_id, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                               (chat_id, message_id, kind))

    async def is_panel(self, chat_id: int, message_id: int, kind: str) -> bool:
        return await self.db.one("SELECT 1 FROM panels WHERE chat_id = ? AND message_id = ? AND kind = ?",
                                 (chat_id, message_id, kind)) is not None


def _played(r: SqlRow) -> PlayedGame:
    gave = bool(r["pogony"]) and r["place"] is not None and r["place"] == r["last_place"]
    return PlayedGame(r["game_id"], r["chat_id"], r["finished_at"] or 0.0, r["players"], r["place"], r["rank"],
                      bool(r["loser"]), bool(r["draw"]), bool(r["pogony"]), bool(r["left_game"]), r["penalty"], gave,
                      tuple(int(u) for u in str(r["seated"] or "").split(",") if u))
