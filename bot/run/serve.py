"""Running the bot until SIGINT or SIGTERM, by long polling or on a webhook, on SQLite or PostgreSQL.

It starts as python-telegram-bot's ``run_polling`` and ``run_webhook`` would, with three differences. A stop
signal that comes while the bot is still starting (resuming its games; on PostgreSQL, waiting for the lead) ends
the start in order: ``run_polling`` left the start running into the shutdown, on a closed database. Telegram's
posts are answered by :class:`bot.transport.webhook.Webhook` (once an update is handled, or stored). And on
PostgreSQL the processes share the work: with a webhook they share the games (``bot.game.shares``: each leads a share
of the partitions, and stores the updates of the others' for them); with long polling one process leads and
polls, the others wait to take over (``PostgresDatabase.lead``, in ``post_init``).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import signal
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Update
from telegram.error import NetworkError
from telegram.ext import Application

from bot.app import DRAIN_SECONDS, allowed_updates
from bot.game.shares import partition
from bot.ops.metrics import Metrics
from bot.settings import Settings
from bot.transport.inbox import Inbox
from bot.transport.webhook import Webhook
from storage.database import is_postgres_url, open_postgres
from storage.repo import Repo
from storage.updates import CHANNEL, Updates

if TYPE_CHECKING:
    from storage.postgres import PostgresDatabase

log = logging.getLogger(__name__)
STOP_REPORT_SECONDS = 15.0


async def serve(app: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """Run the bot until SIGINT or SIGTERM: on a webhook if ``WEBHOOK_URL`` is set, else by long polling. Network
    errors at the start are retried (``STARTUP_RETRIES``). On PostgreSQL a webhook stores updates from the start,
    and the rest waits for this process to lead."""
    url, secret_setting = settings.webhook_url, settings.webhook_secret
    secret = secret_setting.get_secret_value() if secret_setting is not None else ""
    await _retried(app.initialize, settings.startup_retries)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, _stopping, stop)
    shared = isinstance(settings.database, str) and is_postgres_url(settings.database)
    front = await open_postgres(str(settings.database)) if shared else None
    stored = Updates(front) if front is not None else None
    route = _router(Repo(front), app) if front is not None else None
    runner: web.AppRunner | None = None
    inbox: Inbox | None = None
    stop_listening: Callable[[], None] = _nothing
    hook = None if url is None else Webhook(app, secret, urlsplit(url).path, stored, route)
    poller: asyncio.Task[None] | None = None
    started = False
    try:
        if front is not None and hook is not None:
            runner = await _listen(hook, settings)
        if app.post_init is not None and not await _unless_stopped(app.post_init(app), stop):
            return
        started = True
        if hook is None and front is not None:
            assert stored is not None and route is not None
            front.lost_lead = lost_poll
            poller = asyncio.ensure_future(_poll(app, front, stored, route, settings, lambda: inbox))
        elif hook is None:
            assert app.updater is not None
            await app.updater.start_polling(allowed_updates=allowed_updates(), timeout=int(settings.poll_timeout),
                                            bootstrap_retries=settings.startup_retries)
        else:
            if runner is None:
                runner = await _listen(hook, settings)
            assert url is not None
            await _retried(lambda: app.bot.set_webhook(url, secret_token=secret, allowed_updates=allowed_updates()),
                           settings.startup_retries)
        await app.start()
        if front is not None and stored is not None:
            metrics: Metrics | None = app.bot_data.metrics
            if metrics is not None and metrics.on:  # the updates' own statements count with the rest (load test)
                await front.trace(metrics.statement)
            shares = app.bot_data.shares
            inbox = Inbox(app, stored, shares.leading if shares is not None else lambda: None,
                          route if shares is not None else None)
            if shares is not None:
                shares.inbox = inbox
                if hook is not None:
                    hook.led = shares.leading
            if hook is not None:
                hook.inbox = inbox
            stop_listening = front.listen(CHANNEL, inbox.wake)
            await inbox.look_back()
            inbox.start()
        await stop.wait()
    finally:
        slow = asyncio.ensure_future(_name_what_holds_the_stop())
        if poller is not None:  # no new update is fetched (those fetched are stored: Telegram sends the rest again)
            poller.cancel()
            await asyncio.gather(poller, return_exceptions=True)
        if runner is not None:
            await runner.cleanup()  # no new update comes in; the ones being handled (or stored) are done
        if inbox is not None:
            await inbox.stop()
        stop_listening()
        shares = app.bot_data.shares
        if shares is not None:  # the partitions handed over, with their games settled: the others take them now
            await shares.stop(DRAIN_SECONDS)
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        if started and app.post_stop is not None:
            await app.post_stop(app)
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        if front is not None:
            await front.close()
        slow.cancel()


async def _poll(app: Application, front: PostgresDatabase, stored: Updates,  # type: ignore[type-arg]
                route: Callable[[Update], Awaitable[int]], settings: Settings,
                inbox: Callable[[], Inbox | None]) -> None:
    """Long polling on PostgreSQL: the process that holds the poller's lock (any one, ``PostgresDatabase.lead``)
    fetches the updates and stores each for the process that leads its game; Telegram's next fetch confirms a
    batch only once it is stored, so a poller killed before that leaves it to be fetched again by the next. Its
    own partitions' updates it hands to its inbox as it stores them (no wake-up, no read back)."""
    await front.lead(lambda: log.info("another durak-bot process polls Telegram: this one decides its share of the "
                                      "games and stands by to poll"))
    await _retried(app.bot.delete_webhook, settings.startup_retries)
    log.info("this process polls Telegram for the updates of every process")
    offset = 0
    while True:
        try:
            batch = await app.bot.get_updates(offset=offset, timeout=int(settings.poll_timeout),
                                              allowed_updates=allowed_updates())
            parts = [await route(update) for update in batch]
            here = inbox()
            led = here.led() if here is not None else ()
            mine = [here is not None and (led is None or part in led) for part in parts]
            new = await asyncio.gather(*(stored.store(update.update_id, json.dumps(update.to_dict()), wake=not own,
                                                      part=part)
                                         for update, part, own in zip(batch, parts, mine, strict=True)))
            for update, part, own, fresh in zip(batch, parts, mine, new, strict=True):
                if here is not None and own and fresh:
                    here.take(update.update_id, update, part)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # Telegram or the database away for a moment: the same batch is fetched again
            log.warning("polling failed (%s); trying again", e)
            await asyncio.sleep(1.0)
            continue
        if batch:
            offset = batch[-1].update_id + 1


def lost_poll() -> None:
    """The poller's lock was taken while its connection was lost: another process polls now."""
    log.critical("another durak-bot process took the polling while this one's connection was lost: stopping")
    logging.shutdown()
    os._exit(75)


def _router(repo: Repo, app: Application) -> Callable[[Update], Awaitable[int]]:  # type: ignore[type-arg]
    async def route(update: Update) -> int:
        service = app.bot_data.service  # once started: the games it decides are routed without a query
        return await partition(update, repo, service.store.games if service is not None else None)

    return route


def _nothing() -> None:
    pass


def _stopping(stop: asyncio.Event) -> None:
    if not stop.is_set():
        log.info("stop signal: no new update is taken; the ones being handled finish, then the bot stops")
    stop.set()


async def _name_what_holds_the_stop() -> None:
    """A stop that has not ended after ``STOP_REPORT_SECONDS`` logs what every task still waits on: an update
    handled for that long waits on something that should not take so long."""
    await asyncio.sleep(STOP_REPORT_SECONDS)
    me = asyncio.current_task()
    for task in asyncio.all_tasks():
        if task is not me:
            out = io.StringIO()
            task.print_stack(limit=12, file=out)
            log.warning("the stop still waits on %s", out.getvalue())


async def _listen(hook: Webhook, settings: Settings) -> web.AppRunner:
    # the body as posted: Telegram sends it plain, and a compressed one (a gzip bomb) is refused unread
    runner = web.AppRunner(hook.application(), access_log=None, auto_decompress=False)
    await runner.setup()
    await web.TCPSite(runner, settings.webhook_listen, settings.webhook_port).start()
    return runner


async def _unless_stopped(start: Awaitable[None], stop: asyncio.Event) -> bool:
    """Await ``start`` (on PostgreSQL it waits for the lead); False, and ``start`` cancelled, if the stop signal
    comes first."""
    starting = asyncio.ensure_future(start)
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait([starting, stopping], return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if not starting.done():
        starting.cancel()
        await asyncio.gather(starting, return_exceptions=True)
        return False
    starting.result()
    return True


async def _retried(call: Callable[[], Awaitable[object]], retries: int) -> None:
    """``call()``, again after a network error (1 s, then twice as long, at most 30 s), ``retries`` times."""
    wait = 1.0
    for attempt in range(retries + 1):
        try:
            await call()
            return
        except NetworkError:
            if attempt == retries:
                raise
            log.warning("Telegram could not be reached; trying again in %.0f s", wait)
            await asyncio.sleep(wait)
            wait = min(wait * 2, 30.0)
