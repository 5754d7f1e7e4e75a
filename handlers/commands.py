"""Commands: /newgame, /start (and its join deep link), /help, /rules, /cancel, /language."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType
from telegram.error import TelegramError

from bot import render, texts
from bot.i18n import LANGUAGES
from handlers.common import Context, as_user, is_admin, reader_tr, service_of, thread_of


def in_group(update: Update) -> bool:
    chat = update.effective_chat
    return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


async def newgame(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    user = await service.see_user(as_user(tg_user))
    if not in_group(update):
        await message.reply_text(service.user_tr(user.id).gettext("Start a game in a group: add me there and "
                                                                  "send /newgame."))
        return
    thread = thread_of(update)
    existing = service.open_game_in(chat.id, thread)
    if existing is not None:
        await service.point_to_table(chat.id, thread, existing)
        return
    await refresh_admins(update, context)
    preset = context.args[0].lower() if context.args else None
    game = await service.open_lobby(chat.id, thread, user, preset)
    if game is None:
        existing = service.open_game_in(chat.id, thread)
        if existing is not None:
            await service.point_to_table(chat.id, thread, existing)


async def start(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user = update.effective_message, update.effective_user
    if message is None or tg_user is None:
        return
    private = not in_group(update)
    user = await service.see_user(as_user(tg_user), private_chat=True if private else None)
    tr = service.user_tr(user.id)
    arg = context.args[0] if context.args else ""
    if private and arg.startswith("join_") and arg[5:].isdigit():
        await message.reply_text(await service.join(int(arg[5:]), user))
        return
    await message.reply_text(texts.help_text(tr))


async def help_command(update: Update, context: Context) -> None:
    message = update.effective_message
    if message is None:
        return
    await message.reply_text(texts.help_text(await reader_tr(update, context)))


async def rules(update: Update, context: Context) -> None:
    service = service_of(context)
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    here = chat.id if in_group(update) else None
    table_rules = await service.table_rules(here, thread_of(update))
    await message.reply_text(render.rules_text(await reader_tr(update, context), table_rules))


async def cancel(update: Update, context: Context) -> None:
    await _as_group_player(update, context, "cancel")


async def _as_group_player(update: Update, context: Context, what: str) -> None:
    """/cancel and /stop: the service decides what the sender may do; a reply only if nothing happened."""
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None or not in_group(update):
        return
    user = await service.see_user(as_user(tg_user))
    await refresh_admins(update, context)
    command = service.cancel_command if what == "cancel" else service.stop_command
    reply = await command(chat.id, thread_of(update), user)
    if reply:
        await message.reply_text(reply)


async def language(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    user = await service.see_user(as_user(tg_user))
    choice = context.args[0].lower() if context.args else ""
    if in_group(update):
        tr = await service.chat_tr(chat.id)
        if choice not in LANGUAGES:
            await message.reply_text(tr.gettext("Use /language ru or /language en."))
            return
        if not await is_admin(chat, user.id):
            await message.reply_text(tr.gettext("Only an admin can change the group's language."))
            return
        await service.set_chat_language(chat.id, choice)
        await message.reply_text((await service.chat_tr(chat.id)).gettext("Done: I will speak English here."))
        return
    if choice not in LANGUAGES:
        await message.reply_text(service.user_tr(user.id).gettext("Use /language ru or /language en."))
        return
    await service.set_user_language(user.id, choice)
    await message.reply_text(service.user_tr(user.id).gettext("Done: I will speak English with you."))


async def refresh_admins(update: Update, context: Context) -> None:
    """Note the group's admins: they may cancel, stop and kick without being the creator."""
    chat = update.effective_chat
    if chat is None or not in_group(update):
        return
    try:
        admins = await chat.get_administrators()
        await service_of(context).set_admins(chat.id, {a.user.id for a in admins})
    except TelegramError:
        pass


async def stop(update: Update, context: Context) -> None:
    await _as_group_player(update, context, "stop")


async def leave(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    user = await service.see_user(as_user(tg_user))
    reply = await service.leave_command(chat.id, thread_of(update), user, private=not in_group(update))
    if reply:
        await message.reply_text(reply)


async def kick(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None or not in_group(update):
        return
    user = await service.see_user(as_user(tg_user))
    target = message.reply_to_message.from_user if message.reply_to_message else None
    if target is None:
        tr = await service.chat_tr(chat.id)
        await message.reply_text(tr.gettext("Reply with /kick to a message of the player to remove, or use the "
                                            "buttons in the lobby's Settings."))
        return
    await refresh_admins(update, context)
    await message.reply_text(await service.kick_command(chat.id, thread_of(update), user, target.id))
