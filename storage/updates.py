"""Telegram's updates, stored by whichever bot process a webhook post reached, handled by the one that leads.

With several processes behind a load balancer (PostgreSQL only), each answers Telegram's posts once the update is
stored here: Telegram then never posts it again, and an update survives the death of any process. The leading
process (``PostgresDatabase.lead``) handles the updates waiting, in the order of their ids (``bot.inbox``).

Each update is handled once: the decision it brings marks it handled in the very transaction that writes the
game or the messages it owes (:data:`HANDLING`, read by ``Repo``), so a process killed right after that write
leaves nothing to handle again; an update that writes nothing (a refused press, a command that only answers) is
marked once its handlers are done, and handling it again after a crash changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar

from storage.engines import Engine, SqlConnection

# the update whose handlers run in this task (bot.inbox sets it): its decision's write marks it handled
HANDLING: ContextVar[int | None] = ContextVar("handling", default=None)
CHANNEL = "durak_updates"  # PostgreSQL's NOTIFY channel: an update was stored (a wake-up; the table is the queue)
KEEP_SECONDS = 600.0        # handled updates are kept this long: Telegram's post of one again is recognised


def mark_handled(conn: SqlConnection, update_id: int | None) -> None:
    """In a write's transaction: the update being handled is handled once this commits."""
    if update_id is not None:
        conn.execute("UPDATE updates SET done = 1 WHERE update_id = ?", (update_id,))


class Updates:
    def __init__(self, db: Engine, now: Callable[[], float] = time.time) -> None:
        self.db = db
        self.now = now

    async def store(self, update_id: int, body: str) -> bool:
        """Keep an update until it is handled; False if it was stored before (Telegram posted it again)."""
        insert = ("INSERT INTO updates (update_id, body, received) VALUES (?, ?, ?) "
                  "ON CONFLICT (update_id) DO NOTHING RETURNING update_id")
        if self.db.engine == "postgresql":  # one statement: the leader is woken when it commits
            insert = f"WITH stored AS ({insert}) SELECT update_id, pg_notify('{CHANNEL}', '') FROM stored"
        return bool(await self.db.write_one(insert, (update_id, body, self.now())))

    async def waiting(self, limit: int = 256) -> list[tuple[int, str]]:
        rows = await self.db.all("SELECT update_id, body FROM updates WHERE done = 0 ORDER BY update_id LIMIT ?",
                                 (limit,))
        return [(int(r[0]), str(r[1])) for r in rows]

    async def handled(self, update_id: int) -> None:
        await self.db.write_one("UPDATE updates SET done = 1 WHERE update_id = ? AND done = 0", (update_id,))

    async def prune(self) -> None:
        await self.db.write_one("DELETE FROM updates WHERE done = 1 AND received < ?", (self.now() - KEEP_SECONDS,))
