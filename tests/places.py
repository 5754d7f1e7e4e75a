"""Where a test keeps its database: a SQLite file of its own, or a PostgreSQL schema of its own.

The storage tests take :func:`place` and run on both. The end-to-end tests name a SQLite file, and with
``TEST_ENGINE=postgresql`` (``.ci/run``'s second pass) :func:`place_of` turns each file into a schema of its own
instead, the same schema whenever the same file is named (a bot restarted on it finds its games).

The PostgreSQL server is ``TEST_DATABASE_URL`` (default: the machine's, ``postgresql://postgres@127.0.0.1:5432/
test``). Where none answers, its tests are skipped with a line saying how to run them; with
``REQUIRE_POSTGRES=1`` (``.ci/run`` sets it) they fail instead.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import psycopg
import pytest
from psycopg.rows import dict_row

POSTGRES = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
ENGINES = ("sqlite", "postgresql")
ENGINE = os.environ.get("TEST_ENGINE", "sqlite")  # the end-to-end tests' engine


class Place:
    """A test's database: ``target`` opens it (``storage.database.open_database``); :meth:`sql` reaches it
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
            cur = pg.execute(*_postgres(statement, params))
            return [tuple(r) for r in cur.fetchall()] if cur.description else []

    def dicts(self, statement: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """:meth:`sql`, each row a dict by column name."""
        if self.engine == "sqlite":
            with sqlite3.connect(self.target) as db:
                db.row_factory = sqlite3.Row
                return [dict(r) for r in db.execute(statement, params).fetchall()]
        with psycopg.connect(str(self.target), autocommit=True, row_factory=dict_row) as pg:
            return list(pg.execute(*_postgres(statement, params)).fetchall())

    @property
    def settings(self) -> dict[str, Any]:
        """The bot's settings that put its database here."""
        return {"database_path": self.target} if self.engine == "sqlite" else {"database_url": str(self.target)}

    @property
    def environment(self) -> dict[str, str]:
        """The same, as a bot process started by a test reads them."""
        return {k.upper(): str(v) for k, v in self.settings.items()}

    @contextlib.contextmanager
    def writes_held(self) -> Iterator[None]:
        """Another program holds the games table for writing meanwhile: the bot's writes of a move wait."""
        if self.engine == "sqlite":
            db = sqlite3.connect(self.target, isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            try:
                yield
            finally:
                db.execute("ROLLBACK")
                db.close()
            return
        with psycopg.connect(str(self.target), autocommit=True) as pg:
            pg.execute("BEGIN")
            pg.execute("LOCK TABLE games IN EXCLUSIVE MODE")
            try:
                yield
            finally:
                pg.execute("ROLLBACK")

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


def _postgres(statement: str, params: tuple[Any, ...]) -> tuple[Any, ...]:
    """A statement with ``?`` placeholders as psycopg takes it (without parameters, ``%`` is itself)."""
    return (statement.replace("%", "%%").replace("?", "%s"), params) if params else (statement,)


_SCHEMAS: dict[str, str] = {}  # a SQLite file's path -> its PostgreSQL URL (TEST_ENGINE=postgresql)


def place_of(path: Path) -> Place:
    """Where the end-to-end tests keep the database they name by the SQLite file ``path``."""
    if ENGINE != "postgresql":
        return Place("sqlite", path)
    key = str(path)
    if key not in _SCHEMAS:
        schemas = postgres_schema("e2e")
        _SCHEMAS[key] = next(schemas)
        atexit.register(lambda: next(schemas, None))  # dropped when the test process ends
    return Place("postgresql", _SCHEMAS[key])


def postgres_schema(name: str, server: str = POSTGRES) -> Iterator[str]:
    """A URL of ``server`` whose tables live in a new schema (dropped afterwards)."""
    schema = f"t_{name}_{uuid.uuid4().hex[:10]}"
    try:
        _admin(server, f'CREATE SCHEMA "{schema}"')
    except psycopg.OperationalError as e:
        _unreachable(server, e)
    try:
        yield in_schema(server, schema)
    finally:
        _admin(server, f'DROP SCHEMA "{schema}" CASCADE')


def postgres_database(name: str, server: str = POSTGRES) -> Iterator[str]:
    """A URL of a new database of ``server`` (dropped afterwards, whoever is still connected): a bot in it keeps
    its tables in ``public``, as a bot of its own on a shared server does."""
    database = f"t_{name}_{uuid.uuid4().hex[:10]}"
    try:
        _admin(server, f'CREATE DATABASE "{database}"')
    except psycopg.OperationalError as e:
        _unreachable(server, e)
    try:
        yield urlunsplit(urlsplit(server)._replace(path=f"/{database}"))
    finally:
        _admin(server, f'DROP DATABASE "{database}" WITH (FORCE)')


def _unreachable(server: str, e: Exception) -> None:
    if os.environ.get("REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL is required here (REQUIRE_POSTGRES=1) but {server} does not answer: {e}")
    pytest.skip(f"no PostgreSQL at {server}: set TEST_DATABASE_URL=postgresql://… to run the PostgreSQL tests")


def in_schema(server: str, schema: str) -> str:
    """``server``'s URL with ``schema`` first on the search path (added to any ``options`` it has)."""
    parts = urlsplit(server)
    query = parse_qsl(parts.query)
    options = " ".join([v for k, v in query if k == "options"] + [f"-csearch_path={schema}"])
    query = [(k, v) for k, v in query if k != "options"] + [("options", options)]
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))


def url_schema(url: str) -> str:
    """The schema a URL of :func:`in_schema` puts first on the search path."""
    options = dict(parse_qsl(urlsplit(url).query)).get("options", "")
    return options.rsplit("-csearch_path=", 1)[1].split()[0]


def _admin(server: str, statement: str) -> None:
    with psycopg.connect(server, autocommit=True, connect_timeout=5) as admin:
        admin.execute(statement)  # type: ignore[arg-type]


@pytest.fixture(params=ENGINES)
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Place]:
    """Each test that takes it runs twice: on a SQLite file, and on PostgreSQL."""
    if request.param == "sqlite":
        yield Place("sqlite", tmp_path / "db.sqlite3")
        return
    for url in postgres_schema("t"):
        yield Place("postgresql", url)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A schema of its own on the PostgreSQL server, for a test about PostgreSQL itself."""
    yield from postgres_schema("pg")
