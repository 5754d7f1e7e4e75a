"""python-telegram-bot's requests sent with aiohttp instead of httpx.

PTB's default HTTPXRequest costs most of the bot's CPU under load: with many requests in
flight httpcore's connection pool rescans every queued request each time one finishes, and each
request goes through several layers of its own. aiohttp's client does the same job (a pool of
keep-alive connections, timeouts) at a fraction of the cost (docs/performance.md, "Under load"). PTB supports
this swap through its ``BaseRequest`` interface; errors map to PTB's own ``TimedOut`` and
``NetworkError``, so retries and the outbox behave exactly as with httpx.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import orjson
from telegram import Bot
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

# PTB's defaults (HTTPXRequest), in seconds
CONNECT, READ, POOL = 5.0, 5.0, 30.0
JSON = {"Content-Type": "application/json"}


async def api_call(bot: Bot, method: str, data: dict[str, Any]) -> Any:
    """One Bot API call with its parameters as JSON is written and its answer left as JSON, through PTB's request
    path all the same (the rate limiter, the errors mapped). PTB's public ``do_api_request`` warns at every call
    of a method it knows, so this calls ``Bot._post``, its entry of every method: the one use of it, and
    tests/bot/transport/test_http.py fails here first should a release of PTB (pinned below 23) change it."""
    return await bot._post(method, data)


def _seconds(value: object, default: float | None) -> float | None:
    return default if isinstance(value, type(BaseRequest.DEFAULT_NONE)) else value  # type: ignore[return-value]


def let_go_all() -> None:
    """At exit after a failed start: every request's session goes quietly (see ``AiohttpRequest.let_go``).
    Left to the garbage collector, the session itself may be collected first, and warn."""
    for request in list(LIVE):
        request.let_go()


LIVE: weakref.WeakSet[AiohttpRequest] = weakref.WeakSet()


class NotLeading(aiohttp.ClientError):
    """The call was not made: this process cannot be sure it leads (``fence``)."""


class AiohttpRequest(BaseRequest):
    """Bot API requests over one aiohttp session with up to ``pool`` connections.

    ``fence``, when set, is awaited once a request has its connection, just before it is written, and stops it
    by raising: several processes on PostgreSQL call Telegram only while sure they lead
    (``bot.game.shares.Shares.confirm``); a call it stops fails as a network error would."""

    def __init__(self, pool: int = 64, *, read_timeout: float | None = READ) -> None:
        self._pool = pool
        self._read = read_timeout
        self._session: aiohttp.ClientSession | None = None
        self.fence: Callable[[], Awaitable[None]] | None = None
        LIVE.add(self)

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool, ttl_dns_cache=300)
            fenced = aiohttp.TraceConfig()  # after the pool's wait, before a byte is sent
            fenced.on_connection_reuseconn.append(self._fenced)
            fenced.on_connection_create_end.append(self._fenced)
            self._session = aiohttp.ClientSession(connector=connector, headers={"User-Agent": self.USER_AGENT},
                                                  trace_configs=[fenced])

    async def _fenced(self, session: aiohttp.ClientSession, context: object, params: object) -> None:
        if self.fence is None:
            return
        try:
            await self.fence()
        except Exception as e:  # the connection to the database lost: no call until it is back and still leads
            raise NotLeading(f"not sure to lead: {e}") from e

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    def let_go(self) -> None:
        """Drop the session without a loop to close it on: PTB shuts requests down only after a successful
        start, and after a failed one (no network) aiohttp would print "Unclosed client session" at exit."""
        if self._session is not None and not self._session.closed:
            connector = self._session.connector
            self._session.detach()
            if connector is not None and not connector.closed:  # its keep-alive connections, or "Unclosed connector"
                with contextlib.suppress(Exception):  # the loop may be gone: the transports close with the process
                    connector._close()

    __del__ = let_go

    def parse_json_payload(self, payload: bytes) -> dict[str, Any]:  # type: ignore[override]
        """Telegram's answer read by orjson (an edit's answer is the whole message, keyboard and all, and json's
        reading of it showed in the bot's profile under load); what orjson refuses (bad UTF-8, no JSON) goes to
        PTB's own reading, which replaces bad bytes and raises PTB's error for what is no JSON."""
        try:
            data = orjson.loads(payload)
        except orjson.JSONDecodeError:
            return BaseRequest.parse_json_payload(payload)
        if not isinstance(data, dict):
            return BaseRequest.parse_json_payload(payload)
        return data

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         read_timeout: object = BaseRequest.DEFAULT_NONE,
                         write_timeout: object = BaseRequest.DEFAULT_NONE,
                         connect_timeout: object = BaseRequest.DEFAULT_NONE,
                         pool_timeout: object = BaseRequest.DEFAULT_NONE) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        connect = _seconds(connect_timeout, CONNECT)
        pool = _seconds(pool_timeout, POOL)
        # aiohttp has no write timeout of its own: the whole request is bounded by read + write instead
        read, write = _seconds(read_timeout, self._read), _seconds(write_timeout, READ)
        timeout = aiohttp.ClientTimeout(
            total=None if read is None or write is None else read + write + (connect or 0) + (pool or 0),
            connect=None if pool is None or connect is None else pool + connect,  # waiting for a pooled connection
            sock_connect=connect, sock_read=read)
        data: aiohttp.FormData | bytes | None = None
        headers = None
        if request_data is not None:
            if request_data.contains_files:
                form = aiohttp.FormData()
                for name, value in request_data.json_parameters.items():
                    form.add_field(name, value)
                for name, (filename, content, mime) in request_data.multipart_data.items():
                    form.add_field(name, content, filename=filename, content_type=mime)
                data = form
            else:  # JSON, encoded in C: url-encoding a message quoted it byte by byte in Python (Cyrillic and
                # emoji are all quoted), the largest part of a call's cost (docs/performance.md, "Under load")
                data = orjson.dumps(request_data.parameters, option=orjson.OPT_NON_STR_KEYS)
                headers = JSON
        try:
            async with self._session.request(method, url, data=data, headers=headers, timeout=timeout) as response:
                return response.status, await response.read()
        except TimeoutError as e:
            raise TimedOut from e
        except aiohttp.ClientError as e:
            raise NetworkError(f"aiohttp.{e.__class__.__name__}: {e}") from e


class UpdatesRequest(AiohttpRequest):
    """The ``getUpdates`` requests: each pressed button's update carries the whole message it was pressed
    on, text, entities, keyboard and all, and PTB would make an object of every part (most of the cost of
    reading a press: docs/performance.md, "Under load").
    The bot reads only where the message is (its chat, id and topic), so only that is left for PTB to parse.
    """

    KEPT = ("message_id", "chat", "date", "message_thread_id", "is_topic_message")  # date 0: inaccessible

    def parse_json_payload(self, payload: bytes) -> dict[str, Any]:  # type: ignore[override]
        data = super().parse_json_payload(payload)
        updates = data.get("result")
        if isinstance(updates, list):
            for update in updates:
                query = update.get("callback_query") if isinstance(update, dict) else None
                message = query.get("message") if isinstance(query, dict) else None
                if isinstance(query, dict) and isinstance(message, dict):
                    query["message"] = {key: message[key] for key in self.KEPT if key in message}
        return data
