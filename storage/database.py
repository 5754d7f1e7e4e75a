"""The two databases behind one interface: SQLite (a file, the default) and PostgreSQL (a URL).

``DATABASE_URL=postgresql://…`` selects PostgreSQL; otherwise the SQLite file ``DATABASE_PATH``. The repository
(``storage.rows``) writes one SQL for both, through :class:`Database`; a write's function is given a
:class:`SqlConnection` (sqlite3's own connection, or :class:`storage.postgres.Connection`). Where the two differ
the database says so itself (:attr:`Database.shared`, :meth:`Database.wake`, :meth:`Database.lazy_commit`): no
caller asks which engine it is for that.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from storage.sqlite import SqliteDatabase

if TYPE_CHECKING:  # storage.postgres is imported when a URL asks for it: a bot on SQLite never loads psycopg
    from storage.postgres import PostgresDatabase

SqlRow = Any  # sqlite3.Row or storage.postgres.Row: both read by index and by column name
T = TypeVar("T")


class SqlCursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class SqlConnection(Protocol):
    def execute(self, sql: str, parameters: Any = ..., /) -> SqlCursor: ...

    def executemany(self, sql: str, parameters: Any, /) -> SqlCursor: ...


class WriteConnection(Protocol):
    """A :meth:`Database.write` transaction's connection (aiosqlite's, or storage.postgres's)."""

    async def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...

    async def execute_fetchall(self, sql: str, parameters: Any = ..., /) -> Iterable[Any]: ...


class Database(Protocol):
    """Every call the repository makes, on either engine."""

    engine: str  # "sqlite" or "postgresql": for the logs and the tests, never to choose the SQL
    integrity_errors: tuple[type[Exception], ...]  # what a broken constraint raises

    @property
    def shared(self) -> bool:
        """Whether several bot processes may use this database at once, sharing its games (PostgreSQL)."""

    def wake(self, channel: str) -> str | None:
        """An expression to select in a write that wakes the other processes at its commit (None: none to wake)."""

    def lazy_commit(self) -> str | None:
        """A statement that lets the write it is in commit without waiting for the disk (None: not offered)."""

    async def close(self) -> None: ...

    def write(self) -> AbstractAsyncContextManager[WriteConnection]: ...

    def locked(self) -> asyncio.Lock: ...

    async def run(self, work: Callable[[SqlConnection], T], then: Callable[[T], None] | None = None) -> T: ...

    async def queue(self, work: Callable[[SqlConnection], T],
                    then: Callable[[T], None] | None = None) -> asyncio.Future[T]: ...

    async def write_one(self, sql: str, params: Iterable[Any] = (),
                        then: Callable[[list[Any]], None] | None = None) -> list[Any]: ...

    async def one(self, sql: str, params: Iterable[Any] = ()) -> Any | None: ...

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Any]: ...

    async def version(self) -> int: ...

    async def lead(self, standing_by: Callable[[], None] = ..., poll: float = ...) -> None: ...

    async def trace(self, callback: Callable[[str], Any] | None) -> None: ...

    def json_text(self, column: str, key: str) -> str: ...

    def joined(self, expression: str) -> str: ...


def is_postgres_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


async def open_database(target: str | Path) -> Database:
    """Open (and migrate) the database ``target`` names: a ``postgresql://`` URL, or a SQLite file's path.
    Raises :class:`storage.sqlite.DatabaseError` with one clear line when it cannot be used."""
    if isinstance(target, str) and is_postgres_url(target):
        return await open_postgres(target)
    return await SqliteDatabase.open(target)


async def open_postgres(url: str) -> PostgresDatabase:
    from storage.postgres import PostgresDatabase

    return await PostgresDatabase.open(url)
