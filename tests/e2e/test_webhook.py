"""Webhook mode: ``python -m bot`` answers Telegram's posts only once an update is handled, so an update cut
short by a kill -9 is posted again to the next start, and applied once."""

from __future__ import annotations

import asyncio
import gzip
import json
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.transport.webhook import BODY_SECONDS, SECRET_HEADER
from durak import State
from tests.e2e.conftest import GROUP
from tests.e2e.harness import Table
from tests.e2e.test_crash import SECRET, BotProgram, kill_on
from tests.e2e.webapp_client import free_port
from tests.fake_telegram import FakeTelegram, Message


@pytest.fixture
async def hooked(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProgram]:
    bot = BotProgram(fake, tmp_path, webhook_port=free_port())
    await bot.start()
    await fake.wait_for(lambda: fake.webhook is not None, 20)
    yield bot
    await bot.stop()


def moves(bot: BotProgram) -> int:
    rows = bot.place.sql("SELECT state FROM games WHERE state IS NOT NULL")
    return sum(State.from_json(json.loads(state)).moves for (state,) in rows)


async def started(fake: FakeTelegram, bot: BotProgram) -> Table:
    """A game whose messages Telegram shows and the bot has recorded (a kill before that posts them anew)."""
    table = Table(fake, GROUP, [101, 102], seed=5)
    await table.seat_everyone()
    await table.start(101)
    await fake.wait_for(lambda: all(table.hand_message(p) is not None for p in table.players), 20)
    await fake.wait_for(lambda: bot.place.sql(
        "SELECT COUNT(*) FROM outbox WHERE slot LIKE 'hand:%' AND message_id IS NOT NULL") == [(2,)], 20)
    return table


async def lead(table: Table) -> tuple[int, Message, str]:
    """The attacker, his hand, and the button that leads one of its cards."""
    for player in table.players:
        hand = table.hand_message(player)
        if hand is not None and "Your lead" in hand.text:
            return player, hand, await table.one_card_lead(player, hand)
    raise AssertionError("nobody leads")


async def test_a_whole_game_over_the_webhook(fake: FakeTelegram, hooked: BotProgram) -> None:
    assert fake.webhook is not None and fake.webhook["url"].endswith("/hook") and fake.webhook["secret"] == SECRET
    table = await started(fake, hooked)
    result = await table.play_to_the_end()
    assert result is not None
    assert fake.deliveries and all(status == 200 for _, status in fake.deliveries)
    assert moves(hooked) > 10


async def test_a_post_without_the_secret_is_refused_and_changes_nothing(fake: FakeTelegram,
                                                                      hooked: BotProgram) -> None:
    assert fake.webhook is not None
    update = {"update_id": 999, "message": {"message_id": 1, "date": 0, "text": "/newgame",
                                            "entities": [{"type": "bot_command", "offset": 0, "length": 8}],
                                            "chat": {"id": GROUP, "type": "group", "title": "Friends"},
                                            "from": {"id": 101, "is_bot": False, "first_name": "Anna"}}}
    async with aiohttp.ClientSession() as session:
        for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "guess"}):
            async with session.post(fake.webhook["url"], json=update, headers=headers) as response:
                assert response.status == 403
    await hooked.stop_when_idle()
    assert fake.chat_messages(GROUP) == [] and hooked.place.sql("SELECT COUNT(*) FROM games") == [(0,)]
    assert hooked.place.sql("SELECT COUNT(*) FROM updates") == [(0,)], "not even kept for later"


async def test_a_press_cut_short_by_a_kill_before_its_write_is_posted_again_and_applied(
        fake: FakeTelegram, hooked: BotProgram) -> None:
    table = await started(fake, hooked)
    player, hand, button = await lead(table)
    with hooked.place.writes_held():  # the move's write waits for the database: the kill comes before it
        await fake.press(player, player, hand.message_id, button)
        await fake.wait_for(lambda: bool(fake.posting))  # posted: Telegram waits for the bot's answer
        hooked.kill()
        await hooked.dead()
    assert moves(hooked) == 0, "nothing was written before the kill"
    assert [status for _, status in fake.deliveries][-1] != 200, "Telegram was never told it was handled"
    await hooked.start()
    await fake.wait_for(lambda: moves(hooked) == 1, 20)
    await fake.wait_for(lambda: fake.deliveries[-1][1] == 200, 20)
    await hooked.stop_when_idle()
    assert moves(hooked) == 1, "applied once"
    if hooked.place.engine == "postgresql":
        assert hooked.place.sql("SELECT done FROM updates ORDER BY update_id DESC LIMIT 1") == [(1,)], "and marked"
    await hooked.start()
    await table.play_to_the_end()


async def test_a_press_killed_after_its_write_is_posted_again_and_not_applied_twice(
        fake: FakeTelegram, hooked: BotProgram) -> None:
    table = await started(fake, hooked)
    player, hand, button = await lead(table)
    kill_on(fake, hooked, "answerCallbackQuery", lambda p: True)  # the move is written, its answer never sent
    await fake.press(player, player, hand.message_id, button)
    await hooked.dead()
    assert moves(hooked) == 1
    if hooked.place.engine == "postgresql":  # marked handled by the move's own write: posted again, it is known
        assert hooked.place.sql("SELECT done FROM updates ORDER BY update_id DESC LIMIT 1") == [(1,)]
    await hooked.start()
    await fake.wait_for(lambda: fake.deliveries[-1][1] == 200, 20)
    await hooked.stop_when_idle()
    assert moves(hooked) == 1, "the second delivery was decided on the game as it is: not applied again"
    await hooked.start()
    await table.play_to_the_end()


async def test_a_stop_signal_ends_webhook_mode_cleanly_with_nothing_owed_left(fake: FakeTelegram,
                                                                               hooked: BotProgram) -> None:
    table = await started(fake, hooked)
    assert hooked.proc is not None
    hooked.proc.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(hooked.proc.wait(), 30) == 0
    assert hooked.place.sql("SELECT COUNT(*) FROM outbox WHERE delivered < wanted") == [(0,)], "all delivered"
    await hooked.start()  # and the next start goes on with the game
    await fake.wait_for(lambda: fake.webhook is not None, 20)
    await table.play_to_the_end()


async def test_a_command_where_the_bot_may_not_write_is_answered_once_with_one_line(fake: FakeTelegram,
                                                                                     hooked: BotProgram) -> None:
    """The group's admins took the bot's right to write: its answer to /help is refused, and would be refused
    however often Telegram posted the command again. Telegram is told it was handled (no repost for ever), and
    the log says so in one line, not with a traceback."""
    said = len(hooked.logged())
    fake.mute(GROUP)
    await fake.send_text(101, GROUP, "/help")
    await fake.wait_for(lambda: bool(fake.deliveries), 20)
    await hooked.stop_when_idle()
    assert [status for _, status in fake.deliveries] == [200], fake.deliveries
    logged = hooked.logged()[said:]
    assert "Traceback" not in logged and " ERROR " not in logged, logged
    assert "Telegram refused the answer (Not enough rights to send text messages" in logged, logged


MALFORMED = [
    b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
    b"POST /hook HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 10_000 + b"\r\n\r\n",
    b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\n\r\n",
]


async def test_malformed_http_is_refused_with_one_line_each(fake: FakeTelegram, hooked: BotProgram) -> None:
    """Requests aiohttp cannot even parse (no secret needed to send them) get 400 and one line each in the log,
    not a traceback."""
    assert fake.webhook is not None
    port = int(fake.webhook["url"].split(":")[2].split("/")[0])
    said = len(hooked.logged())
    for raw in MALFORMED:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(raw)
        await writer.drain()
        assert (await reader.read(64)).startswith(b"HTTP/1.0 400"), raw[:40]
        writer.close()
    await hooked.stop_when_idle()
    logged = hooked.logged()[said:]
    assert "Traceback" not in logged and " ERROR " not in logged, logged
    assert logged.count("a malformed HTTP request was refused (400") == len(MALFORMED), logged


def rss_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))


async def test_a_compressed_post_is_refused_unread(fake: FakeTelegram, hooked: BotProgram) -> None:
    """A gzip bomb (100 MB of zeros in 100 kB) posted with the secret: refused, never inflated in memory."""
    assert fake.webhook is not None and hooked.proc is not None
    bomb = gzip.compress(b"\0" * 100_000_000, compresslevel=9)
    headers = {SECRET_HEADER: SECRET, "Content-Encoding": "gzip", "Content-Type": "application/json"}
    before = rss_kb(hooked.proc.pid)
    async with aiohttp.ClientSession() as session:
        for _ in range(5):
            async with session.post(fake.webhook["url"], data=bomb, headers=headers) as response:
                assert response.status == 415
    grown = rss_kb(hooked.proc.pid) - before
    await hooked.stop_when_idle()
    assert grown < 5_000, f"the bot grew by {grown} kB"
    assert "a webhook post with a compressed body was refused unread" in hooked.logged()


async def test_a_post_sent_by_half_holds_no_stop(fake: FakeTelegram, hooked: BotProgram) -> None:
    """A post whose body never arrives whole is dropped after a few seconds: a stop meanwhile ends cleanly in
    about that time, not aiohttp's minute."""
    assert fake.webhook is not None and hooked.proc is not None
    port = int(fake.webhook["url"].split(":")[2].split("/")[0])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"POST /hook HTTP/1.1\r\nHost: x\r\n{SECRET_HEADER}: {SECRET}\r\nContent-Length: 1000\r\n"
                 f"Content-Type: application/json\r\n\r\n{{\"update_id\": ".encode())
    await writer.drain()
    answer = asyncio.ensure_future(reader.read(64))
    hooked.proc.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(hooked.proc.wait(), BODY_SECONDS + 10) == 0, "stopped cleanly"
    assert (await answer).startswith(b"HTTP/1.1 408"), "its poster was told"
    writer.close()
