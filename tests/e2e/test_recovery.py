"""Nothing lost, nothing frozen: failed Telegram calls, deleted messages, stuck timers, stale copies.

Each test here failed on the bot before the game store and the outbox.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from telegram import Update

from bot.app import _on_error
from durak import State
from tests.e2e.clock import ManualClock
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram
from tests.places import place_of


def moves(table: Table, database: Path) -> int:
    return int(State.from_json(json.loads(table.stored(database)["state"])).moves)


async def started_table(fake: FakeTelegram, bot: BotProcess, players: int = 2) -> Table:
    table = Table(fake, GROUP, list(range(101, 101 + players)), seed=5)
    await table.seat_everyone()
    await table.start(101)
    return table


def leader(table: Table, database: Path) -> int:
    state = State.from_json(json.loads(table.stored(database)["state"]))
    return table.players[state.attacker or 0]


async def test_a_failed_answer_never_drops_the_move(fake: FakeTelegram, bot: BotProcess) -> None:
    table = await started_table(fake, bot)
    database = bot.settings.database_path
    attacker = leader(table, database)
    hand = table.hand_message(attacker)
    assert hand is not None
    lead = await table.one_card_lead(attacker, hand)
    fake.fail("answerCallbackQuery", code=400,
              description="Bad Request: query is too old and response timeout expired or query ID is invalid")
    await fake.press(attacker, hand.chat_id, hand.message_id, lead)
    await fake.wait_for(lambda: moves(table, database) == 1)


async def test_a_clean_stop_right_after_the_last_move_still_posts_the_result(fake: FakeTelegram,
                                                                              tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database)
    await bot.start()
    table = await started_table(fake, bot)
    await fake.send_text(101, GROUP, "/leave")
    await fake.wait_for(lambda: table.stored(database)["version"] >= 3)
    await fake.send_text(102, GROUP, "/leave")  # the computer plays both seats to the end at once
    await fake.wait_for(lambda: table.stored(database)["status"] == "finished")
    await bot.stop()
    assert table.result() is not None, "the owed result was delivered before the HTTP client closed"
    assert "Waiting for" not in table.group_messages()[0].text


async def test_deleted_table_and_hand_messages_come_back(fake: FakeTelegram, bot: BotProcess) -> None:
    table = await started_table(fake, bot)
    database = bot.settings.database_path
    attacker = leader(table, database)
    defender = table.players[1 - table.players.index(attacker)]
    table_message, defender_hand = table.group_messages()[0], table.hand_message(defender)
    assert defender_hand is not None
    await fake.delete_by_user(GROUP, table_message.message_id)
    await fake.delete_by_user(defender, defender_hand.message_id)
    hand = table.hand_message(attacker)
    assert hand is not None
    await table.press(attacker, hand, await table.one_card_lead(attacker, hand))
    await fake.wait_for(lambda: moves(table, database) == 1)
    # both messages had to change with the lead: Telegram had lost them, so they are posted anew
    await fake.wait_for(lambda: any("Waiting for" in m.text for m in table.group_messages()))
    await fake.wait_for(lambda: table.hand_message(defender) is not None)
    reposted = table.hand_message(defender)
    assert reposted is not None and reposted.message_id > defender_hand.message_id
    # the defender's prompt, whether or not the deal lets him cover the lead
    assert "press Take" in reposted.text
    # the game goes on with the new messages
    await table.play(until=lambda: moves(table, database) >= 3)
    await bot.service.outbox.drain()  # a waiting hand may still owe its lazy edit of the last move
    # /hand posts your hand again at the bottom of the chat and deletes the old copy
    old = table.hand_message(defender)
    assert old is not None
    await fake.send_text(defender, defender, "/hand")
    await fake.wait_for(lambda: (table.hand_message(defender) or old).message_id > old.message_id)
    await fake.wait_for(lambda: (defender, old.message_id) not in fake.messages)
    new = table.hand_message(defender)
    assert new is not None and new.text == old.text and new.buttons() == old.buttons()


async def test_a_stale_copy_of_the_game_is_reloaded_and_the_press_decided_again(fake: FakeTelegram,
                                                                                 bot: BotProcess) -> None:
    table = await started_table(fake, bot)
    database = bot.settings.database_path
    def bump() -> None:  # the stored row moves on without the bot's copy (off the event loop: it may wait)
        place_of(database).sql("UPDATE games SET version = version + 1")

    await asyncio.to_thread(bump)
    attacker = leader(table, database)
    hand = table.hand_message(attacker)
    assert hand is not None
    answer = await table.press(attacker, hand, await table.one_card_lead(attacker, hand))
    assert not answer.get("text"), answer
    await fake.wait_for(lambda: moves(table, database) == 1)
    # and the game goes on
    await table.play_to_the_end()


async def test_a_500_while_dealing_is_retried_and_the_player_stays_in(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone()
    fake.fail("sendMessage", times=2)  # the first hand (and its first retry) hit a server error
    await table.press(101, table.lobby(), "Start")
    await fake.wait_for(lambda: all(table.hand_message(p) is not None for p in table.players), 20)
    assert [a for (a,) in bot.place.sql("SELECT away FROM seats")] == [0, 0], "nobody was marked unreachable"
    assert not any("can't reach" in m.text for m in table.group_messages())


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def timed_bot(fake: FakeTelegram, tmp_path: Path, clock: ManualClock) -> AsyncIterator[BotProcess]:
    # no pings: their writes would fail too while the database is held, each after the busy timeout
    process = BotProcess(fake, tmp_path / "durak.sqlite3", clock=clock, ping_delay=600)
    await process.start()
    yield process
    await process.stop()


@pytest.mark.sqlite_only  # SQLite's busy timeout: PostgreSQL waits for a lock instead of failing
@pytest.mark.long(27)
async def test_a_timer_that_fails_once_is_picked_up_by_the_sweep(fake: FakeTelegram, timed_bot: BotProcess,
                                                                  clock: ManualClock) -> None:
    table = await started_table(fake, timed_bot)
    database = timed_bot.settings.database_path
    assert table.stored(database)["deadline"] is not None
    await timed_bot.service.outbox.drain()  # everyone sees the start: the first turn's 60 s run
    # the disk is unavailable when the turn times out: another writer holds the database past the busy timeout
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        with sqlite3.connect(database, isolation_level=None) as db:
            db.execute("BEGIN IMMEDIATE")
            locked.set()
            release.wait(30)
            db.execute("ROLLBACK")

    holder = threading.Thread(target=hold)
    holder.start()
    await asyncio.to_thread(locked.wait)
    try:
        await clock.advance(61)
        assert moves(table, database) == 0, "the timeout could not be written"
    finally:
        release.set()
        await asyncio.to_thread(holder.join)
    await clock.advance(6)  # the next sweep finds the overdue deadline
    await fake.wait_for(lambda: moves(table, database) == 1)


async def test_the_error_log_names_the_update_and_never_shows_a_hand(caplog: pytest.LogCaptureFixture) -> None:
    update = Update.de_json({"update_id": 42, "callback_query": {
        "id": "q1", "chat_instance": "c", "data": "v1:c:1:0:7S",
        "from": {"id": 101, "is_bot": False, "first_name": "Anna"},
        "message": {"message_id": 5, "date": 0, "chat": {"id": 101, "type": "private", "first_name": "Anna"},
                    "text": "🃏 Durak · you are Anna\nYour hand: 7♠️ 9♥ A♦"}}}, None)

    class Context:
        error = RuntimeError("boom")

    with caplog.at_level(logging.ERROR):
        await _on_error(update, Context())  # type: ignore[arg-type]
    assert "update 42" in caplog.text and "user 101" in caplog.text and "v1:c:1:0:7S" in caplog.text
    assert "Your hand" not in caplog.text and "9♥" not in caplog.text


async def test_a_lobby_that_expires_while_its_partition_is_taken_is_not_shown_open_again(fake: FakeTelegram,
                                                                                          tmp_path: Path) -> None:
    """A lobby whose time ran out while no process led it is closed by the first sweep of the process that takes
    its partition over, while that process is still loading it: the copy it read must not write the open lobby
    over «The lobby expired» (a kill test once saw the group keep the open lobby, its game cancelled)."""
    clock = ManualClock()
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", clock=clock, lobby_timeout=30)
    await bot.start()
    try:
        service = bot.service
        lobby = await Table(fake, GROUP, [101]).newgame(101)
        game_id, = service.store.games
        service.store.forget(game_id)  # its partition is taken here now: read from the database, not loaded yet
        adopting = asyncio.ensure_future(service.adopt(lambda chat: chat == GROUP))
        while game_id not in service.store.games and not adopting.done():  # loaded, its messages not written yet
            await asyncio.sleep(0)
        await clock.advance(31)  # the sweep finds it expired and closes it
        assert await adopting == 1
        assert await service.outbox.drain(10)
        assert lobby.text.startswith("The lobby expired"), lobby.history
        assert place_of(tmp_path / "durak.sqlite3").sql("SELECT status FROM games WHERE id = ?", (game_id,)) == [
            ("cancelled",)]
    finally:
        await bot.stop()


async def test_taking_a_partition_loads_its_games_alone_never_an_old_copy_of_another(fake: FakeTelegram,
                                                                                      tmp_path: Path) -> None:
    """A process that takes a partition (bot/game/shares.py) loads the open games of that partition's chats only: a
    game of a chat it already led is in its store, or was closed meanwhile, and a copy of it read from the
    database before it closed would show the closed game's table as open again."""
    bot = BotProcess(fake, tmp_path / "durak.sqlite3")
    await bot.start()
    try:
        fake.add_group(-7001, "Other", admins=[101])
        await fake.send_text(101, GROUP, "/newgame")
        await fake.send_text(101, -7001, "/newgame")
        await fake.wait_for(lambda: len(bot.service.store.games) == 2)
        here, other = (next(g for g in bot.service.store.games.values() if g.chat_id == c) for c in (GROUP, -7001))
        bot.service.store.forget(here.id)  # as if read before it closed: not in the store, open in the database
        assert await bot.service.adopt(lambda chat: chat == -7001) == 0, "the other chat's game is here already"
        assert here.id not in bot.service.store.games, "not brought back by another chat's adoption"
        bot.service.store.forget(other.id)
        assert await bot.service.adopt(lambda chat: chat == -7001) == 1
        assert other.id in bot.service.store.games
    finally:
        await bot.stop()
