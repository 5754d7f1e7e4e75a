"""What every handler needs: the service, the Telegram user as ours, the reader's language, admin checks."""

from __future__ import annotations

from telegram import Update
from telegram import User as TgUser
from telegram.constants import ChatType

from bot.game.service import GameService
from bot.ops.metrics import Metrics
from bot.parts import Context as Context
from bot.ui.i18n import Translator
from storage.models import User

MAX_USERNAME = 32  # Telegram usernames have at most 32 characters
NO_METRICS = Metrics(None)


def service_of(context: Context) -> GameService:
    service = context.bot_data.service
    assert service is not None, "updates are handled only after start-up has made the service"
    return service


def metrics_of(context: Context) -> Metrics:
    return context.bot_data.metrics or NO_METRICS


def as_user(user: TgUser) -> User:
    return User(user.id, user.full_name, user.username, telegram_language=user.language_code)


def in_group(update: Update) -> bool:
    chat = update.effective_chat
    return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


def thread_of(update: Update) -> int:
    message = update.effective_message
    if message is None or not message.is_topic_message:
        return 0
    return message.message_thread_id or 0


async def reader_tr(update: Update, context: Context) -> Translator:
    """The language of whoever reads the answer: the group's in a group, the user's in private."""
    directory = service_of(context).directory
    chat, user = update.effective_chat, update.effective_user
    if chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP):
        return await directory.chat_tr(chat.id)
    return directory.user_tr(await directory.user(user.id) if user else None, user.language_code if user else None)


def anonymous_admin(update: Update) -> bool:
    """A message sent as the group itself: only an anonymous admin can do that."""
    message, chat = update.effective_message, update.effective_chat
    return bool(message and chat and message.sender_chat and message.sender_chat.id == chat.id)


async def sender_is_admin(update: Update, context: Context) -> bool:
    """Whether the sender administers the group: an anonymous admin, or one in the (refreshed) admin list."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return False
    if anonymous_admin(update):
        return True
    return await service_of(context).directory.is_admin(chat.id, user.id)
