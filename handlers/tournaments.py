"""/tournament: how the group's tournament stands; admins open one (/tournament 60) or end it (/tournament stop)."""

from __future__ import annotations

from telegram import Update

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


async def tournament(update: Update, context: Context) -> None:
    games = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    if not in_group(update):
        tr = await reader_tr(update, context)
        await message.reply_text(tr.gettext("Tournaments are a group's: send /tournament in the group."))
        return
    tr = await games.directory.chat_tr(chat.id)
    args = [a for a in (context.args or []) if a][:3]
    if not args:
        await message.reply_text(await games.tournaments.standing(tr, chat.id))
        return
    if anonymous_admin(update) or not await sender_is_admin(update, context):
        await message.reply_text(tr.gettext("Only an admin can open or end a tournament."))
        return
    if args[0].lower() == "stop":
        answer = await games.tournaments.stop(tr, chat.id)
    else:
        creator = await games.directory.see(as_user(tg_user))
        answer = await games.tournaments.open(tr, chat.id, thread_of(update), creator, args, chat.title or "")
    if answer:
        await message.reply_text(answer)
