"""Restarts, forged and stale buttons, double presses, floods, and a group turning supergroup."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

import pytest

from durak import State
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram
from tests.places import Place, place_of, url_schema


def moves(table: Table, database: Path) -> int:
    return int(State.from_json(json.loads(table.stored(database)["state"])).moves)


async def started_table(fake: FakeTelegram, bot: BotProcess, players: int = 2, preset: str = "") -> Table:
    table = Table(fake, GROUP, list(range(101, 101 + players)), seed=7)
    await table.seat_everyone(preset)
    await table.start(101)
    await fake.wait_for(lambda: table.stored(bot.settings.database_path).get("status") == "playing")
    return table


async def test_a_restart_in_the_middle_of_a_game_loses_nothing(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    first = BotProcess(fake, database)
    await first.start()
    table = await started_table(fake, first, players=3, preset="perevodnoy")
    await table.play(until=lambda: table.accepted >= 15)
    await first.service.outbox.drain()
    before = moves(table, database)
    hands_before = json.loads(table.stored(database)["state"])["hands"]
    await first.stop()

    second = BotProcess(fake, database)
    await second.start()
    assert moves(table, database) == before
    assert json.loads(table.stored(database)["state"])["hands"] == hands_before
    assert second.service.store.games, "the running game was resumed"
    await table.play_to_the_end()
    row = table.stored(database)
    assert row["status"] == "finished"
    assert State.from_json(json.loads(row["state"])).moves > before
    await second.stop()


async def test_forged_foreign_and_stale_presses_change_nothing(fake: FakeTelegram, bot: BotProcess) -> None:
    table = await started_table(fake, bot)
    database = bot.settings.database_path
    state = State.from_json(json.loads(table.stored(database)["state"]))
    attacker = table.players[state.attacker or 0]
    other = table.players[1 - (state.attacker or 0)]
    message = table.hand_message(attacker)
    assert message is not None
    lead = await table.one_card_lead(attacker, message)
    version = table.stored(database)["version"]  # a pick is remembered, not written
    game_id = lead.split(":")[2]
    code = next(b["callback_data"] for b in message.buttons() if b["callback_data"].startswith(("v1:c:", "v1:f:"))
                ).split(":")[4]
    card = f"v1:c:{game_id}:0:{code}"  # "lead this card", as the attacker's keyboard may draw it

    async def toast(user: int, data: str) -> str:
        answer = await fake.answer(await fake.press(user, message.chat_id, message.message_id, data))
        return str(answer.get("text") or "")

    assert await toast(attacker, "hello") == "This button is not valid any more."
    assert await toast(attacker, "v1:c:" + "9" * 12 + ":" + "9" * 9 + ":" + "A" * 40) == (
        "This button is not valid any more.")
    assert await toast(attacker, "v1:c:999:0:6S") == "This game is over."
    assert await toast(attacker, f"v1:c:{game_id}:0:ZZ") == "Unknown button."
    assert await toast(106, card) == "This button is not valid any more.", "not his message"
    for verb in ("f", "d", "m", "v"):  # pick, cover, lead several, transfer: forged by another player on this hand
        arg = code if verb in "fd" else "A"
        assert await toast(other, f"v1:{verb}:{game_id}:0:{arg}") == "This button is not valid any more."
    assert await toast(attacker, f"v1:d:{game_id}:0:{code}") == "Not your turn.", "nothing to cover: refused, why"
    assert await toast(attacker, f"v1:m:{game_id}:0:") == "Unknown button."
    own = table.hand_message(other)
    assert own is not None
    answer = await fake.answer(await fake.press(other, own.chat_id, own.message_id, card))
    assert "not in your hand" in answer["text"]
    assert table.stored(database)["version"] == version, "nothing was written"

    # the real press works, and pressing the same button again is refused: the card is on the table
    assert await toast(attacker, lead) == ""
    await fake.wait_for(lambda: table.stored(database)["version"] == version + 1)
    assert (await toast(attacker, lead)).endswith("is not in your hand.")
    await bot.idle()
    assert table.stored(database)["version"] == version + 1


async def test_a_double_press_is_applied_once(fake: FakeTelegram, bot: BotProcess) -> None:
    table = await started_table(fake, bot)
    database = bot.settings.database_path
    state = State.from_json(json.loads(table.stored(database)["state"]))
    attacker = table.players[state.attacker or 0]
    message = table.hand_message(attacker)
    assert message is not None
    lead = await table.one_card_lead(attacker, message)
    answers = await asyncio.gather(*(table.press(attacker, message, lead) for _ in range(3)))
    await bot.idle()
    assert moves(table, database) == 1
    assert all(a.get("at") is not None for a in answers), "every press was answered"


@pytest.mark.long(13)
async def test_a_flood_of_presses_stays_within_the_groups_budget(fake: FakeTelegram, tmp_path: Path) -> None:
    """With Telegram's 20 edits a minute the table is edited far less often than buttons are pressed, and
    no minute ever sees more: the bot spaces a group's calls 3 s apart instead of letting a burst through."""
    fake.group_budget, fake.group_window = 20, 60.0  # Telegram's 20 a minute, strictly
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", group_edits_per_minute=20)
    await bot.start()
    table = await started_table(fake, bot, players=2)
    await table.play_to_the_end(timeout=180)
    await asyncio.wait_for(bot.service.outbox.drain(), 60)
    assert not [e for e in fake.errors if e[1] == 429], "the bot kept within the group's budget"
    table_message = table.group_messages()[0]
    assert table.accepted > len(table_message.history), "edits were coalesced"
    assert "Waiting for" not in table_message.text, "the latest state won"
    await bot.stop()


@pytest.mark.long(10)
async def test_a_group_call_that_reaches_telegram_late_does_not_bring_the_next_one_closer(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """Telegram counts a call when it arrives. A table edit held up on its way (a slow network, or its content
    read slowly) must not let the group's next call follow it by less than the group's spacing, or a group
    kept at its full budget gets 429s: the spacing runs from Telegram's answer."""
    fake.group_budget, fake.group_window = 1, 1.0  # Telegram, strictly: one call a second in the group
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", group_edits_per_minute=60)
    await bot.start()
    table = await started_table(fake, bot, players=2)
    for _ in range(3):
        fake.hold(GROUP)
        accepted = table.accepted
        await table.play(until=lambda n=accepted: table.accepted >= n + 2)  # moves owe the table meanwhile
        await asyncio.sleep(1.5)
        fake.release(GROUP)
        await table.play(until=lambda n=accepted: table.accepted >= n + 4)
    await table.play_to_the_end(timeout=180)
    await asyncio.wait_for(bot.service.outbox.drain(), 60)
    assert fake.too_many["group"] == 0, "no group call reached Telegram within a second of the one before"
    assert "Waiting for" not in table.group_messages()[0].text
    await bot.stop()


@pytest.mark.long(12)
async def test_answers_and_hands_never_wait_behind_the_group(fake: FakeTelegram, tmp_path: Path) -> None:
    """The group's table is stuck (its budget spent, a slow network): presses are still answered at once and
    the player who must act still gets his hand; the table catches up later with the newest position."""
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, group_edits_per_minute=20)
    await bot.start()
    table = await started_table(fake, bot)
    await bot.service.outbox.drain()
    state = State.from_json(json.loads(table.stored(database)["state"]))
    attacker = table.players[state.attacker or 0]
    defender = table.players[state.defender or 0]
    fake.hold(GROUP)
    hand = table.hand_message(attacker)
    assert hand is not None
    answer = await table.press(attacker, hand, await table.one_card_lead(attacker, hand))
    assert not answer.get("text"), answer
    defence = table.hand_message(defender)
    assert defence is not None
    await fake.wait_for(lambda: "press Take" in defence.text)
    assert GROUP in fake.held, "all this while the group's table was still on its way"
    assert "→?" not in table.group_messages()[0].text and moves(table, database) == 1
    fake.release(GROUP)
    await fake.wait_for(lambda: "→?" in table.group_messages()[0].text)
    await bot.stop()


@pytest.mark.long(10)
# python-telegram-bot's warning that whole seconds are deprecated, once at every 429 read (bot/app.py opts in)
@pytest.mark.filterwarnings("error::telegram.warnings.PTBDeprecationWarning")
async def test_429_from_the_group_is_waited_out(fake: FakeTelegram, tmp_path: Path) -> None:
    """A server stricter than the bot's own limiter answers 429; the bot retries and catches up."""
    fake.group_budget, fake.group_window = 4, 3.0
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", group_edits_per_minute=6000)
    await bot.start()
    table = await started_table(fake, bot, players=2)
    await table.play_to_the_end(timeout=180)
    await asyncio.wait_for(bot.service.outbox.drain(), 60)
    assert [e for e in fake.errors if e[1] == 429], "the budget was exceeded at least once"
    assert "Waiting for" not in table.group_messages()[0].text
    await bot.stop()


async def test_the_game_follows_a_group_that_became_a_supergroup(fake: FakeTelegram, bot: BotProcess) -> None:
    table = await started_table(fake, bot)
    await table.play(until=lambda: table.accepted >= 5)
    await fake.migrate_group(GROUP, -100777)
    await fake.wait_for(lambda: len(fake.chat_messages(-100777)) == 1)
    table.group, table.since = -100777, 0
    result = await table.play_to_the_end()
    assert result.chat_id == -100777
    row = table.stored(bot.settings.database_path)
    assert row["chat_id"] == -100777 and row["status"] == "finished"


async def test_a_corrupt_game_row_is_closed_with_a_log_line(fake: FakeTelegram, tmp_path: Path,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    database = tmp_path / "durak.sqlite3"
    first = BotProcess(fake, database)
    await first.start()
    table = Table(fake, GROUP, [101, 102])
    await table.newgame(101)
    await first.stop()
    place_of(database).sql("UPDATE games SET rules = 'not json'")
    second = BotProcess(fake, database)
    with caplog.at_level(logging.ERROR):
        await second.start()
    assert "could not be read and was closed" in caplog.text
    await table.newgame(102)  # the group can play again
    assert "Players (1/" in table.lobby().text
    await second.stop()


@pytest.mark.long(10)
async def test_a_restart_does_not_give_a_group_a_fresh_budget(fake: FakeTelegram, tmp_path: Path) -> None:
    """Telegram counts a group's calls whatever process makes them: right after a restart the bot spaces its
    first call to a group from the last one the process before may have made (here: a lobby cancelled, the
    bot restarted, a new lobby opened at once)."""
    database = tmp_path / "durak.sqlite3"
    first = BotProcess(fake, database)
    await first.start()
    table = Table(fake, GROUP, [101, 102])
    await table.newgame(101)
    await fake.send_text(101, GROUP, "/cancel")
    await fake.wait_for(lambda: "cancelled" in table.group_messages()[0].text)
    await first.stop()
    fake.group_budget, fake.group_window = 1, 10.0  # from the cancelled lobby's edit on: one call in ten seconds
    fake.group_sends[GROUP].clear()
    fake.group_sends[GROUP].append(time.monotonic())
    second = BotProcess(fake, database, group_edits_per_minute=6)
    await second.start()
    await fake.send_text(102, GROUP, "/newgame")
    await fake.wait_for(lambda: len(table.group_messages()) == 2, 20)
    assert not [e for e in fake.errors if e[1] == 429], "the new process waited for the group's budget"
    await second.stop()


async def test_a_game_goes_on_when_its_postgresql_connection_is_cut(fake: FakeTelegram, tmp_path: Path,
                                                                     postgres_url: str,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    """A proxy dropped the bot's database connection in the middle of a game: the bot connects again by itself,
    and the game is played to its end with every move kept. (Its leases' connection cut ends the process instead:
    another may lead its games by then; tests/e2e/test_processes.py.)"""
    name = f"bot-{url_schema(postgres_url)}"
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", database_url=f"{postgres_url}&application_name={name}")
    await bot.start()
    try:
        table = Table(fake, GROUP, [101, 102], seed=7)
        await table.seat_everyone()
        await table.start(101)
        await fake.wait_for(lambda: all(table.hand_message(p) is not None for p in table.players))
        await table.play(until=lambda: table.accepted >= 6)
        await bot.service.outbox.drain()
        place = Place("postgresql", postgres_url)
        before = State.from_json(json.loads(place.sql("SELECT state FROM games")[0][0])).moves
        [(pid,)] = place.sql("SELECT pid FROM pg_stat_activity WHERE application_name = ? AND pid NOT IN "
                             "(SELECT pid FROM pg_locks WHERE locktype = 'advisory')", (name,))  # not the leases
        place.sql("SELECT pg_terminate_backend(?)", (pid,))
        with caplog.at_level(logging.WARNING):
            result = await table.play_to_the_end()
        assert "was lost; connecting again" in caplog.text
        assert "Game over" in result.text
        [row] = place.dicts("SELECT status, state FROM games")
        assert row["status"] == "finished" and State.from_json(json.loads(row["state"])).moves > before
    finally:
        await bot.stop()
