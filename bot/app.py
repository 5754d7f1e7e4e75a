"""The application factory: settings, database, service and handlers wired into PTB's Application."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import BotCommand, MenuButtonWebApp, Update, WebAppInfo
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ContextTypes,
    Job,
)

import handlers
from bot.game.clock import Clock, RealClock
from bot.game.directory import Directory
from bot.game.service import GameService, Pacing
from bot.game.shares import Shares, lost_leases
from bot.ops.health import Heartbeat
from bot.ops.metrics import Metrics
from bot.parts import Parts
from bot.settings import Settings
from bot.stats.service import StatsService
from bot.transport.budget import OUTBOX_SHARE
from bot.transport.http import AiohttpRequest, UpdatesRequest
from bot.transport.limiter import SharedLimiter
from bot.transport.outbox import Outbox, Pace
from bot.transport.webhook import refused_for_good
from bot.ui import texts
from bot.ui.i18n import LANGUAGES, translator
from bot.webapp.auth import Links
from bot.webapp.server import WebApp
from durak.ai import hard
from storage.database import Database, open_database
from storage.partitions import Leases
from storage.repo import Repo

log = logging.getLogger(__name__)
DRAIN_SECONDS = 10.0  # how long a stopping bot keeps delivering owed messages


class DurakApplication(Application):  # type: ignore[type-arg]
    """PTB's Application less one leak: without a persistence it still notes every chat and user an update came
    from, for a persistence update that never runs, in two sets that only grow (python-telegram-bot 22): a few
    hundred bytes for each new player, for ever. The bot keeps nothing in PTB's user or chat data."""

    def _mark_for_persistence_update(self, *, update: object | None = None,
                                     job: Job[Any] | None = None) -> None:
        if self.persistence:
            super()._mark_for_persistence_update(update=update, job=job)


def build_application(settings: Settings, clock: Clock | None = None) -> Application:  # type: ignore[type-arg]
    # python-telegram-bot 22.2 deprecates time periods as whole seconds and warns at every 429 it reads; its
    # opt-in gives them as timedelta, as its next major version will (the outbox reads either)
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    api = settings.telegram_api_url
    requests = (AiohttpRequest(pool=64), UpdatesRequest(pool=1))
    app = (
        ApplicationBuilder()
        .application_class(DurakApplication)
        .context_types(ContextTypes(bot_data=Parts))
        .token(settings.bot_token.get_secret_value())
        .base_url(f"{api}/bot")
        .base_file_url(f"{api}/file/bot")
        # one call per slot of time, never a burst: PTB's buckets (aiolimiter) hold as many calls as the
        # rate allows per period, so a full bucket (after a quiet minute, or a restart) let twice the
        # budget through in one window; a bucket of one keeps every window within the budget
        .rate_limiter(SharedLimiter(settings.sends_per_second, 60 / settings.group_edits_per_minute, max_retries=5))
        # many handlers at once: a reply waiting for the overall budget (a join's "you joined") must never
        # hold up the presses behind it; each game's own lock keeps its decisions in order
        .concurrent_updates(1024)
        .job_queue(None)  # the clock (bot.game.clock) times everything; PTB's scheduler would idle beside it
        .request(requests[0])
        .get_updates_request(requests[1])
        .post_init(_started(settings, clock or RealClock(), requests))
        .post_stop(_stopping)
        .post_shutdown(_stopped)
        .build()
    )
    _register(app)
    return app


def _register(app: Application) -> None:  # type: ignore[type-arg]
    handlers.register(app)
    app.add_error_handler(_on_error)


def _started(settings: Settings, clock: Clock, requests: tuple[AiohttpRequest, ...]
             ) -> Callable[[Application], Coroutine[Any, Any, None]]:  # type: ignore[type-arg]
    async def post_init(app: Application) -> None:  # type: ignore[type-arg]
        db = await open_database(settings.database)
        app.bot_data.db = db
        shared = db.shared  # the processes share the games in partitions (bot.game.shares)
        metrics = Metrics(settings.metrics_file)
        app.bot_data.metrics = metrics
        if metrics.on:
            await db.trace(metrics.statement)
        repo = Repo(db, now=clock.now)
        directory = Directory(repo, app.bot, clock, settings.default_language)
        outbox = Outbox(repo, app.bot, Pace(group_spacing=60 / settings.group_edits_per_minute,
                                             per_second=settings.sends_per_second * OUTBOX_SHARE,
                                             private_spacing=1 / settings.private_sends_per_second),
                        record=metrics.calls if metrics.on else None)
        service = GameService(repo, directory, outbox, clock, Pacing(
            settings.lobby_timeout, settings.ping_delay, settings.computer_pause, settings.computer_budget_ms,
            settings.review_deals, settings.think_on_idle_cpu))
        service.timers.heartbeat = Heartbeat(settings.health_file)
        if metrics.on:
            service.thinker.record = metrics.thoughts
        token = settings.bot_token.get_secret_value()
        if settings.webapp_url:
            service.links = service.reviewer.links = service.puzzles.links = Links(
                settings.webapp_url, settings.webapp_short_name, token)
            service.directory.menu_url = settings.webapp_url
        stats = StatsService(service.repo, service.directory)
        if settings.webapp_port is not None:
            webapp = WebApp(service, token, max_age=settings.webapp_max_age, max_frame=settings.webapp_max_frame,
                            frames_per_second=settings.webapp_frames_per_second,
                            ack_seconds=settings.webapp_ack_seconds, stats=stats)
            await webapp.start(settings.webapp_host, settings.webapp_port)
            app.bot_data.webapp = webapp
        app.bot_data.service, app.bot_data.outbox, app.bot_data.stats = service, outbox, stats
        for language in LANGUAGES:  # each Telegram client shows the commands in its own language
            commands = [BotCommand(name, what) for name, what in texts.commands(translator(language))]
            await app.bot.set_my_commands(commands, language_code=None if language == "en" else language)
        if settings.webapp_url:  # the private chat's menu button: the player's current game, or a table of his own
            label = translator(settings.default_language).gettext("🃏 Table")
            try:
                await app.bot.set_chat_menu_button(menu_button=MenuButtonWebApp(label, WebAppInfo(settings.webapp_url)))
            except TelegramError as e:
                log.warning("the menu button could not be set (%s): the hands' buttons still open the table", e)
        if shared:  # each process decides the games of its partitions; every call made while it surely leads them
            limiter = app.bot.rate_limiter
            shares = Shares(Leases(str(settings.database)), service, outbox,
                            settings.sends_per_second * OUTBOX_SHARE, lost_leases, settings.webapp_route,
                            limiter if isinstance(limiter, SharedLimiter) else None)
            for request in requests:
                request.fence = shares.confirm
            app.bot_data.shares = shares
            if app.bot_data.webapp is not None:  # a page is served by the process that decides its game
                app.bot_data.webapp.page_route = shares.page_route
        await service.resume(app.bot.username or "")
        if shared:
            await shares.start()
        log.info("durak-bot started as @%s", service.bot_username)
        if hard.__file__ and hard.__file__.endswith(".py"):
            log.info("the rules engine and the computers run as pure Python: the hard computer sees about a third "
                     "as many deals in its time (docs/computers.md); DURAK_COMPILE=1 pip install . "
                     "compiles them, as the Docker image does")

    return post_init


async def _stopping(app: Application) -> None:  # type: ignore[type-arg]
    """Before the HTTP client closes: deliver what is owed (what is not is delivered at the next start). A review
    still being made is dropped: the next start makes it again."""
    service: GameService | None = app.bot_data.service
    if service is not None:
        await service.clock.close()  # no timed work (a turn's end, a computer's move) is decided while stopping
        await service.reviewer.stop()
    shares = app.bot_data.shares
    if shares is not None:  # (bot.run.serve hands them over before; a bot stopped as PTB's run_polling stops one, here)
        await shares.stop(DRAIN_SECONDS)
    outbox: Outbox | None = app.bot_data.outbox
    if outbox is not None and not await outbox.drain(DRAIN_SECONDS):
        log.warning("stopping with messages still owed; they are delivered at the next start")


async def _stopped(app: Application) -> None:  # type: ignore[type-arg]
    """Whatever the start got to is let go. A start ended by the stop signal never reached ``_stopping``: its
    timers and reviews stop here (both stop once, whoever asks first)."""
    service: GameService | None = app.bot_data.service
    if service is not None:
        await service.clock.close()
        await service.reviewer.stop()
    webapp: WebApp | None = app.bot_data.webapp
    if webapp is not None:
        await webapp.stop()  # the pages reconnect by themselves to the next start
    metrics: Metrics | None = app.bot_data.metrics
    if metrics is not None:
        metrics.reviews = service.reviewer.made if service is not None else 0
        metrics.write()
    outbox: Outbox | None = app.bot_data.outbox
    if outbox is not None:
        await outbox.close()
    if service is not None:
        service.thinker.close()
    db: Database | None = app.bot_data.db
    if service is not None and db is not None:
        await service.repo.write_marks()  # the edits Telegram shows, before the connection goes
    if db is not None:
        await db.close()


async def _on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log what identifies the update, never its content (a private message may show a hand)."""
    what = "an update"
    if isinstance(update, Update):
        chat, user = update.effective_chat, update.effective_user
        data = update.callback_query.data if update.callback_query else None
        what = (f"update {update.update_id} (chat {chat.id if chat else None}, user {user.id if user else None}"
                f"{f', button {data!r}' if data else ''})")
    if refused_for_good(context.error):  # one line: Telegram gives the same answer to any retry
        log.warning("%s: Telegram refused the answer (%s); not tried again", what, context.error)
        return
    log.error("%s failed", what, exc_info=context.error)


def allowed_updates() -> list[str]:
    return [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
