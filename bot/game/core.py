"""What the service's helpers (chats, table commands, timers, votes) may ask of it: the game's lock and its
writes, the intents, and the parts they share, each as narrow as they use it (a few rows beyond the game's, the
outbox's wake-up, the computer's move). They depend on this, not on the service, so the service only routes and
nothing imports it back; and none of them reaches the whole repository or the outbox."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Protocol, TypeVar

from bot.game import play
from bot.game.clock import Clock
from bot.game.decisions import Closing, Intent
from bot.game.directory import Directory
from bot.game.store import GameStore, GameUI
from durak import Action
from storage.models import Away, Game, Owed, Status, User
from storage.slots import Slot

T = TypeVar("T")


class PageLinks(Protocol):
    """Where a game's Mini App page opens (bot.webapp.auth.Links, when the Mini App is configured)."""

    def hand(self, game_id: int) -> str: ...

    def table(self, game_id: int, bot_username: str) -> str | None: ...

    def card(self, game_id: int) -> str: ...


class Rows(Protocol):
    """The rows the helpers write beyond a game's own writes: a chat that moved, a user's choices, a hand posted
    again; and whether this process leads a chat."""

    owns: Callable[[int], bool]

    async def migrate_chat(self, old_id: int, new_id: int, note: tuple[int, str, int] | None = None) -> None: ...

    async def slot_messages(self, game_id: int) -> dict[Slot, tuple[int, int]]: ...

    async def set_user_language(self, user_id: int, language: str) -> None: ...

    async def set_notify(self, user_id: int, notify: bool) -> None: ...

    async def set_letters(self, user_id: int, letters: bool) -> None: ...

    async def put_owed(self, game_id: int | None, owed: Sequence[Owed]) -> None: ...


class Delivery(Protocol):
    """The outbox as the helpers see it: told what was written, asked what is on its way."""

    def kick(self, *chat_ids: int, lazy: Iterable[int] = ()) -> None: ...

    async def quiet(self, homes: Callable[[int], bool]) -> None: ...

    def owes(self, chat_id: int) -> bool: ...


class Computers(Protocol):
    """The computer players as the timers see them: whose is thinking, and a move."""

    busy: set[int]

    async def move(self, game: Game, seat: int, level: str) -> Action | None: ...


class LobbyIntents(Protocol):
    """The lobbies (bot.game.lobbies) as the helpers use them: a decided intent carried out on a lobby."""

    async def intent(self, game: Game, ui: GameUI, intent: Intent, user: User) -> None: ...


class Core(Protocol):
    @property
    def repo(self) -> Rows: ...

    @property
    def outbox(self) -> Delivery: ...

    @property
    def thinker(self) -> Computers: ...

    @property
    def lobbies(self) -> LobbyIntents: ...

    store: GameStore
    directory: Directory
    clock: Clock
    computer_pause: float
    lobby_timeout: float
    ping_delay: float
    on_moved: Callable[[list[int]], Awaitable[None]]  # games another process decides now: their pages are closed

    async def chores(self, now: float) -> None:
        """What the sweep does beyond the open games: close the seasons that ended, seat the tournaments' free
        players and close those whose time is up, in the chats led here (bot.game.seasons, bot.game.tournaments)."""

    async def forget_games(self, leaving: Callable[[int], bool]) -> list[int]:
        """Forget the games of the chats ``leaving`` names, each once its decision in hand is written."""

    async def adopt(self, new: Callable[[int], bool] | None = None) -> int:
        """Load the open games of the chats ``new`` names (led here) and deliver what they owe."""

    async def with_game(self, game_id: int, work: Callable[[Game], Awaitable[T]]) -> T | None:
        """Run ``work`` on the game under its lock, on its current version."""

    async def refresh(self, game: Game, extra: Sequence[Owed] = ()) -> None:
        """Owe every message of the game what it should show now."""

    async def advance(self, game: Game, moves: list[play.Move], flags: dict[int, tuple[int, Away]] | None = None,
                      base: Game | None = None, extra: Sequence[Owed] = ()) -> Game:
        """Play moves and store the new game with what it owes."""

    async def close(self, game: Game, status: Status, why: Closing, by: User | None = None,
                    extra: Sequence[Owed] = ()) -> None:
        """End a lobby or a game without a result."""

    def page_links(self, game: Game) -> tuple[str, str | None] | None:
        """Where the game's Mini App page opens from a hand and from the group (None: no Mini App)."""

    def table_message(self, game: Game) -> int | None:
        """The id of the group's table message, if it was posted."""

    async def carry_out(self, game: Game, ui: GameUI, intent: Intent, user: User) -> None:
        """Carry out a decided intent of a running game."""
