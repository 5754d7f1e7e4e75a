"""Chats and users changing under the games: a blocked bot, a group turned supergroup, a new language."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import replace

from bot.game.core import Core
from bot.game.decisions import Closing
from bot.game.store import GameUI
from storage.models import Away, Game, OutboxRow, Owed, Status
from storage.partitions import FENCE_GRACE, partition_of
from storage.slots import TABLE, note_slot

log = logging.getLogger(__name__)


class Chats:
    def __init__(self, service: Core) -> None:
        self.service = service

    async def user_blocked(self, chat_id: int) -> None:
        """The bot can no longer write to this user: the computer takes his seats; each group is told once."""
        user = await self.service.directory.user(chat_id)
        if user is None:
            return
        user = await self.service.directory.see(user, private_chat=False)
        for game_id in [g.id for g in self.service.store.games.values() if g.seat_of(chat_id) is not None]:
            async def work(game: Game) -> None:
                seat = game.seat_of(chat_id)
                if game.status is not Status.PLAYING or seat is None or game.seats[seat].away is not Away.PLAYING:
                    return
                tr = await self.service.directory.chat_tr(game.chat_id)
                note = Owed(game.chat_id, note_slot("unreachable", seat), tr.gettext(
                    "I can't reach {name} any more (the bot was blocked?): the computer plays for them.").format(
                    name=user.name), None, game.thread_id)
                await self.service.advance(game, [], {seat: (0, Away.UNREACHABLE)}, extra=[note])

            await self.service.with_game(game_id, work)

    async def post_refused(self, row: OutboxRow, why: str) -> None:
        """Telegram would not post a lobby (no right to write, a deleted topic, the bot removed): it is closed at
        once, so the next /newgame opens one instead of pointing to a message nobody sees, and its creator
        is told why in private."""
        game = self.service.store.open_in(row.chat_id, row.thread_id)
        if row.slot != TABLE or game is None:
            return

        async def work(game: Game) -> None:
            if game.status is not Status.LOBBY or self.service.table_message(game) is not None:
                return
            creator = await self.service.directory.user(game.creator_id)
            tr = self.service.directory.user_tr(creator)
            text = (tr.gettext("I'm not allowed to post in the group, so nobody there saw the new game. "
                               "Ask an admin to let me post there, then send /newgame again.")
                    if "rights" in why.lower() else
                    tr.gettext("I could not post the new game in the group (Telegram answered: {why}). "
                               "Send /newgame there again.").format(why=why))
            note = Owed(game.creator_id, note_slot("refused", game.id), text, None)
            await self.service.close(game, Status.CANCELLED, Closing.REFUSED,
                                     extra=[note] if creator is not None and creator.private_chat else ())

        await self.service.with_game(game.id, work)

    async def chat_migrated(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: games, settings and ratings follow it; the table is posted there anew."""
        if not self.service.repo.owns(new_id):
            await self._hand_over(old_id, new_id)
            return
        await self.service.repo.migrate_chat(old_id, new_id)
        self.service.directory.chat_moved(old_id, new_id)
        for game_id in [g.id for g in self.service.store.games.values() if g.chat_id == old_id]:
            async def work(game: Game) -> None:
                self.service.store.forget(game.id)
                ui = GameUI(messages=await self.service.repo.slot_messages(game.id))
                self.service.store.add(replace(game, chat_id=new_id))
                self.service.store.ui[game.id] = ui

            await self.service.with_game(game_id, work)
        self.service.outbox.kick(new_id)

    async def _hand_over(self, old_id: int, new_id: int) -> None:
        """The supergroup's partition is led by another process (``bot.game.shares``): the group's games are let go
        here, each once its decision in hand is written, and moved to the new id together with a note for that
        process (``chat_arrived``), in one transaction: a kill before it leaves them here, after it there."""
        gone = await self.service.forget_games(lambda chat: chat == old_id)
        # a group migrates once: its old id names the note (Telegram's own update ids are positive)
        note = {"update_id": -abs(old_id), "message": {
            "message_id": 0, "date": int(time.time()), "chat": {"id": new_id, "type": "supergroup"},
            "migrate_from_chat_id": old_id}}
        await self.service.repo.migrate_chat(old_id, new_id, (-abs(old_id), json.dumps(note), partition_of(new_id)))
        self.service.directory.chat_moved(old_id, new_id)
        await self.service.outbox.quiet(lambda home: home in (old_id, new_id))
        await self.service.on_moved(gone)
        log.info("the games of group %s, now supergroup %s, go to the process that leads it", old_id, new_id)

    async def chat_arrived(self, chat_id: int) -> None:
        """A supergroup that was a group: its games, moved here from the process that led the group, are loaded
        once that one's calls for them are done (the fence's grace, as when a partition is taken)."""
        if not self.service.repo.owns(chat_id):
            return
        await asyncio.sleep(FENCE_GRACE)
        if await self.service.adopt(lambda chat: chat == chat_id):
            log.info("the games of supergroup %s are decided here now", chat_id)

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self.service.directory.set_chat_language(chat_id, language)
        for game_id in [g.id for g in self.service.store.games.values() if g.chat_id == chat_id]:
            await self.service.with_game(game_id, self.service.refresh)  # as stored now: a move may come between

    async def set_chat_letters(self, chat_id: int, letters: bool) -> None:
        await self.service.directory.set_chat_letters(chat_id, letters)
        for game_id in [g.id for g in self.service.store.games.values() if g.chat_id == chat_id]:
            await self.service.with_game(game_id, self.service.refresh)

    async def set_letters(self, user_id: int, letters: bool) -> None:
        await self.service.repo.set_letters(user_id, letters)
        await self._user_changed(user_id)

    async def set_user_language(self, user_id: int, language: str) -> None:
        await self.service.repo.set_user_language(user_id, language)
        await self._user_changed(user_id)

    async def set_notify(self, user_id: int, notify: bool) -> None:
        await self.service.repo.set_notify(user_id, notify)
        await self._user_changed(user_id)

    async def _user_changed(self, user_id: int) -> None:
        """A user's settings changed: his games are read again and their messages follow."""
        await self.service.directory.refresh_user(user_id)

        async def work(game: Game) -> None:  # under the lock: a move written meanwhile is not read over
            fresh = await self.service.store.reload(game.id, quiet=True)
            if fresh is not None:
                await self.service.refresh(fresh)

        for game_id in [g.id for g in self.service.store.games.values() if g.seat_of(user_id) is not None]:
            await self.service.with_game(game_id, work)
