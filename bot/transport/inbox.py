"""A process handles the updates any process stored (``storage.updates``) for the partitions it leads (all of them
for the one leader of long polling), in the order of their ids.

It is woken by its own webhook at once, by PostgreSQL's NOTIFY when another process stored one, and looks once a
second whatever comes. Updates are handled side by side as PTB handles them (each game's lock keeps its
decisions in order); an update already being handled is never started twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Collection

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import Application

from storage.updates import HANDLING, MARKED, Mark, Updates

log = logging.getLogger(__name__)
PRUNE_SECONDS = 60.0  # how often the handled updates older than storage.updates.KEEP_SECONDS are deleted


async def answer_again(update: Update) -> None:
    """A press posted again after it was handled: the process that wrote its move may have died before it
    answered, and the player's button would spin on. It is answered here, without a toast (the move shows in his
    hand); if it was answered before, Telegram refuses this one."""
    if update.callback_query is None:
        return
    try:
        await update.callback_query.answer()
    except TelegramError as e:
        log.info("press %s, posted again after it was handled, could not be answered again (%s)",
                 update.update_id, e)


class Inbox:
    def __init__(self, app: Application, updates: Updates,  # type: ignore[type-arg]
                 led: Callable[[], Collection[int] | None] = lambda: None,
                 route: Callable[[Update], Awaitable[int]] | None = None) -> None:
        """``led``: the partitions whose updates this process handles now (None: all of them, one leader).
        ``route``: an update's partition (``bot.game.shares.partition``), given to the updates stored without one."""
        self.app = app
        self.updates = updates
        self.led = led
        self.route = route
        self.pending: dict[int, asyncio.Future[None]] = {}  # updates being handled here -> done
        self.woken = asyncio.Event()
        self.handling: dict[int, asyncio.Task[None]] = {}
        # updates handled lately: a read of the waiting ones made before one was marked may still list it
        self.finished: dict[int, float] = {}
        # updates up to this id may have been handled by a process that led their partitions before (read at the
        # start and at each take): a post of one of them again is looked up before it is handled
        self.seen_before = 0
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def wake(self) -> None:
        self.woken.set()

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    def take(self, update_id: int, body: str | Update, part: int | None = None) -> None:
        """Handle an update this process has just stored (its body, or the update itself), without waiting to
        read it back (if its partition is still led here: one read before a hand-over may list it)."""
        if update_id in self.handling or update_id in self.finished:
            return
        led = self.led()
        if led is not None and part not in led:
            return
        self._begin(update_id)
        task = asyncio.ensure_future(self._handle(update_id, body))
        self.handling[update_id] = task
        task.add_done_callback(lambda _: self._finished(update_id))

    def _begin(self, update_id: int) -> None:
        self.pending[update_id] = asyncio.get_running_loop().create_future()

    async def settle(self) -> None:
        """Wait for the updates being handled now (their partition is handed over)."""
        await asyncio.gather(*self.pending.values())

    def _finished(self, update_id: int) -> None:
        self.handling.pop(update_id, None)
        done = self.pending.pop(update_id, None)
        if done is not None and not done.done():
            done.set_result(None)
        now = asyncio.get_running_loop().time()
        self.finished[update_id] = now
        if len(self.finished) > 1000:
            self.finished = {u: t for u, t in self.finished.items() if t > now - PRUNE_SECONDS}

    async def stop(self) -> None:
        """No new update is started; the ones being handled are finished."""
        # asyncio.wait_for of Python 3.11 loses a cancellation that comes as its wait ends (a wake at the stop):
        # the loop is told by a flag, never by cancelling it
        self._stopping = True
        self.woken.set()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
        await asyncio.gather(*self.handling.values(), return_exceptions=True)
        await self.updates.flush()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        pruned = loop.time()
        routed = False
        while not self._stopping:
            try:
                self.woken.clear()
                if not routed and self.route is not None:
                    await self._route_unrouted()
                    routed = True
                led = self.led()
                for update_id, body, part in await self.updates.waiting(
                        skip=self.handling.keys() | self.finished.keys(), parts=led):
                    self.take(update_id, body, part)
                if loop.time() - pruned > PRUNE_SECONDS:
                    pruned = loop.time()
                    await self.updates.prune()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away for a moment: the updates wait in it
                log.exception("reading the updates waiting failed; trying again")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(1.0):
                    await self.woken.wait()

    async def _route_unrouted(self) -> None:
        """Updates stored by a version that had one leader (no partition) would wait for ever once the processes
        share the games: each is given its partition, once, at the start (that version stores no more)."""
        assert self.route is not None
        for update_id, body in await self.updates.unrouted():
            try:
                part = await self.route(Update.de_json(json.loads(body), self.app.bot))
            except (ValueError, TypeError, KeyError, AttributeError):
                part = 0  # unreadable: partition 0's lead drops it with a line in the log
            await self.updates.route(update_id, part)
            log.info("update %s, stored without a partition, goes to partition %s", update_id, part)

    async def look_back(self) -> None:
        """Partitions come to be led here (the start, a take): what was handled of their updates is in the table."""
        self.seen_before = max(self.seen_before, await self.updates.newest())

    def failed(self, update_id: int) -> None:
        """Its handling raised (its poster is answered 500): Telegram's next post of it is handled anew."""
        self.finished.pop(update_id, None)

    async def handle_here(self, update: Update) -> None:
        """Handle an update posted to this process, not stored (its poster waits for the end): its decision's
        write still marks it handled, so that Telegram posting it again (to any process) finds it handled."""
        if update.update_id in self.handling or update.update_id in self.finished:
            return  # posted again while (or after) the stored copy is handled
        if update.update_id <= self.seen_before and await self.updates.was_handled(update.update_id):
            await answer_again(update)  # handled by the process that led its partition before, which died
            return
        self.handling[update.update_id] = asyncio.current_task()  # type: ignore[assignment]
        self._begin(update.update_id)
        token = HANDLING.set(update.update_id)  # the request's task serves the connection's next posts too
        try:
            await self.app.process_update(update)
        finally:
            HANDLING.reset(token)
            self._finished(update.update_id)

    async def _handle(self, update_id: int, body: str | Update) -> None:
        HANDLING.set(update_id)  # this task's own context: its decision's write marks the update handled
        mark = Mark()
        MARKED.set(mark)
        try:
            update = body if isinstance(body, Update) else Update.de_json(json.loads(body), self.app.bot)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            log.error("update %s could not be read and is dropped (%s)", update_id, e)
            update = None
        if update is not None:
            await self.app.process_update(update)  # its handlers' failures are logged by the error handler
        if not mark.done:  # its write marked it already
            self.updates.handled(update_id)
