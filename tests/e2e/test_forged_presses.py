"""No forged press is ever accepted: a button counts only on its own message, by a user entitled to it.

Each test here failed on the bot before the game store and the outbox.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from durak import State
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram, Message
from tests.places import place_of

OTHER_GROUP = -2002


def rows(database: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    return place_of(database).sql(sql, params)


async def finished_game(fake: FakeTelegram, bot: BotProcess, players: int = 2) -> Table:
    """A game played to its end in no time: every player leaves and the computer finishes it."""
    table = Table(fake, GROUP, list(range(101, 101 + players)))
    await table.seat_everyone()
    await table.start(101)
    for user in table.players:
        await fake.send_text(user, GROUP, "/leave")
    await fake.wait_for(lambda: table.result() is not None, 20)
    return table


async def toast(fake: FakeTelegram, user: int, message: Message, data: str) -> str:
    return str((await fake.answer(await fake.press(user, message.chat_id, message.message_id, data))).get("text") or "")


async def test_a_forged_play_again_opens_no_lobby_anywhere(fake: FakeTelegram, bot: BotProcess) -> None:
    table = await finished_game(fake, bot)
    result = table.result()
    assert result is not None
    replay = table.button(result, "🔁 Play again")
    # Egor is in no group: he forges the button in his private chat, and on the table message
    await fake.send_text(106, 106, "/start")
    await fake.wait_for(lambda: bool(fake.chat_messages(106)))
    assert await toast(fake, 106, fake.chat_messages(106)[-1], replay) == "This button is not valid any more."
    assert await toast(fake, 106, table.group_messages()[0], replay) == "This button is not valid any more."
    await bot.idle()
    assert rows(bot.settings.database_path, "SELECT COUNT(*) FROM games")[0][0] == 1, "no lobby was opened"
    # on its own message it works
    assert await toast(fake, 102, result, replay) == ""
    await fake.wait_for(lambda: any("Players (2/" in m.text for m in table.group_messages()))


async def test_a_leaderboard_page_button_rewrites_no_other_message(fake: FakeTelegram, bot: BotProcess) -> None:
    table = await finished_game(fake, bot)
    result = table.result()
    assert result is not None
    before = (result.text, result.markup)
    for message in (result, table.group_messages()[0]):
        assert await toast(fake, 101, message, "v1:e:0:1:c") == "This button is not valid any more."
    await bot.idle()
    assert (result.text, result.markup) == before, "the result keeps its text and Play again"


async def test_an_out_player_keeps_his_place(fake: FakeTelegram, bot: BotProcess) -> None:
    """A player out with a place has no Leave, and neither a forged Leave nor /leave turns his win into a loss."""
    table = Table(fake, GROUP, [101, 102, 103], seed=3)
    await table.seat_everyone()
    await table.start(101)
    database = bot.settings.database_path

    def out() -> list[int]:
        state = table.stored(database).get("state")
        return list(State.from_json(json.loads(state)).out) if state else []

    await table.play(until=lambda: bool(out()), timeout=120)
    if table.over():  # the whole game ended in one bout: nobody is left to test with
        raise AssertionError("pick another seed: the game ended before anyone else played")
    winner = table.players[out()[0]]
    hand = table.hand_message(winner)
    assert hand is not None
    await fake.wait_for(lambda: not any("Leave" in b["text"] for b in hand.buttons()))
    game_id = table.stored(database)["id"]
    for data in (f"v1:l:{game_id}:0:", f"v1:z:{game_id}:0:"):
        assert await toast(fake, winner, hand, data) == "You are out with a place: it is yours to keep."
    await fake.send_text(winner, winner, "/leave")
    await fake.wait_for(lambda: any("yours to keep" in m.text for m in fake.chat_messages(winner)))
    # in the group the answer says whom it is for, under his own /leave
    await fake.send_text(winner, GROUP, "/leave")
    name = fake.users[winner].first_name
    await fake.wait_for(lambda: any(m.text == f"{name}: You are out with a place: it is yours to keep."
                                    for m in fake.chat_messages(GROUP)))
    [sent] = [p for method, p in fake.calls if method == "sendMessage" and str(p.get("text")).endswith("to keep.")
              and int(p["chat_id"]) == GROUP]
    assert sent.get("reply_parameters", {}).get("message_id"), "a reply to his /leave"
    table.players = [p for p in table.players if p != winner]
    await table.play_to_the_end()
    [(loser, left, place)] = rows(database, "SELECT loser, left_game, place FROM game_results WHERE user_id = ?",
                                  winner)
    assert (loser, left, place) == (0, 0, 1)


async def test_a_stale_kick_button_removes_nobody_else(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102, 103])
    await table.seat_everyone()
    await table.press(101, table.lobby(), "Settings")
    await fake.wait_for(lambda: any(b["text"] == "➖ Boris" for b in table.lobby().buttons()))
    kick_boris = table.button(table.lobby(), "➖ Boris")
    await fake.send_text(102, GROUP, "/leave")  # Boris leaves; Vera moves up to his seat
    await fake.wait_for(lambda: not any(b["text"] == "➖ Boris" for b in table.lobby().buttons()))
    assert await toast(fake, 101, table.lobby(), kick_boris) == "That player is not in the lobby."
    await bot.idle()
    assert [u for (u,) in rows(bot.settings.database_path, "SELECT user_id FROM seats ORDER BY seat")] == [101, 103]


async def test_a_kick_racing_the_start_never_changes_a_running_game(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102, 103])
    await table.seat_everyone()
    await asyncio.gather(table.press(101, table.lobby(), "Start"),
                         fake.send_text(101, GROUP, "/kick", reply_to_user=102))
    await fake.wait_for(lambda: table.stored(bot.settings.database_path)["status"] == "playing"
                        or len(rows(bot.settings.database_path, "SELECT * FROM seats")) == 2)
    await bot.idle()
    status = table.stored(bot.settings.database_path)["status"]
    seated = len(rows(bot.settings.database_path, "SELECT * FROM seats"))
    players = len(json.loads(table.stored(bot.settings.database_path)["state"] or '{"hands": [[], []]}')["hands"])
    assert (status == "lobby" and seated == 2) or (status == "playing" and seated == players == 3)


async def test_ratings_follow_a_group_that_became_a_supergroup(fake: FakeTelegram, bot: BotProcess) -> None:
    await finished_game(fake, bot)
    database = bot.settings.database_path
    assert rows(database, "SELECT COUNT(*) FROM ratings WHERE scope = ?", GROUP)[0][0] == 2
    await fake.migrate_group(GROUP, -100777)
    await fake.wait_for(lambda: rows(database, "SELECT COUNT(*) FROM ratings WHERE scope = ?", -100777)[0][0] == 2)
    assert rows(database, "SELECT COUNT(*) FROM ratings WHERE scope = ?", GROUP)[0][0] == 0
    assert rows(database, "SELECT COUNT(*) FROM rating_history WHERE scope = ?", -100777)[0][0] == 2
    await fake.send_text(101, -100777, "/top")
    await fake.wait_for(lambda: any("Anna" in m.text for m in fake.chat_messages(-100777)))


async def test_admins_are_known_after_a_restart_and_anonymous_admins_are_no_players(
        fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    first = BotProcess(fake, database)
    await first.start()
    fake.add_group(OTHER_GROUP, "Club", admins=[104, 101])
    table = Table(fake, OTHER_GROUP, [102, 103])
    await table.seat_everyone()
    await first.stop()
    second = BotProcess(fake, database)
    await second.start()
    assert await toast(fake, 101, table.lobby(), table.button(table.lobby(), "Cancel")) == ""  # an admin, unasked
    await fake.wait_for(lambda: "cancelled by Anna" in table.group_messages()[-1].text)
    # an anonymous admin opens no lobby seated as the group (it could never start) ...
    await fake.send_as_group(OTHER_GROUP, "/newgame")
    await fake.wait_for(lambda: any("Anonymous admins can't play" in m.text for m in fake.chat_messages(OTHER_GROUP)))
    assert rows(database, "SELECT COUNT(*) FROM games WHERE status = 'lobby'")[0][0] == 0
    # ... but may cancel a lobby as an admin
    await table.newgame(102)
    await fake.send_as_group(OTHER_GROUP, "/cancel")
    await fake.wait_for(lambda: rows(database, "SELECT COUNT(*) FROM games WHERE status = 'lobby'")[0][0] == 0)
    await second.stop()


async def test_small_bad_inputs_get_clear_answers_and_create_nothing(fake: FakeTelegram, bot: BotProcess) -> None:
    await fake.send_text(102, 102, "/start join_²")
    await fake.wait_for(lambda: bool(fake.chat_messages(102)))
    assert "/newgame" in fake.chat_messages(102)[-1].text  # the help, not a crash
    await fake.send_text(102, 102, "/start join_999")
    await fake.wait_for(lambda: any("already started or ended" in m.text for m in fake.chat_messages(102)))
    assert not bot.service.store._locks, "no lock was made for a game that does not exist"
    await fake.send_text(102, GROUP, "/stats @" + "x" * 4000)
    await fake.wait_for(lambda: any("I don't know" in m.text for m in fake.chat_messages(GROUP)))
    assert all(len(m.text) < 100 for m in fake.chat_messages(GROUP) if "I don't know" in m.text)
    assert not [e for e in fake.errors if e[0] == "sendMessage"]
