"""Tournaments: opening one (one a group at a time), its players joining and leaving, its status, who met whom at
its tables; each change with its message (the standings, outbox rows of game -id) in the same transaction."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from durak import Rules
from storage.database import SqlConnection, SqlRow
from storage.models import Entrant, OutboxRow, Owed, Status, Tournament, TournamentStatus
from storage.outbox_rows import OutboxRows, write_owed
from storage.rows import Conflict, rules_json, user_of

_OPEN = (Status.LOBBY.value, Status.PLAYING.value)


def standing_row(tournament_id: int) -> int:
    """The outbox's game id of a tournament's own messages: no game has a negative id."""
    return -tournament_id


class TournamentRows(OutboxRows):
    async def open_tournament(self, chat_id: int, thread_id: int, creator_id: int, rules: Rules, turn_timeout: int,
                              computers: bool, title: str, minutes: int,
                              owed: Callable[[Tournament], Sequence[Owed]], topics: bool = False) -> Tournament:
        """A new tournament and its message (``owed`` of it); Conflict if the chat has one that is not over."""
        now = self.now()

        def work(conn: SqlConnection) -> tuple[Tournament, list[OutboxRow]]:
            try:
                row = conn.execute(
                    "INSERT INTO tournaments (chat_id, thread_id, creator_id, rules, turn_timeout, computers, title, "
                    "started_at, ends_at, topics) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (chat_id, thread_id, creator_id, rules_json(rules), turn_timeout, int(computers), title, now,
                     now + 60 * minutes, int(topics))).fetchall()[0]
            except self.db.integrity_errors:
                raise Conflict(f"chat {chat_id} has a tournament already") from None
            tournament = Tournament(int(row[0]), chat_id, thread_id, creator_id, rules, turn_timeout, computers,
                                    title, now, now + 60 * minutes, TournamentStatus.OPEN, topics)
            return tournament, write_owed(conn, standing_row(tournament.id), owed(tournament))

        tournament, written = await self.db.run(work)
        self._note(written)
        return tournament

    async def tournament(self, tournament_id: int) -> Tournament | None:
        row = await self.db.one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else _tournament(row)

    async def tournament_in(self, chat_id: int) -> Tournament | None:
        """The chat's tournament that is not over, if any."""
        row = await self.db.one("SELECT * FROM tournaments WHERE chat_id = ? AND status <> 'over'", (chat_id,))
        return None if row is None else _tournament(row)

    async def running_tournaments(self) -> list[Tournament]:
        rows = await self.db.all("SELECT * FROM tournaments WHERE status <> 'over' ORDER BY id")
        return [_tournament(r) for r in rows]

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """Its players, in the order they joined."""
        rows = await self.db.all("SELECT p.*, u.* FROM tournament_players p JOIN users u ON u.id = p.user_id "
                                 "WHERE p.tournament_id = ? ORDER BY p.joined_at, p.user_id", (tournament_id,))
        return [Entrant(user_of(r), r["joined_at"], r["free_since"], r["left_at"] is not None, r["points"], r["games"],
                        r["firsts"], r["streak"]) for r in rows]

    async def enter(self, tournament_id: int, user_id: int, joining: bool, owed: Sequence[Owed]) -> bool:
        """Join (again) or leave; False when nothing changed (he was in, or out, already)."""
        now = self.now()

        def work(conn: SqlConnection) -> tuple[bool, list[OutboxRow]]:
            if joining:
                changed = conn.execute(
                    "INSERT INTO tournament_players (tournament_id, user_id, joined_at, free_since) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, user_id) DO UPDATE SET left_at = NULL, "
                    "free_since = excluded.free_since WHERE tournament_players.left_at IS NOT NULL",
                    (tournament_id, user_id, now, now)).rowcount
            else:
                changed = conn.execute("UPDATE tournament_players SET left_at = ? WHERE tournament_id = ? AND "
                                       "user_id = ? AND left_at IS NULL", (now, tournament_id, user_id)).rowcount
            if not changed:
                return False, []
            return True, write_owed(conn, standing_row(tournament_id), owed)

        changed, written = await self.db.run(work)
        self._note(written)
        return changed

    async def set_tournament_status(self, tournament_id: int, status: TournamentStatus, owed: Sequence[Owed],
                                    badges: Sequence[tuple[int, str]] = ()) -> bool:
        """Move it on (open -> closing -> over) with its message; False if another process moved it first."""
        now = self.now()
        order = [s.value for s in TournamentStatus]

        def work(conn: SqlConnection) -> tuple[bool, list[OutboxRow]]:
            earlier = order[: order.index(status.value)]
            marks = ", ".join("?" for _ in earlier)
            if conn.execute(f"UPDATE tournaments SET status = ? WHERE id = ? AND status IN ({marks})",
                            (status.value, tournament_id, *earlier)).rowcount != 1:
                return False, []
            conn.executemany("INSERT INTO badges (user_id, badge, game_id, awarded_at) VALUES (?, ?, NULL, ?) "
                             "ON CONFLICT (user_id, badge) DO NOTHING", [(u, b, now) for u, b in badges])
            return True, write_owed(conn, standing_row(tournament_id), owed)

        moved, written = await self.db.run(work)
        self._note(written)
        return moved

    async def tournament_tables(self, tournament_id: int) -> list[tuple[int, str, tuple[int, ...]]]:
        """Its tables: (game, status, the users seated), oldest first."""
        rows = await self.db.all(
            f"SELECT g.id, g.status, {self.db.joined('s.user_id')} AS seated FROM games g "
            "JOIN seats s ON s.game_id = g.id WHERE g.tournament = ? GROUP BY g.id, g.status ORDER BY g.id",
            (tournament_id,))
        return [(int(r["id"]), str(r["status"]), tuple(int(u) for u in str(r["seated"]).split(",") if u))
                for r in rows]

    async def tournament_winners(self) -> list[int]:
        """The first of each tournament that is over (most points, then first places, then the fewer games)."""
        rows = await self.db.all(
            "SELECT p.tournament_id, p.user_id FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id "
            "WHERE t.status = 'over' AND p.games > 0 AND p.points > 0 "
            "ORDER BY p.tournament_id, p.points DESC, p.firsts DESC, p.games, p.joined_at")
        first: dict[int, int] = {}
        for r in rows:
            first.setdefault(int(r["tournament_id"]), int(r["user_id"]))
        return list(first.values())

    async def tournament_topics(self, tournament_id: int) -> dict[int, int]:
        """Its tables' forum topics: number -> thread id."""
        rows = await self.db.all("SELECT number, thread_id FROM tournament_topics WHERE tournament_id = ?",
                                 (tournament_id,))
        return {int(r["number"]): int(r["thread_id"]) for r in rows}

    async def add_tournament_topic(self, tournament_id: int, number: int, thread_id: int) -> int:
        """Keep a topic made for its table ``number``; the one kept first where two processes made one."""
        async with self.db.write() as conn:
            await conn.execute("INSERT INTO tournament_topics (tournament_id, number, thread_id) VALUES (?, ?, ?) "
                               "ON CONFLICT (tournament_id, number) DO NOTHING", (tournament_id, number, thread_id))
        return (await self.tournament_topics(tournament_id))[number]

    async def end_tournament_topics(self, tournament_id: int) -> None:
        """No more topics for its tables (the bot may not create them): the next play where it was opened."""
        async with self.db.write() as conn:
            await conn.execute("UPDATE tournaments SET topics = 0 WHERE id = ?", (tournament_id,))

    async def tournament_threads(self, tournament_id: int) -> set[int]:
        """The topics its open tables play in."""
        rows = await self.db.all(f"SELECT thread_id FROM games WHERE tournament = ? AND status IN {_OPEN}",
                                 (tournament_id,))
        return {int(r["thread_id"]) for r in rows}

    async def update_standings(self, tournament_id: int, owed: Sequence[Owed]) -> None:
        await self.put_owed(standing_row(tournament_id), owed)


def _tournament(r: SqlRow) -> Tournament:
    return Tournament(int(r["id"]), int(r["chat_id"]), int(r["thread_id"]), int(r["creator_id"]),
                      Rules.from_dict(json.loads(r["rules"])), int(r["turn_timeout"]), bool(r["computers"]),
                      str(r["title"]), float(r["started_at"]), float(r["ends_at"]), TournamentStatus(r["status"]),
                      bool(r["topics"]))
