"""The updates a webhook stores for the leading process (storage/updates.py), on both engines."""

from __future__ import annotations

import asyncio

from storage.database import open_database
from storage.models import Owed
from storage.repo import Repo
from storage.slots import note_slot
from storage.updates import HANDLING, KEEP_SECONDS, Updates
from tests.places import Place


async def test_an_update_is_stored_once_and_waits_in_order_until_handled(place: Place) -> None:
    db = await open_database(place.target)
    clock = [1000.0]
    updates = Updates(db, now=lambda: clock[0])
    try:
        stored = await asyncio.gather(*(updates.store(i, f'{{"update_id": {i}}}') for i in (7, 5, 6, 5)))
        assert stored.count(True) == 3 and stored[0] and stored[2], "the second post of 5 is known"
        assert [u for u, *_ in await updates.waiting()] == [5, 6, 7]
        assert await updates.waiting(skip={5, 7}) == [(6, '{"update_id": 6}', None)], "bodies of the others not read"
        updates.handled(6)
        updates.handled(5)
        await updates.flush()
        assert [u for u, *_ in await updates.waiting()] == [7]
        assert not await updates.store(6, "{}"), "handled, and still known: a post of it again is not kept"
        clock[0] += KEEP_SECONDS + 1
        await updates.prune()
        assert await updates.store(6, "{}"), "forgotten once older than KEEP_SECONDS"
        assert place.sql("SELECT update_id, done FROM updates ORDER BY update_id") == [(6, 0), (7, 0)]
    finally:
        await db.close()


async def test_a_process_reads_only_the_updates_of_the_partitions_it_leads(place: Place) -> None:
    db = await open_database(place.target)
    updates = Updates(db)
    try:
        await asyncio.gather(*(updates.store(i, "{}", part=i % 3) for i in range(1, 10)))
        assert [(u, part) for u, _, part in await updates.waiting(parts={0, 2})] == [
            (2, 2), (3, 0), (5, 2), (6, 0), (8, 2), (9, 0)]
        assert [u for u, *_ in await updates.waiting(parts={1}, skip={4})] == [1, 7]
        assert await updates.waiting(parts=set()) == [], "a process that leads nothing handles nothing"
        assert len(await updates.waiting()) == 9, "one leader (no partitions) handles them all"
    finally:
        await db.close()


async def test_a_decision_marks_its_update_handled_in_its_own_write(place: Place) -> None:
    """Stored or not (the leader handles what is posted to it without storing it), the update a write belongs to
    is handled once that write commits: no kill after it lets it be handled again."""
    db = await open_database(place.target)
    repo = Repo(db)
    try:
        await Updates(db).store(41, "{}")
        for update_id in (41, 42):
            token = HANDLING.set(update_id)
            try:
                await repo.put_owed(None, [])  # nothing owed: nothing written, nothing marked
                assert place.sql("SELECT COUNT(*) FROM updates WHERE update_id = ? AND done = 1",
                                 (update_id,)) == [(0,)]
                await repo.put_owed(None, [Owed(101, note_slot(update_id), "hello")])
            finally:
                HANDLING.reset(token)
        assert place.sql("SELECT update_id, done FROM updates ORDER BY update_id") == [(41, 1), (42, 1)]
        assert await Updates(db).waiting() == []
    finally:
        await db.close()
