"""A state's copy is the same game, and a move played on it (checked or in place) leaves the original as it
was, in every preset: the lists a copy shares are never changed in place."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from durak import Rules, apply, new_game
from durak.engine import actors, apply_in_place, legal_actions
from durak.rules import PRESETS


def test_a_copy_holds_every_field() -> None:
    state = new_game(Rules.from_dict({"preset": "podkidnoy"}), 3, 7)
    apply_in_place(state, state.attacker or 0, legal_actions(state, state.attacker or 0)[0])
    twin = state.copy()
    for f in fields(state):
        assert getattr(state, f.name) == getattr(twin, f.name), f.name
    assert all(a is not b for a, b in zip(state.hands, twin.hands, strict=True))
    assert twin.stock is not state.stock and twin.attacks is not state.attacks and twin.covers is not state.covers


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_no_move_changes_the_state_it_was_played_on(preset: str) -> None:
    # podkidnoy with cheating: a caught cheat takes a seat back out of ``out``
    rules = Rules.from_dict({"preset": preset, "cheating": True} if preset == "podkidnoy" else {"preset": preset})
    for players in (2, min(4, rules.max_players())):
        rng = random.Random(players)
        state = new_game(rules, players, players)
        while not state.over:
            seat = rng.choice(actors(state))
            action = rng.choice(legal_actions(state, seat))
            before = state.to_json()
            twin = state.copy()
            apply_in_place(twin, seat, action)
            assert state.to_json() == before, f"played in place on a copy: {action}"
            state, _ = apply(state, seat, action)
            assert twin == state
