"""Who is who: users, the groups' admins, and the language each reader gets.

Users and languages come from the database and are cached in bounded LRU maps, so a bot that has met
many people keeps only the recent ones in memory. Admin lists come from Telegram
(getChatAdministrators) and are cached for a few minutes; a miss asks Telegram again, so an
admin is never refused because the bot restarted or the list changed.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Generic, TypeVar

from telegram import Bot, MenuButtonWebApp, WebAppInfo
from telegram.error import TelegramError

from bot.game.clock import Clock
from bot.ui.i18n import Translator, pick_language, translator
from storage.models import User
from storage.people import People

log = logging.getLogger(__name__)
K = TypeVar("K")
V = TypeVar("V")
ADMINS_FRESH = 300.0   # seconds an admin list is trusted before a miss asks Telegram again
ADMINS_RETRY = 5.0     # a miss asks Telegram at most this often per chat


class Lru(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> V | None:
        return self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)


class Directory:
    def __init__(self, repo: People, bot: Bot, clock: Clock, default_language: str, size: int = 5000) -> None:
        self.repo = repo
        self.bot = bot
        self.clock = clock
        self.default_language = default_language
        self.users: Lru[int, User] = Lru(size)
        self.menu_url: str | None = None  # the Mini App (WEBAPP_URL): each private chat's menu button opens it
        self._menus: Lru[int, str] = Lru(size)  # user -> the language his chat's menu button was set in here
        self.chat_readers: Lru[int, tuple[str, bool]] = Lru(size)
        self._admins: Lru[int, tuple[frozenset[int], float]] = Lru(size)

    # ------------------------------------------------------------ users

    async def user(self, user_id: int) -> User | None:
        known = self.users.get(user_id)
        if known is None:
            known = await self.repo.user(user_id)
            if known is not None:
                self.users.put(user_id, known)
        return known

    async def see(self, user: User, private_chat: bool | None = None) -> User:
        """Record a user met in an update (name, Telegram language, private chat opened)."""
        known = await self.user(user.id)
        if known and known.name == user.name and known.username == user.username and (
                private_chat is None or known.private_chat == private_chat) and (
                user.telegram_language in (None, known.telegram_language)):
            return known
        stored = await self.repo.save_user(user, private_chat)
        self.users.put(user.id, stored)
        return stored

    async def writable(self, user_id: int) -> User | None:
        """The user, a cached "no private chat" read again: his /start may have been handled by another process
        (the one leading his private chat), and a stale "no" would refuse him a seat or a start. Asked where that
        decides something (Join, Start), not at every press."""
        known = self.users.get(user_id)
        if known is not None and known.private_chat:
            return known
        self.users.pop(user_id)
        return await self.user(user_id)

    async def menu_button(self, user: User) -> None:
        """His private chat's menu button in his language (setChatMenuButton for his chat: the bot's own speaks
        the default language). Set once a language a process, at /start and /language; a failure is logged."""
        language = self.user_language(user)
        if self.menu_url is None or self._menus.get(user.id) == language or (
                language == self.default_language and self._menus.get(user.id) is None):
            return
        label = translator(language).gettext("🃏 Table")
        try:
            await self.bot.set_chat_menu_button(chat_id=user.id, menu_button=MenuButtonWebApp(
                label, WebAppInfo(self.menu_url)))
        except TelegramError as e:
            log.warning("the menu button of user %s could not be set (%s): the bot's own stays", user.id, e)
            return
        self._menus.put(user.id, language)

    async def refresh_user(self, user_id: int) -> None:
        self.users.pop(user_id)
        await self.user(user_id)

    def user_language(self, user: User | None, telegram_code: str | None = None) -> str:
        """His /language, else his Telegram's, else the bot's default."""
        chosen = user.language if user else None
        code = telegram_code or (user.telegram_language if user else None)
        return pick_language(chosen, code, self.default_language)

    def user_tr(self, user: User | None, telegram_code: str | None = None) -> Translator:
        return translator(self.user_language(user, telegram_code), bool(user and user.letters))

    # ------------------------------------------------------------ chats

    async def chat_reading(self, chat_id: int) -> tuple[str, bool]:
        """A chat's language (set by /language, else the default) and whether its cards show the language's
        letters (/letters); a private chat's are its user's, read anew each time (he may change them), unless a
        language was set for the chat itself."""
        known = self.chat_readers.get(chat_id)
        if known is None:
            chat = await self.repo.chat(chat_id)
            if chat.language is None and chat_id > 0:  # a private chat's id is its user's
                user = await self.user(chat_id)
                return self.user_language(user), bool(user and user.letters)
            known = (chat.language or self.default_language, chat.letters)
            self.chat_readers.put(chat_id, known)
        return known

    async def chat_language(self, chat_id: int) -> str:
        return (await self.chat_reading(chat_id))[0]

    async def chat_tr(self, chat_id: int) -> Translator:
        return translator(*await self.chat_reading(chat_id))

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self.repo.set_chat_language(chat_id, language)
        self.chat_readers.pop(chat_id)

    async def set_chat_letters(self, chat_id: int, letters: bool) -> None:
        await self.repo.set_chat_letters(chat_id, letters)
        self.chat_readers.pop(chat_id)

    def chat_moved(self, old_id: int, new_id: int) -> None:
        reading = self.chat_readers.pop(old_id)
        if reading is not None:
            self.chat_readers.put(new_id, reading)
        self._admins.pop(old_id)

    # ------------------------------------------------------------ admins

    def note_admins(self, chat_id: int, admins: set[int]) -> None:
        self._admins.put(chat_id, (frozenset(admins), self.clock.now()))

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user administers the group; a miss on an old list asks Telegram again."""
        cached = self._admins.get(chat_id)
        if cached is not None:
            admins, age = cached[0], self.clock.now() - cached[1]
            if (user_id in admins and age < ADMINS_FRESH) or (user_id not in admins and age < ADMINS_RETRY):
                return user_id in admins
        try:
            members = await self.bot.get_chat_administrators(chat_id)
        except TelegramError as e:
            log.info("chat %s: the admin list could not be read: %s", chat_id, e)
            return cached is not None and user_id in cached[0]
        self.note_admins(chat_id, {m.user.id for m in members})
        return any(m.user.id == user_id for m in members)
