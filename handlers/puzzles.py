"""/puzzle and its answer buttons: positions from the player's own reviewed games (bot.game.puzzles)."""

from __future__ import annotations

import contextlib
import logging

from telegram import InlineKeyboardMarkup, Update
from telegram.error import BadRequest, TelegramError

from bot.ui.callbacks import Press
from handlers.common import Context, as_user, in_group, reader_tr, service_of

log = logging.getLogger(__name__)


async def puzzle(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user = update.effective_message, update.effective_user
    if message is None or tg_user is None:
        return
    tr = await reader_tr(update, context)
    if in_group(update):
        await message.reply_text(tr.gettext("Puzzles come in private: send /puzzle in a private chat with me."))
        return
    user = await service.directory.see(as_user(tg_user))
    text, rows = await service.puzzles.next(service.directory.user_tr(user, tg_user.language_code), user.id)
    await message.reply_text(text, reply_markup=InlineKeyboardMarkup.de_json({"inline_keyboard": rows}, None)
                             if rows else None)


async def puzzle_press(update: Update, context: Context, press: Press) -> None:
    """An answer (or "next puzzle") pressed under a puzzle: the message becomes the verdict, or the next one."""
    query = update.callback_query
    if query is None or query.message is None:
        return
    service = service_of(context)
    user = await service.directory.see(as_user(query.from_user))
    tr = service.directory.user_tr(user, query.from_user.language_code)
    if query.message.chat.id != user.id:  # a puzzle lives in its player's private chat: forged on any other message
        with contextlib.suppress(TelegramError):
            await query.answer(tr.gettext("This button is not valid any more."))
        return
    if press.arg == "next":
        text, rows = await service.puzzles.next(tr, user.id)
        toast = None
    else:
        shown, rows, toast = await service.puzzles.answer(tr, user.id, press.game, press.seq, press.arg)
        text = shown or ""
    with contextlib.suppress(TelegramError):
        await query.answer(toast)
    if text:
        markup = InlineKeyboardMarkup.de_json({"inline_keyboard": rows}, None) if rows else None
        try:
            await query.edit_message_text(text, reply_markup=markup)
        except BadRequest:  # the same text again: nothing to change
            pass
        except TelegramError as e:  # the answer is kept: his next tap on the puzzle shows its verdict
            log.info("a puzzle's verdict for user %s was not shown: %s", user.id, e)
