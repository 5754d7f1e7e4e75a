"""Telegram's updates, stored by whichever bot process a webhook post reached, handled by the one that leads
their partition (``storage.partitions``).

With several processes behind a load balancer (PostgreSQL only), a process answers Telegram's post of an update
it does not lead once the update is stored here, with its partition: Telegram then never posts it again, and an
update survives the death of any process. The partition's lead handles the updates waiting, in the order of their
ids (``bot.transport.inbox``), and the ones posted to it directly, answered once handled as on SQLite (one commit
to wait for, not two).

Each update is handled once: the decision it brings marks it handled in the very transaction that writes the
game or the messages it owes (:data:`HANDLING`, read by ``Repo``), so a process killed right after that write
leaves nothing to handle again; an update that writes nothing (a refused press, a command that only answers) is
marked once its handlers are done, and handling it again after a crash changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection
from contextvars import ContextVar

from storage.database import Database, SqlConnection

log = logging.getLogger(__name__)
# the update whose handlers run in this task (bot.transport.inbox sets it): its decision's write marks it handled
HANDLING: ContextVar[int | None] = ContextVar("handling", default=None)
CHANNEL = "durak_updates"  # PostgreSQL's NOTIFY channel: an update was stored (a wake-up; the table is the queue)
KEEP_SECONDS = 600.0        # handled updates are kept this long: Telegram's post of one again is recognised


# in a write's transaction: the update being handled is handled once it commits (its row is made if the leader
# handles an update it received itself without storing it first: Telegram posting it again finds it handled)
MARK_HANDLED = ("INSERT INTO updates (update_id, body, received, done) VALUES (?, '', ?, 1) "
                "ON CONFLICT (update_id) DO UPDATE SET done = 1")


def mark_handled(conn: SqlConnection, update_id: int | None, now: float) -> None:
    if update_id is not None:
        conn.execute(MARK_HANDLED, (update_id, now))


class Mark:
    """Whether a write committed the mark of the update its task handles (then no mark of its own is needed)."""

    def __init__(self) -> None:
        self.done = False


MARKED: ContextVar[Mark | None] = ContextVar("marked", default=None)  # set by the inbox beside HANDLING


def marked() -> None:
    """A write that marked the task's update handled has committed."""
    mark = MARKED.get()
    if mark is not None:
        mark.done = True


class Updates:
    """The updates table. Stores are committed together: the stores that come while one commit waits for the disk
    go in the next (one INSERT of them all), so a slow flush costs every waiting post one wait, not one each."""

    def __init__(self, db: Database, now: Callable[[], float] = time.time) -> None:
        self.db = db
        self.now = now
        self._stores: list[tuple[int, str, bool, int | None, asyncio.Future[bool]]] = []
        self._storing: asyncio.Task[None] | None = None
        self._handled: set[int] = set()
        self._marking: asyncio.Task[None] | None = None

    async def store(self, update_id: int, body: str, wake: bool = True, part: int | None = None) -> bool:
        """Keep an update until it is handled, committed when this returns; False if it was stored before
        (Telegram posted it again). ``wake``: tell the leading process (PostgreSQL's NOTIFY, at the commit);
        ``part``: the partition whose lead handles it (storage.partitions; None: the one leader's)."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._stores.append((update_id, body, wake, part, future))
        if self._storing is None or self._storing.done():
            self._storing = asyncio.ensure_future(self._store_all())
        return await future

    async def _store_all(self) -> None:
        while self._stores:
            batch, self._stores = self._stores, []
            rows = ", ".join(["(?, ?, ?, ?)"] * len(batch))
            insert = (f"INSERT INTO updates (update_id, body, received, part) VALUES {rows} "
                      "ON CONFLICT (update_id) DO NOTHING RETURNING update_id")
            wake = self.db.wake(CHANNEL)
            if wake is not None and any(wakes for _, _, wakes, _, _ in batch):
                insert = f"WITH stored AS ({insert}) SELECT update_id, {wake} FROM stored"
            now = self.now()
            try:
                stored = {int(r[0]) for r in await self.db.write_one(
                    insert, [v for update_id, body, _, part, _ in batch for v in (update_id, body, now, part)])}
            except Exception as e:
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(e)
                continue
            for update_id, *_, future in batch:  # one post of an update the same batch has twice is the new one
                if not future.done():
                    future.set_result(update_id in stored)
                stored.discard(update_id)

    async def waiting(self, skip: Collection[int] = (), limit: int = 256,
                      parts: Collection[int] | None = None) -> list[tuple[int, str, int | None]]:
        """The updates not handled yet, oldest first, but those in ``skip`` (being handled: their bodies are not
        read again); only those of the partitions ``parts`` if given (those this process leads)."""
        if parts is None:
            ids = [int(r[0]) for r in await self.db.all(
                "SELECT update_id FROM updates WHERE done = 0 ORDER BY update_id LIMIT ?", (limit,))]
        elif not parts:
            return []
        else:
            ids = [int(r[0]) for r in await self.db.all(
                f"SELECT update_id FROM updates WHERE done = 0 AND part IN ({', '.join('?' * len(parts))}) "
                "ORDER BY update_id LIMIT ?", (*parts, limit))]
        wanted = [i for i in ids if i not in skip]
        if not wanted:
            return []
        listed = ", ".join("?" * len(wanted))
        rows = await self.db.all(
            f"SELECT update_id, body, part FROM updates WHERE update_id IN ({listed}) ORDER BY update_id", wanted)
        return [(int(r[0]), str(r[1]), None if r[2] is None else int(r[2])) for r in rows]

    async def newest(self) -> int:
        """The highest update id known here (0: none)."""
        row = await self.db.one("SELECT COALESCE(MAX(update_id), 0) AS newest FROM updates")
        return 0 if row is None else int(row["newest"])

    async def was_handled(self, update_id: int) -> bool:
        """Whether the update is known and marked handled."""
        row = await self.db.one("SELECT done FROM updates WHERE update_id = ?", (update_id,))
        return row is not None and bool(row["done"])

    def handled(self, update_id: int) -> None:
        """Mark an update handled, soon: the marks of the moment go in one statement, not flushed to the disk
        before it returns (a mark lost in a crash only lets an update that wrote nothing be handled again)."""
        self._handled.add(update_id)
        if self._marking is None or self._marking.done():
            self._marking = asyncio.ensure_future(self._mark_all())

    async def _mark_all(self) -> None:
        while self._handled:
            marks, self._handled = sorted(self._handled), set()
            update = f"UPDATE updates SET done = 1 WHERE update_id IN ({', '.join('?' * len(marks))}) AND done = 0"

            def work(conn: SqlConnection, update: str = update, marks: list[int] = marks) -> None:
                if (lazy := self.db.lazy_commit()) is not None:
                    conn.execute(lazy)
                conn.execute(update, marks)

            try:
                await self.db.run(work)
            except Exception:
                log.exception("%d updates could not be marked handled; they may be handled again", len(marks))

    async def flush(self) -> None:
        """Wait for the marks and stores under way (a stopping process)."""
        await asyncio.gather(*(t for t in (self._storing, self._marking) if t is not None), return_exceptions=True)

    async def unrouted(self, limit: int = 256) -> list[tuple[int, str]]:
        """The updates waiting with no partition (stored by a version that had one leader): their bodies."""
        rows = await self.db.all("SELECT update_id, body FROM updates WHERE done = 0 AND part IS NULL "
                                 "ORDER BY update_id LIMIT ?", (limit,))
        return [(int(r[0]), str(r[1])) for r in rows]

    async def route(self, update_id: int, part: int) -> None:
        """Give a waiting update with no partition its partition (any process may: the first one's stays)."""
        await self.db.write_one("UPDATE updates SET part = ? WHERE update_id = ? AND part IS NULL", (part, update_id))

    async def prune(self) -> None:
        await self.db.write_one("DELETE FROM updates WHERE done = 1 AND received < ?", (self.now() - KEEP_SECONDS,))
