"""``durak-badges``: award every badge earned in the stored games that its player has not got yet.

A badge added to ``bot/stats/badges.py`` is given this way to the games played before it: each finished game is
read again, oldest first, with each player's record before it, as the bot reads it when a game ends. A badge a
player has is never given twice, so it can run any number of times (and beside the bot). The database is the
bot's: ``DATABASE_URL``, else ``DATABASE_PATH``, from the environment or ``.env``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import defaultdict
from pathlib import Path

from bot.ops.review import Where
from bot.stats import badges
from bot.stats.standings import durak
from storage.database import open_database
from storage.models import PlayedGame
from storage.repo import CorruptRow, Repo
from storage.sqlite import DatabaseError


async def backfill(database: str | Path) -> tuple[int, int, int]:
    """(games read, badges awarded, players who got one)."""
    repo = Repo(await open_database(database))
    try:
        have = await repo.all_badges()
        rows: dict[int, list[tuple[int, PlayedGame]]] = defaultdict(list)
        for user, row in await repo.played():
            rows[row.game_id].append((user, row))
        records: dict[int, badges.Record] = {}
        evenings: dict[int, dict[int, int]] = defaultdict(dict)   # series -> user -> times the durak
        counted: dict[int, int] = defaultdict(int)                 # series -> games
        awards: list[tuple[int, str, int | None]] = []
        ids = await repo.finished_ids()
        for game_id in ids:
            try:
                game = await repo.game(game_id)
            except CorruptRow as e:
                print(f"durak-badges: {e}: skipped", file=sys.stderr)
                continue
            if game is None or not rows[game_id]:
                continue
            if game.series is not None:
                counted[game.series] += 1
                for user, played in rows[game_id]:
                    evenings[game.series][user] = evenings[game.series].get(user, 0) + durak(played)
            for user, fact in badges.facts(game, rows[game_id]).items():
                record = records.setdefault(user, badges.Record(badges=set(have.get(user, set()))))
                record.evening = None if game.series is None else (counted[game.series], evenings[game.series][user])
                for badge in badges.earned(fact, record):
                    record.badges.add(badge.key)
                    awards.append((user, badge.key, game_id))
                record.games.append(fact.game)
                record.presets.add(fact.preset)
        for place in await repo.season_places():
            record = records.setdefault(place.user_id, badges.Record(badges=set(have.get(place.user_id, set()))))
            if place.place == 1 and "season_gold" not in record.badges:
                record.badges.add("season_gold")
                awards.append((place.user_id, "season_gold", None))
        for user in await repo.tournament_winners():
            record = records.setdefault(user, badges.Record(badges=set(have.get(user, set()))))
            if "tournament_gold" not in record.badges:
                record.badges.add("tournament_gold")
                awards.append((user, "tournament_gold", None))
        awarded = await repo.award(awards)
        return len(ids), awarded, len({user for user, _, _ in awards})
    finally:
        await repo.db.close()


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(prog="durak-badges", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args(argv)
    where = Where()
    database = where.database_url or where.database_path
    if isinstance(database, Path) and not database.exists():
        print(f"durak-badges: no database at {database} (DATABASE_URL or DATABASE_PATH, as for the bot)",
              file=sys.stderr)
        return 1
    try:
        games, awarded, players = asyncio.run(backfill(database))
    except DatabaseError as e:
        print(f"durak-badges: {e}", file=sys.stderr)
        return 1
    print(f"durak-badges: {games} games read, {awarded} badges awarded to {players} players")
    return 0


if __name__ == "__main__":
    sys.exit(main())
