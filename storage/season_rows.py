"""Seasons: the chats with a season to close, closing one (its final table and its message, once), and the closed
seasons' tables (/seasons, a player's medals)."""

from __future__ import annotations

from collections.abc import Sequence

from storage.database import SqlConnection
from storage.models import OutboxRow, Owed, SeasonPlace
from storage.outbox_rows import OutboxRows, write_owed


class SeasonRows(OutboxRows):
    async def seasons_to_close(self, length: str, season: str, start: float, end: float) -> list[int]:
        """The chats whose seasons run ``length`` with games finished in ``season`` ([start, end)), not closed yet."""
        rows = await self.db.all(
            "SELECT DISTINCT g.chat_id FROM games g LEFT JOIN chats c ON c.id = g.chat_id "
            "WHERE g.status = 'finished' AND g.finished_at >= ? AND g.finished_at < ? "
            "AND COALESCE(c.season, 'month') = ? AND NOT EXISTS "
            "(SELECT 1 FROM seasons s WHERE s.chat_id = g.chat_id AND s.season = ?)", (start, end, length, season))
        return [int(r["chat_id"]) for r in rows]

    async def close_season(self, chat_id: int, season: str, places: Sequence[SeasonPlace],
                           owed: Sequence[Owed], badges: Sequence[tuple[int, str]] = ()) -> bool:
        """Keep a season's final table, owe its message and award its ``badges`` (user, badge), in one transaction;
        False (nothing written) when it was closed already, here or by another process."""
        now = self.now()

        def work(conn: SqlConnection) -> list[OutboxRow] | None:
            if conn.execute("INSERT INTO seasons (chat_id, season, closed_at) VALUES (?, ?, ?) "
                            "ON CONFLICT (chat_id, season) DO NOTHING", (chat_id, season, now)).rowcount != 1:
                return None
            conn.executemany(
                "INSERT INTO season_places (chat_id, season, user_id, place, games, points, firsts, duraks) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(p.chat_id, p.season, p.user_id, p.place, p.games, p.points, p.firsts, p.duraks) for p in places])
            conn.executemany("INSERT INTO badges (user_id, badge, game_id, awarded_at) VALUES (?, ?, NULL, ?) "
                             "ON CONFLICT (user_id, badge) DO NOTHING", [(u, b, now) for u, b in badges])
            return write_owed(conn, None, owed)

        written = await self.db.run(work)
        if written is None:
            return False
        self._note(written)
        return True

    async def season_places(self, chat_id: int | None = None, user_id: int | None = None) -> list[SeasonPlace]:
        """Closed seasons' lines, of a chat or everywhere, of one player or all: newest season first, by place."""
        where, params = ["1 = 1"], []
        if chat_id is not None:
            where.append("chat_id = ?")
            params.append(chat_id)
        if user_id is not None:
            where.append("user_id = ?")
            params.append(user_id)
        rows = await self.db.all(f"SELECT * FROM season_places WHERE {' AND '.join(where)} "
                                 "ORDER BY season DESC, chat_id, place", params)
        return [SeasonPlace(int(r["chat_id"]), str(r["season"]), int(r["user_id"]), int(r["place"]), int(r["games"]),
                            int(r["points"]), int(r["firsts"]), int(r["duraks"])) for r in rows]
