"""The repository: every aggregate's rows at once (``storage.rows`` says which module holds which SQL), and the one
write that moves them all, a group become a supergroup."""

from __future__ import annotations

from storage.badge_rows import BadgeRows
from storage.game_rows import GameRows
from storage.people import People
from storage.puzzle_rows import PuzzleRows
from storage.review_rows import ReviewRows
from storage.rows import Conflict, CorruptRow, RatingsMoved
from storage.season_rows import SeasonRows
from storage.stat_rows import StatRows
from storage.tournament_rows import TournamentRows
from storage.updates import CHANNEL

__all__ = ["Conflict", "CorruptRow", "RatingsMoved", "Repo"]


class Repo(GameRows, ReviewRows, StatRows, People, PuzzleRows, SeasonRows, BadgeRows, TournamentRows):
    async def migrate_chat(self, old_id: int, new_id: int, note: tuple[int, str, int] | None = None) -> None:
        """A group became a supergroup: its settings, games, ratings and owed messages follow the new id.
        ``note``: an update (id, body, partition) stored in the same transaction for the process that leads the
        new id's partition (``storage.updates``), when that is another process: it then loads the games."""
        async with self.db.write() as conn:
            if note is not None:
                await conn.execute("INSERT INTO updates (update_id, body, received, part) VALUES (?, ?, ?, ?) "
                                   "ON CONFLICT (update_id) DO NOTHING", (*note[:2], self.now(), note[2]))
                if (wake := self.db.wake(CHANNEL)) is not None:  # its lead is woken at the commit
                    await conn.execute(f"SELECT {wake}")
            # a row of the new id wins over the old one's (sqlite's UPDATE OR IGNORE, in SQL both engines speak)
            await conn.execute("UPDATE chats SET id = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM chats WHERE id = ?)",
                               (new_id, old_id, new_id))
            await conn.execute("UPDATE games SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
            # ratings follow the chat; a player rated in both ids keeps the newer chat's rating
            await conn.execute("UPDATE ratings SET scope = ? WHERE scope = ? AND user_id NOT IN "
                               "(SELECT user_id FROM ratings WHERE scope = ?)", (new_id, old_id, new_id))
            await conn.execute("DELETE FROM ratings WHERE scope = ?", (old_id,))
            await conn.execute("UPDATE rating_history SET scope = ? WHERE scope = ? AND NOT EXISTS (SELECT 1 FROM "
                               "rating_history h WHERE h.scope = ? AND h.user_id = rating_history.user_id AND "
                               "h.game_id = rating_history.game_id)", (new_id, old_id, new_id))
            await conn.execute("DELETE FROM rating_history WHERE scope = ?", (old_id,))
            # closed seasons follow (their places with them: ON UPDATE CASCADE); one closed in both ids keeps the new
            await conn.execute("UPDATE seasons SET chat_id = ? WHERE chat_id = ? AND season NOT IN "
                               "(SELECT season FROM seasons WHERE chat_id = ?)", (new_id, old_id, new_id))
            await conn.execute("DELETE FROM seasons WHERE chat_id = ?", (old_id,))
            await conn.execute("UPDATE panels SET chat_id = ? WHERE chat_id = ? AND message_id NOT IN "
                               "(SELECT message_id FROM panels WHERE chat_id = ?)", (new_id, old_id, new_id))
            # the old chat refuses messages: open games' group messages are posted anew in the supergroup
            await conn.execute(
                "UPDATE outbox SET chat_id = ?, message_id = NULL, delivered = 0 WHERE chat_id = ? AND game_id IN "
                "(SELECT id FROM games WHERE status IN ('lobby', 'playing')) AND deleted = 0", (new_id, old_id))
            await conn.execute("UPDATE outbox SET chat_id = ?, delivered = wanted WHERE chat_id = ?",
                               (new_id, old_id))
            await conn.execute("UPDATE outbox SET home = ? WHERE home = ?", (new_id, old_id))
        if self._owed is not None:  # rows moved to another chat: the owed ones are read again
            await self.owed()
