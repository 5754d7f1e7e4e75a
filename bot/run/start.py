"""The bot's run, once its settings are known good (``bot.__main__``): the database checked, then the bot online
until it is stopped. Whatever stops the start ends it with one clear line and a non-zero exit code."""

from __future__ import annotations

import asyncio
import faulthandler
import gc
import logging
import signal
import sys

from aiohttp.http_exceptions import HttpProcessingError
from telegram.error import InvalidToken, NetworkError, TelegramError

from bot.app import build_application
from bot.run import serve
from bot.settings import Settings
from bot.transport.http import let_go_all
from storage.database import open_database
from storage.sqlite import DatabaseError


class _NoTraceback(logging.Filter):
    """PTB's retry loop logs each failed network attempt with a long traceback: one line is enough."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Network Retry Loop"):
            record.exc_info, record.exc_text = None, None
        return True


class _MalformedHttp(logging.Filter):
    """aiohttp logs a request it could not even parse (no Host, a line too long, both Content-Length and
    Transfer-Encoding) with a traceback, and anyone can send one, no secret needed: one warning line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            why = str(error.message).strip().splitlines()[0] if error.message else type(error).__name__
            record.msg, record.args = "a malformed HTTP request was refused (%s %s)", (error.code, why[:200])
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


async def _check_database(settings: Settings) -> None:
    """Open (create, migrate) the database once before going online: a bad file fails at once."""
    db = await open_database(settings.database)
    await db.close()


def _tune_gc() -> None:
    """Every press allocates thousands of short-lived objects (the update, requests, rows, texts) and almost
    no cycles, and the start leaves tens of thousands of long-lived ones (modules, translations, tables):
    the collector is told to leave the latter alone (``freeze``) and to run a tenth as often: less CPU per press
    and quicker answers under load (docs/performance.md, "Under load")."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def run(settings: Settings) -> int:
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("telegram.ext").addFilter(_NoTraceback())
    logging.getLogger("aiohttp.server").addFilter(_MalformedHttp())
    # `kill -USR1` writes every thread's stack to stderr, even while the event loop is stuck
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    try:
        asyncio.run(_check_database(settings))
    except DatabaseError as e:
        print(f"durak-bot cannot start: {e}", file=sys.stderr)
        return 3
    app = build_application(settings)
    _tune_gc()
    try:  # PTB retries network errors at start (bootstrap_retries), doubling the wait up to 30 s
        asyncio.run(serve.serve(app, settings))  # bot/run/serve.py says why not PTB's run_webhook/run_polling
    except DatabaseError as e:
        print(f"durak-bot cannot start: {e}", file=sys.stderr)
        return 3
    except InvalidToken:
        print("durak-bot cannot start: Telegram refused BOT_TOKEN (revoked or mistyped); get it again from "
              "@BotFather.", file=sys.stderr)
        return 2
    except NetworkError as e:
        print(f"durak-bot cannot start: Telegram at {settings.telegram_api_url} could not be reached "
              f"after {settings.startup_retries} retries ({e}). Check this machine's network (a firewall, DNS). The "
              f"bot uses no proxy: where Telegram cannot be reached directly, run a Bot API server it can reach and "
              f"set TELEGRAM_API_URL to it.", file=sys.stderr)
        return 4
    except TelegramError as e:
        print(f"durak-bot cannot start: Telegram refused the start ({e}).", file=sys.stderr)
        return 4
    finally:
        let_go_all()
    return 0

