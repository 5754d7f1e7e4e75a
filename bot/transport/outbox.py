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
no idempotency key; a hand's first copy is deleted when its player presses it (:meth:`Outbox.retire`).

Every chat's calls are paced by Telegram's budgets, and what waits for its pace folds: a group's
table is called at most every ``group_spacing`` seconds, a private chat about once a second (a
short burst allowed for the player who must act; a waiting player's hand never twice within a
second), and the overall budget (``bot.transport.budget``) shares its slots among the chats by what each is
owed: the hand of a player who must act first, then the table, then waiting hands, and none of them
left showing an old position for long. Nothing waits for a fixed time: with slots to spare a move
reaches every message at once, and under pressure a message waits and folds more moves into its
next call.

Only Forbidden means a chat is unreachable; network errors, timeouts and 5xx answers are retried
with backoff, and 429 waits as long as Telegram says.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from telegram import Bot, InputFile
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from bot.transport.budget import ACTING, TABLE, WAITING, Budget, LoopTicker, Ticker
from bot.transport.http import api_call
from storage.models import OutboxRow
from storage.outbox_rows import OutboxRows
from storage.slots import Kind, is_ping

log = logging.getLogger(__name__)


class Listener(Protocol):
    """What the outbox tells the game of the chats it writes to (``bot.game.service.OutboxEvents``)."""

    def shown(self, row: OutboxRow, message_id: int) -> None:
        """Telegram shows the row's content from now."""

    async def blocked(self, chat_id: int) -> None:
        """The user blocked the bot (Forbidden)."""

    async def migrated(self, old: int, new: int) -> None:
        """The group became a supergroup with a new id."""

    async def refused(self, row: OutboxRow, why: str) -> None:
        """A message never shown was refused for good (no rights, no topic, no group)."""

    async def picture(self, row: OutboxRow) -> bytes | None:
        """A picture row's image, drawn now from what it names (None: nothing to draw any more)."""


class Unheard:
    """The listener until the game's is given (:meth:`Outbox.listen`): nothing is told."""

    def shown(self, row: OutboxRow, message_id: int) -> None:
        pass

    async def blocked(self, chat_id: int) -> None:
        pass

    async def migrated(self, old: int, new: int) -> None:
        pass

    async def refused(self, row: OutboxRow, why: str) -> None:
        pass

    async def picture(self, row: OutboxRow) -> bytes | None:
        return None


@dataclass(frozen=True)
class Pace:
    """Telegram's budgets as the outbox keeps them: seconds between two calls to one group, calls a second
    overall, seconds per call in one private chat after its burst."""

    group_spacing: float = 0.0
    per_second: float = 1000.0
    private_spacing: float = 0.0


MAX_BACKOFF = 60.0
PRIVATE_BURST = 3  # Telegram allows a private chat about a call a second, with short bursts (a move, the next, a ping)


def _seconds(value: object) -> float:
    total = getattr(value, "total_seconds", None)
    return float(total()) if callable(total) else float(value)  # type: ignore[arg-type]


RETIRE_KEYS = 1 << 62  # the budget's keys of old copies' deletes (no chat id is that large)
HELD = 1.0  # seconds of the budget's queue from which a held change is worth telling its player (service.press)


class Outbox:
    def __init__(self, repo: OutboxRows, bot: Bot, pace: Pace = Pace(), *,
                 record: list[tuple[int, float]] | None = None, ticker: Ticker | None = None) -> None:
        self.repo = repo
        self.ticker = ticker or LoopTicker()  # its time and its waits (a test's moves on at once)
        self.budget = Budget(pace.per_second, ticker=self.ticker)  # the overall budget, shared among chats by need
        self._retire_keys = itertools.count(RETIRE_KEYS)
        self._kind: dict[int, int] = {}     # chat -> what its unsent changes are (budget.ACTING first)
        self._since: dict[int, float] = {}  # chat -> time of its oldest unsent change
        self._turn: dict[int, float] = {}   # chat owed ACTING -> time its player's turn began (budget's order)
        self.private_spacing = pace.private_spacing  # seconds per call in one private chat, after its burst
        self._private: dict[int, tuple[float, float]] = {}  # private chat -> (its burst left, when last answered)
        self.group_spacing = pace.group_spacing  # seconds between two calls to one group (its budget)
        self._last_call: dict[int, float] = {}  # group -> when its last call was answered (its ticker's time)
        # a group not called since the start is assumed called at the start: the process before may have
        # spent its budget just before it stopped, and Telegram counts calls, not processes
        self._started = float("-inf")
        self.bot = bot
        self.listener: Listener = Unheard()
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._retiring: set[asyncio.Task[None]] = set()  # old copies of messages being deleted (retire)
        self._dirty: set[int] = set()      # chats with rows owed since their worker last looked
        self._wake: dict[int, asyncio.Event] = {}  # ends a chat's wait for its pace when it turns urgent
        self._closed = False
        # chat -> the row on its way, and the worker sending it
        self._sending: dict[int, tuple[OutboxRow, asyncio.Future[None], asyncio.Task[Any] | None]] = {}
        self.record = record  # (kind, seconds owed) of each call, for the load test (bot.ops.metrics)

    async def resume(self) -> None:
        """Deliver everything a previous run still owed."""
        self._started = self.ticker.time()
        for chat_id in {row.chat_id for row in await self.repo.owed()}:
            self.kick(chat_id)

    def listen(self, listener: Listener) -> None:
        """Tell ``listener`` what happens to the messages from now (the game service, once it is made)."""
        self.listener = listener

    def kick(self, *chat_ids: int, lazy: Iterable[int] = ()) -> None:
        """Rows were written for these chats: make sure a worker delivers them. A chat in ``lazy`` was
        owed only rows that may wait (the table of a move, a waiting player's hand): under pressure they
        give way to the chats of players who must act, and fold more moves into their next call."""
        if self._closed:
            return
        may_wait = set(lazy)
        now = self.ticker.time()
        for chat_id in chat_ids:
            kind = ACTING if chat_id not in may_wait else TABLE if chat_id < 0 else WAITING
            self._owe(chat_id, kind, now)
            self._dirty.add(chat_id)
            worker = self._workers.get(chat_id)
            if worker is None or worker.done():
                self._workers[chat_id] = asyncio.create_task(self._work(chat_id), name=f"outbox-{chat_id}")

    def hurry(self, *chat_ids: int, stale: bool = False) -> None:
        """Nothing new is owed to these chats, but their player must act now: what was written earlier
        (his hand, while he was waiting) is now urgent; among the turns it is served as one that began now,
        or, ``stale`` (he pressed the old position and was refused), as one that began with the oldest change
        his hand has not shown: he is looking at it, and would press it wrong again."""
        now = self.ticker.time()
        for chat_id in chat_ids:
            if chat_id in self._kind:
                self._owe(chat_id, ACTING, now, self._since.get(chat_id, now) if stale else now)

    def _owe(self, chat_id: int, kind: int, now: float, turn: float | None = None) -> None:
        self._since.setdefault(chat_id, now)
        if kind < self._kind.get(chat_id, WAITING + 1):
            self._kind[chat_id] = kind
            if kind == ACTING:
                self._turn[chat_id] = now if turn is None else turn
            self.budget.promote(chat_id, kind, self._turn.get(chat_id, now))
            wake = self._wake.get(chat_id)
            if wake is not None:
                wake.set()

    def retire(self, chat_id: int, message_id: int) -> None:
        """Delete a copy of a message the bot no longer keeps: a hand posted just before a process was killed,
        whose id never reached the database, and posted again by the next process. Its buttons still work, but it
        shows an old position; its player pressing it shows it is there. Not kept in the database: a kill before
        the delete leaves the copy for the next press."""
        if self._closed:
            return
        task = asyncio.create_task(self._retire(chat_id, message_id), name=f"retire-{chat_id}")
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)

    async def _retire(self, chat_id: int, message_id: int) -> None:
        # its slot under a key of its own: under the chat's, it took the place of the chat's worker waiting for one
        # (the budget keeps one waiter a key), and one of the two waited for ever
        await self.budget.take(next(self._retire_keys), ACTING, self.ticker.time())
        try:
            await self._delete_quietly(chat_id, message_id)
        except TelegramError as e:  # a network error: the next press on it tries again
            log.info("the old copy %s in chat %s is not deleted for now: %s", message_id, chat_id, e)
        self._spend(chat_id)

    async def drain(self, timeout: float | None = None) -> bool:
        """Wait until nothing is owed (or ``timeout`` passes); True when everything was delivered."""
        async def idle() -> None:
            while self._workers or self._retiring:
                await asyncio.gather(*list(self._workers.values()), *self._retiring, return_exceptions=True)

        try:
            await asyncio.wait_for(idle(), timeout)
        except TimeoutError:
            return False
        return True

    async def quiet(self, homes: Callable[[int], bool]) -> None:
        """Wait until no row of these home chats is on its way to Telegram (their partition is handed over: the
        rows are no longer read here, but one may be in a call). Not for the row whose answer asked for it (a
        group that became a supergroup): its call is over."""
        me = asyncio.current_task()
        while on_way := [sent for row, sent, worker in self._sending.values() if homes(row.home) and worker is not me]:
            await asyncio.gather(*on_way)

    def share(self, per_second: float) -> None:
        """This process's part of the overall budget now (its share of the partitions)."""
        self.budget.spacing = 1 / max(per_second, 1e-3)

    def held(self, chat_id: int) -> bool:
        """The chat owes a change that waits behind the players who must act, in a queue of ``HELD`` seconds or
        more (a move's own few calls queue for a moment even with calls to spare)."""
        return self._kind.get(chat_id, ACTING) != ACTING and self.budget.queued * self.budget.spacing >= HELD

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
        for worker in [*self._workers.values(), *self._retiring]:
            worker.cancel()
        await asyncio.gather(*self._workers.values(), *self._retiring, return_exceptions=True)
        self._workers.clear()
        await self.budget.close()

    async def _work(self, chat_id: int) -> None:
        backoff = 1.0
        kind = ACTING  # of rows owed together with one already sent (a hand and its ping)
        since = self.ticker.time()
        try:
            while True:
                await self._pace(chat_id)
                kind = self._kind.get(chat_id, kind)
                since = self._since.get(chat_id, since)
                await self.budget.take(chat_id, kind, self._turn.get(chat_id, since) if kind == ACTING else since)
                kind = self._kind.get(chat_id, kind)  # promoted while it waited: the player must act now
                if self.record is not None:
                    self.record.append((kind, self.ticker.time() - since))
                self._dirty.discard(chat_id)
                self._kind.pop(chat_id, None)  # what is read now is sent now: later changes are owed anew
                self._since.pop(chat_id, None)
                self._turn.pop(chat_id, None)
                row, more = await self.repo.next_owed(chat_id)  # read just before sending: the newest content
                if row is None:
                    if chat_id in self._dirty:
                        continue
                    return
                sent = asyncio.get_running_loop().create_future()
                self._sending[chat_id] = (row, sent, asyncio.current_task())
                try:
                    wait = await self._deliver(row)
                finally:
                    del self._sending[chat_id]
                    sent.set_result(None)
                self._spend(chat_id)
                if wait is None:
                    if not more and chat_id not in self._dirty:  # nothing else owed, nothing written since
                        return
                    backoff = 1.0
                elif wait > 0:
                    await self.ticker.sleep(wait)
                else:
                    await self.ticker.sleep(backoff)
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
                self._kind.pop(chat_id, None)
                self._since.pop(chat_id, None)
                self._turn.pop(chat_id, None)

    async def _pace(self, chat_id: int) -> None:
        """Wait for the chat's own budget before asking for a slot of the overall one: its content is read
        only when the call can go (moves made meanwhile fold into it). A private chat's wait ends early when
        its player must act."""
        if chat_id < 0:
            await self._wait_for_budget(chat_id)
            return
        wake = self._wake.setdefault(chat_id, asyncio.Event())
        ticker = self.ticker
        while (wait := self._private_ready(chat_id, self._kind.get(chat_id, ACTING), ticker.time())
               - ticker.time()) > 0:
            wake.clear()
            await ticker.wake_or_sleep(wake, wait)

    def _private_left(self, chat_id: int, now: float) -> tuple[float, float]:
        """The private chat's burst left now (a token back every ``private_spacing``), and its last call."""
        left, at = self._private.get(chat_id, (PRIVATE_BURST, -math.inf))
        return min(PRIVATE_BURST, left + (now - at) / self.private_spacing), at

    def _private_ready(self, chat_id: int, kind: int, now: float) -> float:
        """When the private chat may be called: a token of its burst is back, and for a waiting player's
        hand a whole second has passed since its last call (it folds the moves of that second)."""
        if not self.private_spacing:
            return now
        left, at = self._private_left(chat_id, now)
        ready = now if left >= 1 else now + (1 - left) * self.private_spacing
        return max(ready, at + self.private_spacing) if kind == WAITING else ready

    def _spend(self, chat_id: int) -> None:
        """The chat's call is answered now: its own budget counts from here. Telegram counted the call
        somewhere between its sending and its answer; counted from when its slot came, a call that waited
        longer for its content (a slow database read) reached Telegram later than the next one's spacing
        assumed, and a group called at its full 20 a minute got 429s."""
        now = self.ticker.time()
        if chat_id < 0:
            if len(self._last_call) > 1000:  # forget groups whose budget has long recovered
                self._last_call = {g: t for g, t in self._last_call.items() if t > now - self.group_spacing}
            self._last_call[chat_id] = now
            return
        if not self.private_spacing:
            return
        left, _ = self._private_left(chat_id, now)
        if len(self._private) > 1000:  # forget chats whose burst has long come back
            full = PRIVATE_BURST * self.private_spacing
            self._private = {c: (n, t) for c, (n, t) in self._private.items() if t > now - full}
        self._private[chat_id] = (max(0.0, left - 1), now)

    async def _wait_for_budget(self, group: int) -> None:
        """A group's next call waits for its slot *before* the content is read, so that what Telegram gets
        is the newest table (moves made meanwhile fold into one edit), not a table already stale when the
        limiter let it through."""
        wait = self._last_call.get(group, self._started) + self.group_spacing - self.ticker.time()
        if wait > 0:
            await self.ticker.sleep(wait)

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
            if row.slot.kind is Kind.PICTURE:  # sent once, never edited
                if row.message_id is None:
                    await self._send_picture(row)
                else:
                    await self.repo.delivered(row, row.message_id)
                return None
            if row.message_id is not None and not row.resend and not is_ping(row.slot):
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
                self.listener.shown(row, row.message_id)
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
                await self.listener.blocked(row.chat_id)
            return None
        except ChatMigrated as e:
            log.info("chat %s became supergroup %s", row.chat_id, e.new_chat_id)
            await self.listener.migrated(row.chat_id, e.new_chat_id)
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
        if row.message_id is None:
            await self.listener.refused(row, error.message)

    async def _send(self, row: OutboxRow, markup: str | None, old: int | None) -> None:
        assert row.text is not None
        if old is not None and is_ping(row.slot):  # never two pings in a chat, even for a moment
            await self._delete_quietly(row.chat_id, old)
            old = None
        message = await self._api("sendMessage", chat_id=row.chat_id, text=row.text, reply_markup=markup,
                                  message_thread_id=row.thread_id or None)
        message_id = int(message["message_id"])
        self.listener.shown(row, message_id)  # Telegram shows it from now, whenever the local record is written
        await self.repo.delivered(row, message_id)
        if old is not None:  # /hand: the old copy goes once the new one is there, so one hand has live buttons
            await self._delete_quietly(row.chat_id, old)

    async def _send_picture(self, row: OutboxRow) -> None:
        """A picture row: its image drawn now, sent with its text as the caption. The image is drawn anew on a
        retry, or after a restart: the row names what it shows, so nothing but the row needs keeping."""
        image = await self.listener.picture(row)
        if image is None:
            log.info("picture %s for chat %s has nothing to show any more: given up", row.slot, row.chat_id)
            await self.repo.delivered(row, None)
            return
        message = await self._api("sendPhoto", chat_id=row.chat_id, photo=InputFile(image, filename="result.png"),
                                  caption=row.text or None, message_thread_id=row.thread_id or None)
        message_id = int(message["message_id"])
        self.listener.shown(row, message_id)
        await self.repo.delivered(row, message_id)

    async def _api(self, method: str, **params: object) -> Any:
        """One Bot API call through PTB's request path (rate limiter, errors), with the stored keyboard JSON
        sent as it is and the answer left as JSON: turning the keyboard into PTB objects and back and
        parsing every answer into a Message was a fifth of the bot's CPU under load (docs/performance.md, "Under load").
        """
        return await api_call(self.bot, method, {key: value for key, value in params.items() if value is not None})

    async def _delete_quietly(self, chat_id: int, message_id: int) -> None:
        try:
            await self._api("deleteMessage", chat_id=chat_id, message_id=message_id)
        except BadRequest as e:
            log.info("old message %s in chat %s not deleted: %s", message_id, chat_id, e)
