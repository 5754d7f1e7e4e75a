"""A real Chromium (Debian's, driven by Playwright; no browser is downloaded) opening the Mini App inside a
stand-in of Telegram's ``window.Telegram.WebApp`` that carries initData signed with the test token.

Debian's ``chromium-headless-shell`` where it is installed (``.ci/run`` installs it), else ``chromium``, or the
``CHROMIUM`` a developer names. The shell is built from the same Chromium source at the same version (Blink, V8,
the same fonts), without the browser's windowing: the headless build Playwright itself tests in. It renders the
page as ``chromium`` does (their screenshots compared pixel for pixel: the hands alike to the timer ring's few
pixels) at less than half the CPU (the phone tests 155-165 against 63-69 CPU-s: docs/performance.md)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from playwright.async_api import Browser, Page, Playwright, Route, async_playwright

from tests.e2e.webapp_client import init_data

CHROMIUM = (os.environ.get("CHROMIUM") or shutil.which("chromium-headless-shell") or shutil.which("chromium")
            or "")
if not CHROMIUM and not os.environ.get("REQUIRE_BROWSER"):  # .ci/run installs it and requires these tests
    pytest.skip("no chromium: install Debian's chromium-headless-shell (apt install chromium-headless-shell) or "
                "chromium to run the Mini App's browser tests", allow_module_level=True)
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--no-first-run"]
LIGHT = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579", "button_color": "#3390ec",
         "button_text_color": "#ffffff", "secondary_bg_color": "#e8f0e6"}
DARK = {"bg_color": "#212121", "text_color": "#ffffff", "hint_color": "#aaaaaa", "button_color": "#8774e1",
        "button_text_color": "#ffffff", "secondary_bg_color": "#181818"}

# What telegram-web-app.js would give the page: initData, the theme, events, haptics (recorded for the test)
STAND_IN = """
(() => {
  const handlers = {};
  window.telegramCalls = [];
  const note = (name) => (...args) => { window.telegramCalls.push([name, ...args]); };
  window.Telegram = { WebApp: {
    initData: %(init_data)s, initDataUnsafe: {}, themeParams: %(theme)s, colorScheme: %(scheme)s,
    viewportStableHeight: %(height)s, platform: "tdesktop", version: "8.0",
    ready: note("ready"), expand: note("expand"),
    enableClosingConfirmation: note("closing on"), disableClosingConfirmation: note("closing off"),
    disableVerticalSwipes: note("swipes off"), enableVerticalSwipes: note("swipes on"),
    HapticFeedback: { impactOccurred: note("impact"), notificationOccurred: note("notification") },
    openTelegramLink: note("link"), shareMessage: note("share"), isVersionAtLeast: () => true,
    onEvent: (name, f) => { (handlers[name] = handlers[name] || []).push(f); },
    fire: (name) => (handlers[name] || []).forEach((f) => f()),
  } };
})();
"""


class _Shared:
    """The worker's one Chromium: a launch (Playwright's driver, then the browser) costs a second of CPU, a new
    context a fifth, and the 33 browser tests launched one each. Every test runs on the worker's one event loop
    (pyproject.toml), where Playwright's objects live; ``tests/e2e/conftest.py`` closes it at the end."""

    playwright: Playwright | None = None
    browser: Browser | None = None

    @classmethod
    async def get(cls) -> Browser:
        if cls.browser is None or not cls.browser.is_connected():
            await cls.close()
            cls.playwright = await async_playwright().start()
            cls.browser = await cls.playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        return cls.browser

    @classmethod
    async def close(cls) -> None:
        browser, playwright, cls.browser, cls.playwright = cls.browser, cls.playwright, None, None
        if browser is not None:
            await browser.close()
        if playwright is not None:
            await playwright.stop()


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """The browser; every page opened in the block (each in a context of its own) is closed at its end."""
    browser = await _Shared.get()
    before = set(browser.contexts)
    try:
        yield browser
    finally:
        for context in browser.contexts:
            if context not in before:
                await context.close()


async def close_chromium() -> None:
    await _Shared.close()


async def open_page(browser: Browser, url: str, user_id: int, name: str, *, dark: bool = False,
                    language: str = "en", width: int = 390, height: int = 800, start_param: str | None = None,
                    telegram: bool = True, photos: str | None = None, reduced_motion: bool = False) -> Page:
    """The Mini App at ``url`` as Telegram opens it for this user; the frames its socket receives are kept in
    the page's ``frames`` list (see ``frames``). ``telegram`` False: opened in a plain browser, outside Telegram.
    ``photos``: an SVG Telegram's servers answer for every profile photo (t.me). The motions the page plays
    (``data-motion`` of each ghost: deal, sweep, ring) are counted in ``window.motions``."""
    context = await browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=2,
                                        color_scheme="dark" if dark else "light",
                                        reduced_motion="reduce" if reduced_motion else "no-preference")
    page = await context.new_page()

    async def no_network(route: Route) -> None:  # telegram-web-app.js: the stand-in takes its place
        await route.fulfill(status=200, content_type="application/javascript", body="")

    await page.route("https://telegram.org/**", no_network)
    if photos is not None:
        body = photos

        async def photo(route: Route) -> None:
            await route.fulfill(status=200, content_type="image/svg+xml", body=body)

        await page.route("https://t.me/**", photo)
    signed = init_data(user_id, name, start_param=start_param, language=language)
    if telegram:
        await page.add_init_script(STAND_IN % {"init_data": json.dumps(signed), "height": height,
                                               "theme": json.dumps(DARK if dark else LIGHT),
                                               "scheme": json.dumps("dark" if dark else "light")})
    await page.add_init_script(MOTIONS)
    received: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(str(payload))))
    page.received = received  # type: ignore[attr-defined]
    await page.goto(url)
    return page


MOTIONS = """window.motions = {};
new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes) {
  if (n.dataset && n.dataset.motion) window.motions[n.dataset.motion] = (window.motions[n.dataset.motion] || 0) + 1;
} }).observe(document, {childList: true, subtree: true});"""


def frames(page: Page) -> list[dict[str, Any]]:
    return [json.loads(raw) for raw in page.received]  # type: ignore[attr-defined]


async def dom(page: Page) -> dict[str, Any]:
    """What the page shows now: the hand's cards (and which are playable), the table, the seats, the buttons."""
    result: dict[str, Any] = await page.evaluate("""() => ({
      hand: [...document.querySelectorAll('#hand .card')].map(c => [c.dataset.card, c.className]),
      table: [...document.querySelectorAll('#table .pair')]
        .map(p => [...p.querySelectorAll('.card')].map(c => c.dataset.card)),
      seats: [...document.querySelectorAll('#seats .seat')]
        .map(s => [s.querySelector('.name').textContent, s.querySelector('.count').textContent]),
      buttons: [...document.querySelectorAll('#buttons button')].map(b => [b.textContent, b.dataset.press]),
      prompt: document.querySelector('#prompt').textContent,
      result: document.querySelector('#result').textContent,
      cards: [...document.querySelectorAll('[data-card]')].map(c => c.dataset.card),
    })""")
    return result
