"""Turn timers, absent players, leaving and stopping, with a clock the test moves by hand."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from durak import State
from durak.engine import awaited
from tests.e2e.clock import ManualClock
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table, playable
from tests.fake_telegram import FakeTelegram


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def timed_bot(fake: FakeTelegram, tmp_path: Path, clock: ManualClock) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, tmp_path / "durak.sqlite3", clock)
    await process.start()
    yield process
    await process.stop()


def row(bot: BotProcess) -> dict[str, Any]:
    return bot.place.dicts("SELECT * FROM games ORDER BY id DESC LIMIT 1")[0]


def state(bot: BotProcess) -> State:
    return State.from_json(json.loads(row(bot)["state"]))


def away(bot: BotProcess) -> dict[int, int]:
    return dict(bot.place.sql("SELECT seat, away FROM seats WHERE game_id = (SELECT MAX(id) FROM games)"))


async def settle(bot: BotProcess) -> None:
    await bot.service.outbox.drain()


async def started(fake: FakeTelegram, bot: BotProcess, players: int = 2, **options: str) -> Table:
    table = Table(fake, GROUP, list(range(101, 101 + players)), seed=11)
    await table.seat_everyone(**options)
    await table.start(101)
    await fake.wait_for(lambda: row(bot)["status"] == "playing")
    await settle(bot)
    return table


async def act(table: Table, bot: BotProcess, user: int) -> None:
    """The user makes one sensible move with the buttons he sees (choosing a target if asked)."""
    version = row(bot)["version"]
    for _ in range(5):
        message = table.hand_message(user)
        assert message is not None
        options = playable(message)
        chosen = [b for b in options if b["text"].startswith(("on ", "▶"))]  # a target, or the picked cards
        seen = len(message.history)
        answer = await table.press(user, message, str(chosen[0]["callback_data"]) if chosen else table.choose(options))
        assert not answer.get("text"), answer
        await table.fake.wait_for(lambda m=message, n=seen: row(bot)["version"] > version or len(m.history) > n)
        if row(bot)["version"] > version:
            await settle(bot)
            return
    raise AssertionError("no move was made")


def log_lines(table: Table) -> str:
    return table.group_messages()[0].text


async def test_the_timer_is_shown_and_counts_down(fake: FakeTelegram, timed_bot: BotProcess,
                                                  clock: ManualClock) -> None:
    table = await started(fake, timed_bot)
    assert "(⏰ 60 s per move)" in log_lines(table), "the budget, true for as long as it is shown"
    attacker = table.players[state(timed_bot).attacker or 0]
    assert "⏰ 60 s per move" in (table.hand_message(attacker) or table.lobby()).text
    await clock.advance(30)
    await settle(timed_bot)
    assert "(⏰ 60 s per move)" in log_lines(table), "no countdown that would stand still between edits"
    await clock.advance(20)
    await settle(timed_bot)
    assert "(⏰ only 10 seconds left!)" in log_lines(table), "one refresh shortly before the end"
    assert "⏰ only 10 seconds left!" in (table.hand_message(attacker) or table.lobby()).text


async def test_each_role_times_out_carefully(fake: FakeTelegram, timed_bot: BotProcess, clock: ManualClock) -> None:
    table = await started(fake, timed_bot)
    first = state(timed_bot)
    attacker, defender = first.attacker, first.defender
    assert attacker is not None and defender is not None
    await clock.advance(60)  # the attacker must lead: the computer's lead is played for him
    await settle(timed_bot)
    after_lead = state(timed_bot)
    assert after_lead.attacks and after_lead.moves == 1
    assert "⏰ Anna leads" in log_lines(table) or "⏰ Boris leads" in log_lines(table)
    await clock.advance(60)  # the defender takes
    await settle(timed_bot)
    assert state(timed_bot).taking or not state(timed_bot).attacks
    assert "takes" in log_lines(table)
    await clock.advance(60)  # the attacker could still throw in: he is made to pass
    await settle(timed_bot)
    now = state(timed_bot)
    assert len(now.hands[defender]) > len(first.hands[defender]), "the defender picked the cards up"
    assert "passed" not in log_lines(table) and "⏰ " in log_lines(table)
    assert away(timed_bot) == {attacker: 1, defender: 0}, "two missed turns in a row: the attacker is away"
    assert now.attacks and now.attacker == attacker, "the computer leads for him at once"
    assert "🤖 " in log_lines(table)


async def test_away_then_back(fake: FakeTelegram, timed_bot: BotProcess, clock: ManualClock) -> None:
    table = await started(fake, timed_bot, players=3)
    sleeper = table.players[0]
    for _ in range(40):
        if away(timed_bot)[0] == 1:
            break
        waiting = awaited(state(timed_bot))
        if 0 in waiting:
            await clock.advance(60)
            await settle(timed_bot)
        else:
            await act(table, timed_bot, table.players[waiting[0]])
    assert away(timed_bot)[0] == 1, "Anna missed two turns in a row"
    message = table.hand_message(sleeper)
    assert message is not None
    assert "You are away" in message.text
    assert "🙋 I'm back" in [b["text"] for b in message.buttons()]
    assert "💤 away" in log_lines(table)
    for _ in range(6):  # the others play on; Anna's seat never keeps them waiting
        if state(timed_bot).over:
            break
        waiting = awaited(state(timed_bot))
        assert 0 not in waiting
        await act(table, timed_bot, table.players[waiting[0]])
    if not state(timed_bot).over:
        answer = await table.press(sleeper, message, "🙋 I'm back")
        assert answer["text"] == "Welcome back!"
        await fake.wait_for(lambda: away(timed_bot)[0] == 0)
        await settle(timed_bot)
        assert "You are away" not in (table.hand_message(sleeper) or message).text


async def test_a_leaver_is_played_by_the_computer_and_loses(fake: FakeTelegram, timed_bot: BotProcess) -> None:
    table = await started(fake, timed_bot, players=3)
    before = len(table.group_messages())
    await fake.send_text(102, GROUP, "/leave")
    await fake.wait_for(lambda: len(table.group_messages()) > before)
    assert table.group_messages()[-1].text == "Boris: You left the game."
    await fake.wait_for(lambda: away(timed_bot)[1] == 2)
    table.players = [101, 103]
    await table.play_to_the_end()
    [(loser, left, place)] = timed_bot.place.sql("SELECT loser, left_game, place FROM game_results WHERE seat = 1")
    assert (loser, left, place) == (1, 1, None), "stored as the screen says: out of the game, no place"
    stored = dict(timed_bot.place.sql("SELECT seat, place FROM game_results WHERE seat != 1"))
    places = sorted(p for p in stored.values() if p is not None)
    assert places == list(range(1, len(places) + 1)), "the others' places are counted without the leaver"
    await settle(timed_bot)
    # what the players read says so too: no place for Boris, whatever the computer made of his seat
    result = next(m for m in table.group_messages() if "Game over" in m.text).text
    assert not re.search(r"^\d+\. Boris", result, re.M), result
    assert "🚪 Boris: left the game" in result or "Durak: Boris" in result, result
    boris = table.hand_message(102)
    assert boris is not None and "You left the game: it counts as a loss." in boris.text, boris.text
    assert "Boris has no cards left: place" not in boris.text and "You finished" not in boris.text


async def test_the_leave_button_asks_once_more(fake: FakeTelegram, timed_bot: BotProcess) -> None:
    table = await started(fake, timed_bot)
    message = table.hand_message(102)
    assert message is not None
    first, second = await asyncio.gather(table.press(102, message, "🚪 Leave the game"),
                                         table.press(102, message, "🚪 Leave the game"))  # a double tap
    assert [first.get("text"), second.get("text")].count(None) == 1
    await fake.wait_for(lambda: "🚪 Yes, leave" in [b["text"] for b in message.buttons()])
    await timed_bot.idle()
    assert away(timed_bot)[1] == 0, "a double tap on Leave only asks"
    assert "Leave the game?" in message.text
    await table.press(102, message, "Stay")
    await fake.wait_for(lambda: "🚪 Leave the game" in [b["text"] for b in message.buttons()])
    assert away(timed_bot)[1] == 0
    await table.press(102, message, "🚪 Leave the game")
    await fake.wait_for(lambda: "🚪 Yes, leave" in [b["text"] for b in message.buttons()])
    await table.press(102, message, "🚪 Yes, leave")
    await fake.wait_for(lambda: away(timed_bot)[1] == 2)
    await fake.wait_for(lambda: "You left this game" in message.text and not message.buttons())
    table.players = [101]  # Anna plays on against the computer
    await table.play_to_the_end()


async def test_stop_by_the_creator_or_an_admin(fake: FakeTelegram, timed_bot: BotProcess) -> None:
    table = await started(fake, timed_bot)
    await fake.send_text(101, GROUP, "/stop")
    await fake.wait_for(lambda: "stopped by Anna. No result is recorded." in table.group_messages()[0].text)
    assert row(timed_bot)["status"] == "cancelled"
    assert timed_bot.place.sql("SELECT COUNT(*) FROM game_results")[0][0] == 0


async def test_stop_by_an_admin_who_is_not_the_creator(fake: FakeTelegram, timed_bot: BotProcess) -> None:
    table = Table(fake, GROUP, [102, 103], seed=2)
    await table.seat_everyone()
    await table.start(102)
    await fake.wait_for(lambda: row(timed_bot)["status"] == "playing")
    await fake.send_text(101, GROUP, "/stop")  # Anna is the group's admin, not a player
    await fake.wait_for(lambda: "stopped by Anna" in table.group_messages()[0].text)
    assert row(timed_bot)["status"] == "cancelled"


async def test_stop_by_a_vote_of_the_players(fake: FakeTelegram, timed_bot: BotProcess, clock: ManualClock) -> None:
    table = await started(fake, timed_bot, players=3)
    await fake.send_text(102, GROUP, "/stop")
    await fake.wait_for(lambda: "Stop the game?" in table.group_messages()[-1].text)
    vote = table.group_messages()[-1]
    assert "1 of 2" in vote.text and "Boris asks" in vote.text, "who asked for the vote"
    answer = await table.press(102, vote, "✋")
    assert answer["text"] == "You have already voted."
    answer = await table.press(104, vote, "✋")
    assert answer["text"] == "Only the seated players vote."
    await table.press(103, vote, "✋")
    await fake.wait_for(lambda: "voted to stop the game" in table.group_messages()[0].text)
    await fake.wait_for(lambda: vote.text == "The players voted to stop.")
    assert row(timed_bot)["status"] == "cancelled"


async def test_a_vote_without_majority_expires(fake: FakeTelegram, timed_bot: BotProcess, clock: ManualClock) -> None:
    table = await started(fake, timed_bot, players=3, timer="off")
    await fake.send_text(102, GROUP, "/stop")
    await fake.wait_for(lambda: "Stop the game?" in table.group_messages()[-1].text)
    vote = table.group_messages()[-1]
    # the bot has noted its vote message (only then does jumping the clock make sense)
    await fake.wait_for(lambda: all(ui.vote is None or ui.vote.slot in ui.messages
                                    for ui in timed_bot.service.store.ui.values()))
    await clock.advance(61)
    await settle(timed_bot)
    assert vote.text == "The vote to stop failed: the game goes on."
    assert row(timed_bot)["status"] == "playing"


async def test_a_restart_keeps_the_time_left(fake: FakeTelegram, tmp_path: Path, clock: ManualClock) -> None:
    database = tmp_path / "durak.sqlite3"
    first = BotProcess(fake, database, clock)
    await first.start()
    table = await started(fake, first)
    attacker = state(first).attacker or 0
    await act(table, first, table.players[attacker])  # the lead: the defender's 60 seconds start now
    moves = state(first).moves
    await clock.advance(20)
    await first.stop()
    clock.forget_timers()
    second = BotProcess(fake, database, clock)
    await second.start()
    await clock.advance(39)
    assert state(second).moves == moves, "not yet: 1 second is left"
    await clock.advance(1.5)
    await settle(second)
    assert state(second).moves > moves, "the defender's time ran out"
    await second.stop()


async def test_the_turn_timer_starts_when_the_hand_reaches_the_player(fake: FakeTelegram, timed_bot: BotProcess,
                                                                       clock: ManualClock) -> None:
    table = await started(fake, timed_bot)
    attacker = state(timed_bot).attacker or 0
    defender = table.players[1 - attacker]
    fake.hold(defender)  # his hand is slow to arrive: the bot's backlog, Telegram's budget, a bad network
    hand = table.hand_message(table.players[attacker])
    assert hand is not None
    while state(timed_bot).moves == 0:  # a card with a partner is picked first: then "▶ Lead" plays it
        seen = len(hand.history)
        lead = [b for b in playable(hand) if b["text"].startswith("▶")] or playable(hand)
        await table.press(table.players[attacker], hand, lead[0]["callback_data"])
        await fake.wait_for(lambda n=seen: state(timed_bot).moves == 1 or len(hand.history) > n)
    await clock.advance(90)
    assert state(timed_bot).moves == 1, "not timed out: he has not seen the lead yet"
    fake.release(defender)
    await settle(timed_bot)
    shown = table.hand_message(defender)
    assert shown is not None and "press Take" in shown.text, "now he sees the lead"
    await clock.advance(55)
    await settle(timed_bot)
    assert state(timed_bot).moves == 1, "his 60 seconds count from the moment the lead reached him"
    await clock.advance(6)
    await settle(timed_bot)
    assert state(timed_bot).moves > 1, "then his time runs out as usual"


async def test_a_late_timer_changes_nothing(fake: FakeTelegram, timed_bot: BotProcess, clock: ManualClock) -> None:
    table = await started(fake, timed_bot)
    attacker = state(timed_bot).attacker or 0
    await act(table, timed_bot, table.players[attacker])  # a deadline at +60 for the defender
    await clock.advance(30)
    defender = state(timed_bot).defender or 0
    await act(table, timed_bot, table.players[defender])  # moved in time: a new deadline at +90
    moves = state(timed_bot).moves
    await clock.advance(35)  # the first timer fires now, too late
    assert state(timed_bot).moves == moves
    assert away(timed_bot) == {0: 0, 1: 0}
    await timed_bot.service.timers.turn_timeout(row(timed_bot)["id"], moves - 1)  # a timer firing twice
    assert state(timed_bot).moves == moves


async def test_the_turn_timer_setting(fake: FakeTelegram, timed_bot: BotProcess, clock: ManualClock) -> None:
    table = await started(fake, timed_bot, timer="off")
    assert row(timed_bot)["deadline"] is None
    assert "⏰" not in log_lines(table)
    await clock.advance(10_000)
    assert state(timed_bot).moves == 0
    await fake.send_text(101, GROUP, "/stop")
    await fake.wait_for(lambda: row(timed_bot)["status"] == "cancelled")
    await table.newgame(101)
    assert "Turn timer: off" in table.lobby().text, "the last choice is the group's default"


async def test_the_lobby_expires_after_fifteen_minutes(fake: FakeTelegram, timed_bot: BotProcess,
                                                       clock: ManualClock) -> None:
    table = Table(fake, GROUP, [101, 102])
    await table.newgame(101)
    await clock.advance(14 * 60)
    await table.join(102)  # activity keeps the lobby open
    await clock.advance(14 * 60)
    assert row(timed_bot)["status"] == "lobby"
    await clock.advance(60)
    await settle(timed_bot)
    assert table.group_messages()[0].text == "The lobby expired: nobody started the game."


async def test_kick_from_the_lobby(fake: FakeTelegram, timed_bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102, 103])
    await table.seat_everyone()
    await table.press(101, table.lobby(), "Settings")
    await fake.wait_for(lambda: "➖ Boris" in [b["text"] for b in table.lobby().buttons()])
    answer = await table.press(101, table.lobby(), "➖ Boris")
    assert answer["text"] == "Boris was removed."
    removed = "You were removed from the game in the group “Friends”."
    await fake.wait_for(lambda: fake.chat_messages(102)[-1].text == removed)
    await fake.wait_for(lambda: "➖ Boris" not in [b["text"] for b in table.lobby().buttons()])
    await fake.send_text(102, GROUP, "/kick", reply_to_user=103)
    await fake.wait_for(lambda: table.group_messages()[-1].text.startswith("Only the creator"))
    await fake.send_text(101, GROUP, "/kick", reply_to_user=103)
    await fake.wait_for(lambda: table.group_messages()[-1].text == "Vera was removed.")
    await fake.wait_for(lambda: fake.chat_messages(103)[-1].text == removed)
    await table.press(101, table.lobby(), "« Back")
    await fake.wait_for(lambda: "Vera" not in table.lobby().text and "Players (1/" in table.lobby().text)


async def test_a_player_who_blocks_the_bot_is_played_by_the_computer(fake: FakeTelegram,
                                                                     timed_bot: BotProcess) -> None:
    table = await started(fake, timed_bot, players=3)
    await fake.block_bot(102)  # Boris blocks the bot; Telegram tells the bot so
    await fake.wait_for(lambda: away(timed_bot)[1] == 3)
    table.players = [101, 103]
    await table.play_to_the_end()
    told = [m for m in table.group_messages() if "can't reach Boris" in m.text]
    assert len(told) == 1, "the group is told once"


async def test_a_vote_still_open_when_the_game_ends_is_closed_with_it(fake: FakeTelegram, timed_bot: BotProcess,
                                                                       clock: ManualClock) -> None:
    table = await started(fake, timed_bot, players=2, timer="off")
    await fake.send_text(102, GROUP, "/stop")  # two players: one vote of two, the game goes on
    await fake.wait_for(lambda: "Stop the game?" in table.group_messages()[-1].text)
    vote = table.group_messages()[-1]
    assert vote.buttons()
    await table.play_to_the_end()
    await fake.wait_for(lambda: row(timed_bot)["status"] == "finished")
    await settle(timed_bot)
    assert vote.text == "The game is over." and not vote.buttons(), "no vote left open with its button"


async def test_a_stopped_bot_leaves_no_timer_behind(fake: FakeTelegram, tmp_path: Path) -> None:
    """Its sweep, its computers' moves: where the event loop outlives the bot they ran on against its closed
    database (a later sweep of the clock ran them: «timed work failed» with its traceback, every second)."""
    clock = ManualClock()
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", clock)
    await bot.start()
    await Table(fake, GROUP, [101]).newgame(101)
    assert clock.pending, "its sweep is armed"
    await bot.stop()
    assert clock.pending == 0
