"""The Mini App in a real Chromium: a whole game played from the page beside players on chat buttons, what
every page shows after every move, and screenshots of the table for the README."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from durak import card_code
from storage.models import Game
from tests.e2e.browser import chromium, dom, frames, open_page
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_webapp import page_settings, started
from tests.e2e.webapp_client import free_port, hand_link
from tests.fake_telegram import FakeTelegram

ANNA, BORIS, VERA = 101, 102, 103
QUOTED_CARD = re.compile(r'"((?:10|[2-9JQKA])[SCDH])"')


@pytest.fixture
async def served(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, tmp_path / "durak.sqlite3", **page_settings(free_port()))
    await process.start()
    yield process
    await process.stop()


def positions(bot: BotProcess) -> dict[int, list[list[str]]]:
    """Every position the game passed through, by its move count: each seat's hand (watched on the service's
    hook, which the pages' server uses too)."""
    seen: dict[int, list[list[str]]] = {}
    service = bot.service
    onward = service.on_change

    def watch(game: Game) -> None:
        if game.state is not None:
            seen[game.state.moves] = [sorted(card_code(c) for c in h) for h in game.state.hands]
        onward(game)

    service.on_change = watch
    return seen


async def play_from_the_page(page: Page, table: Table, *, force: bool = False, think: float = 0.0) -> int:
    """Anna plays by tapping what her page offers, like a casual player; the number of taps. ``force`` taps
    without Playwright's wait for the element to hold still, which reads its box every animation frame (a cost
    to the page's frames that a finger does not add); ``think``: seconds she looks before each tap."""
    taps = 0
    while not table.over():
        st: dict[str, Any] | None = await page.evaluate("window.durakState()")
        if st is None or st["status"] != "playing":
            await asyncio.sleep(0.05)
            if st is not None and st["status"] != "playing":
                return taps
            continue
        options = [{"text": h["card"], "callback_data": h["press"]} for h in st["hand"]
                   if h["mark"] in ("play", "pick", "picked")]
        options += [{"text": b["text"], "callback_data": b["press"]} for b in st["buttons"]
                    if not b["text"].startswith(("🚪", "🎭", "🙋", "Accuse"))]
        count = len(page.received)  # type: ignore[attr-defined]
        if options:
            # a thumb taps a card's corner, the part a big hand leaves in view (its middle may lie under the next
            # card); what it offered may be gone: the next frame redrew it (as a person's tap can miss)
            press = table.choose(options)
            if think:
                await asyncio.sleep(think)
            corner = {"x": 10, "y": 12} if any(h["press"] == press for h in st["hand"]) else None
            try:
                await page.click(f'[data-press="{press}"]', position=corner, timeout=2000, force=force)
                taps += 1
            except PlaywrightTimeout:
                continue
        for _ in range(40):  # a new frame (the move, or someone else's), or a moment
            if len(page.received) > count:  # type: ignore[attr-defined]
                break
            await asyncio.sleep(0.025)
    return taps


@pytest.mark.long(30)
async def test_a_whole_game_from_the_page_beside_chat_players(fake: FakeTelegram, served: BotProcess) -> None:
    table = Table(fake, GROUP, [ANNA, BORIS, VERA], seed=3)
    await table.seat_everyone()
    seen = positions(served)
    await table.start(ANNA)
    anna = table.hand_message(ANNA)
    assert anna is not None
    async with chromium() as browser:
        page = await open_page(browser, hand_link(anna), ANNA, "Anna")
        await page.wait_for_selector("#hand .card")
        shown = await dom(page)
        state = await page.evaluate("window.durakState()")
        assert [c for c, _ in shown["hand"]] == [h["card"] for h in state["hand"]]
        chat_order = [b["callback_data"].split(":")[4] for b in anna.buttons()
                      if b.get("callback_data", "")[:5] in ("v1:c:", "v1:d:", "v1:f:")]
        assert [c for c, _ in shown["hand"]] == chat_order, "sorted as in the chat: suits, trumps last"
        ui = served.service.store.ui_of(next(iter(served.service.store.games)))
        for _ in range(500):  # the page acknowledges its frames: its hand message waits while it is open
            if ui.watched == {0}:
                break
            await asyncio.sleep(0.01)
        assert ui.watched == {0}
        spectator = await open_page(browser, hand_link(anna), 999, "Zoe", reduced_motion=True)
        await spectator.wait_for_selector("#seats .seat")
        taps = await asyncio.gather(play_from_the_page(page, table),
                                    table.play(lambda: False, 240, players=[BORIS, VERA]))
        assert taps[0] > 0
        await page.wait_for_function("window.durakState() && window.durakState().status === 'over'")
        final = await dom(page)
        assert final["result"].startswith("🏁 Game over!") and final["hand"] == []
        # the move log, kept line by line through the game (lines scrolled off removed, new ones added), reads as
        # the last frame's
        shown, sent = await page.evaluate("() => [[...document.querySelectorAll('#moves li')].map((li) => "
                                          "li.textContent), window.durakState().moves]")
        plain = [line.replace("\ufe0e", "").replace("\ufe0f", "") for line in shown]
        assert plain == [line.replace("\ufe0f", "") for line in sent] and sent, (shown, sent)
        # every frame either page got showed exactly its seat's cards of that moment, and no other hand
        for who, seat in ((page, 0), (spectator, None)):
            for frame in frames(who):
                if frame.get("type") != "state" or frame.get("status") != "playing":
                    continue
                hands = seen[frame["moves_made"]]
                mine = hands[seat] if seat is not None else []
                assert sorted(h["card"] for h in frame["hand"]) == mine
                assert [s["cards"] for s in frame["seats"]] == [len(h) for h in hands]
                others = {c for p, h in enumerate(hands) if p != seat for c in h}
                assert not others & set(QUOTED_CARD.findall(str(frame).replace("'", '"'))), "a hidden card"
        spectator_dom = await dom(spectator)
        assert spectator_dom["hand"] == [] and spectator_dom["buttons"] == []
        moved = await page.evaluate("window.motions")
        assert moved.get("deal", 0) > 0 and moved.get("sweep", 0) > 0, f"cards dealt and bouts swept: {moved}"
        assert await spectator.evaluate("window.motions") == {}, "nothing moves where reduced motion is asked"
        calls = await page.evaluate("window.telegramCalls.map(c => c[0])")
        assert "ready" in calls and "impact" in calls, "haptic feedback when the turn comes"
    result = table.result()
    # a durak, or a draw when the last two go out together (the players' moves race: either may happen)
    assert result is not None and ("Durak" in result.text or "A draw: nobody is the durak." in result.text)
    anna_end = table.hand_message(ANNA)
    assert anna_end is not None and "🏁 Game over!" in anna_end.text, "the chat followed the page's moves"


async def test_a_refused_tap_says_why_like_the_chat(fake: FakeTelegram, served: BotProcess) -> None:
    table = await started(fake, [ANNA, BORIS])
    game = next(iter(served.service.store.games.values()))
    assert game.state is not None
    waiting = ANNA if game.state.attacker == 1 else BORIS
    hand = table.hand_message(waiting)
    assert hand is not None
    async with chromium() as browser:
        page = await open_page(browser, hand_link(hand), waiting, "Waiting")
        await page.wait_for_selector("#hand .card.idle")
        data = await page.get_attribute("#hand .card.idle >> nth=0", "data-press")
        assert data is not None
        await page.click("#hand .card.idle >> nth=0")
        await page.wait_for_selector("#toast.on")
        chat = await table.press(waiting, hand, data)  # the same button in the chat
        assert chat["text"] and await page.text_content("#toast") == chat["text"]
        calls = await page.evaluate("window.telegramCalls")
        assert ["notification", "error"] in calls


SHOTS = Path(os.environ.get("SCREENSHOTS_DIR", "")) if os.environ.get("SCREENSHOTS_DIR") else None


@pytest.mark.parametrize(("preset", "players", "dark"), [("podkidnoy", 6, False), ("podkidnoy", 6, True),
                                                         ("poker", 3, False)])
async def test_screenshots_of_the_table_in_russian(fake: FakeTelegram, tmp_path: Path, preset: str, players: int,
                                                   dark: bool) -> None:
    """The README's pictures (SCREENSHOTS_DIR=docs to write them there): a Russian table, light and dark."""
    for user in fake.users.values():
        user.language_code = "ru"
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", default_language="ru", **page_settings(free_port()))
    await bot.start()
    try:
        ids = [101 + i for i in range(players)]
        table = Table(fake, GROUP, ids, seed=7, language="ru")
        await table.seat_everyone(preset)
        await table.start(ids[0])
        await table.play(lambda: bool(next(iter(bot.service.store.games.values())).state.attacks), 30)  # type: ignore[union-attr]
        game = next(iter(bot.service.store.games.values()))
        assert game.state is not None
        seat = game.state.defender if game.state.defender is not None else 0
        hand = table.hand_message(ids[seat])
        assert hand is not None
        async with chromium() as browser:
            page = await open_page(browser, hand_link(hand), ids[seat], fake.users[ids[seat]].first_name,
                                   dark=dark, language="ru")
            await page.wait_for_selector("#table .pair")
            # the cards' flight onto the table is over (the picture is taken below)
            await page.wait_for_function("!document.getAnimations().some(a => a.playState === 'running')")
            shown = await dom(page)
            assert len(shown["seats"]) == players and shown["table"]
            await fake.wait_for(lambda: hand.text.rsplit("\n\n", 1)[-1] == shown["prompt"], 5)  # the chat's words
            if preset == "poker":  # the variant's own move, as a button of its own
                assert "🔄 Обменять две карты" in [text for text, _ in shown["buttons"]], shown["buttons"]
            name = f"webapp-{preset}-{players}p-{'dark' if dark else 'light'}.png"
            await page.screenshot(path=str((SHOTS or tmp_path) / name), full_page=True)
    finally:
        await bot.stop()


async def test_the_page_comes_back_by_itself_after_a_restart(fake: FakeTelegram, tmp_path: Path) -> None:
    """The bot restarts mid-game: the open page reconnects on its own and shows the game as stored."""
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    table = await started(fake, [ANNA, BORIS])
    anna = table.hand_message(ANNA)
    assert anna is not None
    try:
        async with chromium() as browser:
            page = await open_page(browser, hand_link(anna), ANNA, "Anna")
            await page.wait_for_selector("#hand .card")
            before = await dom(page)
            count = len(page.received)  # type: ignore[attr-defined]
            await bot.stop()
            bot = BotProcess(fake, database, **settings)
            # a frame from now on is its new socket's: it may come while the bot starts (on PostgreSQL, once the
            # game's partition is taken, before every other one is)
            await bot.start()
            for _ in range(200):
                if len(page.received) > count:  # type: ignore[attr-defined]
                    break
                await asyncio.sleep(0.1)
            assert len(page.received) > count, "the page reconnected"  # type: ignore[attr-defined]
            after = await dom(page)
            assert after["hand"] == before["hand"] and after["seats"] == before["seats"]
    finally:
        await bot.stop()


async def test_the_page_follows_telegrams_theme_live(fake: FakeTelegram, served: BotProcess) -> None:
    table = await started(fake, [ANNA, BORIS])
    anna = table.hand_message(ANNA)
    assert anna is not None
    async with chromium() as browser:
        page = await open_page(browser, hand_link(anna), ANNA, "Anna")
        await page.wait_for_selector("#hand .card")
        background = "getComputedStyle(document.body).backgroundColor"
        assert await page.evaluate(background) == "rgb(255, 255, 255)"
        await page.evaluate("Telegram.WebApp.themeParams = {bg_color: '#212121', text_color: '#ffffff'};"
                            "Telegram.WebApp.fire('themeChanged')")
        assert await page.evaluate(background) == "rgb(33, 33, 33)"


async def test_a_card_that_covers_two_attacks_is_laid_on_the_one_tapped(fake: FakeTelegram, tmp_path: Path) -> None:
    from tests.e2e.test_hand import stored_position

    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    await stored_position(fake, database, [["7S", "7C", "KD"], ["9H", "8S", "6D", "JS"]], ["7S", "7C"])
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    try:
        boris = fake.messages[(BORIS, 1)]
        await fake.wait_for(lambda: any("web_app" in b for b in boris.buttons()))
        async with chromium() as browser:
            page = await open_page(browser, hand_link(boris), BORIS, "Boris")
            await page.wait_for_selector('#hand .card.play[data-card="9H"]')
            assert await page.locator("#table .card.target").count() == 0
            await page.click('#hand .card[data-card="9H"]')
            await page.wait_for_selector("#table .card.target")
            targets = await page.eval_on_selector_all("#table .card.target", "els => els.map(e => e.dataset.card)")
            assert sorted(targets) == ["7C", "7S"], "both attacks it covers light up"
            await page.click('#table .card.target[data-card="7C"]')
            await page.wait_for_function("window.durakState().table.some(p => p[0] === '7C' && p[1] === '9H')")
            shown = await dom(page)
            assert ["7C", "9H"] in shown["table"] and ["7S"] in shown["table"]
    finally:
        await bot.stop()


async def test_a_transfer_carries_the_defenders_ring_and_a_draw_deals_from_the_stock(fake: FakeTelegram,
                                                                                    tmp_path: Path) -> None:
    """Перевод: Boris passes Anna's 7♠ on with his 7♣ and the ring goes from his seat to hers; when the bout ends,
    the cards drawn fly from the stock to the seats."""
    from durak import Rules
    from tests.e2e.test_hand import stored_position

    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    await stored_position(fake, database, [["7S", "KD", "9C"], ["7C", "8S", "6D", "JS"]], ["7S"],
                          Rules.from_dict({"preset": "perevodnoy"}), ("AC", "KC", "10D", "QH"))
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    try:
        boris = fake.messages[(BORIS, 1)]
        await fake.wait_for(lambda: any("web_app" in b for b in boris.buttons()))
        async with chromium() as browser:
            page = await open_page(browser, hand_link(boris), BORIS, "Boris")
            await page.wait_for_selector('#hand .card.play[data-card="7C"]')
            await page.click('#hand .card[data-card="7C"]')
            await page.wait_for_function("window.durakState().defender === 0")
            assert (await page.evaluate("window.motions")).get("ring") == 1, "the ring went to Anna's seat"
            # The page hears of the transfer over its socket; Anna's chat hand is edited by its own call after it.
            def takes() -> list[dict[str, Any]]:
                return [b for b in fake.messages[(ANNA, 1)].buttons() if b["text"].startswith("Take")]
            await fake.wait_for(takes)
            anna, take = fake.messages[(ANNA, 1)], takes()[0]
            await fake.press(ANNA, ANNA, anna.message_id, take["callback_data"])
            await page.wait_for_function("window.durakState().table.length === 0 && window.durakState().stock < 4")
            moved = await page.evaluate("window.motions")
            assert moved.get("sweep", 0) == 2 and moved.get("deal", 0) >= 1, moved
    finally:
        await bot.stop()
