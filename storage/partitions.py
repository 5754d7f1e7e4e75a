"""The games shared among bot processes: each chat belongs to one of ``PARTITIONS`` partitions, each partition is
led by one live process at a time, and the processes share the partitions evenly.

A lease is a session advisory lock of PostgreSQL, held on a connection of the leases' own: a process killed, or
cut off, lets go of every lease with its connection, and the others take them at their next round (``POLL``).
Advisory locks and not a lease table with expiry (river, Oban): a table's lease outlives a killed holder until it
expires, so a dead process's games would wait out the expiry; the lock goes with the connection at once, and the
server is the one clock. The cost: the leases need a session of their own, which a transaction-pooling
PgBouncer does not keep (its server connection changes hands at every transaction, and the locks with it): run
the bot against PostgreSQL directly or through session pooling (docs/operating.md).

Each process also holds a shared "member" lock while it runs: the number of its holders is the number of live
processes, and each takes up to its share, ``ceil(PARTITIONS / members)``. One that holds more than its share
hands the surplus over (:meth:`Leases.surplus`, then :meth:`Leases.release` once its games are settled); one that
holds less takes free partitions in a random order (processes joining at once reach for different ones), so that
the shares even out within a round or two of a process joining or going.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg  # imported where a lease is taken: a bot on SQLite never loads psycopg

PARTITIONS = 64            # fixed: a chat's partition must not change while the bot runs
POLL = 0.5                 # seconds between two rounds of taking and handing over
PARTITION_LOCK = 0x44500000  # + partition: the lease's lock (two keys: this, the schema's hash)
MEMBER_LOCK = 0x44504D00     # held shared by every live process of the schema
# The fence between an old lead of a partition and a new one. A process calls Telegram only within LEAD_SURE
# seconds of a statement that succeeded on the connection that holds its leases (the locks go only with that
# connection); a new lead makes its first call FENCE_GRACE seconds after it took a partition: by then the old one
# has stopped, so no chat gets an older message after a newer one.
LEAD_SURE = 0.4
FENCE_GRACE = 1.0


# The granted locks of this bot: its schema's, in its database. pg_locks lists the whole server's locks, and an
# advisory lock belongs to one database: without the database, a bot on another database of the same server (a
# staging bot beside production, two bots on one managed server) with a schema of the same name counted as a
# member and its partitions as taken.
_OURS = ("locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
         "AND objid = hashtext(current_schema())::oid AND objsubid = 2 AND granted")


def partition_of(chat_id: int, partitions: int = PARTITIONS) -> int:
    """The partition of a chat: stable across processes and restarts (no per-process hash seed), and spread
    evenly over the chats' ids, which Telegram gives out in runs (Knuth's multiplicative hash, its high bits:
    the low ones of a product follow the low ones of the id)."""
    return (((chat_id * 2654435761) & 0xFFFFFFFF) * partitions) >> 32


class Leases:
    """The partitions this process leads now (:attr:`held`), kept on a connection of their own."""

    def __init__(self, url: str, partitions: int = PARTITIONS, rng: random.Random | None = None) -> None:
        self.url = url
        self.partitions = partitions
        self.held: frozenset[int] = frozenset()
        self._rng = rng or random.Random()
        self._conn: psycopg.Connection[Any] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="leases")

    async def _call(self, work: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._thread, work, *args)

    async def join(self) -> None:
        """Connect and count as a live process (the others make room at their next round)."""
        await self._call(self._join)

    def _join(self) -> None:
        import psycopg

        if self._conn is not None and not self._conn.broken:
            return
        if self._conn is not None:  # cut off: every lease went with it
            self._conn.close()
            self.held = frozenset()
        self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        self._conn.execute("SELECT pg_advisory_lock_shared(%s, hashtext(current_schema()))", (MEMBER_LOCK,))

    async def round(self) -> tuple[frozenset[int], frozenset[int]]:
        """Take free partitions up to this process's share; (taken, lost) since the last round. A connection
        found cut loses every lease (the call raises; the next round connects again and takes anew)."""
        import psycopg

        before = self.held
        try:
            await self._call(self._round)
        except psycopg.Error:
            self.held = frozenset()
            raise
        return self.held - before, before - self.held

    def _round(self) -> None:
        self._join()
        conn = self._conn
        assert conn is not None
        members, mine = self._look(conn)
        self.held = frozenset(mine)
        share = math.ceil(self.partitions / max(members, 1))
        if len(mine) < share:
            busy = self._busy(conn)
            free = [p for p in range(self.partitions) if p not in busy]
            self._rng.shuffle(free)
            for p in free:
                if len(mine) >= share:
                    break
                if self._try(conn, p):
                    mine.add(p)
        self.held = frozenset(mine)

    def _look(self, conn: psycopg.Connection[Any]) -> tuple[int, set[int]]:
        """The live processes, and the partitions this connection holds."""
        row = conn.execute(
            "SELECT count(*) FILTER (WHERE classid::bigint = %s), "
            "array_agg(classid::bigint - %s) FILTER (WHERE classid::bigint >= %s AND classid::bigint < %s "
            "AND pid = pg_backend_pid()) "
            f"FROM pg_locks WHERE {_OURS}",
            (MEMBER_LOCK, PARTITION_LOCK, PARTITION_LOCK, PARTITION_LOCK + self.partitions)).fetchone()
        assert row is not None
        return int(row[0]), {int(p) for p in row[1] or ()}

    def _busy(self, conn: psycopg.Connection[Any]) -> set[int]:
        rows = conn.execute(
            f"SELECT classid::bigint - %s FROM pg_locks WHERE {_OURS} "
            "AND classid::bigint >= %s AND classid::bigint < %s",
            (PARTITION_LOCK, PARTITION_LOCK, PARTITION_LOCK + self.partitions)).fetchall()
        return {int(r[0]) for r in rows}

    def _try(self, conn: psycopg.Connection[Any], partition: int) -> bool:
        row = conn.execute("SELECT pg_try_advisory_lock(%s, hashtext(current_schema()))",
                           (PARTITION_LOCK + partition,)).fetchone()
        return bool(row and row[0])

    async def ping(self) -> None:
        """A statement on the leases' connection: it succeeds only while every lease held is still held."""
        await self._call(self._ping)

    def _ping(self) -> None:
        import psycopg

        if self._conn is None or self._conn.broken:
            raise psycopg.OperationalError("the leases' connection is lost")
        self._conn.execute("SELECT 1")

    async def surplus(self) -> frozenset[int]:
        """The partitions this process should hand over: what it holds beyond its share now that more
        processes live (the highest first, so that the ones it keeps stay the same from round to round)."""
        return frozenset(await self._call(self._surplus))

    def _surplus(self) -> list[int]:
        conn = self._conn
        if conn is None or conn.broken:
            return []
        members, mine = self._look(conn)
        share = math.ceil(self.partitions / max(members, 1))
        return sorted(mine)[share:]

    async def release(self, partitions: Collection[int]) -> None:
        """Let go of ``partitions`` (their games settled first: nothing of theirs in hand here)."""
        await self._call(self._release, frozenset(partitions))

    def _release(self, partitions: frozenset[int]) -> None:
        conn = self._conn
        if conn is None or conn.broken:
            self.held = frozenset()
            return
        for p in sorted(partitions & self.held):
            conn.execute("SELECT pg_advisory_unlock(%s, hashtext(current_schema()))", (PARTITION_LOCK + p,))
        self.held = self.held - partitions

    async def close(self) -> None:
        """Let go of everything (a clean stop: the games were settled) and leave."""
        await self._call(self._close)
        self._thread.shutdown(wait=True)

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()  # the locks go with the session
            self._conn = None
        self.held = frozenset()
