"""The Mini App on a phone, in a real Chromium: every hand fits the screen, a lost connection shows, suits read in
both themes, the page draws before Telegram's script and says so outside Telegram, the durak's cards at the end,
and the quality bars (accessibility, weight, first draw)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Page

from bot.webapp.auth import game_token
from durak import Rules
from durak.cards import card_code, deck
from tests.e2e.browser import chromium, open_page
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_crash import BotProgram
from tests.e2e.test_hand import stored_position
from tests.e2e.test_webapp import page_settings, started
from tests.e2e.webapp_client import PageSocket, free_port, game_param, hand_link, init_data
from tests.fake_telegram import TOKEN, FakeTelegram

SHOTS = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None
PHONES = {"320x568": (320, 568), "390x844": (390, 844), "844x390": (844, 390)}
HAND_SIZES = (1, 2, 8, 10, 12, 15, 24, 35)  # one row, the widths where a second and a third begin, the most

# Where each card of the hand shows its corner (rank over suit): inside the window, and not under another card.
CORNERS = """() => {
  document.querySelector('#hand').scrollIntoView({block: 'end'});
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('#hand .card')].map((c) => {
    const rank = c.querySelector('.rank').getBoundingClientRect();
    const suit = c.querySelector('.suit').getBoundingClientRect();
    const points = [[rank.left + 1, rank.top + rank.height / 2], [rank.right - 1, rank.top + rank.height / 2],
                    [suit.left + suit.width / 2, suit.top + suit.height / 2]];
    const hidden = points.filter(([x, y]) => !c.contains(document.elementFromPoint(x, y)));
    return {card: c.dataset.card, left: rank.left, right: Math.max(rank.right, suit.right), width,
            hidden: hidden.length, size: rank.height};
  });
}"""
SCROLLS_SIDEWAYS = "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"


def page_url(settings: dict[str, Any], game_id: int) -> str:
    return f"{settings['webapp_url']}?g={game_token(game_id, TOKEN)}"


async def stored_hands(fake: FakeTelegram, database: Path, sizes: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """A game per (cards, deck size): seat 0 holds that many cards and leads; (game id, his user id, cards)."""
    games = []
    for k, (size, deck_size) in enumerate(sizes):
        cards = [card_code(c) for c in deck(deck_size)]
        first = 2000 + 2 * k
        rules = Rules(deck_size=deck_size)
        game = await stored_position(fake, database, [cards[:size], cards[size:size + 6]], [], rules, (),
                                     group=-5000 - k, first_user=first)
        games.append((game, first, size))
    return games


@pytest.mark.parametrize("phone", list(PHONES))
async def test_every_hand_fits_the_screen_with_every_corner_readable(fake: FakeTelegram, tmp_path: Path,
                                                                     phone: str) -> None:
    """Up to 35 cards of 36, and 51 of 52: no card past the edge, no sideways scroll, every rank and suit in view."""
    width, height = PHONES[phone]
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    games = await stored_hands(fake, database, [(n, 36) for n in HAND_SIZES] + [(51, 52)])
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    faults = []
    try:
        async with chromium() as browser:
            for game, user, size in games:
                page = await open_page(browser, page_url(settings, game), user, "Anna", width=width, height=height)
                await page.wait_for_function(f"document.querySelectorAll('#hand .card').length === {size}")
                corners = await page.evaluate(CORNERS)
                if await page.evaluate(SCROLLS_SIDEWAYS):
                    faults.append((size, "the page scrolls sideways"))
                faults += [(size, c) for c in corners if c["left"] < 0 or c["right"] > c["width"] or c["hidden"]]
                assert all(c["size"] >= 11 for c in corners), "a rank too small to read"
                if SHOTS and size in (15, 35, 51):
                    await page.screenshot(path=str(SHOTS / f"webapp-hand-{size}-{phone}.png"))
                await page.context.close()
    finally:
        await bot.stop()
    assert not faults, faults


async def test_the_hand_is_at_the_bottom_and_leave_is_a_small_button(fake: FakeTelegram, tmp_path: Path) -> None:
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    [(game, user, _)] = await stored_hands(fake, database, [(6, 36)])
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    try:
        async with chromium() as browser:
            page = await open_page(browser, page_url(settings, game), user, "Anna", width=390, height=844)
            await page.wait_for_selector("#hand .card")
            box = await page.locator("#hand").bounding_box()
            assert box is not None and box["y"] + box["height"] > 844 - 40, "the hand sits at the bottom"
            assert await page.locator("#buttons button", has_text="Leave").count() == 0
            leave = page.locator("#leave")
            assert await leave.is_visible() and await leave.get_attribute("aria-label") == "🚪 Leave the game"
            small = await leave.bounding_box()
            assert small is not None and small["width"] < 60
            await leave.click()  # the confirmation comes as the page's buttons, as in the chat
            await page.wait_for_selector('#buttons button:has-text("Yes, leave")')
    finally:
        await bot.stop()


CONTRAST = """() => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 4).map(Number);
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  const back = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length < 4 || c[3] > 0.5) return c;
    }
    return [255, 255, 255];
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const suits = [...document.querySelectorAll('.suit')].filter((s) => !s.closest('svg') && !s.closest('#toast'))
    .map((s) => [s.textContent, s.parentElement.id || s.parentElement.tagName,
                 ratio(rgb(getComputedStyle(s).color), back(s))]);
  const toast = document.querySelector('#toast');
  return {suits, emoji: document.body.innerText.includes('\\uFE0F'),
          toast: ratio(back(toast), back(document.body)), text: ratio(rgb(getComputedStyle(toast).color), back(toast))};
}"""


@pytest.mark.parametrize("dark", [False, True])
async def test_suits_and_the_toast_read_in_both_themes(fake: FakeTelegram, tmp_path: Path, dark: bool) -> None:
    """Suit signs in the move log, the trump line and the prompt are text glyphs, legible (≥ 3:1) on their
    background, in two and four colours; the toast is a box that stands out from the page."""
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", **page_settings(free_port()))
    await bot.start()
    try:
        table = await started(fake, [101, 102])
        attacker = next(u for u in (101, 102) if "Your lead" in table.hand_message(u).text)  # type: ignore[union-attr]
        hand = table.hand_message(attacker)
        assert hand is not None
        await table.press(attacker, hand, await table.one_card_lead(attacker, hand))
        async with chromium() as browser:
            page = await open_page(browser, hand_link(hand), attacker, "Anna", dark=dark)
            await page.wait_for_selector("#moves .suit")
            for four in (False, True):
                if four:
                    await page.click("#colours")
                # a card he cannot throw in (at most three others share the lead's rank): the toast says why
                card = await page.evaluate("window.durakState().hand.find(h => ['dim', 'idle'].includes(h.mark)).card")
                await page.click(f'#hand .card[data-card="{card}"]')
                await page.wait_for_selector("#toast.on")
                seen = await page.evaluate(CONTRAST)
                places = {where for _, where, _ in seen["suits"]}
                assert {"LI", "trumpline"} <= places, seen["suits"]
                assert not seen["emoji"], "an emoji suit (U+FE0F) on the page"
                assert all(r >= 3 for _, _, r in seen["suits"]), seen["suits"]
                assert seen["toast"] >= 3 and seen["text"] >= 4.5, seen
            if SHOTS:
                await page.screenshot(path=str(SHOTS / f"webapp-suits-{'dark' if dark else 'light'}.png"))
    finally:
        await bot.stop()


async def test_the_deck_counts_stay_on_the_table(fake: FakeTelegram, tmp_path: Path) -> None:
    """«Discard N» and «Stock N» lie inside the felt, clear of its edge and of the move log."""
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    game = await stored_position(fake, database, [["7S", "7C", "KD"], ["9H", "8S", "6D", "JS"]], ["7S"],
                                 stock=("AC", "KC", "QH"))
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    try:
        async with chromium() as browser:
            page = await open_page(browser, page_url(settings, game), 101, "Anna", width=320, height=568)
            await page.wait_for_selector("#counts span")
            felt, counts, moves = [await page.locator(s).bounding_box() for s in ("#middle", "#counts", "#moves")]
            assert felt and counts and moves
            assert counts["y"] + counts["height"] <= felt["y"] + felt["height"] - 4
            assert counts["y"] >= felt["y"] and moves["y"] >= felt["y"] + felt["height"]
    finally:
        await bot.stop()


async def test_a_lost_connection_shows_holds_the_tap_and_plays_it_on_return(fake: FakeTelegram,
                                                                            tmp_path: Path) -> None:
    """kill -9 of the bot with the page open: the page says it is reconnecting, a tap is held with a toast; the
    bot back, the notice goes and the toast says the move was sent; the move is on the table."""
    port = free_port()
    program = BotProgram(fake, tmp_path)
    with (tmp_path / ".env").open("a") as env:
        env.write(f"WEBAPP_PORT={port}\nWEBAPP_URL=http://127.0.0.1:{port}/app/\n")
    await program.start()
    try:
        table = Table(fake, GROUP, [101, 102])
        await table.seat_everyone()
        await table.start(101)
        await fake.wait_for(lambda: all(table.hand_message(u) and "web_app" in str(table.hand_message(u).buttons())
                                        for u in (101, 102)))
        attacker = next(u for u in (101, 102) if "Your lead" in table.hand_message(u).text)  # type: ignore[union-attr]
        hand = table.hand_message(attacker)
        assert hand is not None
        async with chromium() as browser:
            page = await open_page(browser, hand_link(hand), attacker, "Anna")
            await page.wait_for_selector("#hand .card.play")
            assert await page.locator("#net").is_hidden()
            program.kill()
            await program.dead()
            await page.wait_for_selector("#net", state="visible")
            assert await page.text_content("#net") == "No connection to the table. Reconnecting…"
            card = await page.get_attribute("#hand .card.play >> nth=0", "data-card")
            await page.click(f'#hand .card[data-card="{card}"]')
            await page.wait_for_selector("#toast.on")
            assert await page.text_content("#toast") == "No connection: your move will be sent when the table is back."
            await program.start()
            await page.wait_for_selector("#net", state="hidden", timeout=15000)
            await page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Connected again')")
            assert await page.text_content("#toast") == "Connected again: your move was sent."
            await page.wait_for_function(f"window.durakState().table.some(p => p[0] === '{card}')")
    finally:
        await program.stop()


async def test_the_page_draws_before_telegrams_script_and_says_so_outside_telegram(fake: FakeTelegram,
                                                                                  tmp_path: Path) -> None:
    """telegram.org that never answers holds nothing up: the page connects with the initData in its address.
    Opened in a plain browser, it says to open it in Telegram instead of calling the link stale."""
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    [(game, user, _)] = await stored_hands(fake, database, [(6, 36)])
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    try:
        async with chromium() as browser:
            context = await browser.new_context(viewport={"width": 390, "height": 844})
            page = await context.new_page()
            hang = asyncio.Event()

            async def never(route: Any) -> None:
                await hang.wait()
                await route.abort()

            await page.route("https://telegram.org/**", never)
            launch = "#" + "&".join(f"{k}={v}" for k, v in (("tgWebAppData", quote(init_data(user, "Anna"))),
                                                             ("tgWebAppVersion", "8.0")))
            await page.goto(page_url(settings, game) + launch, wait_until="commit")
            await page.wait_for_selector("#hand .card", timeout=5000)
            hang.set()
            await context.close()
            outside = await open_page(browser, page_url(settings, game), user, "Anna", telegram=False)
            await outside.wait_for_function("document.querySelector('#prompt').textContent.includes('Telegram')",
                                            timeout=10000)
            assert "opens in Telegram" in (await outside.text_content("#prompt") or "")
            assert await outside.locator("#middle").is_hidden(), "no empty table"
            stale = await open_page(browser, settings["webapp_url"] + "?g=AAAAAAAAAAAAAAAAAAAAAAAA", user, "Anna")
            await stale.wait_for_function("document.querySelector('#prompt').textContent.includes('cannot')")
            assert await stale.locator("#middle").is_hidden(), "no empty grey box"
    finally:
        await bot.stop()


def quote(text: str) -> str:
    from urllib.parse import quote as escape

    return escape(text, safe="")


async def test_the_end_shows_the_durak_his_cards_and_asks_to_close_once_a_turn(fake: FakeTelegram,
                                                                               tmp_path: Path) -> None:
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    game = await stored_position(fake, database, [["7S"], ["9H", "8S", "6D"]], ["7S"], stock=())
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    try:
        async with chromium() as browser:
            page = await open_page(browser, page_url(settings, game), 102, "Boris")
            await page.wait_for_selector('#buttons button:has-text("Take")')
            await page.click("#buttons button >> text=Take")
            await page.wait_for_function("window.durakState().status === 'over'")
            await page.wait_for_selector("#result .left .card")
            shown = await page.eval_on_selector_all("#result .left .card", "els => els.map(e => e.dataset.card)")
            assert shown == ["7S", "8S", "6D", "9H"], "the durak's cards, as his hand showed them"
            assert "The durak's cards (Boris):" in (await page.text_content("#result") or "")
            calls = await page.evaluate("window.telegramCalls.map(c => c[0])")
            assert calls.count("closing on") == 1 and calls.count("closing off") == 1, calls
            if SHOTS:
                await page.screenshot(path=str(SHOTS / "webapp-end-light.png"))
    finally:
        await bot.stop()


async def axe_problems(page: Page) -> list[tuple[str, str, list[Any]]]:
    results = await Axe().run(page)
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5]) for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")]


async def test_the_cards_are_drawn_in_the_players_letters_and_named_whole(fake: FakeTelegram, tmp_path: Path) -> None:
    """/letters on in Russian: the page draws the ace as «Т» and the queen as «Д», and a screen reader hears
    «туз червей»; the press under a card is the card's own."""
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    game = await stored_position(fake, database, [["QS", "7C"], ["AH", "8S", "6D"]], ["QS"], stock=())
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    try:
        for command in ("/language ru", "/letters on"):
            before = len(fake.chat_messages(102))
            await fake.send_text(102, 102, command)
            await fake.wait_for(lambda sent=before: len(fake.chat_messages(102)) > sent)
        async with chromium() as browser:
            page = await open_page(browser, page_url(settings, game), 102, "Boris")
            await page.wait_for_selector('#hand .card[data-card="AH"]')
            assert await page.text_content('#hand .card[data-card="AH"] .rank') == "Т"
            assert await page.text_content('#table .card[data-card="QS"] .rank') == "Д"
            assert await page.get_attribute('#hand .card[data-card="AH"]', "aria-label") == "туз червей, можно сыграть"
            assert await page.get_attribute('#table .card[data-card="QS"]', "aria-label") == "дама пик"
            await page.click('#hand .card[data-card="AH"]')
            await page.wait_for_selector('#table .card[data-card="AH"]')  # the queen covered by the ace
            assert await page.text_content('#table .card[data-card="AH"] .rank') == "Т"
    finally:
        await bot.stop()


async def test_the_cards_he_keeps_stay_put_through_a_move_and_take_new_colours(fake: FakeTelegram,
                                                                                tmp_path: Path) -> None:
    """A move redraws only what changed: the cards Boris still holds after covering are the very cards he could
    have been tapping (not copies put in their place mid-tap), moved to their new places; four colours redraw
    them all the same."""
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    game = await stored_position(fake, database, [["QS", "7C"], ["AH", "8S", "6D"]], ["QS"], stock=())
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    try:
        async with chromium() as browser:
            page = await open_page(browser, page_url(settings, game), 102, "Boris")
            await page.wait_for_selector('#hand .card[data-card="AH"]')
            before = await page.evaluate("""() => { const cards = [...document.querySelectorAll('#hand .card')];
              window.heldCards = cards; return cards.map((c) => [c.dataset.card, c.getBoundingClientRect().left]); }""")
            await page.click('#hand .card[data-card="AH"]')
            await page.wait_for_selector('#table .card[data-card="AH"]')
            await page.wait_for_function("document.querySelectorAll('#hand .card').length === 2")
            after = await page.evaluate("""() => window.heldCards.map((c) => [c.dataset.card, c.isConnected,
              c.getBoundingClientRect().left])""")
            alive = {code: connected for code, connected, _ in after}
            assert alive == {"AH": False, "8S": True, "6D": True}
            moved = {code: left for code, _, left in after if alive[code]}
            assert moved != {code: left for code, left in before if code in moved}, "they closed up where the ace was"
            fill = "() => document.querySelector('#hand .card[data-card=\"6D\"] .rank').getAttribute('fill')"
            assert await page.evaluate(fill) == "#c4221d"
            await page.click("#colours")
            assert await page.evaluate(fill) == "#1d5bc0", "diamonds blue in four colours, in his hand too"
    finally:
        await bot.stop()


async def test_accessibility_weight_and_first_draw(fake: FakeTelegram, tmp_path: Path) -> None:
    """axe-core finds nothing serious mid-game, at the end and on a closed page; every button has a name and a
    card is announced with what it can do; the page's files are at most 25 kB gzipped; the first table's
    time after the socket opens on a 4x slower CPU is printed."""
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    game = await stored_position(fake, database, [["7S"], ["9H", "8S", "6D"]], ["7S"], stock=())
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    try:
        async with aiohttp.ClientSession(auto_decompress=False) as http:
            total = 0
            for name in ("", "app.js", "app.css"):
                async with http.get(settings["webapp_url"] + name, headers={"Accept-Encoding": "gzip"}) as answer:
                    assert answer.status == 200 and answer.headers["Content-Encoding"] == "gzip"
                    total += len(await answer.read())
                    async with http.get(settings["webapp_url"] + name,
                                        headers={"If-None-Match": answer.headers["ETag"]}) as again:
                        assert again.status == 304
            assert total <= 25_000, total
        async with chromium() as browser:
            page = await open_page(browser, page_url(settings, game), 102, "Boris", dark=True)
            await page.wait_for_selector("#hand .card")
            assert await page.get_attribute('#hand .card[data-card="9H"]', "aria-label") == "nine of hearts, playable"
            assert await page.get_attribute("#colours", "aria-label") == "Four-colour suits"
            assert await page.get_attribute("#hand", "aria-label") == "Your cards"
            assert await axe_problems(page) == []
            light = await open_page(browser, page_url(settings, game), 102, "Boris")  # the light theme, mid-game
            await light.wait_for_selector("#hand .card")
            assert await axe_problems(light) == [], "axe-core: the rules line and the move log read in the light theme"
            await light.context.close()
            await page.click("#buttons button >> text=Take")
            await page.wait_for_selector("#result .left .card")
            assert await axe_problems(page) == []
            closed = await open_page(browser, settings["webapp_url"] + "?g=AAAAAAAAAAAAAAAAAAAAAAAA", 102, "Boris")
            await closed.wait_for_function("document.querySelector('#prompt').textContent.includes('cannot')")
            assert await axe_problems(closed) == []
            slow = await open_page(browser, "about:blank", 102, "Boris")
            cdp = await slow.context.new_cdp_session(slow)
            await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            await slow.goto(page_url(settings, game))
            await slow.wait_for_function("performance.getEntriesByName('table').length > 0")
            drawn = await slow.evaluate("performance.getEntriesByName('table')[0].startTime"
                                        " - performance.getEntriesByName('open')[0].startTime")
            print(f"first table drawn {drawn:.0f} ms after the socket opened (4x CPU throttling)")
    finally:
        await bot.stop()


@pytest.mark.parametrize("dark", [False, True])
async def test_screenshots_for_the_readme(fake: FakeTelegram, tmp_path: Path, dark: bool) -> None:
    """The README's pictures at 390x844 (SCREENSHOTS_DIR=docs writes them there): a 15-card hand defending, the
    lobby with a computer, the end with the durak's cards."""
    theme = "dark" if dark else "light"
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    cards = [card_code(c) for c in deck(36)]
    big = await stored_position(fake, database, [["QS", "QH"], [c for c in cards if c not in ("QS", "QH")][:15]],
                                ["QS", "QH"], stock=("AC", "KC", "9H"), group=-6001, first_user=3001)
    end = await stored_position(fake, database, [["7S"], ["9H", "8S", "6D"]], ["7S"], stock=(), group=-6002,
                                first_user=3011)
    bot = BotProcess(fake, database, computer_pause=0, **settings)
    await bot.start()
    shots = SHOTS or tmp_path
    try:
        async with chromium() as browser:
            page = await open_page(browser, page_url(settings, big), 3002, "Boris", dark=dark, height=844)
            await page.wait_for_function("document.querySelectorAll('#hand .card').length === 15")
            assert await page.locator("#table .pair").count() == 2 and not await page.evaluate(SCROLLS_SIDEWAYS)
            await page.screenshot(path=str(shots / f"webapp-hand-{theme}.png"))
            page = await open_page(browser, page_url(settings, end), 3012, "Boris", dark=dark, height=844)
            await page.click('#buttons button:has-text("Take")')
            await page.wait_for_selector("#result .left .card")
            await page.screenshot(path=str(shots / f"webapp-end-{theme}.png"))
            table = Table(fake, GROUP, [101, 102])
            await table.newgame(101)
            await table.join(101)
            await table.join(102)
            token = game_param(next(b["url"] for b in table.lobby().buttons() if "url" in b))
            page = await open_page(browser, settings["webapp_url"], 101, "Anna", dark=dark, height=844,
                                   start_param=token)
            await page.click('#buttons button:has-text("🤖+ normal")')
            await page.wait_for_function("window.durakState() && window.durakState().seats.length === 3")
            await page.screenshot(path=str(shots / f"webapp-lobby-{theme}.png"))
    finally:
        await bot.stop()


SEATED = (2, 3, 4, 6)
# phones upright and on their side, and Telegram Desktop's Mini App window: about 400×600 when it opens, resizable
SIZES = {"320x568": (320, 568), "430x932": (430, 932), "844x390": (844, 390), "400x600": (400, 600),
         "1000x700": (1000, 700)}
PHOTO = "https://t.me/i/userpic/320/boris.svg"
PHOTO_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" fill="#3a7"/>'
             '<circle cx="20" cy="15" r="8" fill="#fff"/><rect x="8" y="26" width="24" height="14" rx="7" fill="#fff"/>'
             '</svg>')
SEAT_BOXES = """() => [...document.querySelectorAll('#seats .seat')].map((s) => {
  const r = s.getBoundingClientRect();
  return {you: s.classList.contains('you'), left: r.left, right: r.right, top: r.top, bottom: r.bottom,
          label: s.getAttribute('aria-label'), photo: !!s.querySelector('image.photo')};
})"""


@pytest.mark.long(40)
async def test_two_to_six_seats_sit_around_the_felt_at_every_phone_size(fake: FakeTelegram, tmp_path: Path) -> None:
    """2, 3, 4 and 6 players at 320 and 430 wide and in landscape, light and dark: every seat around the felt with
    its name, count and role, you below it, nothing sideways off the screen, the whole hand in view; Boris opened
    the table before, so his Telegram photo is on his seat for everyone."""
    database, settings = tmp_path / "durak.sqlite3", page_settings(free_port())
    cards = [card_code(c) for c in deck(36) if card_code(c) != "AH"]  # the ace of hearts: the trump card
    games = []
    for k, n in enumerate(SEATED):
        hands = [cards[5 * i:5 * i + 5] for i in range(n)]
        game = await stored_position(fake, database, hands, [hands[0][0]], Rules(), (*cards[5 * n:5 * n + 2], "AH"),
                                     group=-6000 - k, first_user=3000 + 10 * k)
        games.append((game, 3000 + 10 * k, n))
    bot = BotProcess(fake, database, **settings)
    await bot.start()
    port = settings["webapp_port"]
    try:
        for game, first, _ in games:  # Boris (seat 1) opens his page once: the table knows his photo from then on
            boris = PageSocket(port)
            await boris.open({"type": "hello", "game": game_token(game, TOKEN),
                              "init_data": init_data(first + 1, "Boris", photo=PHOTO)})
            await boris.close()
        async with chromium() as browser:
            for game, first, n in games:
                for size, (width, height) in SIZES.items():
                    for dark in (False, True):
                        page = await open_page(browser, page_url(settings, game), first, "Anna", dark=dark,
                                               width=width, height=height, photos=PHOTO_SVG)
                        await page.wait_for_selector("#hand .card")
                        await page.wait_for_selector("#seats image.photo", state="attached")
                        seats = await page.evaluate(SEAT_BOXES)
                        where = f"{n} players at {size}, {'dark' if dark else 'light'}"
                        assert len(seats) == n, where
                        assert all(s["left"] >= 0 and s["right"] <= width for s in seats), (where, seats)
                        mine = next(s for s in seats if s["you"])
                        assert all(mine["top"] >= s["top"] for s in seats), f"{where}: you sit below the others"
                        assert [s["photo"] for s in seats] == [i == 1 for i in range(n)], f"{where}: Boris's photo"
                        assert seats[1]["label"].startswith("Boris, cards: 5, "), seats[1]["label"]
                        assert not await page.evaluate(SCROLLS_SIDEWAYS), where
                        tall = await page.evaluate("() => document.scrollingElement.scrollHeight")
                        if width > height:  # on its side: the table, the buttons and the hand on one screen
                            assert tall <= height, f"{where}: {tall} px tall"
                        cards_seen = await page.evaluate(CORNERS)
                        assert all(c["hidden"] == 0 and c["right"] <= c["width"] for c in cards_seen), where
                        if SHOTS:
                            await page.screenshot(path=str(SHOTS / f"seats-{n}p-{size}-{'dark' if dark else 'light'}"
                                                                    f".png"))
                        await page.context.close()
    finally:
        await bot.stop()
