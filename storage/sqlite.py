"""One SQLite database through aiosqlite: pragmas, numbered migrations, write transactions."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

log = logging.getLogger(__name__)

T = TypeVar("T")


def migrations(package: str = "storage.migrations") -> list[tuple[int, str]]:
    """Numbered SQL files of ``package`` (SQLite's; storage.migrations_pg has PostgreSQL's), in order: (number,
    sql)."""
    found = []
    for entry in resources.files(package).iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), entry.read_text(encoding="utf-8")))
    return sorted(found)



def on_its_thread(conn: aiosqlite.Connection, work: Callable[[sqlite3.Connection], T]) -> Coroutine[Any, Any, T]:
    """``work`` given the raw sqlite3 connection, run on aiosqlite's own thread in its queue's order. aiosqlite
    has no public call for this: its private ``_execute`` and ``_conn`` are how it runs its own calls. This is
    the one place they are used; aiosqlite is pinned below 0.23, and tests/storage/test_sqlite_seam.py fails
    first if a release changes them."""
    return conn._execute(lambda: work(conn._conn))  # type: ignore[no-untyped-call]

class DatabaseError(Exception):
    """The database file cannot be used: not a database, corrupt, or read-only. The message says which."""


class SqliteDatabase:
    """A connection in autocommit mode; writes go through :meth:`write` one at a time."""

    engine = "sqlite"
    shared = False  # one bot process on a file: nobody else to wake, no partitions
    integrity_errors: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        """Open (or create) the database, check it can be read and written, migrate it.
        Raises DatabaseError with one clear line when it cannot be used."""
        try:
            conn = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as e:
            raise DatabaseError(f"the database {path} cannot be opened: {e}") from None
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA busy_timeout=5000")
            async with conn.execute("PRAGMA quick_check") as cur:
                verdict = await cur.fetchone()
            if verdict is None or verdict[0] != "ok":
                raise DatabaseError(f"the database {path} is corrupt ({verdict[0] if verdict else '?'}); restore "
                                    "it from a backup")
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA synchronous=NORMAL")
            # a read-only file opens fine and fails every write later: find out now, with a write that changes nothing
            async with conn.execute("PRAGMA user_version") as cur:
                version = await cur.fetchone()
            await conn.execute("BEGIN IMMEDIATE")
            await conn.execute(f"PRAGMA user_version={int(version[0]) if version else 0}")
            await conn.execute("COMMIT")
            db = cls(conn)
            await db.migrate()
        except DatabaseError:
            await conn.close()
            raise
        except sqlite3.Error as e:
            await conn.close()
            problem = str(e)
            if "readonly" in problem or "read-only" in problem:
                raise DatabaseError(f"the database {path} is read-only: the bot must be able to write it (and "
                                    "its folder)") from None
            raise DatabaseError(f"the database {path} cannot be used: {problem}") from None
        return db

    async def close(self) -> None:
        await self.conn.close()

    async def migrate(self) -> None:
        """Apply every migration newer than ``PRAGMA user_version``, each in its own transaction."""
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = int(row[0]) if row else 0
        for number, sql in migrations():
            if number <= current:
                continue
            async with self.write() as conn:
                for statement in sql.split(";\n"):
                    if statement.strip():
                        await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version={number}")
            log.info("database migrated to version %d", number)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` on any error."""
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    def locked(self) -> asyncio.Lock:
        """The writes' turn: held by a :meth:`write` transaction from its BEGIN to its COMMIT, and by the
        others only while they join aiosqlite's queue (:meth:`queue`)."""
        return self._write_lock

    async def run(self, work: Callable[[sqlite3.Connection], T], then: Callable[[T], None] | None = None) -> T:
        """A write transaction in one trip to aiosqlite's thread (:meth:`queue` in the writes' turn)."""
        async with self._write_lock:
            queued = await self.queue(work, then)
        return await asyncio.shield(queued)

    async def queue(self, work: Callable[[sqlite3.Connection], T],
                    then: Callable[[T], None] | None = None) -> asyncio.Future[T]:
        """Put a write transaction in aiosqlite's queue, with :meth:`locked` held; its result will come on the
        future returned. ``work`` runs on aiosqlite's thread, given the connection, between ``BEGIN
        IMMEDIATE`` and ``COMMIT`` (``ROLLBACK`` if it raises).

        Why: each trip to that thread costs far more CPU in thread switches than a statement does, and a
        move's write through :meth:`write` took six; and holding the writes' turn until the result is back
        made every write of every game wait for the event loop to come round to the one before it
        (docs/performance.md, "Under load"). One thread runs the queue in order, so transactions queued
        one after another cannot mix; the turn is needed only to stay out of a :meth:`write` in progress.

        ``then`` gets the result in the event loop once committed, in the order of the commits and before
        whoever awaits the future, even when that caller was cancelled meanwhile: what the process keeps of
        the database in memory must follow every commit (:func:`on_its_thread` puts the transaction in the
        queue)."""
        assert self._write_lock.locked(), "a write is queued in the writes' turn (SqliteDatabase.locked)"

        def transaction(raw: sqlite3.Connection) -> T:
            raw.execute("BEGIN IMMEDIATE")
            try:
                result = work(raw)
                raw.execute("COMMIT")
            except BaseException:
                if raw.in_transaction:  # a COMMIT that failed (the disk full) leaves it open too
                    raw.execute("ROLLBACK")
                raise
            return result

        return await self._queue(on_its_thread(self.conn, transaction), then)

    async def _queue(self, call: Coroutine[Any, Any, T], then: Callable[[T], None] | None) -> asyncio.Future[T]:
        queued = asyncio.ensure_future(call)
        if then is not None:
            def committed(done: asyncio.Future[T]) -> None:
                if not done.cancelled() and done.exception() is None:
                    then(done.result())
            queued.add_done_callback(committed)
        # the call's first step puts it in aiosqlite's queue: it runs before this resumes (the loop's ready
        # callbacks run in order), so the turn is given up only once the write has its place
        await asyncio.sleep(0)
        return queued

    async def write_one(self, sql: str, params: Iterable[Any] = (),
                        then: Callable[[list[aiosqlite.Row]], None] | None = None) -> list[aiosqlite.Row]:
        """One statement, a transaction of its own (autocommit), in turn with the other writes; the rows it
        returns (``RETURNING``), if any, also given to ``then`` as :meth:`queue` does."""
        async def rows() -> list[aiosqlite.Row]:
            return list(await self.conn.execute_fetchall(sql, tuple(params)))

        async with self._write_lock:
            queued = await self._queue(rows(), then)
        return await asyncio.shield(queued)

    async def one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        """One trip to aiosqlite's thread (a cursor's execute, fetch and close were three, each a thread
        switch: most of a read's cost under load)."""
        return list(await self.conn.execute_fetchall(sql, tuple(params)))

    async def version(self) -> int:
        row = await self.one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def lead(self, standing_by: Callable[[], None] = lambda: None, poll: float = 0.5) -> None:
        """PostgreSQL's makes this process the one that decides (``storage.postgres.PostgresDatabase.lead``); a
        file has one process: it leads at once (one process per file is the operator's care; the Docker image
        runs one)."""

    async def trace(self, callback: Callable[[str], Any] | None) -> None:
        """``callback`` gets every statement run from now on (None: no more)."""
        await self.conn.set_trace_callback(callback)  # type: ignore[arg-type]  # None stops it, as in sqlite3

    # the few places where the two dialects differ (the repository, storage.rows; storage/postgres.py has PostgreSQL's)
    @staticmethod
    def wake(channel: str) -> None:
        return None

    @staticmethod
    def lazy_commit() -> None:
        return None

    @staticmethod
    def json_text(column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    @staticmethod
    def joined(expression: str) -> str:
        return f"GROUP_CONCAT({expression})"
