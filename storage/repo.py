"""Reading and writing users, chat settings and games. All SQL of the project lives here."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TypeVar

import orjson

from durak import Rules, RulesError, State, StateError
from durak.actions import action_from_json, action_to_json
from durak.setup import Previous
from storage.database import Database, SqlConnection, SqlRow
from storage.models import (
    Away,
    ChatSettings,
    Game,
    HistoryEntry,
    NewLobby,
    OutboxRow,
    Owed,
    PlayedGame,
    RatingUpdate,
    ResultRow,
    Seat,
    Status,
    User,
)
from storage.slots import hand_seat
from storage.updates import CHANNEL, HANDLING, MARK_HANDLED, mark_handled, marked

log = logging.getLogger(__name__)
T = TypeVar("T")


class CorruptRow(Exception):
    """A stored row that cannot be read back; the message names the row."""


class Conflict(Exception):
    """A write that lost a race: the game changed since it was read, or the topic has a game."""


class RatingsMoved(Conflict):
    """A finishing game's ratings were moved by another game since they were read: decide again on the new ones."""


NON_STR_KEYS = orjson.OPT_NON_STR_KEYS  # as json writes them: {1: x} becomes {"1": x}
MARKS_WAIT = 1.0  # seconds a delivered edit may wait for a write to go with
REVIEW_PAGE = 256  # unreviewed games read at a time, of which this process reviews those it leads


class Repo:
    def __init__(self, db: Database, now: Callable[[], float] = time.time) -> None:
        self.db = db
        self.now = now  # the service's clock, so stored times and timers agree
        # the outbox's owed rows (chat -> row id -> row) as the database has them: read once (``owed``), then
        # kept by every write of this process, so that delivering a message reads nothing back
        self._owed: dict[int, dict[int, OutboxRow]] | None = None
        # whether this process delivers the rows of a home chat (its partition's lead, storage.partitions): a read
        # of the owed rows keeps only those; the rows this process writes are its own games' (it leads them)
        self.owns: Callable[[int], bool] = lambda home: True
        # edits Telegram shows, not written yet (row id -> what was delivered, its message): they go with the
        # next write (a move's), or after MARKS_WAIT seconds without one (``_marks_later``)
        self._marks: dict[int, tuple[int, int | None]] = {}
        self._marks_timer: asyncio.TimerHandle | None = None
        self._marks_tasks: set[asyncio.Task[None]] = set()  # held here: the loop keeps tasks only weakly

    # ------------------------------------------------------------ users and chats

    async def save_user(self, user: User, private_chat: bool | None = None) -> User:
        """Insert or refresh a user's name; ``private_chat`` True marks the private chat as open."""
        async with self.db.write() as conn:
            await conn.execute(
                "INSERT INTO users (id, name, username, telegram_language, private_chat, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET name = excluded.name, username = excluded.username, "
                "telegram_language = COALESCE(excluded.telegram_language, users.telegram_language), "
                "private_chat = CASE WHEN excluded.private_chat > users.private_chat THEN excluded.private_chat "
                "ELSE users.private_chat END, updated_at = excluded.updated_at",
                (user.id, user.name, user.username, user.telegram_language, int(bool(private_chat)), self.now()),
            )
            if private_chat is False:
                await conn.execute("UPDATE users SET private_chat = 0 WHERE id = ?", (user.id,))
        stored = await self.user(user.id)
        assert stored is not None
        return stored

    async def user(self, user_id: int) -> User | None:
        row = await self.db.one("SELECT * FROM users WHERE id = ?", (user_id,))
        return None if row is None else _user(row)

    async def set_user_language(self, user_id: int, language: str) -> None:
        async with self.db.write() as conn:
            await conn.execute("UPDATE users SET language = ? WHERE id = ?", (language, user_id))

    async def chat(self, chat_id: int) -> ChatSettings:
        row = await self.db.one("SELECT * FROM chats WHERE id = ?", (chat_id,))
        if row is None:
            return ChatSettings(chat_id)
        rules = None
        if row["rules"]:
            try:
                rules = Rules.from_dict(json.loads(row["rules"]))
            except (ValueError, RulesError) as e:
                log.error("chat %s: stored default rules are unreadable (%s); using the defaults", chat_id, e)
        return ChatSettings(chat_id, row["language"], rules, row["max_players"], row["scoring"], row["turn_timeout"])

    async def save_chat_defaults(self, chat_id: int, rules: Rules, max_players: int, turn_timeout: int) -> None:
        async with self.db.write() as conn:
            await conn.execute(
                "INSERT INTO chats (id, rules, max_players, turn_timeout) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET rules = excluded.rules, max_players = excluded.max_players, "
                "turn_timeout = excluded.turn_timeout",
                (chat_id, _rules_json(rules), max_players, turn_timeout),
            )

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        async with self.db.write() as conn:
            await conn.execute(
                "INSERT INTO chats (id, language) VALUES (?, ?) "
                "ON CONFLICT (id) DO UPDATE SET language = excluded.language",
                (chat_id, language),
            )

    async def migrate_chat(self, old_id: int, new_id: int, note: tuple[int, str, int] | None = None) -> None:
        """A group became a supergroup: its settings, games, ratings and owed messages follow the new id.
        ``note``: an update (id, body, partition) stored in the same transaction for the process that leads the
        new id's partition (``storage.updates``), when that is another process: it then loads the games."""
        async with self.db.write() as conn:
            if note is not None:
                await conn.execute("INSERT INTO updates (update_id, body, received, part) VALUES (?, ?, ?, ?) "
                                   "ON CONFLICT (update_id) DO NOTHING", (*note[:2], self.now(), note[2]))
                if self.db.engine == "postgresql":  # its lead is woken at the commit
                    await conn.execute(f"SELECT pg_notify('{CHANNEL}', '')")
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

    # ------------------------------------------------------------ games

    async def create_lobby(self, lobby: NewLobby, owed: Callable[[Game], Sequence[Owed]] = lambda g: ()) -> Game:
        """A new lobby with its players seated, and the messages it owes (``owed`` of the new game) in the same
        transaction: a crash never leaves a lobby without its table."""
        now = self.now()
        chat_id, thread_id, creator, max_players = lobby.chat_id, lobby.thread_id, lobby.creator, lobby.max_players
        previous, turn_timeout, title = lobby.previous, lobby.turn_timeout, lobby.title
        prev = None if previous is None else json.dumps(list(previous))
        handling = HANDLING.get()
        async with self.db.write() as conn:
            try:
                inserted = await conn.execute_fetchall(
                    "INSERT INTO games (chat_id, thread_id, status, creator_id, rules, max_players, previous, "
                    "turn_timeout, created_at, updated_at, title) VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?) "
                    "RETURNING id",
                    (chat_id, thread_id, creator.id, _rules_json(lobby.rules), max_players, prev, turn_timeout,
                     now, now, title),
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
                        title)
            written = [_outbox_row(r) for sql, params in _owed_statements(game_id, owed(game))
                       for r in await conn.execute_fetchall(sql, params)]
            if handling is not None:
                await conn.execute(MARK_HANDLED, (handling, now))
        self._note(written)
        if handling is not None:
            marked()
        return game

    async def save_game(self, old: Game, new: Game, *, results: Sequence[ResultRow] = (),
                        ratings: Sequence[RatingUpdate] = (), owed: Sequence[Owed] = ()) -> Game:
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
        rules = _rules_json(new.rules)
        handling = HANDLING.get()

        def work(conn: SqlConnection) -> list[OutboxRow]:
            cur = conn.execute(
                "UPDATE games SET version = version + 1, updated_at = ?, status = ?, rules = ?, max_players = ?, "
                f"state = ?,{keep_log} creator_id = ?, turn_timeout = ?, deadline = ?, "
                "started_at = COALESCE(?, started_at), finished_at = COALESCE(?, finished_at), "
                "deal = COALESCE(?, deal) "
                f"WHERE id = ? AND version = ?{' AND status = ?' if reseat else ''}",
                (now, new.status.value, rules, new.max_players, state,
                 new.creator_id, new.turn_timeout, new.deadline, started, finished, deal, old.id, old.version,
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
            mark_handled(conn, handling, now)
            return _put_owed(conn, old.id, owed)

        await self._with_marks(work, self._note)
        if handling is not None:
            marked()
        return replace(new, version=old.version + 1, updated_at=now)

    # ------------------------------------------------------------ the outbox

    async def put_owed(self, game_id: int | None, owed: Sequence[Owed]) -> None:
        """Messages owed without a change of the game (a selection, a refreshed timer, a notice). One kind of
        change (a pick changes the presser's hand alone) is one statement, whole by itself: no transaction
        around it, two trips to aiosqlite's thread fewer."""
        statements = _owed_statements(game_id, owed)
        handling = HANDLING.get()
        if handling is not None and statements:  # marked handled with what it owes (storage.updates)
            now = self.now()

            def work(conn: SqlConnection) -> list[OutboxRow]:
                mark_handled(conn, handling, now)
                return _put_owed(conn, game_id, owed)

            await self.db.run(work, self._note)
            marked()
        elif len(statements) == 1:
            await self.db.write_one(*statements[0], then=self._note_rows)
        elif statements:
            await self.db.run(lambda conn: _put_owed(conn, game_id, owed), self._note)

    async def owed(self) -> list[OutboxRow]:
        """Every row whose newest content Telegram does not show yet, read from the database (at the start):
        from then on this process keeps them as it writes them. Read in a write's place in the queue, and kept
        in that order: the writes before it are in what it reads, those after it are kept as they commit."""
        def work(conn: SqlConnection) -> list[OutboxRow]:
            rows = [_outbox_row(r) for r in conn.execute("SELECT * FROM outbox WHERE delivered < wanted ORDER BY id")]
            return [row for row in rows if self.owns(row.home)]

        def committed(rows: list[OutboxRow]) -> None:
            self._owed = {}
            self._note(rows)

        return await self._with_marks(work, committed)

    async def next_owed(self, chat_id: int) -> tuple[OutboxRow | None, bool]:
        """The oldest row of the chat still owed, with its newest content, and whether more are owed."""
        if self._owed is None:
            await self.owed()
        assert self._owed is not None
        rows = self._owed.get(chat_id)
        if not rows:
            return None, False
        return rows[min(rows)], len(rows) > 1

    async def delivered(self, row: OutboxRow, message_id: int | None) -> None:
        """Telegram shows ``row``'s content now (in ``message_id``); the game's own columns follow.

        An edit of a game's message is written with the next write (a move's, or within MARKS_WAIT seconds):
        a move's messages then cost no write of their own. A crash before it loses nothing: the edit is owed
        again, and sent again, and Telegram answers "not modified". A new message is written at once: its id
        is what lets the next edit find it."""
        if message_id == row.message_id and row.game_id is not None:
            current = self._owed.get(row.chat_id, {}).get(row.id) if self._owed is not None else None
            if current is not None and current.message_id == message_id:  # as the mark will leave it
                self._note([replace(current, delivered=max(current.delivered, row.wanted),
                                    resend=current.resend and current.wanted > row.wanted)])
            done, _ = self._marks.get(row.id, (0, None))
            self._marks[row.id] = (max(done, row.wanted), message_id)
            self._marks_later()
            return
        mark = ("UPDATE outbox SET delivered = ?, message_id = ?, resend = CASE WHEN resend <> 0 AND wanted > ? "
                "THEN 1 ELSE 0 END WHERE id = ? RETURNING *", (row.wanted, message_id, row.wanted, row.id))
        if message_id == row.message_id:  # an edit of a message of no game: one statement, its own transaction
            await self.db.write_one(*mark, then=self._note_rows)
            return

        def work(conn: SqlConnection) -> list[OutboxRow]:
            marked = [_outbox_row(r) for r in conn.execute(*mark).fetchall()]
            if row.game_id is not None and row.slot == "table":
                conn.execute("UPDATE games SET message_id = ? WHERE id = ?", (message_id, row.game_id))
            elif row.game_id is not None and (seat := hand_seat(row.slot)) is not None:
                conn.execute("UPDATE seats SET message_id = ? WHERE game_id = ? AND seat = ?",
                             (message_id, row.game_id, seat))
            return marked

        await self.db.run(work, self._note)

    async def write_marks(self) -> None:
        """Write the edits delivered since the last write (a quiet moment, or the bot stopping)."""
        if self._marks_timer is not None:
            self._marks_timer.cancel()
            self._marks_timer = None
        if self._marks:
            await self._with_marks(lambda conn: None)

    def _marks_later(self) -> None:
        if self._marks_timer is None:
            self._marks_timer = asyncio.get_running_loop().call_later(MARKS_WAIT, self._start_writing_marks)

    def _start_writing_marks(self) -> None:
        self._marks_timer = None
        task = asyncio.ensure_future(self._write_marks_now())
        self._marks_tasks.add(task)
        task.add_done_callback(self._marks_tasks.discard)

    async def _write_marks_now(self) -> None:
        try:
            await self.write_marks()
        except Exception as e:  # the disk, say: the marks wait for the next write or try
            log.warning("delivered edits could not be recorded yet (%s); trying again", e)
            self._marks_later()

    async def _with_marks(self, work: Callable[[SqlConnection], T], then: Callable[[T], None] | None = None) -> T:
        """A write that takes the delivered edits along: they leave ``_marks`` as it is queued (so the writes
        queued after it do not write them again) and come back if it fails (or its caller is cancelled: it
        may commit all the same, and a mark written twice changes nothing)."""
        marks: dict[int, tuple[int, int | None]] = {}
        try:
            async with self.db.locked():
                marks, self._marks = self._marks, {}

                def with_marks(conn: SqlConnection) -> T:
                    _write_marks(conn, marks)
                    return work(conn)

                queued = await self.db.queue(with_marks, then)
            return await asyncio.shield(queued)
        except BaseException:
            for row_id, mark in marks.items():
                # the newer mark of a row wins: the one there now may be older, put back by a write that took it
                # before this one and failed first
                if mark[0] > self._marks.get(row_id, (0, None))[0]:
                    self._marks[row_id] = mark
            if self._marks:
                self._marks_later()
            raise

    def _note_rows(self, rows: Iterable[SqlRow]) -> None:
        self._note(_outbox_row(r) for r in rows)

    def _note(self, rows: Iterable[OutboxRow]) -> None:
        """Outbox rows as a committed write left them: the owed ones are kept, the others let go. Called in
        the order of the commits (``Database.queue``), so the rows kept never miss a write. (A row still owed
        may say fewer versions delivered than the database will once the pending ``_marks`` are written, if an
        older version was delivered while this write was on its way: only whether a row is owed matters.)"""
        if self._owed is None:  # not read yet: the first read will find these rows in the database
            return
        for row in rows:
            chat = self._owed.setdefault(row.chat_id, {})
            if row.delivered < row.wanted:
                chat[row.id] = row
            else:
                chat.pop(row.id, None)
                if not chat:
                    del self._owed[row.chat_id]

    async def slot_messages(self, game_id: int) -> dict[str, tuple[int, int]]:
        """The Telegram messages of a game's slots: slot -> (chat, message id)."""
        rows = await self.db.all("SELECT slot, chat_id, message_id FROM outbox WHERE game_id = ? "
                                 "AND message_id IS NOT NULL AND deleted = 0", (game_id,))
        return {r["slot"]: (r["chat_id"], r["message_id"]) for r in rows}

    async def add_panel(self, chat_id: int, message_id: int, kind: str) -> None:
        async with self.db.write() as conn:
            await conn.execute("INSERT INTO panels (chat_id, message_id, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                               (chat_id, message_id, kind))

    async def is_panel(self, chat_id: int, message_id: int, kind: str) -> bool:
        return await self.db.one("SELECT 1 FROM panels WHERE chat_id = ? AND message_id = ? AND kind = ?",
                                 (chat_id, message_id, kind)) is not None

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

    # ------------------------------------------------------------ reviews

    async def save_review(self, game_id: int, review: str, owed: Sequence[Owed]) -> bool:
        """Keep a finished game's review with the messages that announce it, in one transaction; False (and
        nothing written) when the game has one already: each review is made, kept and announced once."""
        now = self.now()

        def work(conn: SqlConnection) -> list[OutboxRow] | None:
            cur = conn.execute("INSERT INTO game_reviews (game_id, review, made_at) VALUES (?, ?, ?) "
                               "ON CONFLICT (game_id) DO NOTHING", (game_id, review, now))
            return _put_owed(conn, game_id, owed) if cur.rowcount == 1 else None

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

    # ------------------------------------------------------------ stats

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

    async def played(self, chat_id: int | None = None, user_id: int | None = None, preset: str | None = None
                     ) -> list[tuple[int, PlayedGame]]:
        """(user id, game) for every seat of finished games, in a chat or everywhere, of one game (preset) or all,
        oldest first."""
        where: list[str] = ["g.status = 'finished'"]
        params: list[int | str] = []
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

    async def set_notify(self, user_id: int, notify: bool) -> None:
        async with self.db.write() as conn:
            await conn.execute("UPDATE users SET notify = ? WHERE id = ?", (int(notify), user_id))

    async def set_hidden(self, user_id: int, hidden: bool) -> None:
        async with self.db.write() as conn:
            await conn.execute("UPDATE users SET hidden = ? WHERE id = ?", (int(hidden), user_id))

    async def set_chat_scoring(self, chat_id: int, scoring: str) -> None:
        async with self.db.write() as conn:
            await conn.execute("INSERT INTO chats (id, scoring) VALUES (?, ?) "
                               "ON CONFLICT (id) DO UPDATE SET scoring = excluded.scoring", (chat_id, scoring))

    async def user_by_username(self, username: str) -> User | None:
        row = await self.db.one("SELECT * FROM users WHERE lower(username) = lower(?)", (username.lstrip("@"),))
        return None if row is None else _user(row)

    async def users_by_ids(self, user_ids: Sequence[int]) -> dict[int, User]:
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.db.all(f"SELECT * FROM users WHERE id IN ({marks})", tuple(user_ids))
        return {r["id"]: _user(r) for r in rows}

    async def results(self, game_id: int) -> list[SqlRow]:
        return await self.db.all("SELECT * FROM game_results WHERE game_id = ? ORDER BY seat", (game_id,))

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
            seats = tuple(Seat(r["seat"], _user(r), r["message_id"], r["missed"], Away(r["away"])) for r in seat_rows)
            deal = None if row["deal"] is None else State.from_json(json.loads(row["deal"]))
            moves = tuple((int(r["seat"]), action_from_json(json.loads(r["action"]))) for r in move_rows)
            marks = [bool(r["auto"]) for r in move_rows]
            auto = frozenset(n for n, mark in enumerate(marks) if mark)
        except (ValueError, TypeError, KeyError, RulesError, StateError) as e:
            raise CorruptRow(f"game {row['id']}: stored row is unreadable: {e}") from None
        return Game(row["id"], row["chat_id"], row["thread_id"], status, row["creator_id"], rules,
                    row["max_players"], state, row["version"], row["message_id"], seats, log_lines,
                    previous, row["updated_at"], row["turn_timeout"], row["deadline"], row["title"], deal, moves, auto)


@lru_cache(maxsize=256)
def _rules_json(rules: Rules) -> str:
    """Rules as stored: every move of a game writes the same rules, so they are encoded once."""
    return json.dumps(rules.to_dict())


def _played(r: SqlRow) -> PlayedGame:
    gave = bool(r["pogony"]) and r["place"] is not None and r["place"] == r["last_place"]
    return PlayedGame(r["game_id"], r["chat_id"], r["finished_at"] or 0.0, r["players"], r["place"], r["rank"],
                      bool(r["loser"]), bool(r["draw"]), bool(r["pogony"]), bool(r["left_game"]), r["penalty"], gave,
                      tuple(int(u) for u in str(r["seated"] or "").split(",") if u))


def _user(row: SqlRow) -> User:
    return User(row["id"], row["name"], row["username"], row["language"], bool(row["private_chat"]),
                row["telegram_language"], bool(row["hidden"]), bool(row["notify"]))


_GONE = ("UPDATE outbox SET text = NULL, markup = NULL, deleted = 1, wanted = wanted + 1 "
         "WHERE game_id IS NOT DISTINCT FROM ? AND deleted = 0 AND slot IN ({slots}) RETURNING *")
_KEPT = ("INSERT INTO outbox (game_id, slot, chat_id, thread_id, text, markup, deleted, resend, home) VALUES {rows} "
         "ON CONFLICT (game_id, slot) DO UPDATE SET text = excluded.text, "
         "markup = excluded.markup, deleted = 0, resend = CASE WHEN outbox.resend <> 0 OR excluded.resend <> 0 "
         "THEN 1 ELSE 0 END, wanted = outbox.wanted + 1 WHERE outbox.text IS DISTINCT FROM excluded.text "
         "OR outbox.markup IS DISTINCT FROM excluded.markup OR outbox.deleted <> 0 OR excluded.resend <> 0 "
         "RETURNING *")


# the chat whose partition delivers a row: its game's (storage.partitions), else its own
_HOME = "COALESCE((SELECT chat_id FROM games WHERE id = ?), ?)"


def _owed_statements(game_id: int | None, owed: Sequence[Owed]) -> list[tuple[str, tuple[object, ...]]]:
    """Upsert each slot's wanted content; content equal to what is wanted already changes nothing, and
    deleting a slot that was never written (a seat never pinged) writes nothing. One statement per kind
    (a game owes at most a few dozen slots), each returning the rows it changed."""
    owed = list({o.slot: o for o in owed}.values())  # a slot's newest content: one row of a statement each
    gone = [o.slot for o in owed if o.deleted]
    kept = [(game_id, o.slot, o.chat_id, o.thread_id, o.text, o.markup, int(o.resend), game_id, o.chat_id)
            for o in owed if not o.deleted]
    statements: list[tuple[str, tuple[object, ...]]] = []
    if gone:
        statements.append((_GONE.format(slots=", ".join("?" * len(gone))), (game_id, *gone)))
    if kept:
        statements.append((_KEPT.format(rows=", ".join([f"(?, ?, ?, ?, ?, ?, 0, ?, {_HOME})"] * len(kept))),
                           tuple(value for row in kept for value in row)))
    return statements


def _put_owed(conn: SqlConnection, game_id: int | None, owed: Sequence[Owed]) -> list[OutboxRow]:
    """Within a write (``Database.run``): write what ``owed`` changes; the rows as changed, to be noted
    (``Repo._note``) once committed."""
    return [_outbox_row(r) for sql, params in _owed_statements(game_id, owed)
            for r in conn.execute(sql, params).fetchall()]


def _write_marks(conn: SqlConnection, marks: dict[int, tuple[int, int | None]]) -> None:
    """Within a write: the delivered edits taken from ``Repo._marks`` before it (the larger: a later mark may have
    been written meanwhile). An edit of a message the slot has left since (sent anew meanwhile, and that
    recorded at once) changes nothing: its id must not come back."""
    if marks:
        conn.executemany(
            "UPDATE outbox SET delivered = CASE WHEN delivered > ? THEN delivered ELSE ? END, "
            "resend = CASE WHEN resend <> 0 AND wanted > ? THEN 1 ELSE 0 END "
            "WHERE id = ? AND message_id IS NOT DISTINCT FROM ?",
            [(done, done, done, row_id, message_id) for row_id, (done, message_id) in marks.items()])


def _outbox_row(r: SqlRow) -> OutboxRow:
    return OutboxRow(r["id"], r["game_id"], r["slot"], r["chat_id"], r["thread_id"], r["text"], r["markup"],
                     bool(r["deleted"]), bool(r["resend"]), r["wanted"], r["delivered"], r["message_id"],
                     r["chat_id"] if r["home"] is None else r["home"])
