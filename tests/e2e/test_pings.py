"""Turn pings: a new private message when a seat must act and has not for PING_DELAY seconds, gone once it
has acted; /notify off stops them."""

from __future__ import annotations

import json
from pathlib import Path

from bot.game.slots import LATER, PING_DELAY
from durak import State
from tests.e2e.clock import ManualClock
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_hand import buttons, stored_position
from tests.fake_telegram import FakeTelegram, Message


def pings(fake: FakeTelegram, user: int) -> list[Message]:
    return [m for m in fake.chat_messages(user) if m.text.startswith("🔔")]


def state_of(table: Table, bot: BotProcess) -> State:
    return State.from_json(json.loads(table.stored(bot.settings.database_path)["state"]))


async def started(fake: FakeTelegram, database: Path, clock: ManualClock | None = None,
                  **settings: float) -> tuple[BotProcess, Table]:
    """A bot (with the test's clock, if any) and a two-player game under way."""
    bot = BotProcess(fake, database, clock, **settings)
    await bot.start()
    table = Table(fake, GROUP, [101, 102], seed=11)
    await table.seat_everyone()
    await table.start(101)
    return bot, table


async def test_a_seat_that_does_not_act_within_the_delay_is_pinged_and_the_ping_goes_when_it_acts(
        fake: FakeTelegram, tmp_path: Path) -> None:
    clock = ManualClock()
    bot, table = await started(fake, tmp_path / "durak.sqlite3", clock)
    state = state_of(table, bot)
    attacker = table.players[state.attacker or 0]
    defender = table.players[state.defender or 0]
    await bot.service.outbox.drain()
    await clock.advance(PING_DELAY - 1)
    await bot.service.outbox.drain()
    assert pings(fake, attacker) == [], "an attacker who may still be looking at his hand is not pinged yet"
    await clock.advance(1.5)
    await fake.wait_for(lambda: len(pings(fake, attacker)) == 1)
    hand = table.hand_message(attacker)
    assert hand is not None
    [ping] = pings(fake, attacker)
    assert ping.text == "🔔 [Friends] Your move: lead. ⏰ 55 s left", "the group (he may play in two), the time left"
    assert ping.message_id > hand.message_id, "a new message, which Telegram notifies, not an edit"
    assert pings(fake, defender) == []
    # a card led alone; when every card has a partner of its rank, one is picked and led with ▶
    lead = await table.one_card_lead(attacker, hand)
    card = next(b["text"] for b in hand.buttons() if b["callback_data"] == lead or b["text"].startswith("✅"))
    await table.press(attacker, hand, lead)
    await fake.wait_for(lambda: pings(fake, attacker) == [])
    await bot.service.outbox.drain()
    assert pings(fake, defender) == [], "the defender has just been shown the attack: no ping yet"
    await clock.advance(PING_DELAY + 1)
    await fake.wait_for(lambda: len(pings(fake, defender)) == 1)
    assert pings(fake, defender)[0].text.startswith(f"🔔 [Friends] Your move: beat {card.strip('✅★ ')}")
    await bot.stop()


async def test_a_player_who_acts_within_the_delay_is_never_pinged(fake: FakeTelegram, tmp_path: Path) -> None:
    clock = ManualClock()
    bot, table = await started(fake, tmp_path / "durak.sqlite3", clock)
    for _ in range(6):  # each player answers a little before the delay runs out
        await bot.service.outbox.drain()
        await clock.advance(PING_DELAY - 1)
        state = state_of(table, bot)
        if state.over:
            break
        defending = bool(state.attacks) and not state.taking
        user = table.players[state.defender if defending else state.attacker or 0]
        hand = table.hand_message(user)
        assert hand is not None
        if defending or state.taking:  # the defender takes, then the attacker passes
            button = next(b["callback_data"] for b in hand.buttons() if b["text"] in ("Take", "Pass"))
        else:
            button = await table.one_card_lead(user, hand)
        moves = state.moves
        await table.press(user, hand, button)
        await fake.wait_for(lambda m=moves: state_of(table, bot).moves > m)
    await bot.service.outbox.drain()
    assert not [c for c in fake.calls if c[0] == "sendMessage" and str(c[1].get("text", "")).startswith("🔔")]
    await bot.stop()


async def test_nobody_ever_has_two_pings_in_his_chat(fake: FakeTelegram, tmp_path: Path) -> None:
    """With no delay (PING_DELAY=0) every seat that must act is pinged at once, the whole game through."""
    bot, table = await started(fake, tmp_path / "durak.sqlite3", ping_delay=0)
    state = state_of(table, bot)
    await fake.wait_for(lambda: len(pings(fake, table.players[state.attacker or 0])) == 1)
    seen_most = 0

    def count() -> bool:
        nonlocal seen_most
        seen_most = max(seen_most, *(len(pings(fake, p)) for p in table.players))
        return False

    await table.play(until=count)
    await fake.wait_for(lambda: all(pings(fake, p) == [] for p in table.players))
    assert seen_most == 1
    await bot.stop()


async def test_notify_off_stops_the_pings(fake: FakeTelegram, bot: BotProcess) -> None:
    for user in (101, 102):
        await fake.send_text(user, user, "/notify off")
        await fake.wait_for(lambda u=user: any("No more turn pings" in m.text for m in fake.chat_messages(u)))
    table = Table(fake, GROUP, [101, 102], seed=11)
    await table.seat_everyone()
    await table.start(101)
    await table.play(until=lambda: state_of(table, bot).moves >= 4)
    assert all(pings(fake, p) == [] for p in table.players)
    assert not [c for c in fake.calls if c[0] == "sendMessage" and str(c[1].get("text", "")).startswith("🔔")]
    await fake.send_text(101, 101, "/notify")
    await fake.wait_for(lambda: any("Turn pings are off" in m.text for m in fake.chat_messages(101)))


async def test_no_new_ping_while_the_defender_goes_on_covering(fake: FakeTelegram, tmp_path: Path) -> None:
    """He has just pressed, so he is looking at his hand: his ping goes and none comes back until a
    card is thrown in by someone else."""
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["7S", "7C", "7D", "KD"], ["8S", "9C", "8D", "JS", "QC"]], ["7S", "7C"])
    bot = BotProcess(fake, database, ping_delay=0)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    boris = fake.messages[(102, 1)]
    await fake.wait_for(lambda: [p.text.split(" ⏰")[0] for p in pings(fake, 102)] == ["🔔 Your move: beat 7♠️ 7♣️."])
    await bot.service.outbox.drain()
    sends = len([c for c in fake.calls if c[0] == "sendMessage"])
    await table.press(102, boris, "8♠️")
    await fake.wait_for(lambda: "7♠️→8♠️" in boris.text)
    await bot.service.outbox.drain()
    assert pings(fake, 102) == [], "his ping went when he covered"
    assert len([c for c in fake.calls if c[0] == "sendMessage"]) == sends, "and no new one was posted"
    anna = fake.messages[(101, 1)]
    await table.press(101, anna, "7♦️")
    await fake.wait_for(lambda: [p.text.split(" ⏰")[0] for p in pings(fake, 102)] == ["🔔 Your move: beat 7♣️ 7♦️."])
    await bot.stop()


async def test_an_attacker_the_game_waits_for_is_pinged_later_than_a_defender(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """Everything is covered and only Anna's Done is awaited: she is pinged too, three delays on (not while
    she may still be deciding what to throw in), and the ping tells nothing of her cards."""
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["7S", "8C", "KD"], ["8S", "9C", "8D", "JS", "QC"]], ["7S"])
    clock = ManualClock()
    bot = BotProcess(fake, database, clock=clock)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    boris = fake.messages[(102, 1)]
    await fake.wait_for(lambda: "Take" in buttons(boris))
    await table.press(102, boris, "8♠️")
    await fake.wait_for(lambda: "Done" in buttons(fake.messages[(101, 1)]))
    await bot.service.outbox.drain()
    await clock.advance(PING_DELAY * LATER - 1)
    await bot.service.outbox.drain()
    assert pings(fake, 101) == []
    await clock.advance(1.5)
    await fake.wait_for(lambda: len(pings(fake, 101)) == 1)
    assert pings(fake, 101)[0].text.startswith("🔔 The game is waiting for you. ⏰ ")
    await table.press(101, fake.messages[(101, 1)], "Done")
    await fake.wait_for(lambda: pings(fake, 101) == [])
    group = fake.messages[(GROUP, 1)]  # the log: the button Anna pressed, then the end of the bout, said once
    await fake.wait_for(lambda: "Boris beats off the attack" in group.text)
    assert "Anna: done" in group.text and "pass" not in group.text, group.text
    assert group.text.index("Anna: done") < group.text.index("Boris beats off the attack"), group.text
    assert group.text.count("beats off the attack") == 1, group.text
    await bot.stop()


async def test_a_ping_counts_the_time_left_from_when_the_player_could_see_his_turn(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """His hand reached him 10 s late (a slow network): his turn runs 60 s from then, and the ping says so."""
    clock = ManualClock()
    bot, table = await started(fake, tmp_path / "durak.sqlite3", clock)
    await bot.service.outbox.drain()
    state = state_of(table, bot)
    attacker, defender = table.players[state.attacker or 0], table.players[state.defender or 0]
    hand = table.hand_message(attacker)
    assert hand is not None
    fake.hold(defender)  # the defender's chat is slow: his hand with the attack waits
    await table.press(attacker, hand, await table.one_card_lead(attacker, hand))
    await clock.advance(10)
    fake.release(defender)
    await bot.service.outbox.drain()
    await clock.advance(PING_DELAY + 0.5)
    await fake.wait_for(lambda: len(pings(fake, defender)) == 1)
    assert pings(fake, defender)[0].text.endswith("⏰ 55 s left"), pings(fake, defender)[0].text
    await bot.stop()


async def test_a_restart_does_not_restart_the_wait_for_a_ping(fake: FakeTelegram, tmp_path: Path) -> None:
    """Issue 44: a takeover (or a restart) counted each ping's delay anew from the new process's start; it counts
    from when the position was written."""
    clock = ManualClock()
    database = tmp_path / "durak.sqlite3"
    bot, table = await started(fake, database, clock)
    attacker = table.players[state_of(table, bot).attacker or 0]
    await bot.service.outbox.drain()
    await clock.advance(PING_DELAY - 1)
    await bot.service.outbox.drain()
    assert pings(fake, attacker) == []
    await bot.stop()
    bot = BotProcess(fake, database, clock)
    await bot.start()
    await bot.idle()
    assert pings(fake, attacker) == [], "his delay is not over yet"
    await clock.advance(1.5)  # PING_DELAY after his position was written, not after the restart
    await fake.wait_for(lambda: len(pings(fake, attacker)) == 1)
    await bot.stop()
