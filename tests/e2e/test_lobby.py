"""The lobby: joining, leaving, settings, starting, cancelling, expiry, rematch, one game per topic."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.clock import ManualClock
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram


async def test_join_through_the_deep_link_then_leave(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102, 103])
    await table.newgame(101)
    answer = await table.press(102, table.lobby(), "Join")
    assert answer["url"].endswith("?start=join_1"), "a user the bot can't reach yet gets the deep link"
    assert "102" not in table.lobby().text and "Boris" not in table.lobby().text
    await fake.send_text(102, 102, "/start join_1")
    await fake.wait_for(lambda: "Boris" in table.lobby().text)
    private = fake.chat_messages(102)[-1]
    assert "You joined the game" in private.text
    answer = await table.press(102, table.lobby(), "Join")
    assert answer["text"] == "You have already joined."
    answer = await table.press(102, table.lobby(), "Leave")
    assert answer["text"] == "You left the game."
    await fake.wait_for(lambda: "Boris" not in table.lobby().text)
    answer = await table.press(103, table.lobby(), "Leave")
    assert answer["text"] == "You are not in this game."


async def test_only_the_creator_changes_settings_and_they_become_the_groups_defaults(
        fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102])
    await table.newgame(101)
    await table.join(102)
    answer = await table.press(102, table.lobby(), "Settings")
    assert answer["text"] == "Only the creator can do that."
    await table.configure(101, deck="24", transfer="on", cheating="on")
    assert "24 cards" in table.lobby().text and "transfer" in table.lobby().text
    await table.press(101, table.lobby(), "Cancel")
    await fake.wait_for(lambda: "cancelled" in table.group_messages()[-1].text)
    await table.newgame(102)
    text = table.lobby().text
    assert "24 cards" in text and "transfer" in text and "cheating allowed" in text
    assert "up to 4 players" in text


async def test_start_needs_enough_players_for_the_rules(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102, 103])
    await table.newgame(101)
    await table.join(101)
    answer = await table.press(101, table.lobby(), "Start")
    assert answer["text"] == "At least two players are needed."
    await table.join(102)
    await table.join(103)
    answer = await table.press(102, table.lobby(), "Start")
    assert answer["text"] == "Only the creator can do that."
    answer = await table.press(101, table.lobby(), "Settings")
    await fake.wait_for(lambda: any(b["text"].startswith("Teams") for b in table.lobby().buttons()))
    answer = await table.press(101, table.lobby(), "Teams:")
    await fake.wait_for(lambda: any(b["text"] == "Teams: 2x2" for b in table.lobby().buttons()))
    await table.press(101, table.lobby(), "« Back")
    await fake.wait_for(lambda: any(b["text"] == "Start" for b in table.lobby().buttons()))
    answer = await table.press(101, table.lobby(), "Start")
    assert answer["text"] == "These rules need 4 players."


async def test_a_seat_known_unreachable_stops_the_start(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone()
    await fake.block_bot(102)  # Boris blocked the bot after joining: Telegram tells the bot
    await fake.wait_for(lambda: bool(fake.answers) and len(fake.updates) > 0)
    await bot.idle()  # the bot has read Telegram's word that Boris blocked it
    answer = await table.press(101, table.lobby(), "Start")
    assert not answer.get("text")
    await fake.wait_for(lambda: "I can't write to Boris" in table.lobby().text)
    assert table.stored(bot.settings.database_path)["status"] == "lobby"
    assert table.hand_message(101) is None, "no hand was dealt"


async def test_a_seat_that_turns_out_unreachable_at_the_start_is_played_by_the_computer(
        fake: FakeTelegram, bot: BotProcess) -> None:
    """Only Telegram's Forbidden makes a seat unreachable: the start stands, the computer plays it."""
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone()
    fake.users[102].started = False  # Boris blocked the bot without the bot hearing of it
    await table.press(101, table.lobby(), "Start")
    await fake.wait_for(lambda: any("can't reach Boris" in m.text for m in table.group_messages()))
    await fake.wait_for(lambda: table.hand_message(101) is not None)
    await fake.wait_for(lambda: "🤖" in table.group_messages()[0].text)


async def test_cancel_by_the_creator_or_an_admin_only(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [102, 103, 101])
    await table.newgame(102)
    answer = await table.press(103, table.lobby(), "Cancel")
    assert answer["text"] == "Only the creator or an admin can cancel."
    await table.press(101, table.lobby(), "Cancel")  # Anna is the group's admin
    await fake.wait_for(lambda: table.group_messages()[0].text == "The game was cancelled by Anna.")
    assert table.stored(bot.settings.database_path)["status"] == "cancelled"


async def test_newgame_during_a_game_points_to_the_table(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone()
    await table.start(101)
    await fake.send_text(102, GROUP, "/newgame")
    await fake.wait_for(lambda: table.group_messages()[-1].text.startswith("A game is already open here"))
    assert len([m for m in table.group_messages() if "Players (" in m.history[0]]) == 1


async def test_one_game_per_forum_topic(fake: FakeTelegram, bot: BotProcess) -> None:
    fake.add_group(-1009, "Forum", admins=[101], type_="supergroup", forum=True)
    await fake.send_text(101, -1009, "/newgame", thread_id=5)
    await fake.send_text(102, -1009, "/newgame", thread_id=7)
    await fake.wait_for(lambda: len(fake.chat_messages(-1009)) == 2)
    assert sorted(m.thread_id or 0 for m in fake.chat_messages(-1009)) == [5, 7]


async def test_an_idle_lobby_expires(fake: FakeTelegram, tmp_path: Path) -> None:
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", lobby_timeout=1)
    await bot.start()
    table = Table(fake, GROUP, [101])
    await table.newgame(101)
    await fake.wait_for(lambda: table.group_messages()[0].text == "The lobby expired: nobody started the game.", 10)
    assert table.stored(bot.settings.database_path)["status"] == "cancelled"
    await bot.stop()


async def test_an_expiry_timer_survives_a_restart(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    first = BotProcess(fake, database, lobby_timeout=2)
    await first.start()
    table = Table(fake, GROUP, [101])
    await table.newgame(101)
    await first.stop()
    second = BotProcess(fake, database, lobby_timeout=2)
    await second.start()
    await fake.wait_for(lambda: "expired" in table.group_messages()[0].text, 10)
    await second.stop()


async def test_play_again_seats_the_same_players(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102], seed=3)
    await table.seat_everyone(deck="24")
    await table.start(101)
    result = await table.play_to_the_end()
    await table.press(102, result, "🔁 Play again")
    await fake.wait_for(lambda: len([m for m in table.group_messages() if "Players (2/" in m.text]) == 1)
    lobby = table.lobby()
    assert "Anna" in lobby.text and "Boris" in lobby.text
    assert "24 cards" in lobby.text
    await bot.idle()
    answer = await table.press(101, result, "🔁 Play again")
    assert answer["text"] == "A game is already open here."
    await bot.idle()
    assert len([m for m in table.group_messages() if "Players (" in m.text]) == 1, "one open game per group"


async def test_newgame_knows_the_presets_by_their_russian_names_and_points_to_the_list_for_an_unknown_one(
        fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101])
    await fake.send_text(101, GROUP, "/newgame марсианский")
    await fake.wait_for(lambda: any("I don't know the game «марсианский»" in m.text for m in table.group_messages()))
    reply = next(m for m in table.group_messages() if "марсианский" in m.text)
    assert "/variants lists every game" in reply.text
    assert table.stored(bot.settings.database_path) == {}, "no lobby was opened"
    await fake.send_text(101, GROUP, "/newgame переводной")
    await fake.wait_for(lambda: any("Players (1/" in m.text for m in table.group_messages()))
    assert "Perevodnoy" in table.lobby().text


async def test_the_rules_line_names_the_game_the_options_make(fake: FakeTelegram, bot: BotProcess) -> None:
    # with transfers turned off in Settings the lobby still read «Переводной · …»
    table = Table(fake, GROUP, [101])
    await table.newgame(101, "perevodnoy")
    assert table.lobby().text.splitlines()[1].startswith("Perevodnoy · ")
    await table.configure(101, transfer="off")
    line = table.lobby().text.splitlines()[1]
    assert line.startswith("Podkidnoy · ") and "transfer" not in line, line


async def test_a_lobby_telegram_will_not_post_is_closed_and_its_creator_told_why(
        fake: FakeTelegram, bot: BotProcess) -> None:
    """No right to write in the group: the lobby nobody can see does not block the next /newgame for 15 minutes,
    and its creator learns in private what to change."""
    await fake.send_text(101, 101, "/start")
    await fake.wait_for(lambda: bool(fake.chat_messages(101)))
    fake.mute(GROUP)
    await fake.send_text(101, GROUP, "/newgame")
    await fake.wait_for(lambda: "nobody there saw the new game" in fake.chat_messages(101)[-1].text)
    assert "Ask an admin to let me post there, then send /newgame again." in fake.chat_messages(101)[-1].text
    await bot.service.outbox.drain()
    assert bot.service.store.open_in(GROUP, 0) is None
    fake.mute(GROUP, False)
    table = Table(fake, GROUP, [101, 102])
    await table.newgame(102)
    assert "Players (" in table.lobby().text, "a new lobby, not «a game is already open here»"


async def test_newgame_where_a_game_is_open_is_answered_once_a_while(fake: FakeTelegram, tmp_path: Path) -> None:
    """Forty /newgame in a row would spend the group's 20 messages a minute on the same answer."""
    clock = ManualClock()
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", clock=clock)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    await table.newgame(101)

    def pointers() -> int:
        return sum(m.text.startswith("A game is already open here") for m in table.group_messages())

    await asyncio.gather(*(fake.send_text(102, GROUP, "/newgame") for _ in range(10)))
    await fake.wait_for(lambda: pointers() == 1)
    await fake.send_text(101, GROUP, "/rules")  # answered after the ten were handled
    await fake.wait_for(lambda: len(table.group_messages()) == 3)
    assert pointers() == 1
    await clock.advance(121)
    await fake.send_text(102, GROUP, "/newgame")
    await fake.wait_for(lambda: pointers() == 2)
    await bot.stop()


async def test_a_group_speaks_the_language_of_whoever_opens_its_first_lobby(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """With DEFAULT_LANGUAGE=ru an English group got a Russian table until an admin sent /language."""
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", default_language="ru")
    await bot.start()
    english = Table(fake, GROUP, [101])
    assert "Players (1/" in (await english.newgame(101)).text
    fake.add_group(-1002, "Друзья", admins=[110])
    fake.add_user(110, "Оля", language_code="ru")
    russian = Table(fake, -1002, [110])
    assert "Игроки (1/" in (await russian.newgame(110)).text
    await fake.send_text(101, GROUP, "/cancel")
    await fake.wait_for(lambda: "cancelled" in english.group_messages()[0].text)
    await english.newgame(110)  # the group keeps its language whoever opens the next lobby
    assert "Players (1/" in english.lobby().text
    await bot.stop()


@pytest.mark.long(12)
async def test_a_lobby_still_owed_at_a_restart_and_then_refused_is_closed(fake: FakeTelegram, tmp_path: Path) -> None:
    """The bot stopped (or died) before Telegram's answer to the lobby came: at the next start the lobby is
    posted again, refused, and closed; nothing is left to block the group's next /newgame."""
    database = tmp_path / "durak.sqlite3"
    first = BotProcess(fake, database)
    await first.start()
    await fake.send_text(101, 101, "/start")
    await fake.wait_for(lambda: bool(fake.chat_messages(101)))
    fake.hold(GROUP)  # the lobby's post never gets its answer in this process
    await fake.send_text(101, GROUP, "/newgame")
    await fake.wait_for(lambda: first.service.store.open_in(GROUP, 0) is not None)
    await first.stop()
    fake.mute(GROUP)
    fake.release(GROUP)
    second = BotProcess(fake, database)
    await second.start()
    await fake.wait_for(lambda: "nobody there saw the new game" in fake.chat_messages(101)[-1].text)
    await second.service.outbox.drain()
    assert second.service.store.open_in(GROUP, 0) is None
    await second.stop()


async def test_the_game_button_names_the_game_the_settings_play(fake: FakeTelegram, bot: BotProcess) -> None:
    """Переводной with its transfer turned off is подкидной: the Game button says so, as the summary does."""
    table = Table(fake, GROUP, [101, 102])
    await table.newgame(101, "perevodnoy")
    await table.configure(101, transfer="off")
    assert table.lobby().text.splitlines()[1].startswith("Podkidnoy · 36 cards")
    await table.press(101, table.lobby(), "Settings")
    await fake.wait_for(lambda: any(b["text"].startswith("Game:") for b in table.lobby().buttons()))
    assert [b["text"] for b in table.lobby().buttons() if b["text"].startswith("Game:")] == ["Game: Podkidnoy"]


async def test_a_number_and_its_noun_agree_in_russian(fake: FakeTelegram, tmp_path: Path) -> None:
    """«нужно 4 игроков» was a number with the wrong form of its noun: CLDR's plural forms pick it."""
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", default_language="ru")
    await bot.start()
    fake.add_group(-1003, "Друзья", admins=[111])
    for user, name in ((111, "Оля"), (112, "Петя"), (113, "Дима")):
        fake.add_user(user, name, language_code="ru")
    table = Table(fake, -1003, [111, 112, 113], language="ru")
    await table.seat_everyone()
    await table.press(111, table.lobby(), "Settings")
    await fake.wait_for(lambda: any(b["text"].startswith("Команды") for b in table.lobby().buttons()))
    await table.press(111, table.lobby(), "Команды")
    await fake.wait_for(lambda: any(b["text"].endswith("2×2") or b["text"].endswith("2x2")
                                    for b in table.lobby().buttons()))
    await table.press(111, table.lobby(), "« Back")
    await fake.wait_for(lambda: any(b["text"] == "Начать" for b in table.lobby().buttons()))
    answer = await table.press(111, table.lobby(), "Start")
    assert answer["text"] == "По этим правилам нужно 4 игрока."
    await bot.stop()
