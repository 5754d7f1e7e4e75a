"""Games made by hand for the game core's unit tests: no bot, no database, the engine's own deal."""

from __future__ import annotations

from durak import Rules, State, new_game
from storage.computers import computer_id
from storage.models import Game, Seat, Status, User

GROUP = -100
ANNA, BORIS, VERA = User(101, "Anna", private_chat=True), User(102, "Boris", private_chat=True), \
    User(103, "Vera", private_chat=True)


def game_of(state: State | None, *users: User, status: Status = Status.PLAYING, rules: Rules | None = None) -> Game:
    seats = tuple(Seat(n, user) for n, user in enumerate(users))
    return Game(7, GROUP, 0, status, users[0].id, rules or (state.rules if state else Rules()), 6, state, 1,
                None, seats)


def dealt(players: int = 2, seed: int = 1, **rules: object) -> State:
    return new_game(Rules.from_dict({"preset": "podkidnoy", **rules}), players, seed)


COMPUTER = User(computer_id("normal", 1), "🤖 Normal")
