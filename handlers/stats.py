"""/stats, /top, /history, /privacy, /scoring and the leaderboard's page buttons."""

from __future__ import annotations

import contextlib
from typing import cast

from telegram import InputFile, Update
from telegram.error import TelegramError

from bot.callbacks import Press
from bot.stats_service import StatsService
from handlers.commands import in_group
from handlers.common import Context, as_user, is_admin, reader_tr, service_of


def stats_of(context: Context) -> StatsService:
    return cast(StatsService, context.bot_data["stats"])


async def stats(update: Update, context: Context) -> None:
    games, service = service_of(context), stats_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    caller = await games.see_user(as_user(tg_user))
    group = in_group(update)
    tr = await reader_tr(update, context)
    target = caller
    replied = message.reply_to_message.from_user if message.reply_to_message else None
    if replied is not None and not replied.is_bot:
        target = await games.see_user(as_user(replied))
    elif context.args and context.args[0].startswith("@"):
        found = await games.repo.user_by_username(context.args[0])
        if found is None:
            await message.reply_text(tr.gettext("I don't know {name}.").format(name=context.args[0]))
            return
        target = found
    text, chart = await service.stats(tr, chat.id if group else None, target)
    if chart is None:
        await message.reply_text(text)
        return
    await message.reply_photo(InputFile(chart, filename="rating.png"), caption=text)


async def top(update: Update, context: Context) -> None:
    games, service = service_of(context), stats_of(context)
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    tr = await games.chat_tr(chat.id)
    if not in_group(update):
        await message.reply_text(tr.gettext("Ask for /top in a group."))
        return
    chat_wide = not (context.args and context.args[0].lower() == "global")
    text, markup = await service.top(tr, chat.id, chat_wide, 0)
    await message.reply_text(text, reply_markup=markup)


async def top_page(update: Update, context: Context, press: Press) -> None:
    query = update.callback_query
    if query is None or query.message is None:
        return
    await query.answer()
    games = service_of(context)
    chat_id = query.message.chat.id
    text, markup = await stats_of(context).top(await games.chat_tr(chat_id), chat_id, press.arg == "c", press.seq)
    with contextlib.suppress(TelegramError):  # the same page again: nothing to change
        await query.edit_message_text(text, reply_markup=markup)


async def history(update: Update, context: Context) -> None:
    games, service = service_of(context), stats_of(context)
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None or not in_group(update):
        return
    await message.reply_text(await service.history(await games.chat_tr(chat.id), chat.id))


async def privacy(update: Update, context: Context) -> None:
    games, service = service_of(context), stats_of(context)
    message, tg_user = update.effective_message, update.effective_user
    if message is None or tg_user is None:
        return
    user = await games.see_user(as_user(tg_user))
    tr = games.user_tr(user.id)
    if in_group(update):
        await message.reply_text(tr.gettext("Send /privacy to me in a private chat."))
        return
    await message.reply_text(await service.toggle_privacy(tr, user))


async def scoring(update: Update, context: Context) -> None:
    games, service = service_of(context), stats_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None or not in_group(update):
        return
    tr = await games.chat_tr(chat.id)
    choice = context.args[0].lower() if context.args else ""
    if choice and not await is_admin(chat, tg_user.id):
        await message.reply_text(tr.gettext("Only an admin can change how this chat is ranked."))
        return
    await message.reply_text(await service.set_scoring(tr, chat.id, choice))
