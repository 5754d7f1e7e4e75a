"""The hand keyboard in real games: it always fits, picks several cards, and presses that are
still legal count whatever moved since they were drawn."""

from __future__ import annotations

from pathlib import Path

from bot.ui.labels import card_text
from durak import Rules
from durak.cards import card_code, deck, parse_card
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_hand import buttons, stored_position
from tests.fake_telegram import FakeTelegram, Message

BIG = Rules.from_dict({"preset": "perevodnoy", "deck_size": 52, "cheating": True})


def rest_of_deck(*taken: list[str] | tuple[str, ...]) -> list[str]:
    used = {parse_card(c) for group in taken for c in group}
    return [card_code(c) for c in deck(52) if c not in used]


def card_buttons(message: Message) -> list[dict[str, str]]:
    return [b for b in message.buttons() if b["callback_data"].startswith(("v1:c:", "v1:f:", "v1:d:"))]


def assert_fits(message: Message, cards: int) -> None:
    rows = message.markup["inline_keyboard"] if message.markup else []
    count = sum(len(r) for r in rows)
    assert count <= 100 and all(len(r) <= 8 for r in rows), (count, [len(r) for r in rows])
    assert len(card_buttons(message)) == cards, "one button per card"


async def test_a_45_card_hand_defends_and_leads_within_telegrams_limits(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    anna = ["6S", "6C", "6D", "6H", "2S"]
    stock = ("2C", "AH")
    boris = rest_of_deck(anna, stock)
    await stored_position(fake, database, [anna, boris], ["6S", "6C", "6D", "6H"], BIG, stock)
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    hand = fake.messages[(102, 1)]
    await fake.wait_for(lambda: "Defend" in hand.text)
    assert_fits(hand, 45)
    await table.press(102, hand, "K♥️★")  # a trump covers each of the four sixes: he is asked which
    await fake.wait_for(lambda: "✅K♥️★" in buttons(hand))
    assert sum(b.startswith("on ") for b in buttons(hand)) == 4
    assert_fits(hand, 45)
    await table.press(102, hand, "Take")
    anna = fake.messages[(101, 1)]
    await fake.wait_for(lambda: "Pass" in buttons(anna))
    await table.press(101, anna, "Pass")
    await fake.wait_for(lambda: "Boris picks up" in fake.messages[(GROUP, 1)].text)
    await fake.wait_for(lambda: len(card_buttons(hand)) == 49, 5)  # he waits now: his hand may fold moves
    assert_fits(hand, 49)
    assert not fake.rejected
    await bot.stop()


async def test_a_47_card_lead_with_cheating_armed_fits(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    boris = ["2S", "3S", "4S"]
    stock = ("2C", "AH")
    anna = rest_of_deck(boris, stock)
    await stored_position(fake, database, [anna, boris], [], BIG, stock)
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    hand = fake.messages[(101, 1)]
    await fake.wait_for(lambda: "Your lead" in hand.text)
    assert_fits(hand, 47)
    await table.press(101, hand, "🎭 Cheat: off")
    await fake.wait_for(lambda: "🎭 Cheat: on" in buttons(hand))
    for card in ("5♠️", "9♦️", "K♥️★"):  # a cheat may lead mixed ranks: every card is picked
        seen = len(hand.history)
        await table.press(101, hand, card)
        await fake.wait_for(lambda n=seen: len(hand.history) > n)
    assert "▶ Lead (3)" in buttons(hand)
    assert_fits(hand, 47)
    assert not fake.rejected
    await bot.stop()


async def test_one_press_leads_a_card_and_its_partners_follow_with_one_press_each(
        fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["9S", "9C", "9D", "KH"], ["6S", "7S", "8S", "JC", "QD", "AH"]], [])
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    anna = fake.messages[(101, 1)]
    await fake.wait_for(lambda: "Your lead" in anna.text)
    assert "Your lead: press a card; cards of its rank can follow right after." in anna.text
    assert not [b for b in buttons(anna) if b.startswith("▶")], "nothing to pick, nothing to confirm"
    answer = await table.press(101, anna, "9♠️")
    assert not answer.get("text"), answer
    group = fake.messages[(GROUP, 1)]
    await fake.wait_for(lambda: "Anna leads 9♠️" in group.text)
    await fake.wait_for(lambda: "✖9♣️" not in buttons(anna) and "9♣️" in buttons(anna))
    await table.press(101, anna, "9♦️")
    await fake.wait_for(lambda: "Anna throws in 9♦️" in group.text)
    await fake.wait_for(lambda: f"{card_text(parse_card('9S'))}→?  {card_text(parse_card('9D'))}→?" in group.text)
    assert table.presses == 2
    await bot.stop()


async def test_a_press_drawn_before_another_move_still_counts(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["7S", "7C", "KD", "10S"], ["8S", "9C", "QD", "JH"]], ["7S"])
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    anna, boris = fake.messages[(101, 1)], fake.messages[(102, 1)]
    await fake.wait_for(lambda: "You may throw in" in anna.text and "Defend" in boris.text)
    seven = Table.button(anna, "7♣️")  # drawn before Boris moves
    await table.press(102, boris, "8♠️")
    await fake.wait_for(lambda: "7♠️→8♠️" in anna.text)
    answer = await table.press(101, anna, seven)
    assert not answer.get("text"), "the throw-in is legal now, as it was: it counts"
    await fake.wait_for(lambda: "Anna throws in 7♣️" in fake.messages[(GROUP, 1)].text)
    answer = await table.press(101, anna, seven)
    assert answer["text"] == "7♣️ is not in your hand.", "what is illegal now is refused, saying why"
    await bot.stop()


async def test_attackers_pass_when_the_defender_takes_and_see_their_options(fake: FakeTelegram,
                                                                             tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["7S", "KD", "10S"], ["8C", "9C", "QC", "JC"], ["6C", "AS"]], ["7S"])
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102, 103])
    anna, boris, vera = (fake.messages[(u, 1)] for u in (101, 102, 103))
    await fake.wait_for(lambda: "Take" in buttons(boris))
    assert "You can't cover: press Take." in boris.text, "he holds no spade and no trump"
    await table.press(102, boris, "Take")
    await fake.wait_for(lambda: "Pass" in buttons(anna))
    assert "Boris takes: press Pass." in anna.text and "Done" not in buttons(anna)
    assert "more card" in anna.text and "Boris takes" in anna.text
    await table.press(101, anna, "Pass")
    await table.press(103, vera, "Pass")
    await fake.wait_for(lambda: "Boris picks up 7♠️" in fake.messages[(GROUP, 1)].text)
    assert "Anna: pass" in fake.messages[(GROUP, 1)].text
    await bot.stop()


async def test_a_game_whose_loser_is_certain_ends_at_once(fake: FakeTelegram, tmp_path: Path) -> None:
    """Anna leads her last card with the stock empty: Boris holds more cards than he could cover
    with, so he is the durak whatever he does; the game ends without waiting for him."""
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["9S"], ["10S", "JC", "QD"]], [], stock=())
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    anna, boris = fake.messages[(101, 1)], fake.messages[(102, 1)]
    await fake.wait_for(lambda: "Your lead" in anna.text)
    await table.press(101, anna, "9♠️")
    await fake.wait_for(lambda: table.result() is not None)
    assert "Durak: Boris" in table.result().text  # type: ignore[union-attr]
    await fake.wait_for(lambda: "Game over" in boris.text and "Game over" in anna.text)
    assert "You are the durak this time." in boris.text and "Rating: " in boris.text
    assert "You finished 1st of 2." in anna.text and "Durak: Boris" in anna.text
    assert "(+" in anna.text and "(-" in boris.text
    assert boris.markup is None or not boris.buttons()
    await bot.stop()


async def test_a_player_who_is_out_sees_no_room_and_no_prompt_to_play(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["9S"], ["10S", "JC", "QD"], ["6C", "AS"]], [], stock=())
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102, 103])
    anna, vera = fake.messages[(101, 1)], fake.messages[(103, 1)]
    await fake.wait_for(lambda: "Your lead" in anna.text)
    await table.press(101, anna, "9♠️")
    await fake.wait_for(lambda: "You have no cards left: place 1." in anna.text)
    assert "fit" not in anna.text and "🚪" not in " ".join(buttons(anna))
    await fake.wait_for(lambda: "You may throw in" not in vera.text and "Wait: Boris is defending." in vera.text)
    await bot.stop()


async def test_throw_in_all_of_one_rank_or_one_press_a_card(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["7S", "7C", "7D", "KD"], ["8S", "9C", "QD"]], ["7S"])
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    anna = fake.messages[(101, 1)]
    await fake.wait_for(lambda: "2 more cards fit." in anna.text)  # Boris holds 3 cards, one is led
    assert "▶ Throw in all 7s (2)" in buttons(anna)
    await table.press(101, anna, "7♣️")
    await fake.wait_for(lambda: "Anna throws in 7♣️" in fake.messages[(GROUP, 1)].text)
    await fake.wait_for(lambda: "1 more card fits." in anna.text)
    await table.press(101, anna, "7♦️")
    await fake.wait_for(lambda: "Anna throws in 7♦️" in fake.messages[(GROUP, 1)].text)
    await bot.stop()


async def test_a_card_beyond_the_room_is_refused_saying_the_table_is_full(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["7S", "7C", "7D", "KD"], ["8S", "9C"]], [])
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    anna = fake.messages[(101, 1)]
    await fake.wait_for(lambda: "Your lead" in anna.text)
    await table.press(101, anna, "7♠️")
    await fake.wait_for(lambda: "1 more card fits." in anna.text)
    await table.press(101, anna, "7♣️")
    await fake.wait_for(lambda: "The table is full: no more cards fit." in anna.text
                        and "Wait: Boris is defending." in anna.text)
    assert "more card fits" not in anna.text and "more cards fit." not in anna.text.replace("no more cards fit.", "")
    answer = await table.press(101, anna, "7♦️")
    assert answer["text"] == "The table is full: no more cards fit.", "Boris holds two cards"
    await bot.stop()


async def test_a_card_picked_and_put_back_shows_the_hand_as_it_was(fake: FakeTelegram, tmp_path: Path) -> None:
    """Anna's hand goes A (written with a move) → B (a pick) → A (put back): the last A is shown, although
    the bot had written that very content for the message before. (Cards are picked where a lead is several
    cards: here пары.)"""
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["6S", "9S", "9C", "9D", "KH"], ["7D", "8D", "JC", "QD", "10C"]], ["6S"],
                          rules=Rules.from_dict({"preset": "pairs"}))
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    anna, boris = fake.messages[(101, 1)], fake.messages[(102, 1)]
    await fake.wait_for(lambda: "Take" in buttons(boris))
    await table.press(102, boris, "Take")
    await fake.wait_for(lambda: "Pass" in buttons(anna))
    await table.press(101, anna, "Pass")
    await fake.wait_for(lambda: "Your lead" in anna.text)
    await bot.service.outbox.drain()
    before = (anna.text, buttons(anna))
    await table.press(101, anna, "9♠️")
    await fake.wait_for(lambda: "✅9♠️" in buttons(anna))
    await table.press(101, anna, "✅9♠️")
    await fake.wait_for(lambda: (anna.text, buttons(anna)) == before)
    await bot.stop()
