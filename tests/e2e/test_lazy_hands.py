"""The player who must act is served first; the table and a waiting player's hand fold a quick run of moves
into one edit."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.outbox import LAZY_SECONDS
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_hand import stored_position
from tests.fake_telegram import FakeTelegram


def edits(fake: FakeTelegram, chat: int, since: int) -> list[int]:
    """Indexes of the calls (from ``since``) that edited a message in ``chat``."""
    return [i for i, (method, p) in enumerate(fake.calls) if i >= since and method == "editMessageText"
            and int(p["chat_id"]) == chat]


async def test_the_defender_is_served_first_and_a_waiting_hand_is_edited_once(fake: FakeTelegram,
                                                                              tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["7S", "KD"], ["8S", "9C", "QD", "JC"], ["6C", "AS"]], [])
    bot = BotProcess(fake, database, group_edits_per_minute=6000)  # the group's budget folds nothing here
    await bot.start()
    table = Table(fake, GROUP, [101, 102, 103])
    anna, boris, vera = (fake.messages[(u, 1)] for u in (101, 102, 103))
    await fake.wait_for(lambda: "Your lead" in anna.text and "Wait" in vera.text)
    await bot.service.outbox.drain()
    since, vera_seen = len(fake.calls), len(vera.history)
    await table.press(101, anna, "7♠️")
    await fake.wait_for(lambda: "Defend" in boris.text)
    await table.press(102, boris, "8♠️")  # a second move while Vera's hand still waits
    await fake.wait_for(lambda: "7♠️→8♠️" in vera.text and "7♠️→8♠️" in fake.messages[(GROUP, 1)].text,
                        LAZY_SECONDS + 3)
    await asyncio.sleep(0.3)
    assert edits(fake, 102, since)[0] < edits(fake, 103, since)[0], "the defender's hand went out first"
    assert edits(fake, 102, since)[0] < edits(fake, GROUP, since)[0], "and before the table"
    assert len(vera.history) == vera_seen + 1, "two moves, one edit of the waiting player's hand"
    assert len(edits(fake, GROUP, since)) == 1, "and one edit of the table"
    assert len(edits(fake, 102, since)) >= 2, "the movers' own hands follow every move"
    await bot.stop()


async def test_under_a_spent_budget_the_player_who_must_act_is_served_before_the_table(fake: FakeTelegram,
                                                                                      tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["7S", "KD"], ["8S", "9C", "QD", "JC"], ["6C", "AS"]], [])
    bot = BotProcess(fake, database, sends_per_second=2, ping_delay=0)  # a budget far smaller than a move owes
    await bot.start()
    table = Table(fake, GROUP, [101, 102, 103])
    anna, vera = fake.messages[(101, 1)], fake.messages[(103, 1)]
    await fake.wait_for(lambda: "Your lead" in anna.text and "Wait" in vera.text, 15)
    await bot.service.outbox.drain()
    since = len(fake.calls)
    await table.press(101, anna, "7♠️")
    await fake.wait_for(lambda: "7♠️→?" in fake.messages[(GROUP, 1)].text and "7♠️→?" in vera.text, 15)
    await fake.wait_for(lambda: any(m == "sendMessage" and int(p["chat_id"]) == 102 for m, p in fake.calls[since:]))
    ping = next(i for i, (m, p) in enumerate(fake.calls) if i >= since and m == "sendMessage"
                and int(p["chat_id"]) == 102)
    await fake.wait_for(lambda: edits(fake, 103, since) != [], 15)
    first_edit = edits(fake, 102, since)[0]
    assert first_edit < ping < edits(fake, GROUP, since)[0], "the defender's hand and ping took the first slots"
    assert ping < edits(fake, 103, since)[0], "before the waiting player's hand"
    await bot.stop()
