"""What every handler needs: the service, and the Telegram user as ours."""

from __future__ import annotations

from typing import cast

from telegram import Chat, Update
from telegram import User as TgUser
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.i18n import Translator
from bot.service import GameService
from storage.models import User

Context = ContextTypes.DEFAULT_TYPE


def service_of(context: Context) -> GameService:
    return cast(GameService, context.bot_data["service"])


def as_user(user: TgUser) -> User:
    return User(user.id, user.full_name, user.username, telegram_language=user.language_code)


def thread_of(update: Update) -> int:
    message = update.effective_message
    if message is None or not message.is_topic_message:
        return 0
    return message.message_thread_id or 0


async def reader_tr(update: Update, context: Context) -> Translator:
    """The language of whoever reads the answer: the group's in a group, the user's in private."""
    service = service_of(context)
    chat, user = update.effective_chat, update.effective_user
    if chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP):
        return await service.chat_tr(chat.id)
    return service.user_tr(user.id if user else 0, user.language_code if user else None)


async def is_admin(chat: Chat, user_id: int) -> bool:
    """Whether the user administers the group (a failed look-up counts as no)."""
    try:
        member = await chat.get_member(user_id)
    except TelegramError:
        return False
    return member.status in ("creator", "administrator")
