"""The webhook endpoint with a real Application: Telegram gets 200 only for an update that was handled."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from telegram import Update
from telegram.ext import Application, ApplicationBuilder, ContextTypes, MessageHandler, filters

from bot.transport.inbox import Inbox
from bot.transport.webhook import SECRET_HEADER, Webhook
from storage.database import open_database
from storage.updates import Updates
from tests.e2e.webapp_client import free_port
from tests.fake_telegram import TOKEN, FakeTelegram

SECRET = "s3cret_for-tests"
UPDATE = {"update_id": 7, "message": {"message_id": 1, "date": 0, "text": "hello",
                                      "chat": {"id": 101, "type": "private", "first_name": "Anna"},
                                      "from": {"id": 101, "is_bot": False, "first_name": "Anna"}}}


@pytest.fixture(params=["alone", "leading"])
async def endpoint(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[str, list[int]]]:
    """A webhook whose one handler fails the first time it sees a message: (its URL, the updates it handled).
    ``alone``: one process; ``leading``: the leader of several, which handles its posts through its inbox."""
    fake = FakeTelegram()
    await fake.start()
    app: Application = ApplicationBuilder().token(TOKEN).base_url(f"{fake.url}/bot").build()  # type: ignore[type-arg]
    handled: list[int] = []

    async def on_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        handled.append(update.update_id)
        if len(handled) == 1:
            raise RuntimeError("the database is away")

    app.add_handler(MessageHandler(filters.TEXT, on_message))
    await app.initialize()
    db = await open_database(str(tmp_path / "durak.sqlite3"))
    updates = Updates(db) if request.param == "leading" else None
    webhook = Webhook(app, SECRET, "/hook", updates)
    if updates is not None:
        webhook.inbox = Inbox(app, updates)
    runner = web.AppRunner(webhook.application())
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    yield f"http://127.0.0.1:{port}/hook", handled
    await runner.cleanup()
    await app.shutdown()
    await db.close()
    await fake.stop()


async def post(url: str, body: object, secret: str | None = SECRET) -> int:
    headers = {} if secret is None else {SECRET_HEADER: secret}
    async with aiohttp.ClientSession() as session, session.post(url, json=body, headers=headers) as response:
        return response.status


async def test_an_update_whose_handler_failed_is_answered_500_and_handled_when_posted_again(
        endpoint: tuple[str, list[int]]) -> None:
    url, handled = endpoint
    assert await post(url, UPDATE) == 500, "Telegram will post it again"
    assert await post(url, UPDATE) == 200
    assert handled == [7, 7], "handled again: an update is finished only when it was handled"


async def test_a_post_without_the_secret_or_with_no_update_changes_nothing(endpoint: tuple[str, list[int]]) -> None:
    url, handled = endpoint
    assert await post(url, UPDATE, secret=None) == 403
    assert await post(url, UPDATE, secret="s3cret_for-test") == 403
    assert handled == []


def _with(path: str, value: object) -> dict[str, object]:
    """UPDATE with the field at ``path`` (dots) set to ``value``."""
    update = json.loads(json.dumps(UPDATE))
    *parents, last = path.split(".")
    node = update
    for key in parents:
        node = node[key]
    node[last] = value
    return update  # type: ignore[no-any-return]


HOSTILE: list[tuple[str, bytes]] = [
    ("not an update", json.dumps(["not", "an", "update"]).encode()),
    ("no update_id", json.dumps({"no": "update_id"}).encode()),
    ("update_id a list", json.dumps(_with("update_id", [7])).encode()),
    ("a chat id of 10^30", json.dumps(_with("message.chat.id", 10**30)).encode()),
    ("a user id past 64 bits", json.dumps(_with("message.from.id", 2**63)).encode()),
    ("a date of 10^20", json.dumps(_with("message.date", 10**20)).encode()),
    ("a date past the year 9999", json.dumps(_with("message.date", 10**15)).encode()),
    ("text a number", json.dumps(_with("message.text", 5)).encode()),
    ("a lone surrogate", json.dumps(UPDATE).replace('"hello"', '"\\ud800"').encode()),
    ("nested 10,000 deep", json.dumps(_with("message.text", "x"))[:-1].encode() + b', "deep": ' + b"[" * 10_000
     + b"]" * 10_000 + b"}"),
    ("no JSON", b"{update_id: 7"),
]


@pytest.mark.parametrize(("what", "body"), HOSTILE, ids=[w for w, _ in HOSTILE])
async def test_a_post_with_the_secret_that_is_no_update_is_dropped_with_one_line(
        endpoint: tuple[str, list[int]], caplog: pytest.LogCaptureFixture, what: str, body: bytes) -> None:
    """Only Telegram knows the secret, but a post it could never send gets 200 (a repost would be refused again)
    and one warning line, never a traceback; nothing is handled."""
    url, handled = endpoint
    headers = {SECRET_HEADER: SECRET, "Content-Type": "application/json"}
    async with aiohttp.ClientSession() as session, session.post(url, data=body, headers=headers) as response:
        assert response.status == 200, what
    assert handled == []
    lines = [r for r in caplog.records if r.name.startswith("bot.")]
    assert [r.levelname for r in lines] == ["WARNING"] and "dropped" in lines[0].getMessage(), lines
    assert not any(r.exc_info for r in caplog.records), "no traceback"
    assert await post(url, UPDATE) == 500 and await post(url, UPDATE) == 200, "a real update still goes through"
