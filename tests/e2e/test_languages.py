"""A whole game in each of the bot's languages, read as its players read it: every message, button and toast
each player gets is in the group's language: Russian, Ukrainian, German and English; and the Mini
App's page in Ukrainian and German."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.e2e.browser import chromium, open_page
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_webapp import page_settings
from tests.e2e.webapp_client import free_port, hand_link
from tests.fake_telegram import FakeTelegram

PLAYERS = {
    "ru": ("Аня", "Борис", "Вера"),
    "uk": ("Оксана", "Тарас", "Олена"),
    "de": ("Anna", "Jonas", "Lena"),
    "en": ("Anna", "Boris", "Vera"),
}
# English words a translation must not leave behind (none is a German or Ukrainian word as well)
ENGLISH = re.compile(r"\b(the|you|your|press|wait|cards?|game|take|done|join|players?|others|move|lead|throw|"
                     r"cover|beat|left|place|rating|trump|stock|durak is)\b", re.I)
CYRILLIC = re.compile("[\u0400-\u04ff]")
CARD = re.compile(r"(10|[2-9JQKA])[♠♣♦♥]\ufe0f?★?")
NOT_WORDS = re.compile(r"/\w+|@\w+|https?://\S+|Telegram")


def words(text: str, names: tuple[str, ...]) -> str:
    """What a reader reads as words: no names, cards, commands or links."""
    for name in names:
        text = text.replace(name, " ")
    return NOT_WORDS.sub(" ", CARD.sub(" ", text))


def wrong_language(language: str, text: str) -> str | None:
    """Why ``text`` is not in ``language``, or None."""
    if language == "de":  # a German word too, the one German players use for the number (not "Wertung")
        text = re.sub(r"\bRating\b", "", text)
    if language in ("ru", "uk", "de") and ENGLISH.search(text):
        return f"English: {ENGLISH.search(text)}"
    if language in ("de", "en") and CYRILLIC.search(text):
        return "Cyrillic"
    if language == "uk" and re.search("[ыэъёЫЭЪЁ]", text):
        return "a Russian letter"
    if language == "ru" and re.search("[іїєґІЇЄҐ]", text):
        return "a Ukrainian letter"
    if language in ("ru", "uk") and re.search("[A-Za-z]{3,}", text) and not CYRILLIC.search(text):
        return "no Cyrillic word"
    return None


@pytest.mark.parametrize("language", ["ru", "uk", "de", "en"])
async def test_a_whole_game_reads_in_the_groups_language(fake: FakeTelegram, tmp_path: Path, language: str) -> None:
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", default_language="en" if language != "en" else "ru")
    await bot.start()
    group, ids = -1007, [201, 202, 203]
    names = PLAYERS[language]
    fake.add_group(group, "Friends", admins=[ids[0]])
    for user, name in zip(ids, names, strict=True):
        fake.add_user(user, name, language_code=language)
    table = Table(fake, group, ids, seed=11, language=language)
    await table.seat_everyone()  # the group takes the language of whoever opens its first lobby
    await table.start(ids[0])
    await table.play_to_the_end(timeout=180)
    for command in ("/rules", "/variants", "/help", "/stats", "/top", "/history"):
        before = len(fake.bot_messages_in(group))
        await fake.send_text(ids[1], group, command)
        await fake.wait_for(lambda b=before: len(fake.bot_messages_in(group)) > b)  # type: ignore[misc]
    await bot.service.outbox.drain()

    read: list[tuple[int, str]] = []
    for chat in (group, *ids):
        for message in fake.bot_messages_in(chat):
            read += [(chat, text) for text in (*message.history, message.text)]
            read += [(chat, b["text"]) for b in message.buttons()]
    read += [(0, str(p["text"])) for method, p in fake.calls if method == "answerCallbackQuery" and p.get("text")]
    assert len(read) > 100, "a whole game was read"
    if os.environ.get("TRANSCRIPTS_DIR"):  # to read the game as its players did
        seen = dict.fromkeys(f"[{chat}] {text}" for chat, text in read)
        (Path(os.environ["TRANSCRIPTS_DIR"]) / f"game-{language}.txt").write_text("\n\n".join(seen), "utf-8")
    wrong = [(chat, text, why) for chat, text in read
             if (why := wrong_language(language, words(text, names))) is not None]
    assert not wrong, wrong[:10]
    # the command menu each Telegram client shows is in its own language too
    menus = {p.get("language_code"): p["commands"] for method, p in fake.calls if method == "setMyCommands"}
    menu = " ".join(c["description"] for c in menus[None if language == "en" else language])
    assert wrong_language(language, words(menu, ())) is None, menu
    await bot.stop()


@pytest.mark.parametrize("language", ["uk", "de"])
async def test_the_mini_app_speaks_the_players_language(fake: FakeTelegram, tmp_path: Path, language: str) -> None:
    """The page in a real Chromium: what it shows and what it names for screen readers, in his language, from
    its first word (before its socket says whose page it is) to the game on the table."""
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", default_language="en", **page_settings(free_port()))
    await bot.start()
    group, ids = -1008, [211, 212]
    names = PLAYERS[language][:2]
    fake.add_group(group, "Friends", admins=[ids[0]])
    for user, name in zip(ids, names, strict=True):
        fake.add_user(user, name, language_code=language)
    table = Table(fake, group, ids, seed=5, language=language)
    await table.seat_everyone()
    await table.start(ids[0])
    hand = table.hand_message(ids[0])
    assert hand is not None
    try:
        async with chromium() as browser:
            page = await open_page(browser, hand_link(hand), ids[0], names[0], language=language)
            first = await page.evaluate("document.body.innerText")  # «connecting», before any frame
            await page.wait_for_selector("#hand .card")
            shown = await page.evaluate("document.body.innerText")
            labels = await page.evaluate(
                "[...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')).join('\\n')")
            assert await page.evaluate("document.documentElement.lang") == language
    finally:
        await bot.stop()
    for text in (first, shown, labels):
        assert wrong_language(language, words(text, names)) is None, text
    assert CYRILLIC.search(shown) if language == "uk" else not CYRILLIC.search(shown)
