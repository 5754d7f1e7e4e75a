"""The one seam into aiosqlite's private parts (storage.sqlite.on_its_thread): work runs on aiosqlite's own
thread, with its raw connection, in the order of its queue. A release of aiosqlite that changes them fails here
first, not in a move's write."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import aiosqlite

from storage.sqlite import on_its_thread


async def test_work_runs_on_aiosqlites_thread_in_its_queues_order(tmp_path: Path) -> None:
    async with aiosqlite.connect(tmp_path / "seam.sqlite3") as conn:
        await conn.execute("CREATE TABLE t (n INTEGER)")
        seen: list[tuple[int, int]] = []

        def note(n: int) -> Callable[[sqlite3.Connection], int]:
            def work(raw: sqlite3.Connection) -> int:
                raw.execute("INSERT INTO t VALUES (?)", (n,))
                seen.append((n, threading.get_ident()))
                return n
            return work

        # queued one after another, mixed with aiosqlite's own calls: they run in that order, on one thread
        first = asyncio.ensure_future(on_its_thread(conn, note(1)))
        own = asyncio.ensure_future(conn.execute("INSERT INTO t VALUES (2)"))
        last = asyncio.ensure_future(on_its_thread(conn, note(3)))
        assert await first == 1 and await last == 3
        await own
        rows = await conn.execute_fetchall("SELECT n FROM t ORDER BY rowid")
        assert [r[0] for r in rows] == [1, 2, 3]
        assert len({thread for _, thread in seen}) == 1 and seen[0][1] != threading.get_ident()
