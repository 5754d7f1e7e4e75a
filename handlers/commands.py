"""Commands: /newgame, /start (and its join deep link), /help, /rules, /cancel, /stop, /leave, /kick, /hand,
/notify, /language."""

from __future__ import annotations

import re

from telegram import ReplyParameters, Update
from telegram.constants import ChatType

from bot.game import lobby
from bot.ui import render, texts, variants
from bot.ui.i18n import LANGUAGES, N_
from handlers.common import (
    Context,
    anonymous_admin,
    as_user,
    in_group,
    reader_tr,
    sender_is_admin,
    service_of,
    thread_of,
)

JOIN_LINK = re.compile(r"join_([0-9]{1,12})")


async def newgame(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    solo = chat.type == ChatType.PRIVATE  # a table of one person and computers, in his private chat
    if not in_group(update) and not solo:
        tr = await reader_tr(update, context)
        await message.reply_text(tr.gettext("Start a game in a group: add me there and send /newgame."))
        return
    tr = await service.directory.chat_tr(chat.id)
    if anonymous_admin(update) or tg_user.is_bot:  # the group itself, or a bot, can never sit at the table
        await message.reply_text(tr.gettext("Anonymous admins can't play: send /newgame as yourself."))
        return
    user = await service.directory.see(as_user(tg_user), private_chat=True if solo else None)
    thread = thread_of(update)
    if service.store.open_in(chat.id, thread) is None:
        wanted = " ".join(context.args or [])
        preset = lobby.find_preset(wanted) if wanted else None
        if wanted and preset is None:
            await message.reply_text(lobby.unknown_game(tr, wanted))
            return
        title = "" if solo else chat.title or ""
        if await service.lobbies.open_lobby(chat.id, thread, user, preset, title=title) is not None:
            return
    answer, table = service.commands.point_to_open_game(chat.id, thread)
    if not answer:
        return
    reply = ReplyParameters(table, allow_sending_without_reply=True) if table else None
    await message.reply_text(tr.gettext("A game is already open here: see the message above."), reply_parameters=reply)


async def start(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user = update.effective_message, update.effective_user
    if message is None or tg_user is None:
        return
    private = not in_group(update)
    user = await service.directory.see(as_user(tg_user), private_chat=True if private else None)
    tr = service.directory.user_tr(user)
    arg = context.args[0] if context.args else ""
    link = JOIN_LINK.fullmatch(arg)
    if private:
        await service.directory.menu_button(user)
    if private and link:
        await message.reply_text(await service.lobbies.join(int(link.group(1)), user))
        return
    await message.reply_text(texts.help_text(tr))


async def hand(update: Update, context: Context) -> None:
    """/hand in private: post your hand again at the bottom of the chat (say, after deleting it)."""
    service = service_of(context)
    message, tg_user = update.effective_message, update.effective_user
    if message is None or tg_user is None:
        return
    user = await service.directory.see(as_user(tg_user), private_chat=True if not in_group(update) else None)
    tr = service.directory.user_tr(user)
    if in_group(update):
        await message.reply_text(tr.gettext("Send /hand to me in our private chat."))
        return
    if not await service.commands.resend_hands(user):
        await message.reply_text(tr.gettext("You are not in a running game."))


async def help_command(update: Update, context: Context) -> None:
    message = update.effective_message
    if message is None:
        return
    tr = await reader_tr(update, context)
    if in_group(update):  # the group gets the short list; the details belong in private
        username = service_of(context).bot_username
        await message.reply_text(texts.group_help(tr, f"https://t.me/{username}?start=help"))
    else:
        await message.reply_text(texts.help_text(tr))


async def rules(update: Update, context: Context) -> None:
    service = service_of(context)
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    here, thread = chat.id, thread_of(update)  # a private chat has its table too: one against computers
    table_rules = await service.table_rules(here, thread)
    opened = service.store.open_in(here, thread) is not None
    await message.reply_text(render.rules_text(await reader_tr(update, context), table_rules, opened))


async def variants_command(update: Update, context: Context) -> None:
    message = update.effective_message
    if message is not None:
        await message.reply_text(variants.variants_text(await reader_tr(update, context)))


async def cancel(update: Update, context: Context) -> None:
    await _as_group_player(update, context, "cancel")


async def stop(update: Update, context: Context) -> None:
    await _as_group_player(update, context, "stop")


async def _as_group_player(update: Update, context: Context, what: str) -> None:
    """/cancel and /stop: the service decides what the sender may do; a reply only if nothing happened."""
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None or not in_group(update):
        return
    user = await service.directory.see(as_user(tg_user))
    admin = await sender_is_admin(update, context)
    command = service.commands.cancel_command if what == "cancel" else service.votes.stop_command
    reply = await command(chat.id, thread_of(update), user, admin)
    if reply:
        await message.reply_text(reply)


CHOOSE_LANGUAGE = N_("Choose a language: /language ru, /language uk, /language de or /language en.")


async def language(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    user = await service.directory.see(as_user(tg_user))
    choice = context.args[0].lower() if context.args else ""
    if in_group(update):
        tr = await service.directory.chat_tr(chat.id)
        if choice not in LANGUAGES:
            await message.reply_text(tr.gettext(CHOOSE_LANGUAGE))
            return
        if not await sender_is_admin(update, context):
            await message.reply_text(tr.gettext("Only an admin can change the group's language."))
            return
        await service.chats.set_chat_language(chat.id, choice)
        await message.reply_text((await service.directory.chat_tr(chat.id)).gettext("Done: I will speak English here."))
        return
    if choice not in LANGUAGES:
        await message.reply_text(service.directory.user_tr(user).gettext(CHOOSE_LANGUAGE))
        return
    await service.chats.set_user_language(user.id, choice)
    user = await service.directory.user(user.id) or user
    await message.reply_text(service.directory.user_tr(user).gettext("Done: I will speak English with you."))
    await service.directory.menu_button(user)


async def letters(update: Update, context: Context) -> None:
    """/letters on|off: the face cards in the reader's language's letters (В Д К Т, B D K A) or J Q K A; in a
    group its admins choose for the table, in private each player for his hand."""
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    user = await service.directory.see(as_user(tg_user))
    choice = context.args[0].lower() if context.args else ""
    group = in_group(update)
    tr = await service.directory.chat_tr(chat.id) if group else service.directory.user_tr(user)
    if choice in ("on", "off"):
        if group and not await sender_is_admin(update, context):
            await message.reply_text(tr.gettext("Only an admin can change how the group's cards are written."))
            return
        if group:
            await service.chats.set_chat_letters(chat.id, choice == "on")
            tr = await service.directory.chat_tr(chat.id)
        else:
            await service.chats.set_letters(user.id, choice == "on")
            tr = service.directory.user_tr(await service.directory.user(user.id) or user)
    await message.reply_text(texts.letters_text(tr))


async def leave(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    user = await service.directory.see(as_user(tg_user))
    reply = await service.commands.leave_command(chat.id, thread_of(update), user, private=not in_group(update))
    if reply and in_group(update):  # everyone reads it there: it says whom it answers, under his /leave
        tr = await service.directory.chat_tr(chat.id)
        await message.reply_text(tr.gettext("{name}: {answer}").format(name=user.name, answer=reply),
                                 reply_parameters=ReplyParameters(message.message_id,
                                                                  allow_sending_without_reply=True))
    elif reply:
        await message.reply_text(reply)


async def kick(update: Update, context: Context) -> None:
    service = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None or not in_group(update):
        return
    user = await service.directory.see(as_user(tg_user))
    target = message.reply_to_message.from_user if message.reply_to_message else None
    if target is None:
        tr = await service.directory.chat_tr(chat.id)
        await message.reply_text(tr.gettext("Reply with /kick to a message of the player to remove, or use the "
                                            "buttons in the lobby's Settings."))
        return
    admin = await sender_is_admin(update, context)
    await message.reply_text(await service.commands.kick_command(chat.id, thread_of(update), user, target.id, admin))


async def notify(update: Update, context: Context) -> None:
    """/notify on|off: a new private message when it is your turn (on by default)."""
    service = service_of(context)
    message, tg_user = update.effective_message, update.effective_user
    if message is None or tg_user is None:
        return
    user = await service.directory.see(as_user(tg_user))
    tr = await reader_tr(update, context)
    choice = (context.args[0].lower() if context.args else "")
    if choice not in ("on", "off"):
        await message.reply_text(tr.gettext("Turn pings are on for you. /notify off stops them.") if user.notify
                                 else tr.gettext("Turn pings are off for you. /notify on brings them back."))
        return
    await service.chats.set_notify(user.id, choice == "on")
    await message.reply_text(tr.gettext("I will tell you when it is your turn.") if choice == "on"
                             else tr.gettext("No more turn pings: your cards still show when it is your turn."))
