from __future__ import annotations

import pytest

from durak import Rules, apply, attack, defend, position
from durak.actions import TAKE
from durak.cards import parse_card
from durak.scoring import Scoring, card_value, penalty, points, ranks


def c(code: str) -> int:
    return parse_card(code)


def finished(hands: list[list[str]], moves: list[tuple[int, object]], **rules: object):  # type: ignore[no-untyped-def]
    state = position(Rules.from_dict(rules), [[c(x) for x in h] for h in hands], [], trump=3, attacker=0,
                     first_bout=False)
    for seat, action in moves:
        state, _ = apply(state, seat, action)  # type: ignore[arg-type]
    assert state.over
    return state


def test_ranks_follow_the_finishing_order_with_the_durak_last() -> None:
    state = finished([["7S"], ["8S", "9C", "KD"], ["7C"]],
                     [(0, attack(c("7S"))), (2, attack(c("7C"))), (1, defend(c("7S"), c("8S"))),
                      (1, defend(c("7C"), c("9C")))])
    assert state.out == [0, 2] and state.losers == (1,)
    assert ranks(state) == [1, 3, 2]


def test_a_draw_shares_the_last_rank() -> None:
    state = finished([["7S"], ["8S"]], [(0, attack(c("7S"))), (1, defend(c("7S"), c("8S")))])
    assert state.draw
    assert ranks(state) == [1, 1]


def test_teams_are_ranked_as_teams() -> None:
    state = finished([["7S", "KD"], ["8S"], ["QC"], []], [(0, attack(c("7S"))), (1, defend(c("7S"), c("8S")))],
                     teams="2x2")
    assert ranks(state) == [2, 1, 2, 1]


def test_penalty_counts_the_losers_cards_with_trumps_double() -> None:
    state = finished([["6S"], ["8S", "AH", "JC"]], [(0, attack(c("6S"))), (1, TAKE)])
    assert card_value(c("AH"), 3) == 28 and card_value(c("JC"), 3) == 11
    assert penalty(state, 1) == 8 + 28 + 11 + 6
    assert penalty(state, 0) == 0


@pytest.mark.parametrize(("system", "won", "lost", "rank", "expected"), [
    (Scoring.BASIC, True, False, 1, 1), (Scoring.BASIC, False, True, 4, 0),
    (Scoring.BASIC_PLUS, True, False, 1, 1), (Scoring.BASIC_PLUS, False, True, 4, -1),
    (Scoring.BASIC_PLUS, False, False, 2, 0),
    (Scoring.PLACES, True, False, 1, 3), (Scoring.PLACES, False, False, 3, 1), (Scoring.PLACES, False, True, 4, 0),
])
def test_points_of_each_system(system: Scoring, won: bool, lost: bool, rank: int, expected: int) -> None:
    assert points(system, won=won, lost=lost, rank=rank, players=4, penalty_points=0) == expected
