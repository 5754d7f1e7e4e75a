"""/tournament: how the group's tournament stands; admins (or anyone, with their leave: /tournament anyone) open one
(/tournament 60), and an admin or its opener ends it (/tournament stop)."""

from __future__ import annotations

from telegram import Update

from bot.game.tournaments import ADMINS, ANYONE
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
    if anonymous_admin(update):  # sent as the group: nobody to seat, nobody to answer for it
        await message.reply_text(tr.gettext("Send it as yourself, not as the group, to open or end a tournament."))
        return
    admin = await sender_is_admin(update, context)
    choice = args[0].lower()
    answer: str | None
    if choice in ANYONE + ADMINS:
        answer = await games.tournaments.leave(tr, chat.id, choice) if admin else \
            tr.gettext("Only an admin can say who may open a tournament.")
    elif choice == "stop":
        answer = await games.tournaments.stop(tr, chat.id, tg_user.id, admin)
    else:
        creator = await games.directory.see(as_user(tg_user))
        answer = await games.tournaments.open(tr, chat.id, thread_of(update), creator, args, chat.title or "",
                                              admin, bool(chat.is_forum))
    if answer:
        await message.reply_text(answer)
