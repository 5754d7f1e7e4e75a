"""The exact endgame of two players: once the stock is empty every card is known to both.

With two players and no stock, the cards a seat cannot see are all in the other hand, so the game
is one of perfect information and can be searched to the end: minimax over the honest moves, in
the order the playouts use (the first awaited seat moves), with a table of positions already
solved. Results are 1 (not the durak), 0.5 (a draw) or 0, so a line that reaches the best result
possible ends the search of its node. A node budget keeps it quick: past it, the caller plays on
with the Monte Carlo search.
"""

from __future__ import annotations

from durak.actions import Action
from durak.ai.greedy import honest_moves
from durak.ai.play import next_seat, score
from durak.engine import apply_in_place, legal_actions
from durak.state import State

Key = tuple[object, ...]


class OutOfBudget(Exception):
    """The position needs more nodes than allowed."""


def _key(s: State) -> Key:
    return (tuple(sorted(s.hands[0])), tuple(sorted(s.hands[1])), tuple(s.attacks), tuple(s.covers),
            s.attacker, s.defender, s.taking, s.passed, s.shown, s.first_bout, s.cap, tuple(s.out))


class Solver:
    def __init__(self, me: int, nodes: int) -> None:
        self.me = me
        self.left = nodes
        self.memo: dict[Key, float] = {}

    def value(self, state: State) -> float:
        """The result for ``me`` of ``state`` with best play on both sides."""
        if state.over:
            return score(state, self.me)
        key = _key(state)
        found = self.memo.get(key)
        if found is not None:
            return found
        self.left -= 1
        if self.left < 0:
            raise OutOfBudget
        seat = next_seat(state)
        assert seat is not None
        mine = seat == self.me
        best = -1.0 if mine else 2.0
        for action in honest_moves(legal_actions(state, seat)):
            child = state.copy()
            apply_in_place(child, seat, action)
            v = self.value(child)
            if (v > best) if mine else (v < best):
                best = v
                if best == (1.0 if mine else 0.0):
                    break
        self.memo[key] = best
        return best


def best_moves(state: State, me: int, nodes: int = 20_000) -> list[Action] | None:
    """The moves of ``me`` (who must be the seat to move) that keep the best result against best play, in
    a two-player position with no stock: one winning move, else every move that draws, else every move
    (all lose against best play, and the caller picks the one a fallible opponent most often gets wrong).
    None when that needs more than ``nodes`` positions."""
    if state.players != 2 or state.stock or next_seat(state) != me:
        return None
    solver = Solver(me, nodes)
    values: list[tuple[float, Action]] = []
    try:
        for action in honest_moves(legal_actions(state, me)):
            child = state.copy()
            apply_in_place(child, me, action)
            v = solver.value(child)
            if v == 1.0:
                return [action]
            values.append((v, action))
    except OutOfBudget:
        return None
    top = max((v for v, _ in values), default=0.0)
    return [a for v, a in values if v == top]
