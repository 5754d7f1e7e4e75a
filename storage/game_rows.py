"""Games: a lobby made with its table message, each move written with the messages it owes, results and ratings
with the last one; games read back whole (seats, log, moves); where the pages of a partition's games are served."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import orjson

from durak import Rules, RulesError, State, StateError
from durak.actions import action_from_json, action_to_json
from durak.setup import Previous
from storage.database import SqlConnection, SqlRow
from storage.models import Away, Game, NewLobby, OutboxRow, Owed, RatingUpdate, ResultRow, Scored, Seat, Status
from storage.outbox_rows import OutboxRows, outbox_row, owed_statements, write_owed
from storage.rows import Conflict, CorruptRow, RatingsMoved, rules_json, user_of
from storage.updates import HANDLING, MARK_HANDLED, mark_handled, marked

log = logging.getLogger(__name__)
NON_STR_KEYS = orjson.OPT_NON_STR_KEYS  # as json writes them: {1: x} becomes {"1": x}


class GameRows(OutboxRows):
    """Games are written with the messages they owe, in one transaction: the outbox's rows are theirs too."""

    async def create_lobby(self, lobby: NewLobby, owed: Callable[[Game], Sequence[Owed]] = lambda g: ()) -> Game:
        """A new lobby with its players seated, and the messages it owes (``owed`` of the new game) in the same
        transaction: a crash never leaves a lobby without its table."""
        now = self.now()
        chat_id, thread_id, creator, max_players = lobby.chat_id, lobby.thread_id, lobby.creator, lobby.max_players
        previous, turn_timeout, title, goal = lobby.previous, lobby.turn_timeout, lobby.title, lobby.goal
        tournament = lobby.tournament
        prev = None if previous is None else json.dumps(list(previous))
        handling = HANDLING.get()
        async with self.db.write() as conn:
            try:
                inserted = await conn.execute_fetchall(
                    "INSERT INTO games (chat_id, thread_id, status, creator_id, rules, max_players, previous, "
                    "turn_timeout, created_at, updated_at, title, goal, tournament) "
                    "VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "RETURNING id",
                    (chat_id, thread_id, creator.id, rules_json(lobby.rules), max_players, prev, turn_timeout,
                     now, now, title, goal, tournament),
                )
            except self.db.integrity_errors:
                raise Conflict("this chat already has an open game") from None
            game_id = int(next(iter(inserted))[0])
            seated = [creator, *[p for p in lobby.players if p.id != creator.id]][:max_players]
            for seat, user in enumerate(seated):
                await conn.execute("INSERT INTO seats (game_id, seat, user_id) VALUES (?, ?, ?)",
                                   (game_id, seat, user.id))
            game = Game(game_id, chat_id, thread_id, Status.LOBBY, creator.id, lobby.rules, max_players, None, 0, None,
                        tuple(Seat(i, u) for i, u in enumerate(seated)), (), previous, now, turn_timeout, None,
                        title, goal=goal, tournament=tournament)
            written = [outbox_row(r) for sql, params in owed_statements(game_id, owed(game))
                       for r in await conn.execute_fetchall(sql, params)]
            if handling is not None:
                await conn.execute(MARK_HANDLED, (handling, now))
        self._note(written)
        if handling is not None:
            marked()
        return game

    async def save_game(self, old: Game, new: Game, *, results: Sequence[ResultRow] = (),
                        ratings: Sequence[RatingUpdate] = (), owed: Sequence[Owed] = (),
                        badges: Sequence[tuple[int, str]] = (), scored: Sequence[Scored] = (),
                        standings: Sequence[Owed] = ()) -> Game:
        """Write ``new`` if the stored game is still ``old`` (its version), with the results, ratings and
        messages it owes, in one transaction; returns ``new`` with its new version (nothing is read back).

        The seats' order may change only while the stored game is a lobby: a late kick or leave can never
        rewrite the seats of a game that has started. Raises Conflict if the game changed meanwhile."""
        now = self.now()
        started = now if new.status is Status.PLAYING and old.status is Status.LOBBY else None
        finished = now if new.status in (Status.FINISHED, Status.CANCELLED) else None
        reseat = [s.user.id for s in new.seats] != [s.user.id for s in old.seats]
        state = None if new.state is None else orjson.dumps(new.state.to_json(), option=NON_STR_KEYS).decode()
        appended = len(new.log) >= len(old.log) and new.log[:len(old.log)] == old.log
        first = len(old.log) if appended else 0  # a log that is not a continuation is written anew
        keep_log = "" if appended else " log = '[]',"
        events = [(old.id, n, orjson.dumps(new.log[n], option=NON_STR_KEYS).decode())
                  for n in range(first, len(new.log))]
        moves_appended = len(new.moves) >= len(old.moves) and new.moves[:len(old.moves)] == old.moves
        first_move = len(old.moves) if moves_appended else 0
        moves = [(old.id, n, seat, orjson.dumps(action_to_json(action)).decode(), int(n in new.auto))
                 for n, (seat, action) in enumerate(new.moves[first_move:], first_move)]
        deal = (orjson.dumps(new.deal.to_json(), option=NON_STR_KEYS).decode()
                if new.deal is not None and new.deal is not old.deal else None)
        rules = rules_json(new.rules)
        handling = HANDLING.get()

        def work(conn: SqlConnection) -> list[OutboxRow]:
            cur = conn.execute(
                "UPDATE games SET version = version + 1, updated_at = ?, status = ?, rules = ?, max_players = ?, "
                f"state = ?,{keep_log} creator_id = ?, turn_timeout = ?, deadline = ?, "
                "started_at = COALESCE(?, started_at), finished_at = COALESCE(?, finished_at), "
                "deal = COALESCE(?, deal), goal = ?, series = ? "
                f"WHERE id = ? AND version = ?{' AND status = ?' if reseat else ''}",
                (now, new.status.value, rules, new.max_players, state,
                 new.creator_id, new.turn_timeout, new.deadline, started, finished, deal, new.goal, new.series,
                 old.id, old.version,
                 *((Status.LOBBY.value,) if reseat else ())))
            if cur.rowcount != 1:
                raise Conflict(f"game {old.id} changed since version {old.version}"
                               + (" or is no lobby" if reseat else ""))
            if not appended:
                conn.execute("DELETE FROM game_events WHERE game_id = ?", (old.id,))
            if events:
                conn.executemany("INSERT INTO game_events (game_id, n, event) VALUES (?, ?, ?)", events)
            if not moves_appended:
                conn.execute("DELETE FROM game_moves WHERE game_id = ?", (old.id,))
            if moves:
                conn.executemany("INSERT INTO game_moves (game_id, n, seat, action, auto) VALUES (?, ?, ?, ?, ?)",
                                 moves)
            if reseat:
                conn.execute("DELETE FROM seats WHERE game_id = ?", (old.id,))
                conn.executemany("INSERT INTO seats (game_id, seat, user_id) VALUES (?, ?, ?)",
                                 [(old.id, seat.seat, seat.user.id) for seat in new.seats])
            else:
                before = {s.seat: (s.missed, s.away) for s in old.seats}
                for seat in new.seats:
                    if before.get(seat.seat) != (seat.missed, seat.away):
                        conn.execute("UPDATE seats SET missed = ?, away = ? WHERE game_id = ? AND seat = ?",
                                     (seat.missed, int(seat.away), old.id, seat.seat))
            for r in results:
                conn.execute(
                    "INSERT INTO game_results (game_id, seat, user_id, place, rank, loser, draw, pogony, left_game, "
                    "away, penalty, team) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (old.id, r.seat, r.user_id, r.place, r.rank, r.loser, r.draw, r.pogony, r.left, r.away,
                     r.penalty, r.team))
            for u in ratings:
                if u.before is None:
                    moved = conn.execute("INSERT INTO ratings (scope, user_id, mu, sigma) VALUES (?, ?, ?, ?) "
                                         "ON CONFLICT (scope, user_id) DO NOTHING", (u.scope, u.user_id, u.mu, u.sigma))
                else:
                    moved = conn.execute("UPDATE ratings SET mu = ?, sigma = ? WHERE scope = ? AND user_id = ? "
                                         "AND mu = ? AND sigma = ?", (u.mu, u.sigma, u.scope, u.user_id, *u.before))
                if moved.rowcount != 1:  # another game moved it since it was read (another process, at once)
                    raise RatingsMoved(f"the rating of user {u.user_id} in scope {u.scope} moved while game "
                                       f"{old.id} ended")
                conn.execute("INSERT INTO rating_history (scope, user_id, game_id, ordinal) VALUES (?, ?, ?, ?) "
                             "ON CONFLICT (scope, user_id, game_id) DO UPDATE SET ordinal = excluded.ordinal",
                             (u.scope, u.user_id, old.id, u.ordinal))
            if badges:  # (user, badge) earned by this game: once a player (storage.badge_rows)
                conn.executemany("INSERT INTO badges (user_id, badge, game_id, awarded_at) VALUES (?, ?, ?, ?) "
                                 "ON CONFLICT (user_id, badge) DO NOTHING", [(u, b, old.id, now) for u, b in badges])
            for p in scored:  # a tournament table's end: its players' points, free again from now
                conn.execute("UPDATE tournament_players SET points = points + ?, games = games + 1, "
                             "firsts = firsts + ?, streak = ?, free_since = ? WHERE tournament_id = ? AND user_id = ?",
                             (p.points, int(p.first), p.streak, now, p.tournament, p.user_id))
            mark_handled(conn, handling, now)
            written = write_owed(conn, old.id, owed)
            if standings:  # the tournament's own message, a row of game -id (storage.tournament_rows)
                written += write_owed(conn, -new.tournament if new.tournament else None, standings)
            return written

        await self._with_marks(work, self._note)
        if handling is not None:
            marked()
        return replace(new, version=old.version + 1, updated_at=now)

    async def game(self, game_id: int) -> Game | None:
        row = await self.db.one("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else await self._game(row)

    async def game_chat(self, game_id: int) -> int | None:
        """The chat of a game (any status): where its partition is (storage.partitions)."""
        row = await self.db.one("SELECT chat_id FROM games WHERE id = ?", (game_id,))
        return None if row is None else int(row["chat_id"])

    async def seated_chat(self, user_id: int) -> int | None:
        """The chat of an open game the user sits in (the newest), if any."""
        row = await self.db.one("SELECT g.chat_id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? "
                                "AND g.status IN (?, ?) ORDER BY g.id DESC LIMIT 1",
                                (user_id, Status.LOBBY.value, Status.PLAYING.value))
        return None if row is None else int(row["chat_id"])

    async def games_with_status(self, *statuses: Status) -> tuple[list[Game], list[int]]:
        """The readable games with these statuses, and the ids of rows that could not be read."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.all(f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id", statuses)
        games, corrupt = [], []
        for row in rows:
            try:
                games.append(await self._game(row))
            except CorruptRow as e:
                log.error("%s", e)
                corrupt.append(int(row["id"]))
        return games, corrupt

    async def close_unreadable(self, game_id: int) -> None:
        """Cancel a game whose row cannot be read, so its chat can play again; the row stays for inspection."""
        async with self.db.write() as conn:
            await conn.execute("UPDATE games SET status = 'cancelled', version = version + 1 WHERE id = ?",
                               (game_id,))

    async def recent_games(self, chat_id: int, last: int) -> list[tuple[Game, list[SqlRow]]]:
        rows = await self.db.all("SELECT * FROM games WHERE chat_id = ? AND status = 'finished' "
                                 "ORDER BY finished_at DESC, id DESC LIMIT ?", (chat_id, last))
        found = []
        for row in rows:
            try:
                found.append((await self._game(row), await self.results(row["id"])))
            except CorruptRow as e:
                log.error("%s", e)
        return found

    async def results(self, game_id: int) -> list[SqlRow]:
        return await self.db.all("SELECT * FROM game_results WHERE game_id = ? ORDER BY seat", (game_id,))

    async def set_routes(self, parts: Iterable[int], route: str) -> None:
        """This process leads ``parts`` and serves their Mini App pages at ``route``."""
        rows = [(part, route) for part in parts]
        if rows:
            await self.db.write_one(f"INSERT INTO routes (part, route) VALUES {', '.join(['(?, ?)'] * len(rows))} "
                                    "ON CONFLICT (part) DO UPDATE SET route = excluded.route",
                                    [v for row in rows for v in row])

    async def drop_routes(self, parts: Iterable[int], route: str) -> None:
        """This process no longer leads ``parts``: pages are not sent to it for them (unless another process
        wrote its own route meanwhile)."""
        parts = list(parts)
        if parts:
            await self.db.write_one(f"DELETE FROM routes WHERE route = ? AND part IN ({', '.join('?' * len(parts))})",
                                    (route, *parts))

    async def route(self, part: int) -> str | None:
        """Where the lead of partition ``part`` serves its pages (the last process that said so)."""
        row = await self.db.one("SELECT route FROM routes WHERE part = ?", (part,))
        return None if row is None else str(row["route"])

    async def _game(self, row: SqlRow) -> Game:
        seat_rows = await self.db.all(
            "SELECT s.seat, s.message_id, s.missed, s.away, u.* FROM seats s JOIN users u ON u.id = s.user_id "
            "WHERE s.game_id = ? ORDER BY s.seat", (row["id"],))
        event_rows = await self.db.all("SELECT event FROM game_events WHERE game_id = ? ORDER BY n", (row["id"],))
        move_rows = await self.db.all("SELECT seat, action, auto FROM game_moves WHERE game_id = ? ORDER BY n",
                                      (row["id"],))
        try:
            rules = Rules.from_dict(json.loads(row["rules"]))
            state = None if row["state"] is None else State.from_json(json.loads(row["state"]))
            previous = None if row["previous"] is None else Previous(*json.loads(row["previous"]))
            log_lines = (*json.loads(row["log"]), *(json.loads(r["event"]) for r in event_rows))
            status = Status(row["status"])
            seats = tuple(Seat(r["seat"], user_of(r), r["message_id"], r["missed"], Away(r["away"])) for r in seat_rows)
            deal = None if row["deal"] is None else State.from_json(json.loads(row["deal"]))
            moves = tuple((int(r["seat"]), action_from_json(json.loads(r["action"]))) for r in move_rows)
            marks = [bool(r["auto"]) for r in move_rows]
            auto = frozenset(n for n, mark in enumerate(marks) if mark)
        except (ValueError, TypeError, KeyError, RulesError, StateError) as e:
            raise CorruptRow(f"game {row['id']}: stored row is unreadable: {e}") from None
        return Game(row["id"], row["chat_id"], row["thread_id"], status, row["creator_id"], rules,
                    row["max_players"], state, row["version"], row["message_id"], seats, log_lines,
                    previous, row["updated_at"], row["turn_timeout"], row["deadline"], row["title"], deal, moves, auto,
                    row["goal"], row["series"], row["tournament"])
