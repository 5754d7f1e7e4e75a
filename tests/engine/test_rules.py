from __future__ import annotations

import pytest

from durak import Rules, RulesError
from durak.rules import PRESETS, FirstAttacker, Teams, ThrowIn


def test_defaults_are_podkidnoy_with_36_cards() -> None:
    rules = Rules()
    assert (rules.deck_size, rules.hand_size, rules.throw_in, rules.transfer) == (36, 6, ThrowIn.ALL, False)
    assert (rules.bout_limit, rules.first_bout_limit, rules.draw) == (6, 5, True)
    assert rules.first_attacker is FirstAttacker.AFTER_FOOL


@pytest.mark.parametrize(("preset", "expected"), [
    ("podkidnoy", {"transfer": False, "throw_in": ThrowIn.ALL, "lead_max": None}),
    ("perevodnoy", {"transfer": True, "transfer_show_trump": True, "throw_in": ThrowIn.ALL}),
    ("simple", {"throw_in": ThrowIn.OFF, "lead_max": 2, "transfer": False}),
    ("do_zavala", {"after_take_unlimited": True, "throw_in": ThrowIn.ALL}),
])
def test_presets(preset: str, expected: dict[str, object]) -> None:
    rules = Rules.from_dict({"preset": preset})
    assert rules.preset == preset
    for name, value in expected.items():
        assert getattr(rules, name) == value


def test_options_override_the_preset() -> None:
    rules = Rules.from_dict({"preset": "perevodnoy", "transfer_show_trump": False, "deck_size": 52})
    assert rules.transfer and not rules.transfer_show_trump and rules.deck_size == 52


def test_round_trip_through_dict() -> None:
    for preset in PRESETS:
        rules = Rules.from_dict({"preset": preset, "teams": "2x2", "cheating": True})
        assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(("options", "option", "words"), [
    ({"jokers": True}, "jokers", "unknown option"),
    ({"preset": "japanese"}, "preset", "unknown preset"),
    ({"deck_size": 32}, "deck_size", "24, 36 or 52"),
    ({"throw_in": "everyone"}, "throw_in", "unknown value"),
    ({"draw": "yes"}, "draw", "true or false"),
    ({"bout_limit": 0}, "bout_limit", "at least 1"),
    ({"hand_size": True}, "hand_size", "whole number"),
    ({"lead_max": 0}, "lead_max", "at least 1"),
])
def test_bad_options_are_refused_naming_the_option(options: dict[str, object], option: str, words: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_dict(options)
    assert caught.value.option == option
    assert words in str(caught.value)


@pytest.mark.parametrize(("deck", "most"), [(24, 4), (36, 6), (52, 8)])
def test_players_must_fit_the_deck(deck: int, most: int) -> None:
    rules = Rules(deck_size=deck)
    rules.check_players(2)
    rules.check_players(most)
    with pytest.raises(RulesError, match="players"):
        rules.check_players(most + 1)
    with pytest.raises(RulesError, match="at least 2"):
        rules.check_players(1)


def test_teams_need_their_number_of_players() -> None:
    Rules(teams=Teams.TWO_BY_TWO).check_players(4)
    Rules(teams=Teams.THREE_BY_THREE).check_players(6)
    with pytest.raises(RulesError) as caught:
        Rules(teams=Teams.TWO_BY_TWO).check_players(5)
    assert caught.value.option == "teams"
    with pytest.raises(RulesError):
        Rules(teams=Teams.THREE_BY_THREE, deck_size=24).check_players(6)


def test_partners_sit_alternately() -> None:
    rules = Rules(teams=Teams.THREE_BY_THREE)
    assert [rules.team_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert Rules().team_of(3) is None
