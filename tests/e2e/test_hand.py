"""A player's hand in the private chat: covering with a choice of targets, toasts for illegal cards."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from durak import Rules, apply, attack, position
from durak.cards import parse_card
from storage.database import open_database
from storage.models import NewLobby, Status, User
from storage.repo import Repo
from tests.e2e.conftest import GROUP, NAMES
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram, Message
from tests.places import place_of


async def stored_position(fake: FakeTelegram, database: Path, hands: list[list[str]], lead: list[str],
                          rules: Rules | None = None, stock: tuple[str, ...] = ("AC", "KC", "QH"), *,
                          group: int = GROUP, first_user: int = 101) -> int:
    """A game in the database whose attacker (seat 0, Anna; then Boris, Vera…) has just led ``lead``
    (nothing if empty), as a restart finds it; its id. ``group`` and ``first_user`` (the first seat's id, the
    others' follow) keep several such games apart."""
    repo = Repo(await open_database(place_of(database).target))
    users = [User(first_user + i, NAMES[i]) for i in range(len(hands))]
    if group not in fake.groups:
        fake.add_group(group, f"Friends {group}", admins=[users[0].id])
    for user in users:
        await repo.save_user(user, private_chat=True)
        (fake.users.get(user.id) or fake.add_user(user.id, user.name)).started = True
    state = position(rules or Rules(), [[parse_card(c) for c in h] for h in hands],
                     [parse_card(c) for c in stock], trump=3, attacker=0, first_bout=False)
    if lead:
        state, _ = apply(state, 0, attack(*(parse_card(c) for c in lead)))
    game = await repo.create_lobby(NewLobby(group, 0, users[0], rules or Rules(), len(users), players=users))
    chats = {"table": group, **{f"hand:{i}": u.id for i, u in enumerate(users)}}
    for chat in chats.values():  # the messages the bot had posted before it stopped: ids 1
        fake.messages[(chat, 1)] = Message(chat, next(fake._message_ids[chat]), "…", None)
    await repo.save_game(game, replace(game, status=Status.PLAYING, state=state))
    async with repo.db.write() as conn:  # the outbox knows those messages: they are edited, not posted again
        for slot, chat in chats.items():
            await conn.execute("INSERT INTO outbox (game_id, slot, chat_id, message_id, wanted, delivered) "
                               "VALUES (?, ?, ?, 1, 1, 1)", (game.id, slot, chat))
    await repo.db.close()
    return game.id


def buttons(message: Message) -> list[str]:
    return [b["text"] for b in message.buttons()]


async def test_a_card_that_covers_two_attacks_asks_which(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["7S", "7C", "KD"], ["9H", "8S", "6D", "JS"]], ["7S", "7C"])
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    boris = fake.messages[(102, 1)]
    await fake.wait_for(lambda: "Defend" in boris.text)
    assert buttons(boris) == ["8♠️", "J♠️", "✖6♦️", "9♥️★", "Take", "🚪 Leave the game"], "suit rows, trumps last"
    answer = await table.press(102, boris, "✖6♦️")
    assert answer["text"] == "6♦️ can't cover 7♠️."
    await table.press(102, boris, "9♥️★")
    await fake.wait_for(lambda: "on 7♣️" in buttons(boris))
    assert "✅9♥️★" in buttons(boris) and "on 7♠️" in buttons(boris)
    assert "9♥️ can cover more than one card: press “on …” below your cards to choose which." in boris.text
    await table.press(102, boris, "on 7♣️")
    await fake.wait_for(lambda: "7♣️→9♥️" in boris.text)
    await table.press(102, boris, "8♠️")  # fits only 7♠️: covered at once
    await fake.wait_for(lambda: "7♠️→8♠️" in boris.text)
    # the defender who covered everything waits: he is not told to defend with every card ✖
    # in two players he waits for Anna, by name; the table does not say who throws in, only the attacker can
    assert "Everything is covered. Wait: Anna may throw in more, or end the bout." in boris.text
    assert "Defend" not in boris.text and "throw-in" not in fake.messages[(GROUP, 1)].text
    anna = fake.messages[(101, 1)]
    await fake.wait_for(lambda: "Done" in buttons(anna))
    assert "Everything is covered: press Done." in anna.text
    await fake.wait_for(lambda: "7♠️→8♠️" in fake.messages[(GROUP, 1)].text)
    await bot.stop()


async def test_transfer_and_show_buttons_appear_only_when_legal(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    rules = Rules.from_dict({"preset": "perevodnoy"})
    await stored_position(fake, database, [["7S", "KD", "AS", "10C"], ["7H", "7D", "8S", "JS"]], ["7S"], rules)
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    boris = fake.messages[(102, 1)]
    await fake.wait_for(lambda: "Defend" in boris.text)
    assert {"↪ Transfer 7♦️", "↪ Transfer 7♥️", "↪ Transfer all (2)", "👁 Show 7♥️", "Take"} <= set(buttons(boris))
    assert "Defend: press a card to cover, transfer, or press Take." in boris.text
    await table.press(102, boris, "👁 Show 7♥️")
    anna = fake.messages[(101, 1)]
    await fake.wait_for(lambda: "Defend" in anna.text)
    assert not [b for b in buttons(anna) if b.startswith(("↪", "👁"))], "Anna holds no seven"
    assert "7♥️★" in buttons(boris) or "✖7♥️★" in buttons(boris), "a shown trump stays in hand"
    await bot.stop()


async def test_a_card_that_only_transfers_is_no_cross_and_one_tap_transfers(fake: FakeTelegram, tmp_path: Path) -> None:
    """7♦ covers nothing of 7♠ but transfers it: it is not marked ✖ beside «↪ Transfer 7♦», and its tap transfers."""
    database = tmp_path / "durak.sqlite3"
    rules = Rules.from_dict({"preset": "perevodnoy"})
    await stored_position(fake, database, [["7S", "KD", "AS", "10C"], ["7D", "8D", "JS"]], ["7S"], rules)
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    boris = fake.messages[(102, 1)]
    await fake.wait_for(lambda: "Defend" in boris.text)
    assert "↪ Transfer 7♦️" in buttons(boris) and "7♦️" in buttons(boris) and "✖7♦️" not in buttons(boris)
    assert "✖8♦️" in buttons(boris), "a card that neither covers nor transfers keeps its ✖"
    answer = await table.press(102, boris, "7♦️")
    assert not answer.get("text"), answer
    anna = fake.messages[(101, 1)]
    await fake.wait_for(lambda: "Defend" in anna.text)  # the attack moved on to Anna: 7♠ and 7♦ to beat
    assert "7♦️" in anna.text and "7♠️" in anna.text
    await bot.stop()


async def test_two_players_name_the_one_they_wait_for(fake: FakeTelegram, tmp_path: Path) -> None:
    """With one opponent there are no «others»: Boris waits for Anna by name, and takes while Anna may throw in."""
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["7S", "7C", "KD"], ["9H", "8S", "6D"]], [])
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    anna, boris = fake.messages[(101, 1)], fake.messages[(102, 1)]
    await fake.wait_for(lambda: "Wait: Anna moves." in boris.text)
    await fake.wait_for(lambda: "7♠️" in buttons(anna))
    await table.press(101, anna, "7♠️")
    await fake.wait_for(lambda: "Take" in buttons(boris))
    await table.press(102, boris, "Take")
    await fake.wait_for(lambda: "You take the cards; Anna may throw in more." in boris.text)
    assert "the others" not in boris.text
    await bot.stop()
