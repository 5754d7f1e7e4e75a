"""Inline buttons: answer at once (a toast, or the join deep link), then let the service act."""

from __future__ import annotations

import logging

from telegram import Update

from bot.callbacks import Verb, decode
from handlers import stats
from handlers.common import Context, as_user, service_of

log = logging.getLogger(__name__)


async def on_button(update: Update, context: Context) -> None:
    query = update.callback_query
    if query is None:
        return
    service = service_of(context)
    press = decode(query.data)
    if press is None:
        log.info("ignored a forged or foreign button from user %s: %r", query.from_user.id, query.data)
        await query.answer(service.user_tr(query.from_user.id, query.from_user.language_code)
                           .gettext("This button is not valid any more."))
        return
    if press.verb is Verb.TOP:
        await stats.top_page(update, context, press)
        return
    message = query.message
    where = None if message is None else (message.chat.id, getattr(message, "message_thread_id", None) or 0)
    decision = service.decide(press, query.from_user.id, query.from_user.language_code, where)
    await query.answer(decision.toast, url=decision.url)
    if decision.intent is not None:
        user = await service.see_user(as_user(query.from_user))
        await service.execute(press, user)
