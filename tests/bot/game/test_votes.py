"""How many votes stop a game (bot/game/votes.py): more than half of those still at the table."""

from __future__ import annotations

from dataclasses import replace

from bot.game.votes import needed
from storage.models import Away
from tests.bot.game.made import ANNA, BORIS, VERA, dealt, game_of


def test_more_than_half_of_those_still_at_the_table() -> None:
    two, three = game_of(dealt(2), ANNA, BORIS), game_of(dealt(3), ANNA, BORIS, VERA)
    assert needed(two) == 2 and needed(three) == 2
    left = replace(three, seats=(three.seats[0], replace(three.seats[1], away=Away.LEFT), three.seats[2]))
    assert needed(left) == 2, "two still seated: both"
    away = replace(three, seats=(three.seats[0], replace(three.seats[1], away=Away.AWAY), three.seats[2]))
    assert needed(away) == 2, "one away for a moment still counts"
