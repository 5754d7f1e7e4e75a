"""Commands, languages, and what a Russian-speaking group sees."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram


async def reply_to(fake: FakeTelegram, user: int, chat: int, text: str) -> str:
    before = len(fake.chat_messages(chat))
    await fake.send_text(user, chat, text)
    await fake.wait_for(lambda: len(fake.chat_messages(chat)) > before)
    return fake.chat_messages(chat)[-1].text


async def test_commands_are_registered_in_both_languages(fake: FakeTelegram, bot: BotProcess) -> None:
    assert {c["command"] for c in fake.commands[None]} == {
        "newgame", "variants", "rules", "cancel", "stop", "leave", "kick", "hand", "notify", "letters", "stats", "top",
        "puzzle", "history", "privacy", "scoring", "language", "help", "series", "season", "seasons", "badges",
        "picture", "tournament"}
    russian = {c["command"]: c["description"] for c in fake.commands["ru"]}
    assert russian["rules"] == "правила этого стола"


async def test_help_rules_and_cancel(fake: FakeTelegram, bot: BotProcess) -> None:
    assert "/newgame" in await reply_to(fake, 101, GROUP, "/help")
    rules = await reply_to(fake, 101, GROUP, "/rules")
    assert rules.startswith("No table is open here; /newgame would open this one: Podkidnoy · 36 cards")
    assert "durak" in rules
    assert await reply_to(fake, 102, GROUP, "/cancel") == "There is no open game here."
    table = Table(fake, GROUP, [101, 102])
    lobby = await table.newgame(101, "perevodnoy")
    rules = await reply_to(fake, 102, GROUP, "/rules")
    assert "transfer the attack" in rules
    assert await reply_to(fake, 102, GROUP, "/cancel") == "Only the creator or an admin can cancel."
    await fake.send_text(101, GROUP, "/cancel")
    await fake.wait_for(lambda: lobby.text == "The game was cancelled by Anna.")
    after = await reply_to(fake, 102, GROUP, "/rules")  # right after a переводной table: none is open now
    assert after.startswith("No table is open here; /newgame would open this one: Podkidnoy")


async def test_language_of_the_group_by_admins_and_of_a_user(fake: FakeTelegram, bot: BotProcess) -> None:
    assert await reply_to(fake, 102, GROUP, "/language ru") == "Only an admin can change the group's language."
    assert await reply_to(fake, 101, GROUP, "/language ru") == "Готово: здесь я буду говорить по-русски."
    group_help = await reply_to(fake, 101, GROUP, "/help")
    assert group_help.startswith("🃏 /newgame открывает игру в дурака")
    assert len(group_help.splitlines()) <= 12, "short in a group"
    assert group_help.endswith("?start=help")
    assert len((await reply_to(fake, 101, 101, "/help")).splitlines()) > 15, "the details in private"
    assert await reply_to(fake, 102, 102, "/language ru") == "Готово: с вами я буду говорить по-русски."
    assert await reply_to(fake, 102, 102, "/language en") == "Done: I will speak English with you."


async def test_newgame_in_private_opens_a_table_for_one_and_computers(fake: FakeTelegram, bot: BotProcess) -> None:
    lobby = await reply_to(fake, 101, 101, "/newgame")
    assert lobby.startswith("🃏 Durak: a new game") and "1. Anna" in lobby
    buttons = [b["text"] for b in fake.chat_messages(101)[-1].buttons()]
    assert {"🤖+ easy", "🤖+ normal", "🤖+ hard", "Start"} <= set(buttons)


async def test_a_russian_group_sees_only_russian(fake: FakeTelegram, tmp_path: Path) -> None:
    for user, name in ((201, "Аня"), (202, "Боря"), (203, "Вера")):
        fake.add_user(user, name, language_code="ru")
    fake.add_group(-2001, "Друзья", admins=[201])
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", default_language="ru")
    await bot.start()
    table = Table(fake, -2001, [201, 202, 203], seed=5)
    await fake.send_text(201, -2001, "/newgame perevodnoy")
    await fake.wait_for(lambda: len(table.group_messages()) == 1)
    for user in table.players:
        lobby = table.group_messages()[0]
        answer = await table.press(user, lobby, "Играю")
        if answer.get("url"):
            await fake.send_text(user, user, "/start " + answer["url"].split("start=")[1])
    await fake.wait_for(lambda: "Вера" in table.group_messages()[0].text)
    await table.press(201, table.group_messages()[0], "Начать")
    await fake.wait_for(lambda: all(fake.chat_messages(u) and "Игра в дурака · вы" in fake.chat_messages(u)[-1].text
                                    for u in table.players))
    table.hand_message = lambda user: next(  # type: ignore[method-assign]
        (m for m in reversed(fake.chat_messages(user)) if m.text.startswith("🃏 Игра в дурака · ")), None)
    table.over = lambda: any(m.text.startswith("🏁") for m in table.group_messages())  # type: ignore[method-assign]
    table.result = lambda: next(m for m in table.group_messages() if m.text.startswith("🏁"))  # type: ignore
    await table.play(until=lambda: False)
    await bot.service.outbox.drain()
    latin = re.compile(r"[A-Za-z]{3,}")
    texts = [t for chat in (-2001, 201, 202, 203) for m in fake.chat_messages(chat) for t in m.history]
    texts += [b["text"] for chat in (201, 202, 203) for m in fake.chat_messages(chat) for b in m.buttons()]
    texts += [a["text"] for a in fake.answers.values() if a.get("text")]
    english = [t for t in texts if latin.search(t)]
    assert not english, english[:3]
    await bot.stop()
