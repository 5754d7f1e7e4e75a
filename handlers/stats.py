"""/stats, /top, /history, /privacy, /scoring and the leaderboard's page buttons."""

from __future__ import annotations

import contextlib

from telegram import InlineKeyboardMarkup, InputFile, Update
from telegram.error import TelegramError

from bot.game import lobby
from bot.stats.service import StatsService
from bot.ui.callbacks import Press
from handlers.common import MAX_USERNAME, Context, as_user, in_group, reader_tr, sender_is_admin, service_of


def stats_of(context: Context) -> StatsService:
    stats = context.bot_data.stats
    assert stats is not None, "updates are handled only after start-up has made the stats service"
    return stats


async def stats(update: Update, context: Context) -> None:
    games, service = service_of(context), stats_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    caller = await games.directory.see(as_user(tg_user))
    group = in_group(update)
    tr = await reader_tr(update, context)
    target = caller
    args = list(context.args or [])
    preset = lobby.find_preset(" ".join(a for a in args if not a.startswith("@"))) if args else None
    if args and preset is None and not all(a.startswith("@") for a in args):
        await message.reply_text(lobby.unknown_game(tr, " ".join(a for a in args if not a.startswith("@"))))
        return
    replied = message.reply_to_message.from_user if message.reply_to_message else None
    if replied is not None and not replied.is_bot:
        target = await games.directory.see(as_user(replied))
    elif args and any(a.startswith("@") for a in args):
        name = next(a for a in args if a.startswith("@"))
        found = await service.named(name) if len(name) <= MAX_USERNAME + 1 else None
        if found is None:
            shown = name if len(name) <= MAX_USERNAME + 1 else name[:MAX_USERNAME] + "…"
            await message.reply_text(tr.gettext("I don't know {name}.").format(name=shown))
            return
        target = found
    text, chart = await service.stats(tr, chat.id if group else None, target, preset)
    if chart is None:
        await message.reply_text(text)
        return
    await message.reply_photo(InputFile(chart, filename="rating.png"), caption=text)


async def top(update: Update, context: Context) -> None:
    service = stats_of(context)
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    tr = await reader_tr(update, context)
    if not in_group(update):
        await message.reply_text(tr.gettext("Ask for /top in a group."))
        return
    chat_wide = not (context.args and context.args[0].lower() == "global")
    text, markup = await service.top(tr, chat.id, chat_wide, 0)
    sent = await message.reply_text(text, reply_markup=markup)
    if markup is not None:  # its page buttons count on this message only
        await service.keep_leaderboard(chat.id, sent.message_id)


async def top_page(update: Update, context: Context, press: Press, where: tuple[int, int] | None) -> None:
    """A leaderboard page button: valid only on a leaderboard message the bot sent."""
    query = update.callback_query
    if query is None or query.message is None:
        return
    games, service = service_of(context), stats_of(context)
    if where is None or not await service.is_leaderboard(*where):
        tr = games.directory.user_tr(await games.directory.user(query.from_user.id), query.from_user.language_code)
        with contextlib.suppress(TelegramError):
            await query.answer(tr.gettext("This button is not valid any more."))
        return
    with contextlib.suppress(TelegramError):
        await query.answer()
    chat_id = where[0]
    text, markup = await service.top(await games.directory.chat_tr(chat_id), chat_id, press.arg == "c",
                                               press.seq)
    with contextlib.suppress(TelegramError):  # the same page again: nothing to change
        await query.edit_message_text(text, reply_markup=markup)


async def history(update: Update, context: Context) -> None:
    """In a group: its last games. In private: the sender's last games with their reviews."""
    games, service = service_of(context), stats_of(context)
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or user is None:
        return
    tr = await reader_tr(update, context)
    if in_group(update):
        text = await service.history(tr, chat.id)
        mine = tr.gettext("📊 Your own games and their reviews: /history in a private chat with me.")
        await message.reply_text(f"{text}\n\n{mine}")
        return
    text, rows = await games.reviewer.history(tr, user.id)
    await message.reply_text(text, reply_markup=InlineKeyboardMarkup.de_json({"inline_keyboard": rows}, None)
                             if rows else None)


async def privacy(update: Update, context: Context) -> None:
    games, service = service_of(context), stats_of(context)
    message, tg_user = update.effective_message, update.effective_user
    if message is None or tg_user is None:
        return
    user = await games.directory.see(as_user(tg_user))
    tr = games.directory.user_tr(user)
    if in_group(update):
        await message.reply_text(tr.gettext("Send /privacy to me in a private chat."))
        return
    await message.reply_text(await service.toggle_privacy(tr, user))


async def scoring(update: Update, context: Context) -> None:
    games, service = service_of(context), stats_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None or not in_group(update):
        return
    tr = await games.directory.chat_tr(chat.id)
    choice = context.args[0].lower() if context.args else ""
    if choice and not await sender_is_admin(update, context):
        await message.reply_text(tr.gettext("Only an admin can change how this chat is ranked."))
        return
    await message.reply_text(await service.set_scoring(tr, chat.id, choice))


async def badges(update: Update, context: Context) -> None:
    """/badges: every badge and which the sender has."""
    games, service = service_of(context), stats_of(context)
    message, tg_user = update.effective_message, update.effective_user
    if message is None or tg_user is None:
        return
    caller = await games.directory.see(as_user(tg_user))
    await message.reply_text(await service.badges(await reader_tr(update, context), caller))


async def picture(update: Update, context: Context) -> None:
    """/picture on|off in a group (admins): a result card under each result."""
    games, service = service_of(context), stats_of(context)
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    tr = await reader_tr(update, context)
    if not in_group(update):
        await message.reply_text(tr.gettext("Result pictures are a group's: send /picture in the group."))
        return
    tr = await games.directory.chat_tr(chat.id)
    choice = context.args[0].lower() if context.args else ""
    if choice and not await sender_is_admin(update, context):
        await message.reply_text(tr.gettext("Only an admin can turn the result pictures on or off."))
        return
    await message.reply_text(await service.set_pictures(tr, chat.id, choice))
