from __future__ import annotations

from collections import Counter

import pytest

from durak import Previous, Rules, new_game, position
from durak.cards import card_code, deck, parse_card
from durak.rules import FirstAttacker, RulesError


def test_same_seed_same_game_other_seed_other_game() -> None:
    a, b, c = new_game(Rules(), 4, seed=7), new_game(Rules(), 4, seed=7), new_game(Rules(), 4, seed=8)
    assert a == b
    assert a.hands != c.hands


@pytest.mark.parametrize(("deck_size", "players"), [(24, 2), (24, 4), (36, 3), (36, 6), (52, 5), (52, 8)])
def test_deal_gives_six_each_and_keeps_every_card(deck_size: int, players: int) -> None:
    state = new_game(Rules(deck_size=deck_size), players, seed="table-1")
    assert [len(h) for h in state.hands] == [6] * players
    assert Counter(state.all_cards()) == Counter(deck(deck_size))
    assert len(state.stock) == deck_size - 6 * players


def test_trump_card_lies_under_the_stock_and_names_the_trump() -> None:
    state = new_game(Rules(), 2, seed=1)
    assert state.trump_card == state.stock[-1]
    assert state.trump == state.trump_card & 3


def test_whole_deck_dealt_trump_is_the_last_dealt_card() -> None:
    state = new_game(Rules(), 6, seed=3)
    assert state.stock == []
    assert state.trump_card == state.hands[5][-1]
    assert state.trump == state.trump_card & 3


def test_first_game_lowest_trump_leads() -> None:
    for seed in range(20):
        state = new_game(Rules(), 3, seed)
        trumps = [(c, p) for p, h in enumerate(state.hands) for c in h if c & 3 == state.trump]
        if trumps:
            assert state.attacker == min(trumps)[1]
        assert state.defender == (state.attacker + 1) % 3


@pytest.mark.parametrize(("rule", "previous", "attacker"), [
    (FirstAttacker.AFTER_FOOL, Previous(loser=2, winner=0), 3),
    (FirstAttacker.AFTER_FOOL, Previous(loser=3, winner=0), 0),
    (FirstAttacker.BEFORE_FOOL, Previous(loser=2, winner=0), 1),
    (FirstAttacker.WINNER, Previous(loser=2, winner=1), 1),
])
def test_rematch_first_attacker(rule: FirstAttacker, previous: Previous, attacker: int) -> None:
    state = new_game(Rules(first_attacker=rule), 4, seed=5, previous=previous)
    assert state.attacker == attacker
    assert state.defender == (attacker + 1) % 4


def test_before_fool_attacks_the_fool() -> None:
    state = new_game(Rules(first_attacker=FirstAttacker.BEFORE_FOOL), 4, seed=5, previous=Previous(2, 0))
    assert state.defender == 2


def test_after_a_draw_or_with_lowest_trump_the_lowest_trump_leads() -> None:
    fresh = new_game(Rules(), 4, seed=9)
    after_draw = new_game(Rules(), 4, seed=9, previous=Previous(loser=None, winner=1))
    always = new_game(Rules(first_attacker=FirstAttacker.LOWEST_TRUMP), 4, seed=9, previous=Previous(2, 1))
    assert fresh.attacker == after_draw.attacker == always.attacker


def test_deal_refuses_players_that_do_not_fit() -> None:
    with pytest.raises(RulesError, match="do not fit"):
        new_game(Rules(deck_size=24), 5, seed=1)


def test_position_refuses_a_trump_card_of_another_suit() -> None:
    with pytest.raises(RulesError, match="trump"):
        position(Rules(), [[parse_card("6S")], [parse_card("7S")]], [parse_card("8C")], trump=3)


def test_position_copies_its_inputs() -> None:
    hand = [parse_card("6S")]
    state = position(Rules(), [hand, [parse_card("7S")]], [parse_card("8H")], trump=3, attacker=0)
    hand.append(parse_card("AS"))
    assert [card_code(c) for c in state.hands[0]] == ["6S"]
