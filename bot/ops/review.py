"""``durak-review --game ID``: review a finished game of the bot's database, every seat, persons and computers.

The database is the bot's: ``DATABASE_URL``, else ``DATABASE_PATH``, from the environment or ``.env`` as the bot
reads them (no token needed). Everything else (``--play``) is :mod:`durak.review.command`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

from durak.review.command import judging_options, review_and_print
from durak.review.command import main as play_main
from storage.computers import level_of
from storage.database import open_database
from storage.models import Game, Status
from storage.repo import CorruptRow, Repo
from storage.sqlite import DatabaseError


class Where(BaseSettings):
    """The bot's database settings alone."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")
    database_path: Path = Path("durak.sqlite3")
    database_url: str | None = None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--game" not in argv:
        return play_main(argv)
    parser = argparse.ArgumentParser(prog="durak-review", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", type=int, required=True, help="the game's id (games.id)")
    judging_options(parser)
    args = parser.parse_args(argv)
    where = Where()
    database = where.database_url or where.database_path
    if isinstance(database, Path) and not database.exists():
        print(f"durak-review: no database at {database} (DATABASE_URL or DATABASE_PATH, as for the bot)",
              file=sys.stderr)
        return 1
    try:
        game = asyncio.run(_game(database, args.game))
    except (DatabaseError, CorruptRow) as e:
        print(f"durak-review: {e}", file=sys.stderr)
        return 1
    if game is None:
        print(f"durak-review: no game {args.game} in {database}", file=sys.stderr)
        return 1
    if game.status is not Status.FINISHED:
        print(f"durak-review: game {args.game} is {game.status.value}: only a finished game is reviewed",
              file=sys.stderr)
        return 1
    if game.deal is None:
        print(f"durak-review: game {args.game} was played before games kept their moves: it has no record to review",
              file=sys.stderr)
        return 1
    return review_and_print(game.deal, list(game.moves), [level_of(seat.user.id) for seat in game.seats], args,
                            f"game {game.id}, {len(game.seats)} players")

async def _game(database: str | Path, game_id: int) -> Game | None:
    db = await open_database(database)
    try:
        return await Repo(db).game(game_id)
    finally:
        await db.close()


if __name__ == "__main__":
    sys.exit(main())
