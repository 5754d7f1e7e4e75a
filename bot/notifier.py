"""Keeps the bot's messages up to date without flooding Telegram.

For each message only the latest wanted content is kept; a worker per chat sends it when
python-telegram-bot's ``AIORateLimiter`` lets it (groups: about 20 edits a minute). While an
edit waits for its turn, newer content replaces it, so the table never lags far behind and
never floods the group. Unchanged content is never re-sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import Bot, InlineKeyboardMarkup
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Content:
    text: str
    markup: InlineKeyboardMarkup | None

    def key(self) -> tuple[str, object]:
        return self.text, None if self.markup is None else self.markup.to_dict()


def _seconds(value: object) -> float:
    total = getattr(value, "total_seconds", None)
    return float(total()) if callable(total) else float(value)  # type: ignore[arg-type]


OnForbidden = Callable[[int], Awaitable[None]]
OnMigrated = Callable[[int, int], Awaitable[None]]


class Notifier:
    def __init__(self, bot: Bot, on_forbidden: OnForbidden | None = None,
                 on_migrated: OnMigrated | None = None) -> None:
        self.bot = bot
        self.on_forbidden = on_forbidden
        self.on_migrated = on_migrated
        self._pending: dict[int, dict[int, Content]] = {}   # chat -> message -> latest wanted
        self._sent: dict[tuple[int, int], tuple[str, object]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}

    def remember(self, chat_id: int, message_id: int, content: Content) -> None:
        """Note what a freshly sent message shows, so the same content is not sent again."""
        self._sent[(chat_id, message_id)] = content.key()

    def want(self, chat_id: int, message_id: int, content: Content) -> None:
        """Make the message show ``content`` soon; replaces anything not yet sent."""
        if self._sent.get((chat_id, message_id)) == content.key():
            self._pending.get(chat_id, {}).pop(message_id, None)
            return
        self._pending.setdefault(chat_id, {})[message_id] = content
        worker = self._workers.get(chat_id)
        if worker is None or worker.done():
            self._workers[chat_id] = asyncio.create_task(self._work(chat_id), name=f"notify-{chat_id}")

    async def flush(self) -> None:
        """Wait until everything wanted so far has been sent (or given up)."""
        while any(not w.done() for w in self._workers.values()):
            await asyncio.gather(*[w for w in self._workers.values() if not w.done()], return_exceptions=True)

    async def close(self) -> None:
        for worker in self._workers.values():
            worker.cancel()
        await asyncio.gather(*self._workers.values(), return_exceptions=True)

    async def _work(self, chat_id: int) -> None:
        pending = self._pending.setdefault(chat_id, {})
        while pending:
            message_id = next(iter(pending))
            content = pending.pop(message_id)
            if self._sent.get((chat_id, message_id)) == content.key():
                continue
            try:
                await self._edit(chat_id, message_id, content)
            except Exception:
                log.exception("updating message %s in chat %s failed", message_id, chat_id)

    async def _edit(self, chat_id: int, message_id: int, content: Content) -> None:
        try:
            await self.bot.edit_message_text(content.text, chat_id=chat_id, message_id=message_id,
                                             reply_markup=content.markup)
        except BadRequest as e:
            if "not modified" not in str(e).lower():
                log.warning("edit of message %s in chat %s failed: %s", message_id, chat_id, e)
                return
        except Forbidden as e:
            log.info("chat %s blocked the bot: %s", chat_id, e)
            if self.on_forbidden is not None:
                await self.on_forbidden(chat_id)
            return
        except RetryAfter as e:
            # the limiter's own retries ran out: wait, then send the newest content there is
            log.warning("chat %s is over its budget; waiting %s", chat_id, e.retry_after)
            await asyncio.sleep(_seconds(e.retry_after))
            self._pending.setdefault(chat_id, {}).setdefault(message_id, content)
            return
        except ChatMigrated as e:
            log.info("chat %s became supergroup %s", chat_id, e.new_chat_id)
            if self.on_migrated is not None:
                await self.on_migrated(chat_id, e.new_chat_id)
            return
        except TelegramError as e:
            log.warning("edit of message %s in chat %s failed: %s", message_id, chat_id, e)
            return
        self._sent[(chat_id, message_id)] = content.key()
