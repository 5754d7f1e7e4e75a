"""Webhook mode: Telegram's updates over HTTPS, each answered only once it is handled.

python-telegram-bot's own webhook server answers 200 as soon as an update is in its queue in memory, so a
process that dies a moment later loses the press. Here the answer waits for the handlers: 200 once they are
done, 500 when one of them raised; without a 200 Telegram delivers the update again, to the next start or,
behind a load balancer, to another process. (A press whose write failed is no such case: its player is told to
try again, as with long polling.) A press delivered again after its move was written is decided on the game as
it is by then (the card is no longer in the hand, the turn has passed), so it is refused with its toast, never
applied twice. Requests without Telegram's secret header are refused (403).
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
from bot.settings import Settings

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class Webhook:
    """The HTTP endpoint Telegram posts updates to (the path of ``WEBHOOK_URL``)."""

    def __init__(self, app: Application, secret: str, path: str) -> None:  # type: ignore[type-arg]
        self.app = app
        self.secret = secret.encode()
        self.path = path or "/"
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
        try:
            update = Update.de_json(json.loads(await request.read()), self.app.bot)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            log.warning("a webhook request that is no update was refused (%s)", e)
            return web.Response(status=400)
        if update is None:
            return web.Response(status=400)
        await self.app.process_update(update)
        if update.update_id in self.failed:
            self.failed.discard(update.update_id)
            return web.Response(status=500)  # Telegram delivers it again
        return web.Response(status=200)


async def serve(app: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """Run the bot on a webhook until SIGINT or SIGTERM, as ``Application.run_webhook`` would, with
    :class:`Webhook` answering Telegram. Network errors at the start are retried (``STARTUP_RETRIES``)."""
    url, secret_setting = settings.webhook_url, settings.webhook_secret
    assert url is not None and secret_setting is not None
    secret = secret_setting.get_secret_value()
    await _retried(app.initialize, settings.startup_retries)
    runner: web.AppRunner | None = None
    try:
        if app.post_init is not None:
            await app.post_init(app)
        runner = web.AppRunner(Webhook(app, secret, urlsplit(url).path).application(),
                               access_log=None)
        await runner.setup()
        await web.TCPSite(runner, settings.webhook_listen, settings.webhook_port).start()
        await _retried(lambda: app.bot.set_webhook(url, secret_token=secret, allowed_updates=allowed_updates()),
                       settings.startup_retries)
        await app.start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    finally:
        if runner is not None:
            await runner.cleanup()  # no new update comes in; the ones being handled are done
        if app.running:
            await app.stop()
        if app.post_stop is not None:
            await app.post_stop(app)
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)


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
