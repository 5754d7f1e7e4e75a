"""The whole game inside the Mini App, in a real Chromium: the lobby opened from the group's link, a player
joining from the chat, another from the page, the creator's settings and computers, Start, the game, the end,
and Play again's new lobby; every press through the one write path, so the chat shows the same."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from playwright.async_api import Page

from tests.e2e.browser import chromium, open_page
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_webapp import page_settings
from tests.e2e.test_webapp_browser import play_from_the_page
from tests.e2e.test_webapp_phone import axe_problems
from tests.e2e.webapp_client import free_port, game_param
from tests.fake_telegram import BOT_USERNAME, FakeTelegram

ANNA, BORIS, VERA = 101, 102, 103


async def seats(page: Page) -> list[str]:
    names: list[str] = await page.eval_on_selector_all("#seats .name", "els => els.map(e => e.textContent)")
    return names


async def tap(page: Page, label: str) -> None:
    await page.click(f'#buttons button:has-text("{label}")')


@pytest.mark.long(12)
async def test_from_the_lobby_to_play_again_inside_the_app(fake: FakeTelegram, tmp_path: Path) -> None:
    settings = page_settings(free_port())
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", computer_pause=0, **settings)
    await bot.start()
    try:
        table = Table(fake, GROUP, [ANNA, BORIS, VERA], seed=5)
        await table.newgame(ANNA)
        await table.join(ANNA)
        link = next(b["url"] for b in table.lobby().buttons() if b["text"] == "🃏 Open the table")
        token = game_param(link)
        async with chromium() as browser:
            anna = await open_page(browser, settings["webapp_url"], ANNA, "Anna", start_param=token)
            await anna.wait_for_function("window.durakState() && window.durakState().status === 'lobby'")
            assert await seats(anna) == ["Anna"]
            # an invitation to the lobby, prepared by the bot for Telegram's chat picker (shareMessage)
            await anna.click("#invite")
            await anna.wait_for_function("window.telegramCalls.some(c => c[0] === 'share')")
            shared = await anna.evaluate("window.telegramCalls.find(c => c[0] === 'share')[1]")
            prepared = fake.prepared[-1]
            assert shared == f"prepared-{len(fake.prepared)}" and int(prepared["user_id"]) == ANNA
            assert prepared["result"]["reply_markup"]["inline_keyboard"][0][0]["url"] == link
            assert "Anna invites you to a game of Durak" in prepared["result"]["input_message_content"]["message_text"]
            await table.join(BORIS)  # from the chat: the page shows him at once
            await anna.wait_for_function("window.durakState().seats.length === 2")
            assert await seats(anna) == ["Anna", "Boris"]

            # Vera never wrote to the bot: Join on the page opens its private chat, whose Start seats her
            vera = await open_page(browser, settings["webapp_url"], VERA, "Vera", start_param=token)
            await vera.wait_for_function("window.durakState() && window.durakState().status === 'lobby'")
            assert await vera.locator("#invite").count() == 0, "only a seated player invites"
            await tap(vera, "Join")
            await vera.wait_for_function("window.telegramCalls.some(c => c[0] === 'link')")
            url = await vera.evaluate("window.telegramCalls.find(c => c[0] === 'link')[1]")
            assert url.startswith(f"https://t.me/{BOT_USERNAME}?start=join_")
            await fake.send_text(VERA, VERA, "/start " + url.split("start=")[1])
            await vera.wait_for_function("window.durakState().seats.some(s => s.you && s.name === 'Vera')")
            await tap(vera, "Start")  # the creator's button: refused with why, as in the chat
            await vera.wait_for_selector("#toast.on")
            assert await vera.text_content("#toast") == "Only the creator can do that."
            await vera.context.close()  # she plays in the chat (an open page would hold her hand message)

            # the creator's settings, in the chat's words; the chat's lobby shows the same
            await tap(anna, "Settings")
            await anna.wait_for_selector('#buttons button:has-text("Transfer: off")')
            await tap(anna, "Transfer: off")
            await anna.wait_for_selector('#buttons button:has-text("Transfer: on")')
            await fake.wait_for(lambda: any(b["text"] == "Transfer: on" for b in table.lobby().buttons()))
            await tap(anna, "« Back")
            await anna.wait_for_selector('#buttons button:has-text("Start")')
            assert "Perevodnoy" in (await anna.text_content("#rules") or "")
            await tap(anna, "🤖+ easy")
            await anna.wait_for_function("window.durakState().seats.length === 4")
            assert (await anna.evaluate("window.durakState().seats[3].computer")) is True
            assert await axe_problems(anna) == [], "axe-core: nothing serious in the lobby"
            await tap(anna, "Start")
            await anna.wait_for_selector("#hand .card")
            await fake.wait_for(lambda: all(table.hand_message(p) is not None for p in (BORIS, VERA)))
            first = await anna.evaluate("window.durakState().game")

            await asyncio.gather(play_from_the_page(anna, table), table.play(lambda: False, 240, players=[BORIS, VERA]))
            await anna.wait_for_function("window.durakState().status === 'over'")
            assert "Game over" in (await anna.text_content("#result") or "")
            await anna.click("#share")  # the result card, for Telegram's chat picker
            await anna.wait_for_function("window.telegramCalls.filter(c => c[0] === 'share').length === 2")
            assert fake.prepared[-1]["result"]["type"] == "photo"
            await tap(anna, "Play again")
            await anna.wait_for_function(f"window.durakState().status === 'lobby' && window.durakState().game !== "
                                         f"'{first}'")
            assert set(await seats(anna)) >= {"Anna", "Boris", "Vera"}, "Play again seats the same players"
            # the page may show the new lobby before the group has its message: until then no lobby is there
            await fake.wait_for(lambda: any(m.text.startswith("🃏 Durak: a new game") and any(
                b.get("callback_data", "").startswith("v1:j:") for b in m.buttons()) for m in table.group_messages()))
    finally:
        await bot.stop()
