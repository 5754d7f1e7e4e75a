"""What a token bucket shared in PostgreSQL would cost each Telegram call, against the share the bot uses.

Several processes must keep the token's ~30 calls a second together. The bot gives each process a part of the
budget by the partitions it leads (``bot.transport.limiter.SharedLimiter``: an in-process limiter, no statement
per call). The alternative is one bucket in PostgreSQL that every call takes a token from: one ``UPDATE`` of one
row per call, each process on its own connection. This prints, for each: the time a call waits for its token
when the budget is not short (the price every call pays), its p50/p99, the client's CPU per call and, for the
bucket, the server's CPU per call::

    python scripts/bucket_bench.py --database-url postgresql://postgres@127.0.0.1:5432/test [--processes 3]

Each process is played by one connection in this process (the server's work is the same); the takes go as fast
as they can, so the figures are each take's own cost (the rate a real bot would take them at is far lower).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

import psycopg
from aiolimiter import AsyncLimiter
from loadtest import postgres_cpu_seconds  # (it puts the repository on the path, for tests.places)

from tests.places import postgres_schema

TAKE = ("UPDATE bucket SET tokens = LEAST(%(burst)s, tokens + (EXTRACT(EPOCH FROM clock_timestamp()) - at) "
        "* %(rate)s) - 1, at = EXTRACT(EPOCH FROM clock_timestamp()) WHERE id = 1 RETURNING tokens")


def percentiles(samples: list[float]) -> dict[str, float]:
    q = statistics.quantiles(samples, n=100)
    return {"p50": round(q[49] * 1e6, 1), "p99": round(q[98] * 1e6, 1)}  # microseconds


async def shared_bucket(url: str, processes: int, takes: int) -> dict[str, Any]:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as setup:
        await setup.execute("CREATE TABLE bucket (id INT PRIMARY KEY, tokens FLOAT8, at FLOAT8)")
        # a bucket so large that no take waits: what is measured is the take itself
        await setup.execute("INSERT INTO bucket VALUES (1, 1e12, EXTRACT(EPOCH FROM clock_timestamp()))")
    waits: list[float] = []

    async def member(conn: psycopg.AsyncConnection[Any]) -> None:
        for _ in range(takes):
            began = time.perf_counter()
            await conn.execute(TAKE, {"burst": 1e12, "rate": 1e9})
            waits.append(time.perf_counter() - began)

    # connected before and closed after the measure: a server process's CPU is counted while it lives
    conns = [await psycopg.AsyncConnection.connect(url, autocommit=True) for _ in range(processes)]
    try:
        cpu, server = time.process_time(), postgres_cpu_seconds()
        await asyncio.gather(*(member(conn) for conn in conns))
        client, server = time.process_time() - cpu, postgres_cpu_seconds() - server
    finally:
        for conn in conns:
            await conn.close()
    calls = processes * takes
    return {"calls": calls, "wait_us": percentiles(waits), "client_cpu_us_per_call": round(client / calls * 1e6, 1),
            "server_cpu_us_per_call": round(server / calls * 1e6, 1)}


async def share(processes: int, takes: int) -> dict[str, Any]:
    """Each process's own limiter (aiolimiter, as PTB's and SharedLimiter use it), with a rate that never waits."""
    waits: list[float] = []
    limiters = [AsyncLimiter(max_rate=1e9, time_period=1) for _ in range(processes)]

    async def member(limiter: AsyncLimiter) -> None:
        for _ in range(takes):
            began = time.perf_counter()
            async with limiter:
                pass
            waits.append(time.perf_counter() - began)

    cpu = time.process_time()
    await asyncio.gather(*(member(limiter) for limiter in limiters))
    calls = processes * takes
    return {"calls": calls, "wait_us": percentiles(waits),
            "client_cpu_us_per_call": round((time.process_time() - cpu) / calls * 1e6, 1),
            "server_cpu_us_per_call": 0.0}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--takes", type=int, default=5000, help="calls each process makes")
    args = parser.parse_args()
    print("share by partitions (in-process limiter):", await share(args.processes, args.takes))
    for url in postgres_schema("bucket", args.database_url):
        print("one bucket in PostgreSQL:", await shared_bucket(url, args.processes, args.takes))


if __name__ == "__main__":
    asyncio.run(main())
