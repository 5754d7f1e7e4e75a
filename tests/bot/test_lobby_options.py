from __future__ import annotations

import pytest

from bot.lobby_options import cycle, table_max
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
