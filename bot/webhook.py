"""Webhook mode: Telegram's updates over HTTPS, each answered only once it is handled.

python-telegram-bot's own webhook server answers 200 as soon as an update is in its queue in memory, so a
process that dies a moment later loses the press. Here the answer waits for the handlers: 200 once they are
done, 500 when one of them raised; without a 200 Telegram delivers the update again, to the next start or,
behind a load balancer, to another process. (A press whose write failed is no such case: its player is told to
try again, as with long polling.) A press delivered again after its move was written is decided on the game as
it is by then (the card is no longer in the hand, the turn has passed), so it is refused with its toast, never
applied twice. Requests without Telegram's secret header are refused (403).

On PostgreSQL any number of processes may serve the same webhook behind a load balancer, and one of them leads
(``PostgresDatabase.lead``): it alone handles updates (``bot.inbox``), delivers the messages owed and runs the
timers, so every budget of Telegram's is the bot's, kept by one sender. The others, from the moment they start,
answer 200 once an update is stored (``storage.updates``) for the leader; the leader handles what is posted to it
at once and answers once handled, as above, its decision's write marking the update handled (posted again to
any process, it is known). The first process to see the leader's connection go takes over, with every update
that was waiting. A leader stopped
cleanly (SIGTERM) stops taking updates, finishes the ones it is handling, delivers what is owed and lets go.
The Mini App's server runs in the leading process (its pages reconnect to the next leader by themselves).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import signal
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Update
from telegram.error import NetworkError
from telegram.ext import Application, ContextTypes

from bot.app import allowed_updates
from bot.inbox import Inbox
from bot.metrics import Metrics
from bot.settings import Settings
from storage.postgres import PostgresDatabase, is_postgres_url
from storage.updates import CHANNEL, Updates

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class Webhook:
    """The HTTP endpoint Telegram posts updates to (the path of ``WEBHOOK_URL``)."""

    def __init__(self, app: Application, secret: str, path: str,  # type: ignore[type-arg]
                 updates: Updates | None = None) -> None:
        """``updates``: store each update there and answer (several processes); else handle it, then answer."""
        self.app = app
        self.secret = secret.encode()
        self.path = path or "/"
        self.updates = updates
        self.inbox: Inbox | None = None  # once this process leads: it handles what it stored at once
        self.failed: set[int] = set()  # updates being handled whose handling raised
        app.add_error_handler(self._failed)

    async def _failed(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        if isinstance(update, Update):
            self.failed.add(update.update_id)

    def application(self) -> web.Application:
        web_app = web.Application(client_max_size=1 << 20)
        web_app.router.add_post(self.path, self._update)
        return web_app

    async def _update(self, request: web.Request) -> web.Response:
        if not hmac.compare_digest(request.headers.get(SECRET_HEADER, "").encode(), self.secret):
            log.warning("a webhook request without the right secret was refused")
            return web.Response(status=403)
        body = await request.read()
        try:
            update = Update.de_json(json.loads(body), self.app.bot)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            log.warning("a webhook request that is no update was refused (%s)", e)
            return web.Response(status=400)
        if update is None:
            return web.Response(status=400)
        if self.updates is not None and self.inbox is None:  # standing by: kept for the leader
            return await self._store(update.update_id, body.decode())
        if self.inbox is not None:
            await self.inbox.handle_here(update)
        else:
            await self.app.process_update(update)
        if update.update_id in self.failed:
            self.failed.discard(update.update_id)
            return web.Response(status=500)  # Telegram delivers it again
        return web.Response(status=200)

    async def _store(self, update_id: int, body: str) -> web.Response:
        assert self.updates is not None
        try:
            await self.updates.store(update_id, body)
        except Exception:
            log.exception("update %s could not be stored; Telegram posts it again", update_id)
            return web.Response(status=500)
        return web.Response(status=200)


async def serve(app: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """Run the bot on a webhook until SIGINT or SIGTERM, as ``Application.run_webhook`` would, with
    :class:`Webhook` answering Telegram. Network errors at the start are retried (``STARTUP_RETRIES``). On
    PostgreSQL the webhook stores updates from the start, and the rest waits for this process to lead."""
    url, secret_setting = settings.webhook_url, settings.webhook_secret
    assert url is not None and secret_setting is not None
    secret = secret_setting.get_secret_value()
    path = urlsplit(url).path
    await _retried(app.initialize, settings.startup_retries)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    shared = isinstance(settings.database, str) and is_postgres_url(settings.database)
    front = await PostgresDatabase.open(str(settings.database)) if shared else None
    runner: web.AppRunner | None = None
    inbox: Inbox | None = None
    stop_listening: Callable[[], None] = _nothing
    hook = Webhook(app, secret, path, Updates(front) if front is not None else None)
    started = False
    try:
        if front is not None:
            runner = await _listen(hook, settings)
        if app.post_init is not None and not await _unless_stopped(app.post_init(app), stop):
            return
        started = True
        if runner is None:
            runner = await _listen(hook, settings)
        await _retried(lambda: app.bot.set_webhook(url, secret_token=secret, allowed_updates=allowed_updates()),
                       settings.startup_retries)
        await app.start()
        if front is not None and hook.updates is not None:
            metrics: Metrics | None = app.bot_data.get("metrics")
            if metrics is not None and metrics.on:  # the updates' own statements count with the rest (load test)
                await front.trace(metrics.statement)
            inbox = hook.inbox = Inbox(app, hook.updates)
            stop_listening = front.listen(CHANNEL, inbox.wake)
            inbox.start()
        await stop.wait()
    finally:
        if runner is not None:
            await runner.cleanup()  # no new update comes in; the ones being handled (or stored) are done
        if inbox is not None:
            await inbox.stop()
        stop_listening()
        if app.running:
            await app.stop()
        if started and app.post_stop is not None:
            await app.post_stop(app)
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        if front is not None:
            await front.close()


def _nothing() -> None:
    pass


async def _listen(hook: Webhook, settings: Settings) -> web.AppRunner:
    runner = web.AppRunner(hook.application(), access_log=None)
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
