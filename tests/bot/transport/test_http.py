"""The Bot API requests: sent as JSON, and the getUpdates answers as the bot reads them (a pressed message's
text and keyboard left out, nothing else)."""

from __future__ import annotations

import asyncio
import json

import pytest
from telegram import Bot, Update
from telegram.error import NetworkError, TelegramError

from bot.transport.http import AiohttpRequest, UpdatesRequest, api_call
from tests.fake_telegram import TOKEN, FakeTelegram

KEYBOARD = {"inline_keyboard": [[{"text": "7♠️", "callback_data": "v1:c:12:0:7S"}] * 6] * 5}


def press(update_id: int) -> dict[str, object]:
    return {"update_id": update_id, "callback_query": {
        "id": "q1", "from": {"id": 101, "is_bot": False, "first_name": "Anna"}, "chat_instance": "ci",
        "data": "v1:c:12:0:7S", "message": {
            "message_id": 3, "date": 1, "chat": {"id": 101, "type": "private", "first_name": "Anna"},
            "from": {"id": 1, "is_bot": True, "first_name": "Durak"}, "message_thread_id": 4,
            "is_topic_message": True, "text": "🃏 Durak", "entities": [{"type": "bold", "offset": 0, "length": 2}],
            "reply_markup": KEYBOARD}}}


def test_a_press_is_read_with_where_it_was_pressed_but_not_the_message() -> None:
    command = {"update_id": 2, "message": {"message_id": 9, "date": 1, "text": "/newgame",
                                           "chat": {"id": -100, "type": "group", "title": "G"}}}
    answer = UpdatesRequest().parse_json_payload(json.dumps({"ok": True, "result": [press(1), command]}).encode())
    first, second = (Update.de_json(u, Bot("1:A")) for u in answer["result"])
    assert first.callback_query is not None and first.callback_query.data == "v1:c:12:0:7S"
    message = first.callback_query.message
    assert message is not None and (message.chat.id, message.message_id) == (101, 3)
    assert message.is_topic_message and message.message_thread_id == 4 and message.date.year == 1970
    assert set(answer["result"][0]["callback_query"]["message"]) == {
        "message_id", "date", "chat", "message_thread_id", "is_topic_message"}
    assert second.message is not None and second.message.text == "/newgame", "other updates untouched"


def test_answers_that_are_not_a_list_of_updates_pass_as_they_are() -> None:
    for body in ({"ok": False, "error_code": 409, "description": "Conflict"}, {"ok": True, "result": True},
                 {"ok": True, "result": [1, {"callback_query": None}]}):
        assert UpdatesRequest().parse_json_payload(json.dumps(body).encode()) == body


def test_an_answer_orjson_refuses_is_read_as_ptb_reads_it() -> None:
    """Bad UTF-8 is replaced, as PTB does; what is no JSON at all (a proxy's error page) is PTB's error."""
    request = AiohttpRequest()
    assert request.parse_json_payload(b'{"ok":true,"result":"\xff"}') == {"ok": True, "result": "\ufffd"}
    assert request.parse_json_payload('{"ok":true,"result":"Дурак"}'.encode()) == {"ok": True, "result": "Дурак"}
    with pytest.raises(TelegramError, match="Invalid server response"):
        request.parse_json_payload(b"<html>502 Bad Gateway</html>")


async def test_a_message_is_sent_as_json_and_arrives_as_written() -> None:
    """Requests carry JSON (url-encoding quoted every byte of a Russian message in Python): the text, its
    emoji and the keyboard arrive as written, numbers as numbers."""
    fake = FakeTelegram()
    fake.add_user(101, "Анна").started = True
    await fake.start()
    bot = Bot(TOKEN, base_url=f"{fake.url}/bot", request=AiohttpRequest())
    try:
        await bot.initialize()
        text = "🃏 Дурак · ход Анны: побить 7♠️ «тузом»"
        sent = await api_call(bot, "sendMessage", {"chat_id": 101, "text": text,
                                               "reply_markup": json.dumps(KEYBOARD, ensure_ascii=False)})
        message = fake.messages[(101, sent["message_id"])]
        assert message.text == text and message.markup == KEYBOARD
        await api_call(bot, "editMessageText", {"chat_id": 101, "message_id": sent["message_id"], "text": "Ход: Борис"})
        assert message.text == "Ход: Борис"
        method, params = fake.calls[-1]
        assert method == "editMessageText" and params["message_id"] == sent["message_id"]
        assert set(fake.content_types) == {"application/json"}
    finally:
        await bot.shutdown()
        await fake.stop()


async def test_a_call_the_fence_stops_is_never_sent_and_fails_as_a_network_error() -> None:
    """Several processes on PostgreSQL: a process not sure it leads sends nothing (two leaders at once
    sent older content after newer). The fence is asked after the pool's wait, just before the request goes."""
    fake = FakeTelegram()
    fake.add_user(101, "Anna").started = True
    await fake.start()
    request = AiohttpRequest()
    bot = Bot(TOKEN, base_url=f"{fake.url}/bot", request=request)
    sure = [True]

    async def fence() -> None:
        if not sure[0]:
            raise ConnectionError("the connection to the database was lost")

    try:
        await bot.initialize()
        request.fence = fence
        await api_call(bot, "sendMessage", {"chat_id": 101, "text": "one"})
        sure[0] = False
        calls = len(fake.calls)
        for _ in range(70):  # more than the pool's 64 connections: each stopped call gives its own back
            with pytest.raises(NetworkError, match="not sure to lead"):
                await asyncio.wait_for(api_call(bot, "sendMessage", {"chat_id": 101, "text": "two"}), 5)
        assert len(fake.calls) == calls and [m.text for m in fake.chat_messages(101)] == ["one"]
        sure[0] = True  # the lead confirmed again: calls go on
        await asyncio.wait_for(api_call(bot, "sendMessage", {"chat_id": 101, "text": "three"}), 5)
        assert [m.text for m in fake.chat_messages(101)] == ["one", "three"]
    finally:
        await bot.shutdown()
        await fake.stop()
