"""The open games, their locks and their writes.

``async with store.locked(game_id) as game`` waits for the game's lock and yields the game as
last written (or None once it is closed), so no caller ever decides on a stale copy. Every
write goes through :meth:`GameStore.save`, which stores the game and the messages it owes in
one transaction; a write that lost a race (Conflict) reloads the game from the database, and
the caller decides again. Everything the store keeps about a game, its UI state included, is
dropped with the game when it closes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace

from bot.stats.badges import Badge
from bot.stats.evening import Evening
from bot.ui.seat_view import NOTHING, SeatView
from storage.models import Game, Owed, RatingUpdate, ResultRow, Scored, Status
from storage.repo import Conflict, Repo
from storage.slots import Slot

log = logging.getLogger(__name__)


@dataclass
class Vote:
    """A /stop vote among the seated players."""

    slot: Slot
    deadline: float
    voters: set[int]
    starter: str = ""  # who asked for it (/stop), named in its message


@dataclass
class GameUI:
    """What the messages of one open game show beyond the game itself."""

    settings_open: bool = False
    picker_page: int | None = None   # the lobby shows this page of the game picker
    note: str = ""                                           # a line under the lobby (who can't be reached)
    hands: dict[int, SeatView] = field(default_factory=dict)  # seat -> what his hand shows beyond the game
    changes: dict[int, tuple[int, int]] = field(default_factory=dict)  # user -> rating points before, after
    evening: Evening | None = None                           # the evening its result counts in, once it is over
    badges: dict[int, list[Badge]] = field(default_factory=dict)  # user -> the badges the game's end earned him
    vote: Vote | None = None
    votes_held: int = 0
    warned: int = -1                                         # the move whose last seconds were shown
    unseen: set[int] = field(default_factory=set)            # seats whose hand has not shown the last write yet
    shown_at: dict[int, float] = field(default_factory=dict)  # seat -> when his hand first showed it
    messages: dict[Slot, tuple[int, int]] = field(default_factory=dict)  # slot -> (chat, message id)
    written: dict[Slot, tuple[object, ...]] = field(default_factory=dict)  # slot -> what this process last owed
    turn_since: dict[int, float] = field(default_factory=dict)  # seat that must act -> when his position was written
    quiet: set[int] = field(default_factory=set)             # seats that must act again right after their own move
    watched: set[int] = field(default_factory=set)           # seats reading a live Mini App page: their hand waits
    chatting: set[int] = field(default_factory=set)          # seats that pressed in the chat all the same: it doesn't


    def seat(self, seat: int) -> SeatView:
        """What the seat's hand shows beyond the game, to read or to change."""
        return self.hands.setdefault(seat, SeatView())

    def shown(self, seat: int) -> SeatView:
        """The same, only to read: a seat nobody pressed for shows nothing more."""
        return self.hands.get(seat, NOTHING)

    def played(self, seat: int) -> None:
        """He made a move: what he had chosen, armed or asked is spent."""
        self.hands.pop(seat, None)

    def new_bout(self) -> None:
        for view in self.hands.values():
            view.new_bout()


Render = Callable[[Game, GameUI], Sequence[Owed]]


class GameStore:
    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self.games: dict[int, Game] = {}
        self.ui: dict[int, GameUI] = {}
        self._topics: dict[tuple[int, int], int] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def add(self, game: Game, messages: dict[Slot, tuple[int, int]] | None = None) -> None:
        self.games[game.id] = game
        if game.tournament is None:  # a tournament's tables share their topic with each other and its one game
            self._topics[(game.chat_id, game.thread_id)] = game.id
        ui = self.ui.setdefault(game.id, GameUI())
        if messages:
            ui.messages.update(messages)

    def forget(self, game_id: int) -> None:
        game = self.games.pop(game_id, None)
        self.ui.pop(game_id, None)
        if game is not None and self._topics.get((game.chat_id, game.thread_id)) == game_id:
            del self._topics[(game.chat_id, game.thread_id)]

    def open_in(self, chat_id: int, thread_id: int) -> Game | None:
        game_id = self._topics.get((chat_id, thread_id))
        return None if game_id is None else self.games.get(game_id)

    def ui_of(self, game_id: int) -> GameUI:
        return self.ui.setdefault(game_id, GameUI())

    @asynccontextmanager
    async def locked(self, game_id: int) -> AsyncIterator[Game | None]:
        """The game under its lock, as last written; None (and no lock made) if it is not open."""
        if game_id not in self.games:
            yield None
            return
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                yield self.games.get(game_id)
        finally:
            if game_id not in self.games and not lock.locked():
                self._locks.pop(game_id, None)

    async def save(self, old: Game, new: Game, render: Render, *, results: Sequence[ResultRow] = (),
                   ratings: Sequence[RatingUpdate] = (), badges: Sequence[tuple[int, str]] = (),
                   scored: Sequence[Scored] = (), standings: Sequence[Owed] = ()) -> Game:
        """Write ``new`` over ``old`` with the messages it owes; Conflict (after reloading) if ``old`` is stale."""
        staged = replace(new, version=old.version + 1)
        try:
            saved = await self.repo.save_game(old, staged, results=results, ratings=ratings,
                                              owed=render(staged, self.ui_of(old.id)), badges=badges, scored=scored,
                                              standings=standings)
        except Conflict:
            await self.reload(old.id)
            raise
        if saved.status in (Status.LOBBY, Status.PLAYING):
            self.games[saved.id] = saved
            if (saved.chat_id, saved.thread_id) != (old.chat_id, old.thread_id) and saved.tournament is None:
                self._topics.pop((old.chat_id, old.thread_id), None)
                self._topics[(saved.chat_id, saved.thread_id)] = saved.id
        else:
            self.forget(saved.id)
        return saved

    async def reload(self, game_id: int, quiet: bool = False) -> Game | None:
        """Read the game again from the database: the stored row is the truth."""
        fresh = await self.repo.game(game_id)
        if fresh is None or fresh.status not in (Status.LOBBY, Status.PLAYING):
            self.forget(game_id)
            return None
        if not quiet:
            log.warning("game %s was reloaded from the database (version %s)", game_id, fresh.version)
        self.games[game_id] = fresh
        return fresh
