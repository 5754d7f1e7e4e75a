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
        # scores rank players, not teams; two trumps are for two players
        teams = {} if {"ranking", "two_trumps"} & set(PRESETS[preset]) else {"teams": "2x2"}
        rules = Rules.from_dict({"preset": preset, **teams, "cheating": True})
        assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(("preset", "expected"), [
    ("no_trump", {"trump_suit": "none"}),
    ("japanese", {"special_suit": "S", "trump_suit": "turned"}),
    ("suitless", {"suitless": True}),
    ("royal", {"royal": "royal"}),
    ("piled", {"deal": "whole_deck"}),
    ("chukchi", {"stock_mode": "removed"}),
    ("empty_hand", {"refill": "when_empty"}),
    ("albanian", {"stock_mode": "sorted"}),
    ("invisible", {"trump_card_hidden": True}),
    ("threes", {"lead": "three"}),
    ("tedious", {"lead": "highest"}),
    ("no_throw_in", {"transfer": True, "transfer_show_trump": True, "throw_in": "off", "lead": "whole_rank"}),
    ("kind", {"taker_attacks": True}),
    ("circular", {"rotate_hands": True}),
    ("points", {"ranking": "beaten"}),
    ("figures", {"ranking": "figures"}),
    ("pogony_race", {"ranking": "pogony"}),
    ("pairs", {"hand_size": 5, "lead": "pairs"}),
    ("groups", {"hand_size": 5, "lead": "groups"}),
    ("perevodnoy_2", {"transfer": True, "transfer_show_trump": True, "transfer_after_cover": True}),
    ("recycled", {"recycle_discard": True}),
    ("trump_swap", {"trump_swap": True}),
    ("armenian", {"stock_lead": True}),
    ("secret_trump", {"secret_trump": True}),
    ("perevodnoy_3", {"transfer": True, "transfer_show_trump": True, "transfer_beat_only_new": True}),
    ("american", {"self_throw_in": True}),
    ("second_try", {"draw_to_cover": True}),
    ("poker", {"poker_swap": True}),
    ("baltic", {"counter_attack": True}),
    ("two_trumps", {"two_trumps": True}),
])
def test_variant_presets_are_their_options_over_podkidnoy(preset: str, expected: dict[str, object]) -> None:
    """docs/variants.md §5: each preset sets its options and leaves every other at podkidnoy's."""
    data = Rules.from_dict({"preset": preset}).to_dict()
    podkidnoy = Rules().to_dict()
    for name, value in data.items():
        assert value == expected.get(name, {"preset": preset}.get(name, podkidnoy[name])), name


def test_a_preset_takes_overrides_like_any_option() -> None:
    rules = Rules.from_dict({"preset": "japanese", "trump_suit": "D"})  # the seeds' "козыри всегда бубны"
    assert rules.special_suit == "S" and rules.trump_suit == "D"


@pytest.mark.parametrize(("options", "option", "other"), [
    ({"deal": "whole_deck", "redeal_same_suit": 5}, "deal", "redeal_same_suit"),
    ({"deal": "whole_deck", "stock_mode": "sorted"}, "deal", "stock_mode"),
    ({"deal": "whole_deck", "refill": "when_empty"}, "deal", "refill"),
    ({"deal": "whole_deck", "trump_card_hidden": True}, "deal", "trump_card_hidden"),
    ({"stock_mode": "removed", "refill": "when_empty"}, "stock_mode", "refill"),
    ({"stock_mode": "removed", "trump_card_hidden": True}, "stock_mode", "trump_card_hidden"),
    ({"preset": "chukchi", "recycle_discard": True}, "stock_mode", "recycle_discard"),
    ({"preset": "piled", "recycle_discard": True}, "deal", "recycle_discard"),
    ({"preset": "trump_swap", "trump_suit": "none"}, "trump_suit", "trump_swap"),
    ({"preset": "trump_swap", "special_suit": "S"}, "special_suit", "trump_swap"),
    ({"preset": "trump_swap", "stock_mode": "removed"}, "stock_mode", "trump_swap"),
    ({"trump_suit": "none", "trump_card_hidden": True}, "trump_suit", "trump_card_hidden"),
    ({"trump_suit": "H", "trump_card_hidden": True}, "trump_suit", "trump_card_hidden"),
    ({"special_suit": "S", "trump_suit": "S"}, "special_suit", "trump_suit"),
    ({"special_suit": "S", "suitless": True}, "special_suit", "suitless"),
    ({"special_suit": "S", "royal": "aces"}, "special_suit", "royal"),
    ({"suitless": True, "royal": "royal"}, "suitless", "royal"),
    ({"lead": "three", "lead_max": 2}, "lead", "lead_max"),
    ({"lead": "pairs", "lead_max": 3}, "lead", "lead_max"),
    ({"lead": "groups", "lead_max": 4}, "lead", "lead_max"),
    ({"ranking": "beaten", "teams": "2x2"}, "ranking", "teams"),
    ({"redeal_same_suit": 6, "hand_size": 5}, "redeal_same_suit", "hand"),
    ({"preset": "piled", "stock_lead": True}, "deal", "stock_lead"),
    ({"preset": "chukchi", "poker_swap": True}, "stock_mode", "poker_swap"),
    ({"preset": "chukchi", "draw_to_cover": True}, "stock_mode", "draw_to_cover"),
    ({"preset": "piled", "secret_trump": True}, "deal", "secret_trump"),
    ({"preset": "secret_trump", "trump_suit": "none"}, "trump_suit", "secret_trump"),
    ({"preset": "secret_trump", "special_suit": "S"}, "special_suit", "secret_trump"),
    ({"preset": "secret_trump", "trump_swap": True}, "secret_trump", "trump_swap"),
    ({"preset": "armenian", "lead": "pairs"}, "stock_lead", "lead"),
    ({"preset": "american", "transfer": True, "transfer_after_cover": True}, "self_throw_in", "transfer_after_cover"),
    ({"preset": "two_trumps", "teams": "2x2"}, "two_trumps", "teams"),
    ({"preset": "two_trumps", "trump_card_hidden": True}, "two_trumps", "trump_card_hidden"),
    ({"preset": "two_trumps", "trump_swap": True}, "two_trumps", "trump_swap"),
    ({"preset": "two_trumps", "secret_trump": True}, "two_trumps", "secret_trump"),
    ({"preset": "two_trumps", "suitless": True}, "suitless", "two_trumps"),
    ({"preset": "two_trumps", "royal": "aces"}, "royal", "two_trumps"),
    ({"preset": "two_trumps", "trump_suit": "none"}, "trump_suit", "two_trumps"),
    ({"preset": "two_trumps", "special_suit": "S"}, "special_suit", "two_trumps"),
    ({"preset": "two_trumps", "deal": "whole_deck"}, "deal", "two_trumps"),
    ({"preset": "two_trumps", "deck_size": 24, "hand_size": 12}, "two_trumps", "26"),
])
def test_combinations_without_a_meaning_are_refused(options: dict[str, object], option: str, other: str) -> None:
    """docs/variants.md §3: the refusal names the option and what it cannot go with."""
    with pytest.raises(RulesError) as caught:
        Rules.from_dict(options)
    assert caught.value.option == option
    assert other in str(caught.value)


def test_a_secret_card_leaves_one_seat_fewer_at_a_full_table() -> None:
    """docs/variants.md §3: the face-up and the secret card are kept out of the deal: 36 cards seat 5, not 6."""
    assert Rules.from_dict({"preset": "secret_trump"}).max_players() == 5
    assert Rules.from_dict({"preset": "secret_trump", "deck_size": 24}).max_players() == 3


def test_an_option_without_effect_is_no_error() -> None:
    """A `lead` other than same_rank with lead_max refused, but `same_rank`/`whole_rank`/`highest` take it."""
    assert Rules.from_dict({"lead": "whole_rank", "lead_max": 2}).lead_max == 2
    assert Rules.from_dict({"preset": "simple", "lead": "highest"}).lead_max == 2


@pytest.mark.parametrize(("options", "option", "words"), [
    ({"jokers": True}, "jokers", "unknown option"),
    ({"preset": "martian"}, "preset", "unknown preset"),
    ({"lead": "sideways"}, "lead", "unknown value"),
    ({"special_suit": "X"}, "special_suit", "unknown value"),
    ({"redeal_same_suit": 4}, "redeal_same_suit", "5, 6 or null"),
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
