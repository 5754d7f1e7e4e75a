"""The two databases behind one interface: SQLite (a file, the default) and PostgreSQL (a URL).

``DATABASE_URL=postgresql://…`` selects PostgreSQL; otherwise the SQLite file ``DATABASE_PATH``.
:class:`storage.repo.Repo` writes one SQL for both; a write's function is given a :class:`SqlConnection`
(sqlite3's own connection, or :class:`storage.postgres.Connection`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from storage.sqlite import SqliteDatabase

if TYPE_CHECKING:  # storage.postgres is imported when a URL asks for it: a bot on SQLite never loads psycopg
    from storage.postgres import PostgresDatabase

Database: TypeAlias = "SqliteDatabase | PostgresDatabase"  # every call the repository makes, on either
SqlRow = Any  # sqlite3.Row or storage.postgres.Row: both read by index and by column name


class SqlCursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class SqlConnection(Protocol):
    def execute(self, sql: str, parameters: Any = ..., /) -> SqlCursor: ...

    def executemany(self, sql: str, parameters: Any, /) -> SqlCursor: ...


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
