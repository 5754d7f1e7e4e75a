"""The sender of the persisted outbox: delivers every message the bot owes Telegram.

What a game owes (its table, each hand, the result, a vote, a notice) is written to the
``outbox`` table in the same transaction as the change that owes it, so a crash at any point
loses nothing: at start-up everything still owed is delivered. One worker per chat sends the
newest content of each owed row (older content that never left is skipped), edits where a
message exists and posts where none does (or where Telegram lost it), and records the new
message id. A ``ping:`` slot is always posted anew and its old message deleted: an edit notifies
nobody. Edits are idempotent, so a crash after an edit repeats nothing visible. A send is
recorded in the transaction right after Telegram's answer: only a kill between Telegram posting
it and that local write (its answer in flight) can post a message twice, since Telegram offers
no idempotency key.

A waiting player's hand is lazy: his chat's worker waits LAZY_SECONDS before sending, and an
urgent row (his turn, his own move) ends the wait. So the player who must act is served first,
and a quick run of moves (throw-ins, the computer's moves) edits a waiting hand once.

Only Forbidden means a chat is unreachable; network errors, timeouts and 5xx answers are retried
with backoff, and 429 waits as long as Telegram says.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from telegram import Bot
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from bot.budget import LATER, URGENT, Budget
from storage.models import OutboxRow
from storage.repo import Repo

log = logging.getLogger(__name__)

OnForbidden = Callable[[int], Awaitable[None]]
OnMigrated = Callable[[int, int], Awaitable[None]]
OnShown = Callable[[OutboxRow, int], None]
OnRefused = Callable[[OutboxRow, str], Awaitable[None]]
MAX_BACKOFF = 60.0
LAZY_SECONDS = 2.0  # how long a waiting player's hand may wait for more moves to fold into one edit


def _seconds(value: object) -> float:
    total = getattr(value, "total_seconds", None)
    return float(total()) if callable(total) else float(value)  # type: ignore[arg-type]


class Outbox:
    def __init__(self, repo: Repo, bot: Bot, *, on_forbidden: OnForbidden, on_migrated: OnMigrated,
                 on_shown: OnShown, on_refused: OnRefused | None = None, group_spacing: float = 0.0,
                 per_second: float = 1000.0) -> None:
        self.repo = repo
        self.budget = Budget(per_second)  # the overall budget, the most urgent chats first
        self._urgent: set[int] = set()    # private chats owed a row of a seat that must act or just moved
        self.group_spacing = group_spacing  # seconds between two calls to one group (its budget)
        self._last_call: dict[int, float] = {}  # group -> when its last call started (loop time)
        # a group not called since the start is assumed called at the start: the process before may have
        # spent its budget just before it stopped, and Telegram counts calls, not processes
        self._started = float("-inf")
        self.bot = bot
        self.on_forbidden = on_forbidden
        self.on_migrated = on_migrated
        self.on_shown = on_shown
        self.on_refused = on_refused  # a message never shown was refused for good (no rights, no topic, no group)
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()      # chats with rows owed since their worker last looked
        self._lazy: set[int] = set()       # chats owed only lazy rows: their worker waits LAZY_SECONDS first
        self._wake: dict[int, asyncio.Event] = {}  # ends a lazy wait when something urgent is owed
        self._flushing = 0                 # drains under way: nothing waits
        self._closed = False

    async def resume(self) -> None:
        """Deliver everything a previous run still owed."""
        self._started = asyncio.get_running_loop().time()
        for chat_id in {row.chat_id for row in await self.repo.owed()}:
            self.kick(chat_id)

    def kick(self, *chat_ids: int, lazy: Iterable[int] = ()) -> None:
        """Rows were written for these chats: make sure a worker delivers them. A chat in ``lazy`` was
        owed only lazy rows (a waiting player's hand): its worker waits a moment first, so that a quick
        run of moves costs one edit and the player who must act is served before it."""
        if self._closed:
            return
        may_wait = set(lazy)
        # urgent chats first: their workers start, and so ask for the budget, before the others
        for chat_id in sorted(chat_ids, key=lambda c: c in may_wait or c < 0):
            if chat_id > 0 and chat_id not in may_wait:
                self._urgent.add(chat_id)
            self._dirty.add(chat_id)
            if chat_id in may_wait and not self._flushing:
                self._lazy.add(chat_id)
            else:
                self._end_lazy_wait(chat_id)
            worker = self._workers.get(chat_id)
            if worker is None or worker.done():
                self._workers[chat_id] = asyncio.create_task(self._work(chat_id), name=f"outbox-{chat_id}")

    def hurry(self, *chat_ids: int) -> None:
        """Nothing new is owed to these chats, but their player must act now: a lazy wait for what was
        written earlier (his hand, while he was waiting) ends at once."""
        for chat_id in chat_ids:
            if chat_id in self._lazy and chat_id in self._workers:
                if chat_id > 0:
                    self._urgent.add(chat_id)
                self._end_lazy_wait(chat_id)

    def _end_lazy_wait(self, chat_id: int) -> None:
        self._lazy.discard(chat_id)
        wake = self._wake.get(chat_id)
        if wake is not None:
            wake.set()

    async def drain(self, timeout: float | None = None) -> bool:
        """Wait until nothing is owed (or ``timeout`` passes); True when everything was delivered."""
        async def idle() -> None:
            while self._workers:
                await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

        self._flushing += 1
        self._lazy.clear()
        for wake in self._wake.values():
            wake.set()
        try:
            await asyncio.wait_for(idle(), timeout)
        except TimeoutError:
            return False
        finally:
            self._flushing -= 1
        return True

    def owes(self, chat_id: int) -> bool:
        """Something for this chat is written but not delivered yet (its worker is at work)."""
        return chat_id in self._dirty or chat_id in self._workers

    async def settle(self, chat_id: int, timeout: float) -> None:
        """Wait (at most ``timeout``) until the chat's worker has delivered what it owes."""
        worker = self._workers.get(chat_id)
        if worker is not None:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(worker), timeout)

    async def close(self) -> None:
        self._closed = True
        for worker in self._workers.values():
            worker.cancel()
        await asyncio.gather(*self._workers.values(), return_exceptions=True)
        self._workers.clear()
        await self.budget.close()

    async def _work(self, chat_id: int) -> None:
        backoff = 1.0
        try:
            while True:
                if chat_id in self._lazy:
                    wake = self._wake.setdefault(chat_id, asyncio.Event())
                    wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), LAZY_SECONDS)
                    self._lazy.discard(chat_id)
                if chat_id < 0:
                    await self._wait_for_budget(chat_id)
                await self.budget.take(URGENT if chat_id in self._urgent else LATER)
                self._dirty.discard(chat_id)
                row, more = await self.repo.next_owed(chat_id)  # read just before sending: the newest content
                if row is None:
                    if chat_id in self._dirty:
                        continue
                    return
                wait = await self._deliver(row)
                if wait is None:
                    if not more and chat_id not in self._dirty:  # nothing else owed, nothing written since
                        return
                    backoff = 1.0
                elif wait > 0:
                    await asyncio.sleep(wait)
                else:
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, MAX_BACKOFF)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the outbox worker of chat %s failed; what it owes is delivered at the next start",
                          chat_id)
        finally:
            if self._workers.get(chat_id) is asyncio.current_task():
                del self._workers[chat_id]
                self._wake.pop(chat_id, None)
                self._urgent.discard(chat_id)

    async def _wait_for_budget(self, group: int) -> None:
        """A group's next call waits for its slot *before* the content is read, so that what Telegram gets
        is the newest table (moves made meanwhile fold into one edit), not a table already stale when the
        limiter let it through."""
        loop = asyncio.get_running_loop()
        wait = self._last_call.get(group, self._started) + self.group_spacing - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        now = loop.time()
        if len(self._last_call) > 1000:  # forget groups whose budget has long recovered
            self._last_call = {g: t for g, t in self._last_call.items() if t > now - self.group_spacing}
        self._last_call[group] = now

    async def _deliver(self, row: OutboxRow) -> float | None:
        """Deliver one row; None when done (or given up for good), else seconds to wait (0: back off)."""
        try:
            if row.deleted or row.text is None:
                if row.deleted and row.message_id is not None:
                    try:
                        await self._api("deleteMessage", chat_id=row.chat_id, message_id=row.message_id)
                    except BadRequest as e:
                        log.info("message %s in chat %s was already gone: %s", row.message_id, row.chat_id, e)
                await self.repo.delivered(row, row.message_id if not row.deleted else None)
                return None
            markup = row.markup or None
            if row.message_id is not None and not row.resend and not row.slot.startswith("ping:"):
                try:
                    await self._api("editMessageText", chat_id=row.chat_id, message_id=row.message_id,
                                    text=row.text, reply_markup=markup)
                except BadRequest as e:
                    problem = str(e).lower()
                    if "not modified" not in problem:
                        if "not found" not in problem and "can't be edited" not in problem:
                            log.warning("edit of message %s in chat %s refused, given up: %s", row.message_id,
                                        row.chat_id, e)
                            await self.repo.delivered(row, row.message_id)
                            return None
                        log.info("message %s in chat %s is gone: posting it again", row.message_id, row.chat_id)
                        await self._send(row, markup, old=None)
                        return None
                self.on_shown(row, row.message_id)
                await self.repo.delivered(row, row.message_id)
                return None
            await self._send(row, markup, old=row.message_id)
            return None
        except Forbidden as e:
            log.info("chat %s refuses the bot: %s", row.chat_id, e)
            if row.chat_id < 0:  # removed from a group: what it was owed can never be shown
                await self._refused(row, e)
                await self.repo.delivered(row, row.message_id)
            else:
                await self.repo.delivered(row, row.message_id)
                await self.on_forbidden(row.chat_id)
            return None
        except ChatMigrated as e:
            log.info("chat %s became supergroup %s", row.chat_id, e.new_chat_id)
            await self.on_migrated(row.chat_id, e.new_chat_id)
            return None
        except RetryAfter as e:
            log.warning("chat %s is over its budget; waiting %s s", row.chat_id, e.retry_after)
            return max(0.1, _seconds(e.retry_after))
        except BadRequest as e:
            log.warning("message for chat %s (slot %s) refused, given up: %s", row.chat_id, row.slot, e)
            await self._refused(row, e)
            await self.repo.delivered(row, row.message_id)
            return None
        except TelegramError as e:  # network errors, timeouts, 5xx: retried
            log.warning("sending to chat %s failed, retrying: %s", row.chat_id, e)
            return 0.0

    async def _refused(self, row: OutboxRow, error: TelegramError) -> None:
        """Before the row is marked given up: a crash in between leaves it owed, refused again at the start."""
        if row.message_id is None and self.on_refused is not None:
            await self.on_refused(row, error.message)

    async def _send(self, row: OutboxRow, markup: str | None, old: int | None) -> None:
        assert row.text is not None
        if old is not None and row.slot.startswith("ping:"):  # never two pings in a chat, even for a moment
            await self._delete_quietly(row.chat_id, old)
            old = None
        message = await self._api("sendMessage", chat_id=row.chat_id, text=row.text, reply_markup=markup,
                                  message_thread_id=row.thread_id or None)
        message_id = int(message["message_id"])
        self.on_shown(row, message_id)  # Telegram shows it from now, whenever the local record is written
        await self.repo.delivered(row, message_id)
        if old is not None:  # /hand: the old copy goes once the new one is there, so one hand has live buttons
            await self._delete_quietly(row.chat_id, old)

    async def _api(self, method: str, **params: object) -> Any:
        """One Bot API call through PTB's request path (rate limiter, errors), with the stored keyboard JSON
        sent as it is and the answer left as JSON: turning the keyboard into PTB objects and back and
        parsing every answer into a Message was a fifth of the bot's CPU under load (README, "Under load").
        ``Bot._post`` is PTB's own entry of every method (pinned below 23 in pyproject.toml)."""
        data = {key: value for key, value in params.items() if value is not None}
        return await self.bot._post(method, data)

    async def _delete_quietly(self, chat_id: int, message_id: int) -> None:
        try:
            await self._api("deleteMessage", chat_id=chat_id, message_id=message_id)
        except BadRequest as e:
            log.info("old message %s in chat %s not deleted: %s", message_id, chat_id, e)
