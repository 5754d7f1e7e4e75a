"""Users (names, languages, whether the bot may write to them, their choices) and chats (language, default rules,
scoring system)."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from durak import Rules, RulesError
from storage.models import ChatSettings, User
from storage.rows import Rows, rules_json, user_of

log = logging.getLogger(__name__)


class People(Rows):
    async def save_user(self, user: User, private_chat: bool | None = None) -> User:
        """Insert or refresh a user's name; ``private_chat`` True marks the private chat as open."""
        async with self.db.write() as conn:
            await conn.execute(
                "INSERT INTO users (id, name, username, telegram_language, private_chat, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET name = excluded.name, username = excluded.username, "
                "telegram_language = COALESCE(excluded.telegram_language, users.telegram_language), "
                "private_chat = CASE WHEN excluded.private_chat > users.private_chat THEN excluded.private_chat "
                "ELSE users.private_chat END, updated_at = excluded.updated_at",
                (user.id, user.name, user.username, user.telegram_language, int(bool(private_chat)), self.now()),
            )
            if private_chat is False:
                await conn.execute("UPDATE users SET private_chat = 0 WHERE id = ?", (user.id,))
        stored = await self.user(user.id)
        assert stored is not None
        return stored

    async def user(self, user_id: int) -> User | None:
        row = await self.db.one("SELECT * FROM users WHERE id = ?", (user_id,))
        return None if row is None else user_of(row)

    async def set_user_language(self, user_id: int, language: str) -> None:
        async with self.db.write() as conn:
            await conn.execute("UPDATE users SET language = ? WHERE id = ?", (language, user_id))

    async def set_notify(self, user_id: int, notify: bool) -> None:
        async with self.db.write() as conn:
            await conn.execute("UPDATE users SET notify = ? WHERE id = ?", (int(notify), user_id))

    async def set_letters(self, user_id: int, letters: bool) -> None:
        async with self.db.write() as conn:
            await conn.execute("UPDATE users SET letters = ? WHERE id = ?", (int(letters), user_id))

    async def set_hidden(self, user_id: int, hidden: bool) -> None:
        async with self.db.write() as conn:
            await conn.execute("UPDATE users SET hidden = ? WHERE id = ?", (int(hidden), user_id))

    async def user_by_username(self, username: str) -> User | None:
        row = await self.db.one("SELECT * FROM users WHERE lower(username) = lower(?)", (username.lstrip("@"),))
        return None if row is None else user_of(row)

    async def users_by_ids(self, user_ids: Sequence[int]) -> dict[int, User]:
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.db.all(f"SELECT * FROM users WHERE id IN ({marks})", tuple(user_ids))
        return {r["id"]: user_of(r) for r in rows}

    async def chat(self, chat_id: int) -> ChatSettings:
        row = await self.db.one("SELECT * FROM chats WHERE id = ?", (chat_id,))
        if row is None:
            return ChatSettings(chat_id)
        rules = None
        if row["rules"]:
            try:
                rules = Rules.from_dict(json.loads(row["rules"]))
            except (ValueError, RulesError) as e:
                log.error("chat %s: stored default rules are unreadable (%s); using the defaults", chat_id, e)
        return ChatSettings(chat_id, row["language"], rules, row["max_players"], row["scoring"], row["turn_timeout"],
                            bool(row["letters"]), row["season"], bool(row["pictures"]),
                            bool(row["tournaments_open"]))

    async def save_chat_defaults(self, chat_id: int, rules: Rules, max_players: int, turn_timeout: int) -> None:
        async with self.db.write() as conn:
            await conn.execute(
                "INSERT INTO chats (id, rules, max_players, turn_timeout) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET rules = excluded.rules, max_players = excluded.max_players, "
                "turn_timeout = excluded.turn_timeout",
                (chat_id, rules_json(rules), max_players, turn_timeout),
            )

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        async with self.db.write() as conn:
            await conn.execute(
                "INSERT INTO chats (id, language) VALUES (?, ?) "
                "ON CONFLICT (id) DO UPDATE SET language = excluded.language",
                (chat_id, language),
            )

    async def set_chat_letters(self, chat_id: int, letters: bool) -> None:
        async with self.db.write() as conn:
            await conn.execute("INSERT INTO chats (id, letters) VALUES (?, ?) "
                               "ON CONFLICT (id) DO UPDATE SET letters = excluded.letters", (chat_id, int(letters)))

    async def set_chat_pictures(self, chat_id: int, pictures: bool) -> None:
        async with self.db.write() as conn:
            await conn.execute("INSERT INTO chats (id, pictures) VALUES (?, ?) "
                               "ON CONFLICT (id) DO UPDATE SET pictures = excluded.pictures", (chat_id, int(pictures)))

    async def set_chat_tournaments_open(self, chat_id: int, anyone: bool) -> None:
        async with self.db.write() as conn:
            await conn.execute("INSERT INTO chats (id, tournaments_open) VALUES (?, ?) ON CONFLICT (id) DO UPDATE "
                               "SET tournaments_open = excluded.tournaments_open", (chat_id, int(anyone)))

    async def set_chat_season(self, chat_id: int, season: str) -> None:
        async with self.db.write() as conn:
            await conn.execute("INSERT INTO chats (id, season) VALUES (?, ?) "
                               "ON CONFLICT (id) DO UPDATE SET season = excluded.season", (chat_id, season))

    async def set_chat_scoring(self, chat_id: int, scoring: str) -> None:
        async with self.db.write() as conn:
            await conn.execute("INSERT INTO chats (id, scoring) VALUES (?, ?) "
                               "ON CONFLICT (id) DO UPDATE SET scoring = excluded.scoring", (chat_id, scoring))
