"""The outbox on its own, with a real SQLite file, a real PTB Bot and the fake Bot API server, and time that moves
on at once when it waits (its ticker): what a group is owed goes out at the group's pace, the newest content first
read when its slot comes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from itertools import pairwise
from pathlib import Path

import pytest
from telegram import Bot

from bot.transport.budget import ACTING, WAITING
from bot.transport.outbox import Outbox, Pace, Unheard
from durak import Rules
from storage.database import open_database
from storage.models import NewLobby, OutboxRow, Owed, User
from storage.repo import Repo
from storage.slots import TABLE, note_slot
from tests.bot.stepped import SteppedTicker
from tests.fake_telegram import TOKEN, FakeTelegram

GROUP = -5
ANNA = User(1, "Anna")


@pytest.fixture
async def parts(tmp_path: Path) -> AsyncIterator[tuple[FakeTelegram, Repo, Bot]]:
    fake = FakeTelegram()
    await fake.start()
    fake.add_user(ANNA.id, ANNA.name)
    fake.add_group(GROUP, "Table", admins=[ANNA.id])
    repo = Repo(await open_database(str(tmp_path / "durak.sqlite3")))
    await repo.save_user(ANNA)
    bot = Bot(TOKEN, base_url=f"{fake.url}/bot")
    await bot.initialize()
    yield fake, repo, bot
    await bot.shutdown()
    await repo.db.close()
    await fake.stop()


async def test_a_groups_messages_go_out_at_its_pace_without_real_waiting(
        parts: tuple[FakeTelegram, Repo, Bot]) -> None:
    fake, repo, bot = parts
    ticker = SteppedTicker()
    shown: list[tuple[str, float]] = []

    class Watching(Unheard):
        def shown(self, row: OutboxRow, message_id: int) -> None:
            shown.append((row.slot, ticker.time()))

    outbox = Outbox(repo, bot, Pace(group_spacing=20.0), ticker=ticker)
    outbox.listen(Watching())
    notes = [Owed(GROUP, TABLE, "the lobby"), *(Owed(GROUP, note_slot(n), f"note {n}") for n in range(3))]
    await repo.create_lobby(NewLobby(GROUP, 0, ANNA, Rules(), 6), owed=lambda g: notes)
    started = asyncio.get_running_loop().time()
    outbox.kick(GROUP)
    assert await outbox.drain(timeout=10)
    assert len(shown) == 4 and [m.text for m in fake.chat_messages(GROUP)] == [o.text for o in notes]
    gaps = [b - a for (_, a), (_, b) in pairwise(shown)]
    assert all(gap >= 20.0 for gap in gaps), f"a group is called at most once in 20 s of its ticker: {gaps}"
    assert asyncio.get_running_loop().time() - started < 5, "the ticker's minute took no real minute"
    await outbox.close()


async def test_an_old_copy_is_deleted_while_its_chats_worker_waits_for_the_budget_too(
        parts: tuple[FakeTelegram, Repo, Bot]) -> None:
    """A player presses an old copy of his hand while what his chat is owed waits for a slot of the budget: both
    get theirs (the copy's delete once waited under his chat's own key and took its worker's place, so one of the
    two waited for ever)."""
    fake, repo, bot = parts

    ticker = SteppedTicker()
    outbox = Outbox(repo, bot, Pace(per_second=1.0), ticker=ticker)
    fake.users[ANNA.id].started = True  # she wrote to the bot once
    copy = await bot.send_message(ANNA.id, "an old copy of her hand")
    await outbox.budget.take(GROUP, ACTING, ticker.time())  # a slot just given: the next ones wait
    worker = asyncio.ensure_future(outbox.budget.take(ANNA.id, WAITING, ticker.time()))  # her chat's worker
    await asyncio.sleep(0)
    outbox.retire(ANNA.id, copy.message_id)
    await asyncio.wait_for(worker, 10)
    assert await outbox.drain(timeout=10)
    assert ("deleteMessage", ANNA.id, copy.message_id) in [
        (m, int(p["chat_id"]), int(p["message_id"])) for m, p in fake.calls if m == "deleteMessage"]
    await outbox.close()
