"""Memory the bot keeps for each finished game: ``python scripts/memory_bench.py --games 1000``.

The real Application plays against the fake Bot API server of the tests, in this process: in
each of many groups, a lobby is opened, two players join and start, both leave, and the computer
finishes the game; every game has two players the bot never met before (``--same-players``: each group
its own two, as before; ``--six``: one group whose six regulars play two at a time, so that nothing grows
per person and whatever grows is kept per game). Python's tracemalloc counts what stays allocated after a
warm-up and then at ``--checkpoints`` points over the games, leaving out the fake server's own allocations
(tests/, aiohttp), and fits a line through them: its slope is what each further game keeps. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.harness import BotProcess
from tests.fake_telegram import FakeTelegram


def players_of(group: int) -> tuple[int, int]:
    """Each group has two players of its own."""
    first = 1000 + 2 * (-group - 10_000)
    return first, first + 1


SIX = tuple(range(7001, 7007))  # --six: the regulars of the one group


async def one_game(fake: FakeTelegram, group: int, players: tuple[int, int] | None = None,
                   regulars: bool = False) -> None:
    PLAYERS = players or players_of(group)
    if players is not None and not regulars:  # two people the bot never met: each opens his private chat first
        for user, name in zip(players, ("Anna", "Boris"), strict=True):
            fake.add_user(user, name)
            await fake.send_text(user, user, "/start")
            await fake.wait_for(lambda u=user: any(c == u for c, _ in fake.messages), 60)

    def mine() -> list[str]:
        return [m.text for (c, _), m in list(fake.messages.items()) if c == group]

    await fake.send_text(PLAYERS[0], group, "/newgame")
    await fake.wait_for(lambda: any("Players (1/" in t for t in mine()), 60)
    lobby = next(m for (c, _), m in fake.messages.items() if c == group and m.buttons())
    join = next(b["callback_data"] for b in lobby.buttons() if b["text"] == "Join")
    await fake.press(PLAYERS[1], group, lobby.message_id, join)
    await fake.wait_for(lambda: any("Players (2/" in t for t in mine()), 60)
    start = next(b["callback_data"] for b in lobby.buttons() if b["text"] == "Start")
    await fake.press(PLAYERS[0], group, lobby.message_id, start)
    await fake.wait_for(lambda: any("Waiting for" in t for t in mine()), 60)
    for user in PLAYERS:
        await fake.send_text(user, group, "/leave")
    await fake.wait_for(lambda: any(t.startswith("🏁") for t in mine()), 60)
    fake.forget(group, *PLAYERS)  # the fake forgets, the bot must too


async def settle(bot: BotProcess) -> None:
    """Wait until the bot has reviewed the games played and sent everything (the outbox; the notifier of the code
    before it, to compare): a review still being made holds its game, read from the database, for a moment."""
    service = bot.service
    reviewer = getattr(service, "reviewer", None)
    if reviewer is not None:
        await reviewer.idle.wait()
    await (service.outbox.drain(30) if hasattr(service, "outbox") else service.notifier.flush())


def snapshot() -> tracemalloc.Snapshot:
    """What is allocated now, without the fake server's own allocations (tests/, and its aiohttp server)."""
    gc.collect()
    return tracemalloc.take_snapshot().filter_traces([
        tracemalloc.Filter(False, "*/tests/*"),
        tracemalloc.Filter(False, "*/aiohttp/web*"),
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, __file__),  # the bench's own players
    ])


async def run(games: int, groups: int, warmup: int, top: int = 0, new_players: bool = True,
              checkpoints: int = 5, six: bool = False) -> dict[str, object]:
    fake = FakeTelegram()
    await fake.start()
    ids = [-10_000 - i for i in range(groups)]
    for group in ids:
        for user, name in zip(players_of(group), ("Anna", "Boris"), strict=True):
            fake.add_user(user, name)
        fake.add_group(group, f"Group {group}", admins=[players_of(group)[0]])
    with tempfile.TemporaryDirectory() as folder:
        bot = BotProcess(fake, Path(folder) / "durak.sqlite3")
        await bot.start()
        for user in [u for g in ids for u in players_of(g)]:  # open the private chat, so Join seats at once
            await fake.send_text(user, user, "/start")
            await fake.wait_for(lambda u=user: any(c == u for c, _ in fake.messages), 60)

        newcomers = iter(range(1_000_000, 10_000_000, 2))

        regulars = SIX if six else ()
        pairs = itertools.cycle(itertools.combinations(regulars, 2)) if six else None
        if six:
            for user in regulars:
                fake.add_user(user, f"Player {user}")
                await fake.send_text(user, user, "/start")
                await fake.wait_for(lambda u=user: any(c == u for c, _ in fake.messages), 60)

        async def play(count: int) -> None:
            async def worker(group: int, n: int) -> None:
                for _ in range(n):
                    if pairs is not None:
                        await one_game(fake, group, next(pairs), regulars=True)
                    else:
                        first = next(newcomers)
                        await one_game(fake, group, (first, first + 1) if new_players else None)
                    fake.calls.clear()
                    fake.answers.clear()

            per = [count // groups + (1 if i < count % groups else 0) for i in range(groups)]
            await asyncio.gather(*(worker(g, n) for g, n in zip(ids, per, strict=True)))

        # traced from the start: what the warm-up allocated and a later game frees (a full cache's oldest entry
        # making room) must count as freed, or a cache that only turns over would look as if it grew
        tracemalloc.start(1)
        await play(warmup)
        await settle(bot)
        first = snapshot()
        started = time.perf_counter()
        points = [(0, sum(stat.size for stat in first.statistics("filename")))]
        for k in range(1, checkpoints + 1):
            await play(games * k // checkpoints - games * (k - 1) // checkpoints)
            await settle(bot)
            last = snapshot()
            points.append((games * k // checkpoints, sum(stat.size for stat in last.statistics("filename"))))
        seconds = time.perf_counter() - started
        tracemalloc.stop()
        before, after = points[0][1], points[-1][1]
        grown = [f"{stat.traceback[0].filename.split('site-packages/')[-1]}:{stat.traceback[0].lineno} "
                 f"{stat.size_diff:+d} B" for stat in last.compare_to(first, "lineno")[:top]]
        open_games = len(bot.service.store.games) if hasattr(bot.service, "store") else len(bot.service.games)
        await bot.stop()
    await fake.stop()
    return {"games": games, "groups": groups, "new_players": new_players and not six, "six_regulars": six,
            "retained_bytes": after - before,
            "bytes_per_game": round((after - before) / games, 1), "slope_bytes_per_game": round(slope(points), 1),
            "retained_at": {n: size - before for n, size in points}, "open_games_left": open_games,
            "seconds": round(seconds, 1), **({"grown_most": grown} if top else {})}


def slope(points: list[tuple[int, int]]) -> float:
    """The least-squares slope of retained bytes against games played."""
    n = len(points)
    mx, my = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    return sum((x - mx) * (y - my) for x, y in points) / max(1e-9, sum((x - mx) ** 2 for x, _ in points))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=40)
    parser.add_argument("--top", type=int, default=0, help="also list the N allocation sites that grew most")
    parser.add_argument("--same-players", action="store_true", help="each group's own two players every game")
    parser.add_argument("--six", action="store_true",
                        help="one group, the same six players two at a time (implies --groups 1)")
    parser.add_argument("--checkpoints", type=int, default=5, help="measurements over the games, for the slope")
    args = parser.parse_args()
    result = asyncio.run(run(args.games, 1 if args.six else args.groups, args.warmup, args.top,
                             not args.same_players, args.checkpoints, args.six))
    print(json.dumps(result, indent=1 if args.top else None))


if __name__ == "__main__":
    main()
