"""``durak-db copy SQLITE_FILE POSTGRES_URL``: move an installation from its SQLite file to PostgreSQL.

Everything is copied, games in progress included (their state, log, timers and owed messages), in one
PostgreSQL transaction: the copy is whole or nothing. Then each table's rows are counted on both sides and
the ratings compared value for value; any difference undoes the copy. Stop the bot first: what it writes to
the file after the copy began would be left behind. The file is migrated to the current version first (as a
start of the bot would), and the target must hold no games or players yet.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

import psycopg

from storage.postgres import PostgresDatabase, shown
from storage.sqlite import DatabaseError, SqliteDatabase

# in the order their references need; the computers' users exist on both sides (migration 007)
TABLES = ("users", "chats", "games", "seats", "game_results", "ratings", "rating_history", "outbox", "panels",
          "game_events", "game_moves", "game_reviews", "puzzle_answers", "seasons", "season_places",
          "badges", "tournaments", "tournament_players", "tournament_topics")
IDENTITIES = ("games", "outbox", "tournaments")  # their ids are copied: the next new row must come after them


class CopyError(Exception):
    """The copy cannot be made or did not check out; nothing was kept. The message says why."""


async def copy(source: Path, url: str) -> dict[str, int]:
    """Copy the SQLite database ``source`` into the PostgreSQL ``url``; returns the rows copied per table."""
    if not source.exists():
        raise CopyError(f"no database at {source}")
    await (await SqliteDatabase.open(source)).close()  # migrated to the current version, as the bot would
    await (await PostgresDatabase.open(url)).close()  # the same version's tables there
    return await asyncio.to_thread(_copy, source, url)


def _copy(source: Path, url: str) -> dict[str, int]:
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, isolation_level=None)
    try:
        src.execute("BEGIN")  # one snapshot of every table
        with psycopg.connect(url, autocommit=False) as dest:
            taken = dest.execute("SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM users WHERE id > 0)"
                                 ).fetchone()
            if taken is not None and taken[0]:
                raise CopyError(f"{shown(url)} already holds games or players: copy into an empty database")
            copied = {table: _copy_table(src, dest, table) for table in TABLES}
            for table in IDENTITIES:
                dest.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                             f"GREATEST((SELECT max(id) FROM {table}), 1))")
            _check(src, dest)
            dest.commit()
        return copied
    finally:
        src.close()


def _columns(src: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in src.execute(f"PRAGMA table_info({table})")]


def _copy_table(src: sqlite3.Connection, dest: psycopg.Connection[Any], table: str) -> int:
    columns = _columns(src, table)
    names = ", ".join(columns)
    marks = ", ".join(["%s"] * len(columns))
    conflict = " ON CONFLICT (id) DO NOTHING" if table == "users" else ""
    rows = src.execute(f"SELECT {names} FROM {table}").fetchall()
    with dest.cursor() as cur:
        cur.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks}){conflict}", rows)
    return len(rows)


def _check(src: sqlite3.Connection, dest: psycopg.Connection[Any]) -> None:
    for table in TABLES:
        mine = src.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        theirs = dest.execute(f"SELECT count(*) FROM {table}").fetchone()
        if theirs is None or theirs[0] != mine:
            raise CopyError(f"{table}: {mine} rows in the file, {theirs[0] if theirs else 0} copied")
    query = "SELECT scope, user_id, mu, sigma FROM ratings ORDER BY scope, user_id"
    if [tuple(r) for r in src.execute(query)] != [tuple(r) for r in dest.execute(query)]:
        raise CopyError("the ratings copied differ from the file's")
    versions = "SELECT id, version, status FROM games ORDER BY id"
    if [tuple(r) for r in src.execute(versions)] != [tuple(r) for r in dest.execute(versions)]:
        raise CopyError("the games copied differ from the file's")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durak-db", description="The bot's database.")
    commands = parser.add_subparsers(dest="command", required=True)
    move = commands.add_parser("copy", help=__doc__.splitlines()[0] if __doc__ else None,
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    move.add_argument("source", type=Path, help="the SQLite file (DATABASE_PATH)")
    move.add_argument("url", help="postgresql://… (the DATABASE_URL the bot will use)")
    args = parser.parse_args(argv)
    try:
        copied = asyncio.run(copy(args.source, args.url))
    except (CopyError, DatabaseError, psycopg.Error, sqlite3.Error) as e:
        print(f"durak-db: nothing copied: {str(e).strip().splitlines()[0]}", file=sys.stderr)
        return 1
    print(f"durak-db: copied {args.source} to {shown(args.url)}, checked: "
          + ", ".join(f"{n} {table}" for table, n in copied.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
