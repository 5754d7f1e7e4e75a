"""The inbox of stored updates (PostgreSQL; here on a SQLite file, the same statements): a stop always ends, and
updates stored with no partition are given theirs.

Python 3.11's ``asyncio.wait_for`` loses a cancellation that arrives as the wait it guards ends. The inbox used
to be stopped by cancelling its loop while it waited for a wake: a wake at the moment of a SIGTERM (an update
posted, a NOTIFY) left the loop running for ever, and the stopping process hung (seen in
tests/e2e/test_processes.py)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from telegram import Update
from telegram.ext import Application, ApplicationBuilder, ContextTypes, MessageHandler, filters

from bot.transport.inbox import Inbox
from storage.database import open_database
from storage.updates import Updates
from tests.bot.transport.test_webhook import UPDATE
from tests.fake_telegram import TOKEN, FakeTelegram


def application(fake: FakeTelegram, handled: list[int]) -> Application:  # type: ignore[type-arg]
    app: Application = ApplicationBuilder().token(TOKEN).base_url(f"{fake.url}/bot").build()  # type: ignore[type-arg]

    async def on_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        handled.append(update.update_id)

    app.add_handler(MessageHandler(filters.TEXT, on_message))
    return app


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[Application, Updates, list[int]]]:  # type: ignore[type-arg]
    """A real Application on the fake server whose one handler notes each update it handles, and the updates
    table of a SQLite file."""
    fake = FakeTelegram()
    await fake.start()
    db = await open_database(str(tmp_path / "durak.sqlite3"))
    handled: list[int] = []
    app = application(fake, handled)
    await app.initialize()
    try:
        yield app, Updates(db), handled
    finally:
        await app.shutdown()
        await db.close()
        await fake.stop()


async def test_a_stop_that_comes_with_a_wake_ends_the_inbox_and_handles_what_was_stored(
        world: tuple[Application, Updates, list[int]]) -> None:  # type: ignore[type-arg]
    app, updates, handled = world
    for n in range(40):  # the wake lands at a different point of the loop's wait each time
        inbox = Inbox(app, updates)
        inbox.start()
        for _ in range(n % 4):
            await asyncio.sleep(0)
        await updates.store(1000 + n, json.dumps(UPDATE | {"update_id": 1000 + n}), wake=False)
        inbox.wake()
        await asyncio.sleep(0)
        await asyncio.wait_for(inbox.stop(), 10)
    assert sorted(set(handled)) == [1000 + n for n in range(40)], "every stored update is handled by a later start"


async def test_updates_stored_without_a_partition_are_given_theirs_and_handled_by_its_lead(
        world: tuple[Application, Updates, list[int]]) -> None:  # type: ignore[type-arg]
    """An older version (one leader) stored updates with no partition: once the processes share the games, each
    is given its partition at the start, and the lead of that partition handles it (the other one's waits)."""
    app, updates, handled = world

    async def route(update: Update) -> int:
        return 5 if update.update_id == 2001 else 7

    for update_id in (2001, 2002):
        await updates.store(update_id, json.dumps(UPDATE | {"update_id": update_id}), wake=False)
    inbox = Inbox(app, updates, led=lambda: {5}, route=route)
    inbox.start()
    async with asyncio.timeout(10):
        while handled != [2001]:
            await asyncio.sleep(0.05)
    await inbox.stop()
    rows = await updates.db.all("SELECT update_id, part, done FROM updates ORDER BY update_id")
    assert [tuple(r) for r in rows] == [(2001, 5, 1), (2002, 7, 0)], "the other partition's update waits for its lead"
    assert handled == [2001]
