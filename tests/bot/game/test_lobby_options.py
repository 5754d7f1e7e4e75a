from __future__ import annotations

import pytest

from bot.game.lobby_options import cycle, table_max, with_preset
from durak import Rules, RulesError
from durak.rules import Teams, ThrowIn


def test_each_option_moves_to_its_next_value() -> None:
    rules = Rules()
    assert cycle("preset", rules, 6, 2)[0].preset == "perevodnoy"
    assert cycle("deck", rules, 6, 2)[0].deck_size == 52
    assert cycle("throw_in", rules, 6, 2)[0].throw_in is ThrowIn.NEIGHBOURS
    assert cycle("transfer", rules, 6, 2)[0].transfer
    assert not cycle("draw", rules, 6, 2)[0].draw
    assert cycle("teams", rules, 6, 2)[0].teams is Teams.TWO_BY_TWO
    assert cycle("players", rules, 6, 3)[1] == 3
    assert cycle("players", rules, 3, 3)[1] == 4


def test_a_preset_keeps_deck_teams_and_cheating() -> None:
    rules = Rules.from_dict({"deck_size": 52, "cheating": True})
    new, _ = cycle("preset", rules, 6, 2)
    assert (new.preset, new.deck_size, new.cheating, new.transfer) == ("perevodnoy", 52, True, True)


def test_values_that_do_not_fit_the_seated_players_are_skipped() -> None:
    rules = Rules(deck_size=52)
    assert cycle("deck", rules, 6, 5)[0].deck_size == 36, "24 cards cannot seat five"
    assert cycle("teams", Rules(), 6, 5)[0].teams is Teams.THREE_BY_THREE
    three_teams = Rules(teams=Teams.THREE_BY_THREE)
    assert cycle("deck", three_teams, 6, 6)[0].deck_size == 52
    assert cycle("deck", three_teams.replace(deck_size=52), 6, 6)[0].deck_size == 36, "24 cannot seat six"
    assert table_max(Rules(deck_size=24)) == 4


def test_unknown_option() -> None:
    with pytest.raises(RulesError):
        cycle("jokers", Rules(), 6, 2)


def test_the_seed_options_cycle_where_the_game_takes_them() -> None:
    """Redeal (пересдача) and the pogony rule: options of every game, not presets of their own."""
    rules = Rules()
    assert cycle("redeal", rules, 6, 2)[0].redeal_same_suit == 5
    assert cycle("redeal", rules.replace(redeal_same_suit=5), 6, 2)[0].redeal_same_suit == 6
    assert cycle("redeal", rules.replace(redeal_same_suit=6), 6, 2)[0].redeal_same_suit is None
    assert cycle("redeal", Rules.from_dict({"preset": "pairs"}), 6, 2)[0].redeal_same_suit == 5, "not 6 of 5 cards"
    assert cycle("pogony", rules, 6, 2)[0].pogony_rule.value == "two_sixes"
    assert cycle("pogony", rules.replace(pogony_rule="off"), 6, 2)[0].pogony_rule.value == "sixes"
    with pytest.raises(RulesError):
        cycle("redeal", Rules.from_dict({"preset": "piled"}), 6, 2)  # the whole deck is dealt: no redeal


def test_another_game_keeps_the_seed_options_where_it_can() -> None:
    rules = Rules.from_dict({"redeal_same_suit": 5, "pogony_rule": "off"})
    perevodnoy, _ = cycle("preset", rules, 6, 2)
    assert perevodnoy.redeal_same_suit == 5 and perevodnoy.pogony_rule.value == "off"
    piled, _ = with_preset(rules, "piled", 6, 2)
    assert piled.redeal_same_suit is None and piled.deal.value == "whole_deck", "dropped where the game refuses it"
