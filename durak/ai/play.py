"""Playing whole games with computer players: who moves next, and how a finished game scores for a seat.

Both the search of ``hard`` (its simulations) and ``durak-arena`` play a game the same way: the
first seat the game waits for (``awaited``: the leader, the defender with cards to beat, then the
attackers yet to pass) chooses, and the move is played in place.
"""

from __future__ import annotations

from collections.abc import Callable

from durak.actions import PASS, TAKE, Action
from durak.ai import greedy
from durak.engine import apply_in_place, awaited
from durak.state import State

Policy = Callable[[State, int], Action | None]


def next_seat(state: State) -> int | None:
    """The seat whose choice comes next, or None once the game is over."""
    seats = awaited(state)
    return seats[0] if seats else None


def fallback(state: State, seat: int) -> Action:
    """What an awaited seat does when its policy declines: take as defender, else pass."""
    return TAKE if seat == state.defender and None in state.covers and not state.taking else PASS


def play_out(state: State, policy: Policy = greedy.choose, limit: int = 2000) -> State:
    """Play ``state`` to the end in place with ``policy`` for every seat (``limit`` moves at most)."""
    for _ in range(limit):
        seat = next_seat(state)
        if seat is None:
            break
        apply_in_place(state, seat, policy(state, seat) or fallback(state, seat))
    return state


def score(state: State, seat: int) -> float:
    """A finished game for ``seat``: 1 not the durak, 0 the durak (or his team), 0.5 a draw."""
    if state.draw:
        return 0.5
    return 0.0 if seat in state.losers else 1.0
