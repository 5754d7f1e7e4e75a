"""The partitions' leases (storage/partitions.py) on the machine's PostgreSQL: every partition led by exactly one
live process, shared evenly, taken over within a round of a holder's death, handed over when one joins."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import random
import subprocess
import sys
import time

import psycopg
import pytest

from storage.partitions import FENCE_GRACE, LEAD_SURE, PARTITIONS, Leases, partition_of
from tests.places import Place, postgres_database


def test_a_chats_partition_is_stable_and_chats_spread_evenly() -> None:
    # the same in every process and at every start (a change would move games between processes at a deploy)
    assert partition_of(-1001234567890) == 33
    groups = collections.Counter(partition_of(-1001000000000 - n) for n in range(64_000))
    people = collections.Counter(partition_of(100_000 + n) for n in range(64_000))
    spaced = collections.Counter(partition_of(-1001000000000 - 64 * n) for n in range(64_000))
    for counts in (groups, people, spaced):  # ids in runs, or 64 apart, still fill every partition about alike
        assert set(counts) == set(range(PARTITIONS))
        assert max(counts.values()) < 1.1 * min(counts.values()), counts


async def settle(leases: list[Leases], rounds: int = 6) -> None:
    """Rounds as the bot runs them: each hands over its surplus, then takes its share."""
    for _ in range(rounds):
        for lease in leases:
            await lease.release(await lease.surplus())
        for lease in leases:
            await lease.round()


def owners(leases: list[Leases]) -> dict[int, int]:
    found: dict[int, int] = {}
    for i, lease in enumerate(leases):
        for p in lease.held:
            assert p not in found, f"partition {p} held by two processes"
            found[p] = i
    return found


async def test_the_processes_share_the_partitions_evenly_and_each_has_one_leader(postgres_url: str) -> None:
    leases = [Leases(postgres_url, rng=random.Random(n)) for n in range(3)]
    try:
        await leases[0].join()
        taken, lost = await leases[0].round()
        assert taken == frozenset(range(PARTITIONS)) and not lost, "alone, a process leads every game"
        await leases[1].join()
        await settle(leases[:2])
        assert len(owners(leases[:2])) == PARTITIONS and [len(x.held) for x in leases[:2]] == [32, 32]
        await leases[2].join()
        await settle(leases)
        assert len(owners(leases)) == PARTITIONS
        assert sorted(len(x.held) for x in leases) == [20, 22, 22]
        seen = Place("postgresql", postgres_url).sql(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND granted "
            "AND classid::bigint >= ? AND classid::bigint < ? AND objid = hashtext(current_schema())::oid",
            (0x44500000, 0x44500000 + PARTITIONS))  # this test's schema: other tests' bots lead in theirs
        assert seen == [(PARTITIONS,)], "the server holds exactly one lease a partition"
    finally:
        for lease in leases:
            await lease.close()


async def test_a_clean_stop_hands_every_partition_over_at_the_next_rounds(postgres_url: str) -> None:
    leases = [Leases(postgres_url) for _ in range(2)]
    try:
        for lease in leases:
            await lease.join()
        await settle(leases)
        await leases[1].close()
        taken: set[int] = set()
        for _ in range(20):  # its server process lets the locks go as it ends, a moment after the close returns
            taken |= (await leases[0].round())[0]
            if len(taken) == PARTITIONS // 2:
                break
            await asyncio.sleep(0.05)
        assert len(taken) == PARTITIONS // 2 and leases[0].held == frozenset(range(PARTITIONS))
    finally:
        await leases[0].close()


HOLDER = """
import asyncio, sys
from storage.partitions import Leases
async def main():
    lease = Leases(sys.argv[1])
    await lease.join()
    while True:
        await lease.release(await lease.surplus())
        await lease.round()
        print(len(lease.held), flush=True)
        await asyncio.sleep(0.05)
asyncio.run(main())
"""


async def test_a_killed_holders_partitions_are_led_again_within_a_round(postgres_url: str) -> None:
    """kill -9 of a process: its session ends with it, and with it its leases; the survivor takes them at its next
    round (the bot's rounds are POLL apart: no partition is without a leader for much more than that)."""
    mine = Leases(postgres_url)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, postgres_url], stdout=subprocess.PIPE, text=True)
    try:
        await mine.join()
        assert holder.stdout is not None
        for line in holder.stdout:  # the other process leads half the games
            await settle([mine], 1)
            if int(line) == PARTITIONS // 2 and len(mine.held) == PARTITIONS // 2:
                break
        holder.kill()
        holder.wait()
        killed = time.monotonic()
        while len(mine.held) < PARTITIONS:
            with contextlib.suppress(Exception):
                await mine.round()
            await asyncio.sleep(0.05)
            assert time.monotonic() - killed < 10, "the dead process's partitions were never taken over"
    finally:
        holder.kill()
        await mine.close()


async def test_a_cut_connection_loses_its_leases_and_the_next_round_takes_them_again(postgres_url: str) -> None:
    lease = Leases(postgres_url)
    try:
        await lease.join()
        await lease.round()
        [(pid,)] = Place("postgresql", postgres_url).sql(
            "SELECT DISTINCT pid FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = ? "
            "AND objid = hashtext(current_schema())::oid", (0x44500000,))  # this test's, not another test's bot
        Place("postgresql", postgres_url).sql("SELECT pg_terminate_backend(?)", (pid,))
        with pytest.raises(psycopg.OperationalError):
            await lease.round()
        assert lease.held == frozenset(), "a cut connection leads nothing: its locks went with it"
        # the fence (bot.game.shares): its old lead calls Telegram no later than LEAD_SURE after its last statement that
        # succeeded, and a new lead makes its first call FENCE_GRACE after it took a partition: later than that
        assert FENCE_GRACE > LEAD_SURE
        taken, _ = await lease.round()
        assert len(taken) == PARTITIONS
    finally:
        await lease.close()


async def test_bots_on_two_databases_of_one_server_never_count_each_other() -> None:
    """A staging and a production bot (or two bots) on one PostgreSQL server, each in a database of its own with
    its tables in ``public``: each bot's processes share its own partitions only. The server lists every
    database's advisory locks together; a bot that read them all counted the other bot's process as a member and
    its partitions as taken, and led only half of its own games."""
    for first in postgres_database("a"):
        for second in postgres_database("b"):
            one = Leases(first, rng=random.Random(1))
            other = Leases(second, rng=random.Random(2))
            third = Leases(first, rng=random.Random(3))
            try:
                for lease in (one, other):
                    await lease.join()
                await settle([one, other])
                assert (len(one.held), len(other.held)) == (PARTITIONS, PARTITIONS), "each alone in its database"
                await third.join()  # two processes on the first, one on the second
                await settle([one, other, third])
                assert len(owners([one, third])) == PARTITIONS and [len(one.held), len(third.held)] == [32, 32]
                assert len(other.held) == PARTITIONS
            finally:
                for lease in (one, other, third):
                    await lease.close()
