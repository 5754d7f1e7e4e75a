"""/season (the current season's table; admins set its length) and /seasons (the closed ones)."""

from __future__ import annotations

from telegram import Update

from handlers.common import Context, in_group, reader_tr, sender_is_admin, service_of
from handlers.stats import stats_of


async def _in_group(update: Update, context: Context) -> bool:
    """Seasons are a group's: elsewhere the command is answered so."""
    message = update.effective_message
    if message is not None and update.effective_chat is not None and not in_group(update):
        tr = await reader_tr(update, context)
        await message.reply_text(tr.gettext("Seasons are a group's: send /season in the group."))
        return False
    return message is not None and update.effective_chat is not None


async def season(update: Update, context: Context) -> None:
    games, stats = service_of(context), stats_of(context)
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None or not await _in_group(update, context):
        return
    tr = await games.directory.chat_tr(chat.id)
    now = games.clock.now()
    if not context.args:
        await message.reply_text(await stats.season(tr, chat.id, now))
        return
    if not await sender_is_admin(update, context):
        await message.reply_text(tr.gettext("Only an admin can change how long seasons last."))
        return
    await message.reply_text(await stats.set_season_length(tr, chat.id, context.args[0].lower()[:20], now))


async def seasons(update: Update, context: Context) -> None:
    games, stats = service_of(context), stats_of(context)
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None or not await _in_group(update, context):
        return
    await message.reply_text(await stats.seasons_closed(await games.directory.chat_tr(chat.id), chat.id))
