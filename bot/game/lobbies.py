"""Lobbies: opening one (or the next game of a finished one, Play again), what a press on it does, seating a
player who came by the join link, and the start: the deal, refused while the bot cannot write to a seat."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

from bot.game import lobby, slots
from bot.game.computers import next_computer
from bot.game.core import Core, Delivery, Rows
from bot.game.decisions import Closing, Decision, Intent, Kind
from bot.game.lobby_options import table_max
from bot.game.store import GameUI
from bot.game.turns import TIMEOUTS
from bot.ui.i18n import Translator
from durak import Rules
from durak.rules import PRESETS
from durak.setup import Previous
from storage.computers import is_computer
from storage.models import DEFAULT_TURN_SECONDS, ChatSettings, Game, Goal, NewLobby, Owed, Status, Tournament, User
from storage.repo import Conflict
from storage.slots import RESULT, note_slot

TITLE_KEPT = 64  # a group's title as kept with its game, to name the group in private messages
SETTLE_SECONDS = 2.0  # how long a press on a message not known yet waits for the outbox to record it


class LobbyRows(Rows, Protocol):
    """The rows a lobby reads and writes beyond the helpers' own: the chat's defaults, a new lobby, a finished
    game to play again, a computer's user."""

    async def chat(self, chat_id: int) -> ChatSettings: ...

    async def save_chat_defaults(self, chat_id: int, rules: Rules, max_players: int, turn_timeout: int) -> None: ...

    async def create_lobby(self, lobby: NewLobby, owed: Callable[[Game], Sequence[Owed]] = ...) -> Game: ...

    async def game(self, game_id: int) -> Game | None: ...

    async def user(self, user_id: int) -> User | None: ...


class LobbyDelivery(Delivery, Protocol):
    async def settle(self, chat_id: int, seconds: float) -> None: ...


class LobbyCore(Core, Protocol):
    """The service as the lobbies use it: its core, with the lobby's rows and writes."""

    bot_username: str

    @property
    def repo(self) -> LobbyRows: ...

    @property
    def outbox(self) -> LobbyDelivery: ...

    async def save(self, old: Game, new: Game, closing: str | None = None, extra: Sequence[Owed] = (),
                   finished: bool = False, movers: frozenset[int] | None = None) -> Game: ...


class Lobbies:
    def __init__(self, core: LobbyCore) -> None:
        self.core = core

    def deep_link(self, game_id: int) -> str:
        """The link that opens the private chat and seats its reader (``/start join_<id>``)."""
        return f"https://t.me/{self.core.bot_username}?start=join_{game_id}"

    async def open_lobby(self, chat_id: int, thread_id: int, creator: User, preset: str | None,
                         previous: Previous | None = None, players: tuple[User, ...] = (),
                         title: str = "", goal: Goal | None = None) -> Game | None:
        """Open a lobby (its message is owed in the same transaction); None if the topic has an open game."""
        if self.core.store.open_in(chat_id, thread_id) is not None or creator.id <= 0:
            return None
        chat = await self.core.repo.chat(chat_id)
        if chat.language is None and chat_id < 0:  # a group's first lobby: it speaks its creator's language
            await self.core.directory.set_chat_language(chat_id, self.core.directory.user_language(creator))
        rules = chat.rules or Rules()
        if preset in PRESETS:
            rules = Rules.from_dict({"preset": preset, "deck_size": rules.deck_size})
        top = table_max(rules)
        max_players = min(chat.max_players or top, top)
        timeout = chat.turn_timeout if chat.turn_timeout in TIMEOUTS else DEFAULT_TURN_SECONDS
        tr = await self.core.directory.chat_tr(chat_id)
        now = self.core.clock.now()
        try:
            lobby = NewLobby(chat_id, thread_id, creator, rules, max_players, previous, players, timeout,
                             title[:TITLE_KEPT], "" if goal is None else goal.text())
            game = await self.core.repo.create_lobby(
                lobby, owed=lambda g: slots.owed(g, GameUI(), slots.Write(tr, self.core.directory.default_language, now,
                                                                          links=self.core.page_links(g))))
        except Conflict:
            return None
        self.core.store.add(game)
        self.core.outbox.kick(chat_id)
        return game

    async def seat_table(self, tournament: Tournament, players: Sequence[User], thread_id: int) -> Game | None:
        """A tournament's new table in the topic ``thread_id``: its players seated and dealt at once (its lobby and
        its start are two writes: a lobby a crash leaves is started by the next sweep, ``start_table``). None if it
        could not be opened."""
        lobby_of = NewLobby(tournament.chat_id, thread_id, players[0], tournament.rules, len(players), None,
                            players, tournament.turn_timeout, tournament.title[:TITLE_KEPT], tournament=tournament.id)
        try:
            game = await self.core.repo.create_lobby(lobby_of, owed=lambda g: ())
        except Conflict:
            return None
        self.core.store.add(game)
        return await self.start_table(game.id)

    async def start_table(self, game_id: int) -> Game | None:
        """Deal a tournament table's lobby (its players were seated by the tournament)."""

        async def work(game: Game) -> Game | None:
            if game.status is not Status.LOBBY or game.tournament is None:
                return None
            await self.core.advance(game, [], base=lobby.started(game, secrets.randbits(64)))
            return self.core.store.games.get(game.id)

        return await self.core.with_game(game_id, work)

    async def _kicked_note(self, game: Game, user_id: int) -> list[Owed]:
        """A removed player learns it in private (if the bot may write to him), with the group's name."""
        seat = game.seat_of(user_id)
        if seat is None or not game.seats[seat].user.private_chat:
            return []
        tr = self.core.directory.user_tr(game.seats[seat].user)
        text = (tr.gettext("You were removed from the game in the group “{group}”.").format(group=game.title)
                if game.title else tr.gettext("You were removed from the game."))
        return [Owed(user_id, note_slot("kicked", user_id), text)]

    async def intent(self, game: Game, ui: GameUI, intent: Intent, user: User) -> None:
        kind = intent.kind
        if kind is Kind.JOIN:
            await self.core.save(game, lobby.joined(game, user))
        elif kind is Kind.ADD_COMPUTER:
            computer_id = next_computer(game, intent.arg)
            computer = None if computer_id is None else await self.core.repo.user(computer_id)
            if computer is not None and len(game.seats) < game.max_players:
                await self.core.save(game, lobby.joined(game, computer))
        elif kind in (Kind.LEAVE, Kind.KICK):
            gone = user.id if kind is Kind.LEAVE else int(intent.arg)
            rest = lobby.without(game, gone)
            if rest is None:
                await self.core.close(game, Status.CANCELLED, Closing.LOBBY_EMPTY)
            else:
                await self.core.save(game, rest, extra=await self._kicked_note(game, gone) if kind is Kind.KICK else ())
        elif kind in (Kind.SETTINGS, Kind.BACK, Kind.PICKER):
            ui.settings_open = kind is not Kind.BACK
            ui.picker_page = int(intent.arg) if kind is Kind.PICKER else None
            await self.core.refresh(game)
        elif kind is Kind.VARIANT:
            ui.picker_page = None
            saved = await self.core.save(game, lobby.with_variant(game, intent.arg))
            await self.core.repo.save_chat_defaults(saved.chat_id, saved.rules, saved.max_players, saved.turn_timeout)
        elif kind in (Kind.OPTION, Kind.TIMER):
            new = lobby.with_option(game, intent.arg) if kind is Kind.OPTION else lobby.with_next_timer(game)
            saved = await self.core.save(game, new)
            await self.core.repo.save_chat_defaults(saved.chat_id, saved.rules, saved.max_players, saved.turn_timeout)
        elif kind is Kind.CANCEL:
            await self.core.close(game, Status.CANCELLED, Closing.CANCELLED, by=user)
        elif kind is Kind.START:
            await self._start(game, ui)

    async def _start(self, game: Game, ui: GameUI) -> None:
        """Deal and owe every hand with the start, in one transaction. A seat the bot cannot write to stops it."""
        known = [await self.core.directory.writable(s.user.id) or s.user for s in game.seats if not is_computer(s.user)]
        missing = next((u for u in known if not u.private_chat), None)
        if missing is not None:
            tr = await self.core.directory.chat_tr(game.chat_id)
            ui.note = tr.gettext("I can't write to {name}: open a private chat with me (press Join) and try "
                                 "again.").format(name=missing.name)
            await self.core.refresh(game)
            return
        ui.settings_open, ui.picker_page, ui.note = False, None, ""
        started = lobby.started(game, secrets.randbits(64))
        await self.core.advance(game, [], base=started)

    async def join(self, game_id: int, user: User) -> str:
        """Seat ``user`` (from the deep link in private); the reply for the private chat."""
        tr = self.core.directory.user_tr(user)

        async def work(game: Game) -> str:
            if game.status is not Status.LOBBY:
                return tr.gettext("That game has already started or ended.")
            if game.seat_of(user.id) is not None:
                return tr.gettext("You are already in this game. Wait for the start here.")
            if len(game.seats) >= game.max_players:
                return tr.gettext("The table is full.")
            await self.core.save(game, lobby.joined(game, user))
            return tr.gettext("You joined the game. Your cards will appear here when it starts.")

        return await self.core.with_game(game_id, work) or tr.gettext("That game has already started or ended.")

    async def play_to(self, tr: Translator, chat_id: int, thread_id: int, user: User, goal: Goal,
                      title: str) -> str | None:
        """/series: a new lobby that opens an evening played to ``goal``, or the open lobby's goal changed by its
        creator. The answer to send (None: the lobby's message says it)."""
        if self.core.store.open_in(chat_id, thread_id) is None and await self.open_lobby(
                chat_id, thread_id, user, None, title=title, goal=goal) is not None:
            return None

        async def work(game: Game) -> str | None:
            if game.status is not Status.LOBBY:
                return tr.gettext("A game is on: send /series again when it is over.")
            if game.creator_id != user.id:
                return tr.gettext("Only the creator can do that.")
            if game.goal != goal.text():
                await self.core.save(game, replace(game, goal=goal.text()))
            return None

        open_game = self.core.store.open_in(chat_id, thread_id)
        if open_game is None:
            return tr.gettext("Something went wrong: please try again.")
        return await self.core.with_game(open_game.id, work)

    async def replay(self, tr: Translator, game_id: int, user: User, where: tuple[int, int] | None,
                      page: bool = False) -> Decision:
        """Play again: only on the result message of that game, in its own chat, or on the Mini App page of one
        of its players."""
        result = (await self.core.repo.slot_messages(game_id)).get(RESULT)
        if result != where and where is not None:  # the result may be so new that its id is being recorded
            await self.core.outbox.settle(where[0], SETTLE_SECONDS)
            result = (await self.core.repo.slot_messages(game_id)).get(RESULT)
        if not page and (result is None or where != result):
            return Decision(tr.gettext("This button is not valid any more."))
        old = await self.core.repo.game(game_id)
        if old is None or old.state is None or old.status is not Status.FINISHED or (
                page and old.seat_of(user.id) is None):
            return Decision(tr.gettext("This button is not valid any more."))
        if self.core.store.open_in(old.chat_id, old.thread_id) is not None:
            return Decision(tr.gettext("A game is already open here."))
        loser = old.state.losers[-1] if old.state.losers else None
        winner = old.state.out[0] if old.state.out else None
        players = tuple(s.user for s in old.seats)
        if await self.open_lobby(old.chat_id, old.thread_id, user, None, Previous(loser, winner), players,
                                 old.title) is None:
            return Decision(tr.gettext("A game is already open here."))
        return Decision(tr.gettext("A new game is open in the group: join it there.") if page and old.chat_id < 0
                        else None)
