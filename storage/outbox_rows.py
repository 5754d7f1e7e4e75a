"""The outbox's rows: each slot's newest content owed to Telegram and what Telegram shows of it; this process's
cache of the rows still owed (read once, then kept by every write) and the delivered edits waiting to go with the
next write."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from storage.database import Database, SqlConnection, SqlRow
from storage.models import OutboxRow, Owed
from storage.rows import Rows
from storage.slots import TABLE, Slot, hand_seat
from storage.updates import HANDLING, mark_handled, marked

log = logging.getLogger(__name__)
T = TypeVar("T")
MARKS_WAIT = 1.0  # seconds a delivered edit may wait for a write to go with


class OutboxRows(Rows):
    def __init__(self, db: Database, now: Callable[[], float] = time.time) -> None:
        super().__init__(db, now)
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

    async def put_owed(self, game_id: int | None, owed: Sequence[Owed]) -> None:
        """Messages owed without a change of the game (a selection, a refreshed timer, a notice). One kind of
        change (a pick changes the presser's hand alone) is one statement, whole by itself: no transaction
        around it, two trips to aiosqlite's thread fewer."""
        statements = owed_statements(game_id, owed)
        handling = HANDLING.get()
        if handling is not None and statements:  # marked handled with what it owes (storage.updates)
            now = self.now()

            def work(conn: SqlConnection) -> list[OutboxRow]:
                mark_handled(conn, handling, now)
                return write_owed(conn, game_id, owed)

            await self.db.run(work, self._note)
            marked()
        elif len(statements) == 1:
            await self.db.write_one(*statements[0], then=self._note_rows)
        elif statements:
            await self.db.run(lambda conn: write_owed(conn, game_id, owed), self._note)

    async def owed(self) -> list[OutboxRow]:
        """Every row whose newest content Telegram does not show yet, read from the database (at the start):
        from then on this process keeps them as it writes them. Read in a write's place in the queue, and kept
        in that order: the writes before it are in what it reads, those after it are kept as they commit."""
        def work(conn: SqlConnection) -> list[OutboxRow]:
            rows = [outbox_row(r) for r in conn.execute("SELECT * FROM outbox WHERE delivered < wanted ORDER BY id")]
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
            marked = [outbox_row(r) for r in conn.execute(*mark).fetchall()]
            if row.game_id is not None and row.slot == TABLE:
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
        self._note(outbox_row(r) for r in rows)

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

    async def slot_messages(self, game_id: int) -> dict[Slot, tuple[int, int]]:
        """The Telegram messages of a game's slots: slot -> (chat, message id)."""
        rows = await self.db.all("SELECT slot, chat_id, message_id FROM outbox WHERE game_id = ? "
                                 "AND message_id IS NOT NULL AND deleted = 0", (game_id,))
        return {Slot.parse(r["slot"]): (r["chat_id"], r["message_id"]) for r in rows}


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


def owed_statements(game_id: int | None, owed: Sequence[Owed]) -> list[tuple[str, tuple[object, ...]]]:
    """Upsert each slot's wanted content; content equal to what is wanted already changes nothing, and
    deleting a slot that was never written (a seat never pinged) writes nothing. One statement per kind
    (a game owes at most a few dozen slots), each returning the rows it changed."""
    owed = list({o.slot: o for o in owed}.values())  # a slot's newest content: one row of a statement each
    gone = [str(o.slot) for o in owed if o.deleted]
    kept = [(game_id, str(o.slot), o.chat_id, o.thread_id, o.text, o.markup, int(o.resend), game_id, o.chat_id)
            for o in owed if not o.deleted]
    statements: list[tuple[str, tuple[object, ...]]] = []
    if gone:
        statements.append((_GONE.format(slots=", ".join("?" * len(gone))), (game_id, *gone)))
    if kept:
        statements.append((_KEPT.format(rows=", ".join([f"(?, ?, ?, ?, ?, ?, 0, ?, {_HOME})"] * len(kept))),
                           tuple(value for row in kept for value in row)))
    return statements


def write_owed(conn: SqlConnection, game_id: int | None, owed: Sequence[Owed]) -> list[OutboxRow]:
    """Within a write (``Database.run``): write what ``owed`` changes; the rows as changed, to be noted
    (``OutboxRows._note``) once committed."""
    return [outbox_row(r) for sql, params in owed_statements(game_id, owed)
            for r in conn.execute(sql, params).fetchall()]


def _write_marks(conn: SqlConnection, marks: dict[int, tuple[int, int | None]]) -> None:
    """Within a write: the delivered edits taken from ``OutboxRows._marks`` before it (the larger: a later mark may have
    been written meanwhile). An edit of a message the slot has left since (sent anew meanwhile, and that
    recorded at once) changes nothing: its id must not come back."""
    if marks:
        conn.executemany(
            "UPDATE outbox SET delivered = CASE WHEN delivered > ? THEN delivered ELSE ? END, "
            "resend = CASE WHEN resend <> 0 AND wanted > ? THEN 1 ELSE 0 END "
            "WHERE id = ? AND message_id IS NOT DISTINCT FROM ?",
            [(done, done, done, row_id, message_id) for row_id, (done, message_id) in marks.items()])


def outbox_row(r: SqlRow) -> OutboxRow:
    return OutboxRow(r["id"], r["game_id"], Slot.parse(r["slot"]), r["chat_id"], r["thread_id"], r["text"], r["markup"],
                     bool(r["deleted"]), bool(r["resend"]), r["wanted"], r["delivered"], r["message_id"],
                     r["chat_id"] if r["home"] is None else r["home"])
