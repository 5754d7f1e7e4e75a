"""Inline buttons: the service decides and acts under the game's lock, then the press is answered.

An answer that fails (a press older than Telegram's answer window, say after a restart) never
undoes or drops the move: the move is made first, the answer is a courtesy.
"""

from __future__ import annotations

import contextlib
import logging
import time

from telegram import CallbackQuery, Update
from telegram.error import TelegramError

from bot.ui.callbacks import Verb, decode
from handlers import puzzles, stats
from handlers.common import Context, as_user, metrics_of, service_of

log = logging.getLogger(__name__)


async def on_button(update: Update, context: Context) -> None:
    query = update.callback_query
    if query is None:
        return
    started = time.monotonic()
    service = service_of(context)
    with service.thinker.press():  # a computer's search steps aside until the press is answered
        await _answer(update, context, query, started)


async def _answer(update: Update, context: Context, query: CallbackQuery, started: float) -> None:
    service = service_of(context)
    user = await service.directory.see(as_user(query.from_user))
    tr = service.directory.user_tr(user, query.from_user.language_code)
    press = decode(query.data)
    message = query.message
    where = None if message is None else (message.chat.id, message.message_id)
    if press is None:
        log.info("ignored a forged or foreign button from user %s: %r", query.from_user.id, query.data)
        with contextlib.suppress(TelegramError):
            await query.answer(tr.gettext("This button is not valid any more."))
        return
    if press.verb is Verb.TOP:
        await stats.top_page(update, context, press, where)
        return
    if press.verb is Verb.PUZZLE:
        await puzzles.puzzle_press(update, context, press)
        return
    if press.verb is Verb.TOURNAMENT:
        toast = await service.tournaments.press(tr, press, user, where)
        with contextlib.suppress(TelegramError):
            await query.answer(toast)
        return
    decision = await service.press(press, user, where, query.from_user.language_code)
    decided = time.monotonic()
    try:
        await query.answer(decision.toast, url=decision.url)
    except TelegramError as e:
        log.info("the answer to a press of user %s failed (the move stands): %s", user.id, e)
    metrics_of(context).handled(started, decided, press.verb.name)
