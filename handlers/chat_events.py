"""Chat life events: a group becoming a supergroup, a user blocking the bot."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatMemberStatus

from handlers.common import Context, service_of


async def migrated(update: Update, context: Context) -> None:
    message = update.effective_message
    if message is not None and message.migrate_to_chat_id is not None:
        await service_of(context).chats.chat_migrated(message.chat.id, message.migrate_to_chat_id)
    elif message is not None and message.migrate_from_chat_id is not None:
        await service_of(context).chats.chat_arrived(message.chat.id)


async def my_member(update: Update, context: Context) -> None:
    change = update.my_chat_member
    if change is None or change.chat.type != "private":
        return
    if change.new_chat_member.status in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT):
        await service_of(context).chats.user_blocked(change.chat.id)
