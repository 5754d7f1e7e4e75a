"""One PostgreSQL database through psycopg 3, with the same calls as :class:`storage.sqlite.SqliteDatabase`.

Why psycopg 3 and not asyncpg: the repository writes a move as one function of a plain connection
(``Database.run``), run on the database's own thread in one trip, and commits are noted in the order they
happen. psycopg's synchronous connection on one thread of our own keeps that shape exactly, so every
statement of the repository (``storage.rows``) is the same on both engines (``?`` placeholders become ``%s``
here); asyncpg would need every write written twice. psycopg also takes ``postgresql://`` URLs as libpq does
(``PGPASSWORD``, ``~/.pgpass``, ``sslmode``), and its binary wheel brings libpq along.

Flags are integer columns on both engines; a Python ``bool`` is sent as 0 or 1.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any, ClassVar, TypeVar
from urllib.parse import urlsplit

import psycopg
from psycopg.adapt import Dumper
from psycopg.rows import RowMaker

from storage.sqlite import DatabaseError, migrations

log = logging.getLogger(__name__)
T = TypeVar("T")
MIGRATIONS_LOCK = 0x6475726B  # "durk": one process at a time migrates (pg_advisory_xact_lock)
OWNER_LOCK = 0x64757262  # "durb": held by the one bot process that polls Telegram on the schema (PostgresDatabase.lead)
LEAD_POLL = 0.5  # how often a standing-by process tries to take the lead


def shown(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"


@lru_cache(maxsize=512)
def _sql(statement: str) -> str:
    """The repository's SQL (``?`` placeholders, as sqlite3 takes them) in psycopg's form (``%s``)."""
    return statement.replace("%", "%%").replace("?", "%s")


class _BoolAsInt(Dumper):
    oid = psycopg.postgres.types["int8"].oid

    def dump(self, obj: bool) -> bytes:
        return b"1" if obj else b"0"


class Row(tuple[Any, ...]):
    """A row read by index or by column name, as ``sqlite3.Row`` is (the first column of a name wins)."""

    __slots__ = ()
    _index: ClassVar[dict[str, int]] = {}

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


@lru_cache(maxsize=256)
def _row_class(names: tuple[str, ...]) -> type[Row]:
    index: dict[str, int] = {}
    for i, name in enumerate(names):
        index.setdefault(name, i)
    return type("Row", (Row,), {"__slots__": (), "_index": index})


def _rows(cursor: psycopg.Cursor[Any]) -> RowMaker[Row]:
    names = tuple(c.name for c in cursor.description or ())
    return _row_class(names)


class Cursor:
    """What a statement gave: its rows (read at once, on the database's thread) and the rows it changed."""

    def __init__(self, rows: list[Row], rowcount: int) -> None:
        self.rows = rows
        self.rowcount = rowcount

    def fetchall(self) -> list[Row]:
        return self.rows

    def fetchone(self) -> Row | None:
        return self.rows[0] if self.rows else None

    def __iter__(self) -> Any:
        return iter(self.rows)


class Connection:
    """The connection a write's function is given (``Database.run``): sqlite3's calls, on PostgreSQL."""

    def __init__(self, conn: psycopg.Connection[Row]) -> None:
        self.raw = conn
        self.trace: Callable[[str], Any] | None = None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        if self.trace is not None:
            self.trace(sql)
        cur = self.raw.execute(_sql(sql), tuple(params))
        return Cursor(cur.fetchall() if cur.description else [], cur.rowcount)

    def control(self, statement: str) -> None:
        """BEGIN, COMMIT or ROLLBACK: traced as sqlite3 traces them, so both engines count the same statements."""
        if self.trace is not None:
            self.trace(statement)
        self.raw.execute(statement)

    def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> Cursor:
        rows = [tuple(p) for p in seq]
        if self.trace is not None:  # once per statement run, as sqlite3 calls it
            for _ in rows:
                self.trace(sql)
        with self.raw.cursor() as cur:
            cur.executemany(_sql(sql), rows)
            return Cursor([], cur.rowcount)


class _AsyncConnection:
    """The connection inside :meth:`PostgresDatabase.write`: each call one trip to the database's thread."""

    def __init__(self, db: PostgresDatabase) -> None:
        self.db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return await self.db._call(lambda conn: conn.execute(sql, params))

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return (await self.execute(sql, params)).rows


class PostgresDatabase:
    """One connection in autocommit mode, used from one thread of its own, so that calls run in the order
    made; writes go through :meth:`write`, :meth:`run` or :meth:`write_one`, one transaction at a time."""

    engine = "postgresql"
    shared = True  # several bot processes may serve one database: they share its games (storage.partitions)

    def __init__(self, conn: psycopg.Connection[Row], url: str) -> None:
        self.conn = Connection(conn)
        self.url = url
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="postgres")
        self._write_lock = asyncio.Lock()
        self._claimed = False
        self._watching: asyncio.Future[None] | None = None
        # called (on the database's thread) when the connection was lost and another process leads by now: this
        # one must stop deciding at once (the bot ends the process, bot.app)
        self.lost_lead: Callable[[], None] = self._lead_taken
        self._in_write = False  # between write()'s BEGIN and its end: a lost connection is not made again there

    @staticmethod
    def _connect(url: str) -> psycopg.Connection[Row]:
        conn = psycopg.connect(url, autocommit=True, row_factory=_rows, connect_timeout=10)
        conn.adapters.register_dumper(bool, _BoolAsInt)
        return conn

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        """Connect, migrate. Raises DatabaseError with one clear line when the server cannot be used."""
        try:
            conn = await asyncio.get_running_loop().run_in_executor(None, cls._connect, url)
        except psycopg.Error as e:
            problem = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise DatabaseError(f"the database {shown(url)} cannot be reached: {problem}") from None
        db = cls(conn, url)
        try:
            await db.migrate()
        except psycopg.Error as e:
            await db.close()
            raise DatabaseError(f"the database {shown(url)} cannot be used: {str(e).strip()}") from None
        return db

    async def close(self) -> None:
        if self._watching is not None:
            self._watching.cancel()
        await asyncio.get_running_loop().run_in_executor(self._thread, self.conn.raw.close)
        self._thread.shutdown(wait=True)

    async def _call(self, work: Callable[[Connection], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._connected, work)

    def _connected(self, work: Callable[[Connection], T]) -> T:
        """``work`` on the database's thread, connected again first if the connection was lost (the server
        restarted, say): the call that found it lost failed, the ones after it go on. The lead is taken again."""
        if self.conn.raw.broken:
            if self._in_write:  # the rest of that transaction must not go on by itself on a new connection
                raise psycopg.OperationalError("the connection was lost in the middle of a transaction")
            log.warning("the connection to %s was lost; connecting again", shown(self.url))
            self.conn.raw.close()
            self.conn.raw = self._connect(self.url)
            if self._claimed and not _take_claim(self.conn):
                self.lost_lead()
        return work(self.conn)

    async def migrate(self) -> None:
        """Apply every migration newer than the stored version, each in its own transaction, with the other
        processes kept out while it runs (they find it done and apply nothing)."""
        await self._call(lambda conn: conn.raw.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"))
        for number, sql in migrations("storage.migrations_pg"):
            def step(conn: Connection, number: int = number, sql: str = sql) -> bool:
                with conn.raw.transaction():
                    conn.raw.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATIONS_LOCK,))
                    if _stored_version(conn) >= number:
                        return False
                    for statement in sql.split(";\n"):
                        if statement.strip():
                            conn.raw.execute(statement.encode())  # no parameters: % is no placeholder
                    conn.raw.execute("DELETE FROM schema_version")
                    conn.raw.execute("INSERT INTO schema_version (version) VALUES (%s)", (number,))
                    return True

            if await self._call(step):
                log.info("database migrated to version %d", number)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[_AsyncConnection]:
        """``BEGIN`` … ``COMMIT``, or ``ROLLBACK`` on any error."""
        async with self._write_lock:
            await self._call(lambda conn: conn.control("BEGIN"))
            self._in_write = True
            try:
                yield _AsyncConnection(self)
                await self._call(lambda conn: conn.control("COMMIT"))
            except BaseException:
                self._in_write = False
                await asyncio.get_running_loop().run_in_executor(self._thread, _roll_back, self.conn)
                raise
            finally:
                self._in_write = False

    def locked(self) -> asyncio.Lock:
        return self._write_lock

    async def run(self, work: Callable[[Connection], T], then: Callable[[T], None] | None = None) -> T:
        async with self._write_lock:
            queued = await self.queue(work, then)
        return await asyncio.shield(queued)

    async def queue(self, work: Callable[[Connection], T],
                    then: Callable[[T], None] | None = None) -> asyncio.Future[T]:
        """As :meth:`storage.sqlite.SqliteDatabase.queue`: ``work`` runs in one transaction on the database's thread, in
        the order queued; ``then`` gets its result in the event loop once committed, in the order of commits."""
        assert self._write_lock.locked(), "a write is queued in the writes' turn (Database.locked)"

        def transaction(conn: Connection) -> T:
            conn.control("BEGIN")
            try:
                result = work(conn)
                conn.control("COMMIT")
            except BaseException:
                _roll_back(conn)
                raise
            return result

        return self._submit(transaction, then)

    def _submit(self, work: Callable[[Connection], T], then: Callable[[T], None] | None) -> asyncio.Future[T]:
        """``work`` on the database's thread, after everything submitted before; ``then`` as :meth:`queue`."""
        queued: asyncio.Future[T] = asyncio.get_running_loop().run_in_executor(self._thread, self._connected, work)
        if then is not None:
            def committed(done: asyncio.Future[T]) -> None:
                if not done.cancelled() and done.exception() is None:
                    then(done.result())
            queued.add_done_callback(committed)
        return queued

    async def write_one(self, sql: str, params: Iterable[Any] = (),
                        then: Callable[[list[Row]], None] | None = None) -> list[Row]:
        values = tuple(params)

        def statement(conn: Connection) -> list[Row]:  # one statement: a transaction by itself (autocommit)
            return conn.execute(sql, values).rows

        async with self._write_lock:
            queued = self._submit(statement, then)
        return await asyncio.shield(queued)

    async def one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        values = tuple(params)
        return await self._call(lambda conn: conn.execute(sql, values).rows)

    async def version(self) -> int:
        return await self._call(_stored_version)

    async def lead(self, standing_by: Callable[[], None] = lambda: None, poll: float = LEAD_POLL) -> None:
        """Return once this process holds the schema's one lock (the poller's, with long polling: bot.run.serve), for
        as long as its connection lives; the other processes wait here, trying every ``poll`` seconds, to take
        over the moment its holder's connection goes (a process killed lets go with it). ``standing_by`` is
        called once if another process holds it now."""
        told = False
        while True:
            try:
                if await self._call(_take_claim):
                    break
            except psycopg.Error as e:  # the connection was cut (a server restart, pg_terminate_backend) or is
                # refused for now: standing by goes on, and the next try connects again
                log.warning("standing by on %s: %s; trying again", shown(self.url), e)
            if not told:
                standing_by()
                told = True
            await asyncio.sleep(poll)
        self._claimed = True
        self._watching = asyncio.ensure_future(self._watch_lead(poll))

    async def _watch_lead(self, poll: float) -> None:
        """A leader that has nothing to do still finds out within ``poll`` seconds that its connection (and with
        it the lead) was lost: the call after the one that finds it lost connects again and takes the lead
        again, or learns another process leads (:attr:`lost_lead`)."""
        while True:
            await asyncio.sleep(poll)
            try:
                await self._call(lambda conn: conn.raw.execute("SELECT 1"))
            except (psycopg.Error, DatabaseError) as e:
                log.warning("the connection to %s: %s", shown(self.url), e)

    def _lead_taken(self) -> None:
        """:attr:`lost_lead` by itself: the call that found the lead taken fails."""
        raise DatabaseError(f"the database {shown(self.url)} was claimed by another durak-bot process while the "
                            "connection was lost")

    def listen(self, channel: str, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake`` (in the event loop) at each ``NOTIFY channel``, and once a second whatever comes (a
        lost connection is made again meanwhile); returns what stops it. A thread with a connection of its own."""
        loop = asyncio.get_running_loop()
        stopped = threading.Event()

        def listening() -> None:
            while not stopped.is_set():
                try:
                    with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
                        conn.execute(f"LISTEN {channel}")
                        while not stopped.is_set():
                            for _ in conn.notifies(timeout=1.0, stop_after=1):
                                break
                            loop.call_soon_threadsafe(wake)
                except psycopg.Error as e:
                    log.warning("listening to %s: %s; again in a second", shown(self.url), e)
                    stopped.wait(1.0)
                except RuntimeError:  # the event loop closed
                    return

        threading.Thread(target=listening, name="postgres-listen", daemon=True).start()
        return stopped.set

    async def trace(self, callback: Callable[[str], Any] | None) -> None:
        """``callback`` gets every statement of the repository run from now on (None: no more)."""
        self.conn.trace = callback

    # the few places where the two dialects differ (the repository, storage.rows)
    @staticmethod
    def wake(channel: str) -> str:
        return f"pg_notify('{channel}', '')"

    @staticmethod
    def lazy_commit() -> str:
        return "SET LOCAL synchronous_commit TO OFF"

    @staticmethod
    def json_text(column: str, key: str) -> str:
        return f"({column}::json ->> '{key}')"

    @staticmethod
    def joined(expression: str) -> str:
        return f"string_agg(({expression})::text, ',')"

    integrity_errors: tuple[type[Exception], ...] = (psycopg.IntegrityError,)


def _roll_back(conn: Connection) -> None:
    """After a failed statement or COMMIT: end the transaction if one is open (a lost connection has none: the
    server rolled it back)."""
    if not conn.raw.broken and conn.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        conn.control("ROLLBACK")


def _take_claim(conn: Connection) -> bool:
    row = conn.raw.execute("SELECT pg_try_advisory_lock(%s, hashtext(current_schema()))", (OWNER_LOCK,)).fetchone()
    return bool(row and row[0])


def _stored_version(conn: Connection) -> int:
    row = conn.raw.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0]) if row is not None and row[0] is not None else 0
