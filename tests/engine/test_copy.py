"""A state's copy is the same game and shares nothing a move changes."""

from __future__ import annotations

from dataclasses import fields

from durak import Rules, new_game
from durak.engine import apply_in_place, legal_actions


def test_a_copy_holds_every_field_and_no_list_of_the_original() -> None:
    state = new_game(Rules.from_dict({"preset": "podkidnoy"}), 3, 7)
    apply_in_place(state, state.attacker or 0, legal_actions(state, state.attacker or 0)[0])
    twin = state.copy()
    for f in fields(state):
        mine, theirs = getattr(state, f.name), getattr(twin, f.name)
        assert mine == theirs, f.name
        if isinstance(mine, list):
            assert mine is not theirs, f"{f.name} is shared"
    assert all(a is not b for a, b in zip(state.hands, twin.hands, strict=True))
    seat = twin.defender or 0
    apply_in_place(twin, seat, legal_actions(twin, seat)[0])
    assert twin != state and state.moves == 1, "a move on the copy leaves the original as it was"
