"""``durak-backup DEST``: a consistent copy of the bot's database, safe while the bot runs.

It uses SQLite's online backup API, which copies a consistent snapshot even while the bot
writes (WAL mode); copying the file with ``cp`` could catch a half-written transaction. The
source is DATABASE_PATH (from the environment or ``.env``) unless ``--database`` names it.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict


def backup(source: Path, dest: Path) -> int:
    """Copy ``source`` into ``dest`` (replaced if it exists); returns the pages copied."""
    if not source.exists():
        raise FileNotFoundError(f"no database at {source}")
    tmp = dest.with_name(dest.name + ".part")
    tmp.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        out = sqlite3.connect(tmp)
        try:
            src.backup(out)
            pages = int(out.execute("PRAGMA page_count").fetchone()[0])
            verdict = out.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            out.close()
    finally:
        src.close()
    if verdict != "ok":
        raise sqlite3.DatabaseError(f"the copy failed its check: {verdict}")
    os.replace(tmp, dest)  # a finished copy only: never half a backup under the real name
    return pages


class _Where(BaseSettings):
    """Where the bot's database is: DATABASE_PATH, read from the environment and ``.env`` as the bot reads it."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")
    database_path: Path = Path("durak.sqlite3")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durak-backup", description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path, help="the backup file to write")
    parser.add_argument("--database", type=Path, default=None, help="the live database (default: DATABASE_PATH)")
    args = parser.parse_args(argv)
    source = args.database or _Where().database_path
    try:
        pages = backup(source, args.dest)
    except (OSError, sqlite3.Error) as e:
        print(f"durak-backup: {e}", file=sys.stderr)
        return 1
    print(f"backed up {source} to {args.dest} ({pages} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
