"""Webhook mode: Telegram's updates over HTTPS, each answered only once it is handled.

python-telegram-bot's own webhook server answers 200 as soon as an update is in its queue in memory, so a
process that dies a moment later loses the press. Here the answer waits for the handlers: 200 once they are
done, 500 when one of them raised; without a 200 Telegram delivers the update again, to the next start or,
behind a load balancer, to another process. (A press whose write failed is no such case: its player is told to
try again, as with long polling.) A press delivered again after its move was written is decided on the game as
it is by then (the card is no longer in the hand, the turn has passed), so it is refused with its toast, never
applied twice. Requests without Telegram's secret header are refused (403).

On PostgreSQL any number of processes may serve the same webhook behind a load balancer, and they share the
games: each leads the partitions it holds (``bot.game.shares``). An update of a partition led here is handled at once
and answered once handled, as above, its decision's write marking the update handled (posted again to any
process, it is known; a press is answered again there, without a toast: the process that wrote its move may have
died before it answered). One of another partition, or any update while this process is still starting, is
stored (``storage.updates``) for that partition's lead, which PostgreSQL's NOTIFY wakes, and answered 200 once
stored.
A process stopped cleanly (SIGTERM) stops taking updates, finishes the ones it is handling, delivers what its
partitions owe and hands them over.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from aiohttp import web
from telegram import Update
from telegram.error import BadRequest, Forbidden
from telegram.ext import Application, ContextTypes

from bot.transport.inbox import Inbox, answer_again
from storage.updates import Updates

log = logging.getLogger(__name__)


SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
BODY_SECONDS = 5.0  # the longest a post's body may take to arrive: one sent by half holds no stop for a minute


class Unreadable(Exception):
    """A posted body that is no update Telegram sends: why."""


WHOLE = frozenset({"update_id", "message_id", "date", "edit_date", "message_thread_id", "until_date",
                   "migrate_to_chat_id", "migrate_from_chat_id"})  # whole numbers where Telegram sends them
TEXT = frozenset({"data", "text", "caption", "first_name", "last_name", "username", "title", "language_code", "type",
                  "chat_instance", "status"})  # strings where the bot reads them
INT64 = 1 << 63


def read_update(body: bytes, bot: Any) -> Update:
    """The update a posted body holds, or :class:`Unreadable`. orjson refuses JSON nested past 1,024 levels and lone
    surrogates (the standard parser overflowed the stack on 10,000 levels); every id and date must be a whole
    number of at most 64 bits (SQLite's and Telegram's), every text the bot reads a string."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as e:
        raise Unreadable(f"no JSON: {e}") from None
    if not isinstance(data, dict) or "update_id" not in data:
        raise Unreadable("no update_id")
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        key, value = stack.pop()
        if key in WHOLE or (key == "id" and not isinstance(value, str)):  # a callback query's id is a string
            if type(value) is not int or not -INT64 <= value < INT64:
                raise Unreadable(f"{key} is no 64-bit whole number")
        elif key in TEXT and not isinstance(value, str):
            raise Unreadable(f"{key} is no string")
        if isinstance(value, dict):
            stack.extend(value.items())
        elif isinstance(value, list):
            stack.extend((key, v) for v in value)
    try:
        update = Update.de_json(data, bot)
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError, OSError) as e:  # a date past year 9999
        raise Unreadable(repr(e)) from None
    if update is None:
        raise Unreadable("empty")
    return update


def refused_for_good(error: object) -> bool:
    """A refusal Telegram repeats however often the update is handled again (no right to write in the chat, the
    bot blocked or kicked, a message gone): its update is answered as handled, or Telegram would post it for ever.
    A network error, a flood wait or our own failure is worth Telegram's next post."""
    return isinstance(error, (BadRequest, Forbidden))


class Webhook:
    """The HTTP endpoint Telegram posts updates to (the path of ``WEBHOOK_URL``)."""

    def __init__(self, app: Application, secret: str, path: str,  # type: ignore[type-arg]
                 updates: Updates | None = None, route: Callable[[Update], Awaitable[int]] | None = None) -> None:
        """``updates``: store each update there and answer (several processes); else handle it, then answer.
        ``route``: the partition of an update (games in partitions): handled here if this process leads it."""
        self.app = app
        self.secret = secret.encode()
        self.path = path or "/"
        self.updates = updates
        self.inbox: Inbox | None = None  # once this process leads: it handles what it stored at once
        self.route = route
        self.led: Callable[[], frozenset[int]] = frozenset  # the partitions this process leads now
        self.failed: set[int] = set()  # updates being handled whose handling raised
        app.add_error_handler(self._failed)

    async def _failed(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        if isinstance(update, Update) and not refused_for_good(context.error):
            self.failed.add(update.update_id)

    def application(self) -> web.Application:
        web_app = web.Application(client_max_size=1 << 20)
        web_app.router.add_post(self.path, self._update)
        return web_app

    async def _update(self, request: web.Request) -> web.Response:
        if not hmac.compare_digest(request.headers.get(SECRET_HEADER, "").encode(), self.secret):
            log.warning("a webhook request without the right secret was refused")
            return web.Response(status=403)
        if request.headers.get("Content-Encoding", "identity").lower() != "identity":
            log.warning("a webhook post with a compressed body was refused unread")
            return web.Response(status=415)
        try:
            async with asyncio.timeout(BODY_SECONDS):
                body = await request.read()
        except TimeoutError:
            log.warning("a webhook post whose body did not arrive within %.0f s was dropped", BODY_SECONDS)
            return web.Response(status=408)
        try:
            update = read_update(body, self.app.bot)
        except Unreadable as why:  # posted again it would be refused again: Telegram is told it was handled
            log.warning("a webhook post that is no update Telegram sends was dropped (%s)", why)
            return web.Response(status=200)
        if self.route is not None:
            part = await self.route(update)
            if self.inbox is None or part not in self.led():  # another process leads its game: kept for it
                return await self._store(update, body.decode(), part)
        elif self.updates is not None and self.inbox is None:  # standing by: kept for the leader
            return await self._store(update, body.decode())
        if self.inbox is not None:
            await self.inbox.handle_here(update)
        else:
            await self.app.process_update(update)
        if update.update_id in self.failed:
            self.failed.discard(update.update_id)
            if self.inbox is not None:
                self.inbox.failed(update.update_id)
            return web.Response(status=500)  # Telegram delivers it again
        return web.Response(status=200)

    async def _store(self, update: Update, body: str, part: int | None = None) -> web.Response:
        assert self.updates is not None
        try:
            if (not await self.updates.store(update.update_id, body, part=part) and update.callback_query
                    and await self.updates.was_handled(update.update_id)):  # else stored, not handled yet
                await answer_again(update)
        except Exception:
            log.exception("update %s could not be stored; Telegram posts it again", update.update_id)
            return web.Response(status=500)
        return web.Response(status=200)
