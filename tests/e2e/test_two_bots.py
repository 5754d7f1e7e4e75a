"""Two bots on one PostgreSQL server, each in a database of its own (a staging bot beside production, or two
bots on one managed server): each leads every one of its own games, and every game of both is played to its end.
The server lists both databases' advisory locks together (storage/partitions.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.partitions import PARTITIONS, partition_of
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram
from tests.places import postgres_database

GROUPS = [-2001, -2002, -2003, -2004, -2005, -2006]


@pytest.fixture
async def two_telegrams() -> AsyncIterator[list[FakeTelegram]]:
    servers = [FakeTelegram(), FakeTelegram()]
    for server in servers:
        await server.start()
    yield servers
    for server in servers:
        await server.stop()


@pytest.mark.sqlite_only  # on PostgreSQL whatever TEST_ENGINE says: run once
@pytest.mark.long(15)
async def test_two_bots_on_two_databases_of_one_server_each_play_all_their_games(
        two_telegrams: list[FakeTelegram], tmp_path: Path) -> None:
    halves = {partition_of(g) < PARTITIONS // 2 for g in GROUPS}
    assert halves == {True, False}, "the groups fall in both halves of the partitions"
    async with contextlib.AsyncExitStack() as stack:
        bots = []
        for n, fake in enumerate(two_telegrams):
            url = stack.enter_context(contextlib.contextmanager(postgres_database)(f"bot{n}"))
            bot = BotProcess(fake, tmp_path / f"unused{n}.sqlite3", database_url=url)
            stack.push_async_callback(bot.stop)
            await bot.start()  # waits until it leads every partition: a bot that counted the other led half
            bots.append(bot)
        assert [len(b.app.bot_data.shares.leading()) for b in bots] == [PARTITIONS, PARTITIONS]  # type: ignore[union-attr]
        tables = []
        for fake in two_telegrams:
            for n, group in enumerate(GROUPS):
                players = [3000 + 2 * n, 3001 + 2 * n]
                for user in players:
                    fake.add_user(user, f"P{user}")
                fake.add_group(group, f"Table {n}", admins=players[:1])
                tables.append(Table(fake, group, players, seed=n))
        await asyncio.gather(*(t.seat_everyone() for t in tables))
        await asyncio.gather(*(t.start(t.players[0]) for t in tables))
        results = await asyncio.gather(*(t.play_to_the_end(timeout=120) for t in tables))
        assert all(r.text.startswith("🏁") for r in results)
        for bot in bots:
            assert bot.place.sql("SELECT COUNT(*) FROM games WHERE status = 'finished'") == [(len(GROUPS),)]
