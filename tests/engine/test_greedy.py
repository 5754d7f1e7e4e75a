"""The greedy player's direct choice (a lead or a defence worked out without listing every legal move) is the
move it would choose from the listed ones, under every preset and many combinations of the variants' options."""

from __future__ import annotations

import random

import pytest

from durak import Rules, RulesError, State, legal_actions, new_game
from durak.ai import greedy
from durak.engine import apply_in_place
from durak.rules import PRESETS
from tests.engine.test_properties import VARIANT_OPTIONS


def _agree_through_a_game(rules: Rules, players: int, seed: int) -> int:
    """Plays a game, half its moves random (to reach positions the greedy player would not), and checks at every
    position, for every seat, that the direct choice is the listed one. Returns how often it answered directly."""
    rng = random.Random(seed)
    state: State = new_game(rules, players, seed)
    direct = 0
    for _ in range(3000):
        if state.over:
            break
        movers = []
        for seat in range(players):
            listed = legal_actions(state, seat)
            chosen = greedy.choose(state, seat)
            assert chosen == greedy.choose_among(state, seat, listed), (rules.preset, seed, seat, state)
            direct += greedy.direct(state, seat) is not None
            if listed:
                movers.append((seat, listed, chosen))
        seat, listed, chosen = rng.choice(movers)
        honest = [a for a in listed if not a.cheat] or list(listed)
        apply_in_place(state, seat, chosen if chosen is not None and rng.random() < 0.5 else rng.choice(honest))
    return direct


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_direct_choice_is_the_listed_one_under_every_preset(preset: str) -> None:
    rules = Rules.from_dict({"preset": preset})
    for players in sorted({2, min(4, rules.max_players())}):
        for seed in range(3):
            _agree_through_a_game(rules, players, seed)


def test_the_direct_choice_is_the_listed_one_under_the_variants_options_combined() -> None:
    rng = random.Random(7)
    direct = games = 0
    while games < 40:
        options = {name: rng.choice(values) for name, values in VARIANT_OPTIONS.items()}
        try:
            rules = Rules.from_dict({"preset": rng.choice(sorted(PRESETS)), **options})
        except RulesError:
            continue  # options that contradict each other
        games += 1
        direct += _agree_through_a_game(rules, min(rng.choice([2, 3, 4]), rules.max_players()), games)
    assert direct > 100, "the direct choice answers in the usual positions"


def test_the_greedy_player_leads_and_defends_without_listing_under_the_plain_rules() -> None:
    assert _agree_through_a_game(Rules.from_dict({"preset": "podkidnoy"}), 2, 1) > 20
