"""Each finished game's review, kept with the messages that announce it, and a player's /history."""

from __future__ import annotations

from collections.abc import Sequence

from storage.database import SqlConnection
from storage.models import HistoryEntry, OutboxRow, Owed, Status
from storage.outbox_rows import OutboxRows, write_owed

REVIEW_PAGE = 256  # unreviewed games read at a time, of which this process reviews those it leads


class ReviewRows(OutboxRows):
    """Reviews are written with their announcements, in one transaction: the outbox's rows are theirs too."""

    async def save_review(self, game_id: int, review: str, owed: Sequence[Owed]) -> bool:
        """Keep a finished game's review with the messages that announce it, in one transaction; False (and
        nothing written) when the game has one already: each review is made, kept and announced once."""
        now = self.now()

        def work(conn: SqlConnection) -> list[OutboxRow] | None:
            cur = conn.execute("INSERT INTO game_reviews (game_id, review, made_at) VALUES (?, ?, ?) "
                               "ON CONFLICT (game_id) DO NOTHING", (game_id, review, now))
            return write_owed(conn, game_id, owed) if cur.rowcount == 1 else None

        rows = await self.db.run(work, lambda rows: self._note(rows or ()))
        return rows is not None

    async def review(self, game_id: int) -> str | None:
        row = await self.db.one("SELECT review FROM game_reviews WHERE game_id = ?", (game_id,))
        return None if row is None else str(row["review"])

    async def unreviewed(self, since: float, limit: int = 100) -> list[int]:
        """The first finished games since ``since`` that kept their moves and have no review yet, oldest first:
        those of the chats this process leads (:attr:`owns`), read a page at a time."""
        found: list[int] = []
        after = -1
        while len(found) < limit:
            rows = await self.db.all(
                "SELECT g.id, g.chat_id FROM games g LEFT JOIN game_reviews r ON r.game_id = g.id WHERE g.status = ? "
                "AND g.deal IS NOT NULL AND g.finished_at >= ? AND r.game_id IS NULL AND g.id > ? ORDER BY g.id "
                "LIMIT ?", (Status.FINISHED.value, since, after, REVIEW_PAGE))
            found += [int(r["id"]) for r in rows if self.owns(int(r["chat_id"]))]
            if len(rows) < REVIEW_PAGE:
                break
            after = int(rows[-1]["id"])
        return found[:limit]

    async def history(self, user_id: int, limit: int) -> list[HistoryEntry]:
        """The user's last finished games, newest first, each with its review when it has one."""
        rows = await self.db.all(
            "SELECT g.id, g.chat_id, g.title, g.finished_at, g.deal IS NOT NULL AS recorded, s.seat, "
            "res.loser, res.draw, r.review FROM seats s JOIN games g ON g.id = s.game_id "
            "LEFT JOIN game_results res ON res.game_id = g.id AND res.seat = s.seat "
            "LEFT JOIN game_reviews r ON r.game_id = g.id "
            "WHERE s.user_id = ? AND g.status = ? ORDER BY g.finished_at DESC, g.id DESC LIMIT ?",
            (user_id, Status.FINISHED.value, limit))
        return [HistoryEntry(int(r["id"]), int(r["chat_id"]), str(r["title"] or ""), float(r["finished_at"] or 0),
                       bool(r["recorded"]), int(r["seat"]), bool(r["loser"]), bool(r["draw"]), r["review"])
                for r in rows]
