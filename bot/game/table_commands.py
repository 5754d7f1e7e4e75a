"""Group and private commands about an open game: /cancel, /leave, /kick, /hand. Each acts under the game's lock."""

from __future__ import annotations

from dataclasses import replace

from bot.game import play, slots
from bot.game.core import Core
from bot.game.decisions import Closing, Intent, Kind
from bot.ui.callbacks import Press, Verb
from storage.models import Game, Status, User
from storage.slots import hand_slot

POINT_QUIET = 120.0  # seconds: after pointing a topic to its open game, further /newgame there get no answer


class Commands:
    def __init__(self, service: Core) -> None:
        self.service = service
        self._pointed: dict[tuple[int, int], float] = {}  # (chat, topic) -> when /newgame was last pointed

    def point_to_open_game(self, chat_id: int, thread_id: int) -> tuple[bool, int | None]:
        """/newgame where a game is open: whether to answer (once a while per topic: forty in a row would
        spend the group's budget on noise) and the table message to point to."""
        now = self.service.clock.now()
        key = (chat_id, thread_id)
        if now - self._pointed.get(key, -POINT_QUIET) < POINT_QUIET:
            return False, None
        if len(self._pointed) > 1000:
            self._pointed = {k: t for k, t in self._pointed.items() if now - t < POINT_QUIET}
        self._pointed[key] = now
        existing = self.service.store.open_in(chat_id, thread_id)
        return True, None if existing is None else self.service.table_message(existing)

    async def cancel_command(self, chat_id: int, thread_id: int, user: User, admin: bool) -> str | None:
        """/cancel in a group: the reply, or None when the game was cancelled (its message says so)."""
        tr = await self.service.directory.chat_tr(chat_id)
        found = self.service.store.open_in(chat_id, thread_id)
        if found is None:
            return tr.gettext("There is no open game here.")

        async def work(game: Game) -> str | None:
            if user.id != game.creator_id and not admin:
                return tr.gettext("Only the creator or an admin can cancel.")
            await self.service.close(game, Status.CANCELLED, Closing.CANCELLED, by=user)
            return None

        return await self.service.with_game(found.id, work)

    async def leave_command(self, chat_id: int, thread_id: int, user: User, private: bool) -> str:
        """/leave: in a lobby, leave it; in a game, the computer plays the seat to the end (a placed player
        has nothing to leave)."""
        tr = self.service.directory.user_tr(user) if private else await self.service.directory.chat_tr(chat_id)
        mine = [g for g in self.service.store.games.values() if g.seat_of(user.id) is not None
                and (private or (g.chat_id == chat_id and g.thread_id == thread_id))]
        if len(mine) != 1:
            return tr.gettext("You are not in a game here.") if not mine else tr.gettext(
                "You are in several games: use the Leave button of the one to leave.")

        async def work(game: Game) -> str:
            seat = game.seat_of(user.id)
            if seat is None:
                return tr.gettext("You are not in a game here.")
            if game.status is Status.LOBBY:
                await self.service.lobbies.intent(game, self.service.store.ui_of(game.id), Intent(Kind.LEAVE), user)
                return tr.gettext("You left the game.")
            ui = self.service.store.ui_of(game.id)
            ui.seat(seat).leaving = True  # a typed /leave is its own confirmation
            decision = play.decide(tr, game, ui, Press(Verb.LEAVE_YES, game.id, 0), user.id)
            if decision.intent is None:
                ui.seat(seat).leaving = False
                return decision.toast or ""
            await self.service.carry_out(game, ui, decision.intent, user)
            return tr.gettext("You left the game.")

        return await self.service.with_game(mine[0].id, work) or tr.gettext("You are not in a game here.")

    async def kick_command(self, chat_id: int, thread_id: int, user: User, target: int, admin: bool) -> str:
        """/kick as a reply: the creator or an admin removes a player from the lobby."""
        tr = await self.service.directory.chat_tr(chat_id)
        found = self.service.store.open_in(chat_id, thread_id)
        no_lobby = tr.gettext("There is no lobby here.")
        if found is None:
            return no_lobby

        async def work(game: Game) -> str:
            if game.status is not Status.LOBBY:  # decided under the lock: a game that just started keeps its seats
                return no_lobby
            if user.id != game.creator_id and not admin:
                return tr.gettext("Only the creator or an admin can remove players.")
            seat = game.seat_of(target)
            if seat is None or target == game.creator_id:
                return tr.gettext("That player is not in the lobby.")
            name = game.seats[seat].user.name
            ui = self.service.store.ui_of(game.id)
            await self.service.lobbies.intent(game, ui, Intent(Kind.KICK, arg=str(target)), user)
            return tr.gettext("{name} was removed.").format(name=name)

        return await self.service.with_game(found.id, work) or no_lobby

    async def resend_hands(self, user: User) -> int:
        """/hand: post the user's hand again at the bottom of the private chat; how many games."""
        count = 0
        for game_id in [g.id for g in self.service.store.games.values() if g.status is Status.PLAYING]:
            async def work(game: Game) -> bool:
                seat = game.seat_of(user.id)
                if seat is None:
                    return False
                service = self.service
                ui = service.store.ui_of(game.id)
                write = slots.Write(await service.directory.chat_tr(game.chat_id), service.directory.default_language,
                                    service.clock.now(), ping_delay=service.ping_delay,
                                    links=service.page_links(game))
                owed = slots.owed(game, ui, write)
                hand = next(o for o in owed if o.slot == hand_slot(seat))
                await self.service.repo.put_owed(game.id, [replace(hand, resend=True)])
                slots.note_written(ui, [hand])
                self.service.outbox.kick(user.id)
                return True

            count += bool(await self.service.with_game(game_id, work))
        return count
