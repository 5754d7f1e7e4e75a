"""Who moves when a player does not: the timeout's careful move, and the computer for absent seats."""

from __future__ import annotations

from durak import TAKE, Act, Action, State, is_legal
from durak.ai import greedy
from durak.engine import awaited

TIMEOUTS = (0, 30, 60, 120, 300)  # the turn timer's choices, in seconds; 0 = off


def timeout_action(state: State, seat: int) -> Action | None:
    """What a careful player does when his time runs out: the defender takes, attackers pass,
    a main attacker who must lead plays the baseline computer's lead."""
    if not state.attacks:
        return greedy.choose(state, seat) if seat == state.attacker else None
    if seat == state.defender:
        return TAKE if is_legal(state, seat, TAKE) else None
    done = Action(Act.PASS)
    return done if is_legal(state, seat, done) else None


def computer_move(state: State, computer: set[int]) -> tuple[int, Action] | None:
    """The next move of a computer-played seat that the game is waiting for, if any."""
    for seat in awaited(state):
        if seat in computer:
            action = greedy.choose(state, seat)
            if action is not None:
                return seat, action
    return None
