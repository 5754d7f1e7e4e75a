"""Scoring a finished game (docs/rules.md §11): finishing ranks, and the points of each system.

``ranks(state)`` gives every seat its rank for a skill rating: 1 for the first out, the
durak last, seats of a draw's last bout sharing a rank, teams ranked as teams.
"""

from __future__ import annotations

from enum import StrEnum

from durak.cards import Card, Suit
from durak.rules import Ranking
from durak.state import State


class Scoring(StrEnum):
    RATING = "rating"          # a skill rating from the finishing order (computed outside the engine)
    BASIC = "basic"            # +1 per win
    BASIC_PLUS = "basic_plus"  # +1 per win, -1 per loss
    PLACES = "places"          # n-1 points for first ... 0 for the durak
    PENALTY = "penalty"        # the loser scores the cards left in his hand; lowest total leads


def ranks(state: State) -> list[int]:
    """Each seat's rank (1 = best). Teams: the winning team 1, the losing team 2; a draw ties.

    With a ``ranking`` option (docs/variants.md §2.8) the higher score comes first (with pogony: more pogony,
    then the higher ones), then the finishing rank; seats equal in all share the best rank (1, 1, 3)."""
    finish = _finishing_ranks(state)
    ranking = state.rules.ranking
    if ranking is Ranking.ORDER:
        return finish
    n = len(state.hands)
    keys: list[tuple[int, tuple[int, ...], int]]
    if ranking is Ranking.POGONY:
        keys = [(-len(p), tuple(sorted(-r for r in p)), finish[seat]) for seat, p in enumerate(state.pogons)]
    else:
        keys = [(-score, (), finish[seat]) for seat, score in enumerate(state.scores)]
    order = sorted(range(n), key=keys.__getitem__)
    rank = [0] * n
    for i, seat in enumerate(order):
        same = i > 0 and keys[seat] == keys[order[i - 1]]
        rank[seat] = rank[order[i - 1]] if same else i + 1
    return rank


def _finishing_ranks(state: State) -> list[int]:
    """docs/rules.md §11: first out first, the durak last; in the §6 draw (the last cover empties both hands at
    once) the last two out share their place. A draw by repetition ends with seats still playing: those out keep
    the places they went out in, the others share the last (docs/engine.md)."""
    n = len(state.hands)
    if state.rules.team_of(0) is not None:
        if state.draw:
            return [1] * n
        return [2 if seat in state.losers else 1 for seat in range(n)]
    rank = {seat: place for place, seat in enumerate(state.out, 1)}
    if state.draw and len(state.out) == n >= 2:
        rank[state.out[-1]] = rank[state.out[-2]]  # the last attacker and defender emptied together
    last = len(state.out) + 1
    return [rank.get(seat, last) for seat in range(n)]


def card_value(card: Card, trump: Suit | None) -> int:
    """Penalty value of a card left in hand: its rank (J=11 Q=12 K=13 A=14), trumps double."""
    value = card >> 2
    return value * 2 if card & 3 == trump else value


def penalty(state: State, seat: int) -> int:
    """The penalty a seat scores: the loser's cards left in hand, everyone else nothing."""
    if seat not in state.losers:
        return 0
    trump = state.trump if state.trumps is None else state.trumps[seat]  # двухкозырной: the durak's own trump
    return sum(card_value(c, trump) for c in state.hands[seat])


def points(system: Scoring, *, won: bool, lost: bool, rank: int, players: int, penalty_points: int) -> int:
    """One game's points for one player under ``system`` (not for RATING)."""
    if system is Scoring.BASIC:
        return int(won)
    if system is Scoring.BASIC_PLUS:
        return int(won) - int(lost)
    if system is Scoring.PLACES:
        return 0 if lost else max(0, players - rank)
    if system is Scoring.PENALTY:
        return penalty_points
    raise ValueError(f"{system} is not a points system")
