"""What the running Application holds (PTB's ``bot_data``), typed: set once at start-up by the app factory, read
by the handlers through ``context.bot_data``."""

from __future__ import annotations

from dataclasses import dataclass

from telegram.ext import CallbackContext, ExtBot

from bot.game.service import GameService
from bot.game.shares import Shares
from bot.ops.metrics import Metrics
from bot.stats.service import StatsService
from bot.transport.outbox import Outbox
from bot.webapp.server import WebApp
from storage.database import Database


@dataclass
class Parts:
    db: Database | None = None
    metrics: Metrics | None = None
    service: GameService | None = None
    outbox: Outbox | None = None
    stats: StatsService | None = None
    webapp: WebApp | None = None
    shares: Shares | None = None  # on PostgreSQL: the partitions this process leads


Context = CallbackContext[ExtBot[None], dict[object, object], dict[object, object], Parts]
