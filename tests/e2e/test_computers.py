"""Computer seats: a solo table in the private chat, a computer filling a group's seat, results unrated."""

from __future__ import annotations

import json
from pathlib import Path

from durak import State
from durak.engine import awaited
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_forged_presses import toast
from tests.fake_telegram import FakeTelegram
from tests.places import place_of


def rows(database: Path, sql: str) -> list[tuple[object, ...]]:
    return place_of(database).sql(sql)


async def add_computer(table: Table, creator: int, label: str) -> None:
    lobby = table.lobby()
    seen = len(lobby.history)
    answer = await table.press(creator, lobby, label)
    assert answer.get("text") == "A computer joined the game.", answer
    await table.fake.wait_for(lambda: len(lobby.history) > seen)


async def test_a_solo_game_against_two_computers_in_the_private_chat(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, computer_pause=0, computer_budget_ms=5)
    await bot.start()
    table = Table(fake, 101, [101], seed=3)  # the "table" is Anna's private chat
    lobby = await table.newgame(101)
    assert "Anna" in lobby.text
    await add_computer(table, 101, "🤖+ easy")
    await add_computer(table, 101, "🤖+ hard")
    assert "🤖★\n" in table.lobby().text + "\n" and "🤖★★★" in table.lobby().text, table.lobby().text
    # the creator takes a computer off again in Settings, and puts it back
    await table.press(101, table.lobby(), "Settings")
    await fake.wait_for(lambda: any(b["text"] == "➖ 🤖★" for b in table.lobby().buttons()))
    await table.press(101, table.lobby(), "➖ 🤖★")
    await fake.wait_for(lambda: "🤖★\n" not in table.lobby().text + "\n")
    await table.press(101, table.lobby(), "« Back")
    await fake.wait_for(lambda: "Start" in [b["text"] for b in table.lobby().buttons()])
    assert "Join" not in [b["text"] for b in table.lobby().buttons()], "nobody else to join a table in private"
    await add_computer(table, 101, "🤖+ easy")
    await table.start(101)
    result = await table.play_to_the_end(timeout=240)
    assert "🤖" in result.text
    await bot.service.outbox.drain()
    hand, last = fake.chat_messages(101)  # the lobby became the hand; the result comes below it
    assert last.text == result.text
    # the hand keeps the end as he saw it: his own lines and the last moves, no cards to press
    assert hand.text.startswith("🃏 Durak · you are Anna") and "🏁 Game over!" in hand.text, hand.text
    # his own end; the last two going out together is a draw (seen in CI on PostgreSQL)
    ends = ("You are the durak this time.", "You finished", "A draw: nobody is the durak.")
    assert any(end in hand.text for end in ends), hand.text
    assert "•" in hand.text.split("🏁 Game over!")[1], "the last moves stay under the end"
    assert not [b for b in hand.buttons() if b.get("callback_data", "").startswith("v1:c:")]
    # nothing was ever sent to a computer, and Telegram refused nothing
    assert not [c for c in fake.calls if int(c[1].get("chat_id", 0) or 0) < -1000 and int(c[1]["chat_id"]) != GROUP]
    assert fake.rejected == []
    # the game is recorded with its computer seats, and moves no rating
    [(game_id,)] = rows(database, "SELECT id FROM games WHERE status = 'finished'")
    seated = {r[0] for r in rows(database, f"SELECT user_id FROM game_results WHERE game_id = {game_id}")}
    assert seated == {101, -1011, -1031}
    assert rows(database, "SELECT * FROM ratings") == []
    # /stats shows it apart: no game among people yet, one against the hard computer
    await fake.send_text(101, 101, "/stats")
    await fake.wait_for(lambda: any("Against the computer" in m.text for m in fake.chat_messages(101)))
    stats = next(m for m in fake.chat_messages(101) if "Against the computer" in m.text)
    assert "hard ★★★: 1 game, first out" in stats.text and "games played" not in stats.text, stats.text
    await bot.stop()


async def test_a_computer_fills_a_seat_in_a_group_game(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, computer_pause=0)
    await bot.start()
    table = Table(fake, GROUP, [101, 102], seed=5)
    await table.seat_everyone()
    await add_computer(table, 101, "🤖+ normal")
    refused = await table.press(102, table.lobby(), "🤖+ hard")
    assert refused.get("text") == "Only the creator can do that."
    assert "🤖★★" in table.lobby().text and "🤖★★★" not in table.lobby().text
    await table.start(101)
    result = await table.play_to_the_end(timeout=240)
    assert "🤖★★" in result.text, "the computer has its place in the result"
    assert fake.rejected == []
    assert rows(database, "SELECT * FROM ratings") == [], "a game with a computer rates nobody"
    await bot.stop()


def state_moves(table: Table, database: Path) -> int:
    return int(json.loads(table.stored(database)["state"])["moves"])


async def test_forged_computer_buttons_seat_nobody(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, computer_pause=0)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone()
    lobby = table.lobby()
    real = Table.button(lobby, "🤖+ hard")
    game = real.split(":")[2]
    assert await toast(fake, 101, lobby, real.rsplit(":", 1)[0] + ":queen") == "Unknown button."
    await fake.send_text(101, 101, "/help")
    await fake.wait_for(lambda: fake.chat_messages(101) != [])
    elsewhere = fake.chat_messages(101)[-1]
    assert await toast(fake, 101, elsewhere, real) == "This button is not valid any more."
    await bot.service.outbox.drain()
    assert "🤖" not in table.lobby().text.split("🤖 Computers")[0], "no computer was seated"
    await table.start(101)
    moves = state_moves(table, database)
    assert await toast(fake, 101, lobby, f"v1:C:{game}:0:hard") in (  # the lobby's message, the table now
        "Unknown button.", "This button is not valid any more.")
    assert state_moves(table, database) == moves and len(json.loads(table.stored(database)["state"])["hands"]) == 2
    await bot.stop()


async def test_a_computer_move_a_stopped_bot_owed_is_played_after_the_restart(fake: FakeTelegram,
                                                                              tmp_path: Path) -> None:
    """Its schedule dies with the process (a kill loses it just the same): the restarted bot's sweep finds
    the game waiting for the computer and plays its move."""
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, computer_pause=600)
    await bot.start()
    table = Table(fake, 101, [101])
    await table.newgame(101)
    await add_computer(table, 101, "🤖+ normal")
    await table.start(101)
    hand = table.hand_message(101)
    assert hand is not None
    if "Your lead" in hand.text:  # Anna leads first: then the computer must defend
        await table.press(101, hand, await table.one_card_lead(101, hand))
    await fake.wait_for(lambda: awaited(State.from_json(json.loads(table.stored(database)["state"]))) == [1])
    await bot.idle()
    moves = state_moves(table, database)
    await bot.stop()
    again = BotProcess(fake, database, computer_pause=0)
    await again.start()
    await fake.wait_for(lambda: state_moves(table, database) > moves, 15)
    await again.stop()


async def test_a_solo_game_in_private_speaks_the_players_language(fake: FakeTelegram, tmp_path: Path) -> None:
    # the bot's default is Russian, Anna's Telegram is English: her private table, hand and result
    # were half Russian («🃏 Новая игра в дурака», «🏁 Игра окончена!»)
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", computer_pause=0, computer_budget_ms=5, default_language="ru")
    await bot.start()
    table = Table(fake, 101, [101], seed=3)
    lobby = await table.newgame(101)
    assert "Durak: a new game" in lobby.text, lobby.text
    await add_computer(table, 101, "🤖+ normal")
    await table.start(101)
    result = await table.play_to_the_end(timeout=240)
    assert "Game over!" in result.text and "🔁 Play again" in [b["text"] for b in result.buttons()], result.text
    cyrillic = [m.text for m in fake.chat_messages(101) if any("а" <= ch <= "я" for ch in m.text.lower())]
    assert not cyrillic, cyrillic
    await bot.stop()
