from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import BotProcess
from tests.fake_telegram import FakeTelegram

GROUP = -1001
NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"]


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    server = FakeTelegram()
    await server.start()
    for i, name in enumerate(NAMES):
        server.add_user(101 + i, name)
    server.add_group(GROUP, "Friends", admins=[101])
    yield server
    for process in list(BotProcess.running):  # a test that failed before stopping its bot: no hang at exit
        with contextlib.suppress(Exception):
            await asyncio.wait_for(process.stop(), 30)
    await server.stop()


@pytest.fixture
async def bot(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, tmp_path / "durak.sqlite3")
    await process.start()
    yield process
    await process.stop()


@pytest.fixture(scope="session", autouse=True)
async def _close_the_browser() -> AsyncIterator[None]:
    """The browser the browser tests share (tests/e2e/browser.py: launched by the first of them) ends with the run."""
    yield
    browser = sys.modules.get("tests.e2e.browser")
    if browser is not None:
        await browser.close_chromium()
