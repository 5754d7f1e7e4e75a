"""Where a test keeps its database: a SQLite file of its own, or a PostgreSQL schema of its own.

The PostgreSQL server is ``TEST_DATABASE_URL`` (default: the machine's, ``postgresql://postgres@127.0.0.1:5432/
test``). Where none answers, its tests are skipped with a line saying how to run them; with
``REQUIRE_POSTGRES=1`` (``.ci/run`` sets it) they fail instead.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

POSTGRES = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
ENGINES = ("sqlite", "postgresql")


class Place:
    """A test's database: ``target`` opens it (``storage.engines.open_database``); :meth:`sql` reaches it
    directly, as another program would (to break a row, or to read what was written)."""

    def __init__(self, engine: str, target: str | Path) -> None:
        self.engine = engine
        self.target = target

    def sql(self, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one statement (``?`` placeholders) in a transaction of its own; the rows it returns."""
        if self.engine == "sqlite":
            with sqlite3.connect(self.target) as db:
                return [tuple(r) for r in db.execute(statement, params).fetchall()]
        with psycopg.connect(str(self.target), autocommit=True) as pg:
            cur = pg.execute(statement.replace("?", "%s"), params)  # type: ignore[arg-type]
            return [tuple(r) for r in cur.fetchall()] if cur.description else []

    def crash_script(self, statements: list[str]) -> str:
        """A Python program that opens a transaction, runs ``statements`` and dies before committing."""
        if self.engine == "sqlite":
            connect = f"import sqlite3; db = sqlite3.connect({str(self.target)!r}, isolation_level=None)"
            begin = "BEGIN IMMEDIATE"
        else:
            connect = f"import psycopg; db = psycopg.connect({str(self.target)!r}, autocommit=True)"
            begin = "BEGIN"
        lines = [connect, f"db.execute({begin!r})", *(f"db.execute({s!r})" for s in statements), "import os",
                 "os._exit(1)  # the process dies in the middle of the transaction"]
        return "\n".join(lines)


def postgres_schema(name: str) -> Iterator[str]:
    """A URL of ``POSTGRES`` whose tables live in a new schema (dropped afterwards)."""
    try:
        admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as e:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required here (REQUIRE_POSTGRES=1) but {POSTGRES} does not answer: {e}")
        pytest.skip(f"no PostgreSQL at {POSTGRES}: set TEST_DATABASE_URL=postgresql://… to run the PostgreSQL tests")
    schema = f"t_{name}_{uuid.uuid4().hex[:10]}"
    with admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')  # type: ignore[arg-type]
        try:
            yield f"{POSTGRES}{'&' if '?' in POSTGRES else '?'}options=-csearch_path%3D{schema}"
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')  # type: ignore[arg-type]


@pytest.fixture(params=ENGINES)
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Place]:
    """Each test that takes it runs twice: on a SQLite file, and on PostgreSQL."""
    if request.param == "sqlite":
        yield Place("sqlite", tmp_path / "db.sqlite3")
        return
    for url in postgres_schema("t"):
        yield Place("postgresql", url)
