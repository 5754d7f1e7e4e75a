"""The seeds' variants in the bot: /variants, /newgame by a game's name, the lobby's game picker, /rules,
and whole games of variants with their own leads played through the hand keyboard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.ui.callbacks import Verb, encode, pack
from durak import parse_card
from durak.rules import PRESETS
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram, Message


def last_text(fake: FakeTelegram) -> str:
    messages = fake.chat_messages(GROUP)
    return messages[-1].text if messages else ""


async def test_variants_lists_every_game_with_one_line(fake: FakeTelegram, bot: BotProcess) -> None:
    await fake.send_text(101, GROUP, "/variants")
    await fake.wait_for(lambda: "Games this bot plays" in last_text(fake))
    text = last_text(fake)
    assert "• Japanese (japanese): Spades only by spades" in text
    assert "• Pogony race (pogony_race): Hang the most pairs" in text
    assert text.count("\n• ") == len(PRESETS) == 34


async def test_newgame_by_the_russian_name_and_rules_say_what_differs(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102])
    await fake.send_text(102, GROUP, "/newgame марсианский")
    await fake.wait_for(lambda: "I don't know the game «марсианский»" in last_text(fake))
    assert "The main games: Podkidnoy, Perevodnoy, Simple, Do zavala; /variants lists every game." in last_text(fake)
    await fake.send_text(102, GROUP, "/newgame переводнй")  # a typo: the games whose names come closest
    await fake.wait_for(lambda: "I don't know the game «переводнй». Did you mean Perevodnoy," in last_text(fake))
    await table.newgame(101, "японский")
    assert table.lobby().text.splitlines()[1].startswith("Japanese · 36 cards")
    await fake.send_text(102, GROUP, "/rules")
    await fake.wait_for(lambda: "Rules of this table" in last_text(fake))
    rules = last_text(fake)
    assert "What differs from podkidnoy:" in rules
    assert "♠️ are never trump and are covered only by a higher card of their suit or by its queen" in rules


async def test_the_picker_sets_a_game_that_becomes_the_groups_default(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102])
    await table.newgame(101)
    await table.join(102)
    await table.press(101, table.lobby(), "Settings")
    await fake.wait_for(lambda: any(b["text"].startswith("Game:") for b in table.lobby().buttons()))
    answer = await table.press(102, table.lobby(), "Game:")
    assert answer["text"] == "Only the creator can do that."
    await table.press(101, table.lobby(), "Game:")
    await fake.wait_for(lambda: "Choose the game (1/5)" in table.lobby().text)
    assert "✅ Podkidnoy: Throw in cards of ranks on the table" in table.lobby().text
    await table.press(101, table.lobby(), "›")
    await fake.wait_for(lambda: "Choose the game (2/5)" in table.lobby().text)
    assert "Tedious: Lead only your highest rank" in table.lobby().text
    forged, stale = encode_variant(table.lobby(), "mars"), encode_variant(table.lobby(), "japanese")
    answer = await table.press(101, table.lobby(), forged)
    assert answer["text"] == "Unknown button."
    answer = await table.press(101, table.lobby(), "Tedious")
    assert answer["text"] == "Game: Tedious"
    await fake.wait_for(lambda: any(b["text"] == "Game: Tedious" for b in table.lobby().buttons()))
    answer = await table.press(101, table.lobby(), stale)
    assert answer["text"] == "The lobby has changed: look again.", "a stale picker press changes nothing"
    assert table.stored(bot.settings.database_path)["rules"].count('"preset": "tedious"') == 1
    await table.press(101, table.lobby(), "« Back")
    await fake.wait_for(lambda: "Join" in [b["text"] for b in table.lobby().buttons()])
    await table.press(101, table.lobby(), "Cancel")
    await fake.wait_for(lambda: "cancelled" in table.group_messages()[-1].text)
    await table.newgame(102)
    assert table.lobby().text.splitlines()[1].startswith("Tedious ·"), "the chat's default game"


def encode_variant(message: Message, preset: str) -> str:
    """A picker button for ``preset`` as the message's buttons are now (a forged one if it is not there)."""
    data = next(b["callback_data"] for b in message.buttons() if b["callback_data"].startswith("v1:V:"))
    _, _, game, seq, _ = data.split(":")
    return encode(Verb.VARIANT, int(game), int(seq), preset)


async def test_a_game_of_threes_plays_to_the_end(fake: FakeTelegram, bot: BotProcess) -> None:
    """Leads of exactly three cards of any ranks: the players pick three cards and press ▶ Lead."""
    table = Table(fake, GROUP, [101, 102], seed=4)
    await table.seat_everyone("threes")
    await table.start(101)
    hand = table.hand_message(101)
    assert hand is not None
    game_id = int(hand.buttons()[0]["callback_data"].split(":")[2])
    answer = await table.press(101, hand, encode(Verb.VARIANT, game_id, 0, "japanese"))
    assert answer["text"] == "This button is not valid any more.", "a picker press forged on a running game"
    result = await table.play_to_the_end(timeout=180)
    assert "durak" in result.text.lower() or "draw" in result.text.lower()
    assert table.accepted > 10
    assert '"preset": "threes"' in table.stored(bot.settings.database_path)["rules"]


async def test_a_game_of_points_ranks_by_the_cards_beaten(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102, 103], seed=5)
    await table.seat_everyone("points")
    await table.start(101)
    result = await table.play_to_the_end(timeout=180)
    ranking = result.text.split("Ranking by the cards beaten:\n")[1].split("\n\n")[0].splitlines()
    assert len(ranking) == 3
    scores = [int(line.rsplit(": ", 1)[1]) for line in ranking]
    assert scores == sorted(scores, reverse=True), "the most cards beaten first"
    stored = table.stored(bot.settings.database_path)
    assert stored["status"] == "finished"
    assert '"ranking": "beaten"' in stored["rules"]


async def test_a_game_of_circular_tells_the_players_when_hands_pass(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102, 103], seed=6)
    await table.seat_everyone("circular")
    await table.start(101)
    await table.play_to_the_end(timeout=180)
    seen = [text for user in (101, 102, 103) for m in fake.chat_messages(user) for text in m.history]
    assert any("Every hand passes to the left" in text for text in seen)


async def test_stats_of_one_game(fake: FakeTelegram, bot: BotProcess) -> None:
    """/stats <game> counts only the games of that variant (by id or by name); the result keeps the variant."""
    for n, preset in enumerate(("", "japanese")):
        table = Table(fake, GROUP, [101, 102], seed=n)
        await table.seat_everyone(preset)
        await table.start(101)
        await table.play_to_the_end()
        await bot.service.outbox.drain()
    everything = await ask(fake, "/stats")
    assert everything.startswith("📊 Anna in this chat") and "2 games played" in everything
    japanese = await ask(fake, "/stats японский")
    assert japanese.startswith("📊 Anna in this chat · Japanese") and "1 game played" in japanese
    assert await ask(fake, "/stats points") == "Anna has not finished a game in this chat · Points yet."
    assert "I don't know the game «марсианский»" in await ask(fake, "/stats марсианский")


async def ask(fake: FakeTelegram, command: str) -> str:
    before = len(fake.chat_messages(GROUP))
    await fake.send_text(101, GROUP, command)
    await fake.wait_for(lambda: len(fake.chat_messages(GROUP)) > before)
    return fake.chat_messages(GROUP)[-1].text


EXTRA_MOVES = ("🂠", "⚔", "🔄", "▶", "↪")


def eager(table: Table) -> Callable[[list[dict[str, Any]]], str]:
    """A player who presses a variant's own move (lead from the stock, draw, swap, strike back, throw in on
    himself) whenever it shows, and otherwise plays like the casual player."""
    def choose(options: list[dict[str, Any]]) -> str:
        if any("in on yourself" in text_of(table.hand_message(u)) for u in table.players):  # американский
            cards = [b for b in options if not b["text"].startswith(("Done", "Pass", "🎭", "Accuse"))]
            if cards:
                return str(table.rng.choice(cards)["callback_data"])
        extras = [b for b in options if b["text"].startswith(EXTRA_MOVES)]
        if extras and table.rng.random() < 0.8:
            return str(table.rng.choice(extras)["callback_data"])
        return table.choose(options)
    return choose


@pytest.mark.parametrize(("preset", "players", "seen"), [
    ("armenian", 2, "from the stock"),
    ("second_try", 2, "draws a card to cover"),
    ("poker", 2, "swaps two cards with the stock"),
    ("baltic", 2, "strikes back at"),
    ("american", 2, " adds "),
    ("secret_trump", 2, "The secret card is turned"),
    ("perevodnoy_3", 3, "→–"),
    ("two_trumps", 2, "Trumps: Anna "),
])
async def test_a_game_with_the_variants_own_moves_plays_to_the_end(fake: FakeTelegram, bot: BotProcess, preset: str,
                                                                   players: int, seen: str) -> None:
    """The hand keyboard offers each variant's own move when it is legal; pressing it plays it for everyone
    to see, and the game goes on to its result."""
    users = [101, 102, 103][:players]
    for attempt in range(3):  # the moves that come up follow the players' timing: a game may not have the move
        table = Table(fake, GROUP, users, seed=7 + attempt)
        await table.seat_everyone(preset)
        await table.start(101)
        await table.play_to_the_end(timeout=180, choose=eager(table))
        assert table.stored(bot.settings.database_path)["status"] == "finished"
        shown = [text for user in users for m in fake.chat_messages(user) for text in m.history]
        if any(seen in text for text in shown):
            break
    assert any(seen in text for text in shown), f"{preset}: nobody saw {seen!r} in {attempt + 1} games"


async def test_the_variants_buttons_forged_change_nothing(fake: FakeTelegram, bot: BotProcess) -> None:
    """A variant's move pressed where it is not legal, or with forged cards, is refused with the reason."""
    table = Table(fake, GROUP, [101, 102], seed=3)
    await table.seat_everyone("armenian")
    await table.start(101)
    leader = next(u for u in (101, 102) if "Your lead" in text_of(table.hand_message(u)))
    other = 203 - leader
    hand = table.hand_message(other)
    assert hand is not None
    game_id = int(hand.buttons()[0]["callback_data"].split(":")[2])
    own = [parse_card(b["callback_data"].split(":")[4]) for b in hand.buttons() if b["callback_data"][3] in "cf"]
    before = table.stored(bot.settings.database_path)["state"]
    for data, toast in [(encode(Verb.STOCK_LEAD, game_id, 0), "Only the attacker leads."),
                        (encode(Verb.SWAP, game_id, 0, pack(own[:2])), "Swapping is off at this table."),
                        (encode(Verb.SWAP, game_id, 0), "Swapping is off at this table."),
                        (encode(Verb.COUNTER, game_id, 0, "nonsense"), "Unknown button."),
                        (encode(Verb.DRAW, game_id, 0), "Drawing to cover is off at this table.")]:
        answer = await table.press(other, hand, data)
        assert answer["text"] == toast
    table_message = table.group_messages()[-1]
    answer = await table.press(leader, table_message, encode(Verb.STOCK_LEAD, game_id, 0))
    assert answer["text"] == "This button is not valid any more.", "a hand's move forged on the group's message"
    assert table.stored(bot.settings.database_path)["state"] == before
    lead = table.hand_message(leader)
    assert lead is not None and "lead the stock's top card" in lead.text
    await table.press(leader, lead, "🂠 Lead the stock's top card")
    await fake.wait_for(lambda: "from the stock" in text_of(table.hand_message(other)))


def text_of(message: Message | None) -> str:
    return "" if message is None else message.text


async def test_the_seed_options_are_set_in_the_lobby_and_said_by_rules(fake: FakeTelegram, bot: BotProcess) -> None:
    """Settings → Redeal and Pogony: options of every game (пересдача, погоны от двух шестёрок)."""
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone("japanese", redeal="5 of a suit", pogony="two sixes")
    await fake.send_text(102, GROUP, "/rules")
    await fake.wait_for(lambda: "Rules of this table" in last_text(fake))
    rules = last_text(fake)
    assert "A hand with 5 or more cards of one suit is dealt again." in rules
    assert "Pogony need exactly two sixes laid last." in rules
    stored = table.stored(bot.settings.database_path)["rules"]
    assert '"redeal_same_suit": 5' in stored and '"pogony_rule": "two_sixes"' in stored
