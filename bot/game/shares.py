"""The games shared among bot processes on PostgreSQL: which partitions this process leads, and the hand-overs.

Every chat belongs to a partition (``storage.partitions``), every partition is led by one live process, and the
processes share them evenly (:class:`storage.partitions.Leases`, a round every ``POLL`` seconds). A process
decides the games of the partitions it leads, delivers their messages and runs their timers; any process stores
an update of another partition for its lead (``storage.updates``, woken by NOTIFY) and answers Telegram.

Taking a partition: the process that led it before may be dead with a call to Telegram on its way; every call
is made only while its process surely holds its leases (:meth:`Shares.confirm`, at most ``LEAD_SURE`` seconds
old), so the taker waits ``FENCE_GRACE`` before it loads the partition's games and delivers their messages.
Handing one over (a process joined, or this one stops): the partition stops taking updates here first, the
updates in hand are finished, its games are let go once their decisions are written, its messages once none is
on its way; then the lease is released and the next process takes it at its next round.

A move costs a partition's games a pause (the fence, then each group's pace starting anew), so a surplus is
handed over unhurried: the partitions with no open game first, one with games only once it has been led here
``SETTLED`` seconds (a process restarted after a crash gets its share back from the idle ones at once; the
games its partitions moved with are not moved a second time within seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
from collections.abc import Callable, Mapping

from telegram import Update

from bot.game.service import GameService
from bot.transport.inbox import Inbox
from bot.transport.limiter import SharedLimiter
from bot.transport.outbox import Outbox
from bot.ui.callbacks import decode
from storage.models import Game
from storage.partitions import FENCE_GRACE, LEAD_SURE, POLL, Leases, partition_of
from storage.repo import Repo

log = logging.getLogger(__name__)
JOIN_LINK = re.compile(r"/start(?:@\w+)? join_([0-9]{1,12})")
SETTLED = 30.0  # seconds a partition with open games is led here before it is handed over as a surplus


class Shares:
    """The partitions whose games this process decides now (:attr:`led`)."""

    def __init__(self, leases: Leases, service: GameService, outbox: Outbox, per_second: float,
                 lost: Callable[[], None], route: str = "", limiter: SharedLimiter | None = None) -> None:
        """``route``: where this process serves the Mini App's pages alone (``WEBAPP_ROUTE``); ``limiter``: PTB's,
        whose overall budget is shared as the outbox's is."""
        self.leases = leases
        self.limiter = limiter
        self.route = route
        self.service = service
        self.outbox = outbox
        self.per_second = per_second  # the bot's whole budget of calls a second: this process's is its share
        self.lost = lost  # the leases' connection went: another process may lead them already
        self.led: frozenset[int] = frozenset()  # whose games are decided here (loaded, or being let go)
        self.taking: frozenset[int] = frozenset()  # whose updates are taken here: once loaded, until handed over
        self.inbox: Inbox | None = None
        self._taken_at: dict[int, float] = {}  # partition -> when it was loaded here (time.monotonic())
        self._alive_at = 0.0
        self._confirming = asyncio.Lock()
        self._joined = False  # counted among the live processes (``start``): before that it leads nothing
        self._stopped = False
        self._task: asyncio.Task[None] | None = None
        service.repo.owns = self.owns
        self._share()

    async def page_route(self, chat_id: int) -> str | None:
        """Where the pages of this chat's games are served: None here once its games are loaded (a press from the
        page finds its game), else the route of its partition's lead ("" while none is known, or while this
        process loads or lets go the partition: come back soon)."""
        part = partition_of(chat_id)
        if part in self.taking:
            return None
        if part in self.led:
            return ""
        route = await self.service.repo.route(part) or ""
        return "" if route == self.route else route  # taken here, its games not loaded yet

    def leading(self) -> frozenset[int]:
        """The partitions whose updates this process takes now."""
        return self.taking

    def owns(self, chat_id: int) -> bool:
        return partition_of(chat_id) in self.led

    async def start(self) -> None:
        await self.leases.join()
        self._joined = True
        self._task = asyncio.ensure_future(self._run())

    async def confirm(self) -> None:
        """Return only while this process surely holds its leases (a statement on their connection within
        ``LEAD_SURE`` seconds); a connection found lost ends the process (:attr:`lost`)."""
        if self._stopped:  # every partition handed over: nothing of this process's to call Telegram for
            raise RuntimeError("this process leads no partition any more")
        if not self._joined:  # still starting (a press posted again is answered only once it may call): no lease
            raise RuntimeError("this process leads no partition yet")
        # the calls go on in the order they came: none overtakes one waiting for a ping (a round may end meanwhile)
        async with self._confirming:
            if time.monotonic() - self._alive_at < LEAD_SURE:
                return
            try:
                await self.leases.ping()
            except Exception:
                self.lost()
                raise
            self._alive_at = time.monotonic()

    async def _run(self) -> None:
        while True:
            try:
                checked = time.monotonic()
                taken, lost = await self.leases.round()
                self._alive_at = checked
            except Exception as e:  # the leases' connection was cut: the other processes take them now
                log.error("the partitions' leases were lost (%s)", e)
                self.lost()
                return
            if lost:
                log.error("partitions %s were lost", sorted(lost))
                self.lost()
                return
            try:
                surplus = self._movable(len(await self.leases.surplus()))
                if taken:
                    if self.route:  # pages of its games come here from now (and wait for the games to be loaded)
                        await self.service.repo.set_routes(taken, self.route)
                    await asyncio.sleep(FENCE_GRACE)  # whoever led them before has stopped calling Telegram by now
                    await self._take(taken)
                if surplus:
                    await self._hand_over(surplus)
            except Exception:  # half taken or half handed over: a fresh start is the one clean state
                log.exception("taking or handing over partitions failed")
                self.lost()
                return
            await asyncio.sleep(POLL)

    async def _take(self, taken: frozenset[int]) -> None:
        self.led |= taken
        self._share()
        count = await self.service.adopt(lambda chat_id: partition_of(chat_id) in taken)
        if self.inbox is not None:  # what the processes that led them before handled
            await self.inbox.look_back()
        self.taking |= taken  # its games loaded: a press on them finds them
        self._taken_at |= dict.fromkeys(taken, time.monotonic())
        log.info("leading %d partitions (took %d: %d open games)", len(self.led), len(taken), count)
        if self.inbox is not None:
            self.inbox.wake()

    def _movable(self, count: int) -> frozenset[int]:
        """``count`` partitions to hand over (fewer if they are not due yet): those with no open game first, then
        those with games led here ``SETTLED`` seconds at least, the highest first."""
        busy = {partition_of(game.chat_id) for game in self.service.store.games.values()}
        settled = time.monotonic() - SETTLED
        idle = sorted(self.taking - busy, reverse=True)
        due = sorted((p for p in self.taking & busy if self._taken_at.get(p, 0.0) <= settled), reverse=True)
        return frozenset((idle + due)[:count])

    async def _hand_over(self, parts: frozenset[int]) -> None:
        self.taking -= parts
        if self.inbox is not None:
            await self.inbox.settle()  # the updates in hand here may still be of these partitions
        self.led -= parts
        self._share()
        for part in parts:
            self._taken_at.pop(part, None)

        def leaving(chat_id: int) -> bool:
            return partition_of(chat_id) in parts

        if self.route:
            await self.service.repo.drop_routes(parts, self.route)
        await self.service.let_go(leaving)
        await self.leases.release(parts)
        log.info("handed %d partitions over; leading %d", len(parts), len(self.led))

    def _share(self) -> None:
        """The outbox's part of the token's calls: its partitions' share (one at least: a process that leads
        nothing has nothing to send, and must not wait for ever for its first slot once it leads)."""
        part = max(len(self.led), 1) / self.leases.partitions
        self.outbox.share(self.per_second * part)
        if self.limiter is not None:
            self.limiter.share(part)

    async def stop(self, drain_seconds: float) -> None:
        """Deliver what the partitions led here owe (at most ``drain_seconds``), then hand them all over (the
        caller stopped taking updates and finished those in hand). Partitions taken but not yet led are let go
        as they are: what they owe waits for the next process."""
        if self._stopped:
            return
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.led and not await self.outbox.drain(drain_seconds):
            log.warning("handing the partitions over with messages still owed; their next lead delivers them")
        if self.led:
            await self._hand_over(self.led)
        self._stopped = True
        await self.leases.close()


async def partition(update: Update, repo: Repo, known: Mapping[int, Game] | None = None) -> int:
    """The partition whose lead handles ``update``: its group's; in a private chat, the game's that a button or a
    join link names (``known``: the games open here, whose chats need no query), else the game the presser sits
    in, else his chat's own."""
    chat = update.effective_chat
    user = update.effective_user
    home = chat.id if chat is not None else (user.id if user is not None else 0)
    if chat is not None and chat.type != "private":
        return partition_of(home)
    game_id = None
    if update.callback_query is not None:
        press = decode(update.callback_query.data)
        game_id = press.game if press is not None and press.game else None
    elif update.message is not None and (join := JOIN_LINK.fullmatch(update.message.text or "")):
        game_id = int(join.group(1))
    game = known.get(game_id) if known is not None and game_id is not None else None
    found = game.chat_id if game is not None else await repo.game_chat(game_id) if game_id is not None else None
    if found is None and user is not None:
        found = await repo.seated_chat(user.id)
    return partition_of(found if found is not None else home)


def lost_leases() -> None:
    """The process ends at once (its process manager starts it again, to take a share anew); nothing it owes is
    lost: another process delivers it."""
    log.critical("this durak-bot process lost its partitions' leases: stopping")
    logging.shutdown()
    os._exit(75)
