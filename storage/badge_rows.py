"""Badges: a player's, and awarding them outside a game's own write (a season's close, ``durak-badges``)."""

from __future__ import annotations

from collections.abc import Sequence

from storage.database import SqlConnection
from storage.rows import Rows


class BadgeRows(Rows):
    async def badges(self, user_id: int) -> list[str]:
        """His badges, in the order he got them."""
        rows = await self.db.all("SELECT badge FROM badges WHERE user_id = ? ORDER BY awarded_at, badge", (user_id,))
        return [str(r["badge"]) for r in rows]

    async def all_badges(self) -> dict[int, set[str]]:
        rows = await self.db.all("SELECT user_id, badge FROM badges")
        found: dict[int, set[str]] = {}
        for r in rows:
            found.setdefault(int(r["user_id"]), set()).add(str(r["badge"]))
        return found

    async def award(self, awards: Sequence[tuple[int, str, int | None]]) -> int:
        """(user, badge, game) each once: what a player has got already stays as it was; the number awarded."""
        now = self.now()

        def work(conn: SqlConnection) -> int:
            return sum(conn.execute("INSERT INTO badges (user_id, badge, game_id, awarded_at) VALUES (?, ?, ?, ?) "
                                    "ON CONFLICT (user_id, badge) DO NOTHING", (u, b, g, now)).rowcount
                       for u, b, g in awards)

        return await self.db.run(work)
