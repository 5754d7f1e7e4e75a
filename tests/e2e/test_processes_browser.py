"""The Mini App in Chromium with several bot processes behind a proxy that sends the page to any of them
(deploy/Caddyfile's part, ``tests.forwarder.PageProxy``): the page follows the process that decides its game."""

from __future__ import annotations

import pytest

from tests.e2e.browser import chromium, open_page
from tests.e2e.conftest import GROUP
from tests.e2e.test_processes import Member, Patient, fleet, owner  # noqa: F401  (the fixture)
from tests.e2e.webapp_client import game_param, hand_link
from tests.fake_telegram import FakeTelegram, Message
from tests.forwarder import Forwarder, PageProxy
from tests.places import Place


@pytest.mark.sqlite_only
@pytest.mark.long(13)
async def test_a_page_sent_to_a_process_that_does_not_lead_its_game_plays_at_the_one_that_does(
        fake: FakeTelegram, fleet: tuple[Place, list[Member], Forwarder]) -> None:  # noqa: F811
    place, members, _ = fleet
    table = Patient(fake, GROUP, [101, 102], seed=5)
    await table.seat_everyone()
    await table.start(101)
    lead = next(m for m in members if m.name == owner(place, members, GROUP))
    other = next(m for m in members if m is not lead)
    player = next(p for p in table.players if "Your lead" in (table.hand_message(p) or Message(0, 0, "")).text)
    hand = table.hand_message(player)
    assert hand is not None
    proxy = PageProxy(other.webapp_port, {m.route: m.webapp_port for m in members})
    await proxy.start()
    try:
        async with chromium() as browser:
            url = f"http://127.0.0.1:{proxy.port}/app/?g={game_param(hand_link(hand))}"
            page = await open_page(browser, url, player, f"P{player}")
            await page.wait_for_selector("#hand .card.play")
            assert proxy.sockets == ["/app/ws", f"/app/ws/{lead.route}"], "sent on at once, to its game's process"
            await page.click("#hand .card.play >> nth=0")
            await fake.wait_for(lambda: place.sql("SELECT COUNT(*) FROM game_moves") == [(1,)], 10)
            await page.wait_for_function("window.durakState() && window.durakState().table.length === 1")
    finally:
        await proxy.stop()
