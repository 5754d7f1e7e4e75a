"""An evening's rules: when it goes on, when its goal is met, who is its durak and its best, and its words."""

from __future__ import annotations

import pytest

from bot.game.lobby import parse_goal
from bot.stats.evening import GAP, evening, goes_on
from bot.stats.evening_text import ended, score_lines
from bot.ui.i18n import LANGUAGES, translator
from durak.scoring import Scoring
from storage.models import Aim, Goal, LastGame, PlayedGame

ANNA, BORIS, VERA = 1, 2, 3
NAMES = {ANNA: "Anna", BORIS: "Boris", VERA: "Vera"}


def game(game_id: int, order: list[int], draw: bool = False) -> list[tuple[int, PlayedGame]]:
    """One game's rows: ``order`` the finishing order, its last the durak (nobody with a draw)."""
    rows = []
    for rank, user in enumerate(order, 1):
        durak = rank == len(order) and not draw
        rows.append((user, PlayedGame(game_id, -1, 0.0, len(order), None if durak else rank,
                                      len(order) if draw else rank, durak, draw, False, False, 0, False,
                                      tuple(order))))
    return rows


def test_the_evening_goes_on_with_the_same_people_within_three_hours_and_no_goal_of_its_own() -> None:
    last = LastGame(7, 5, "", 1000.0, frozenset({ANNA, BORIS}))
    both = frozenset({ANNA, BORIS})
    assert goes_on(last, both, 1000.0 + GAP, "")
    assert not goes_on(last, both, 1000.0 + GAP + 1, ""), "a night's sleep"
    assert not goes_on(last, both | {VERA}, 1100.0, ""), "Vera sat down"
    assert not goes_on(last, frozenset({ANNA}), 1100.0, ""), "Boris left"
    assert not goes_on(last, both, 1100.0, "games:3"), "a lobby opened to a goal of its own"
    assert not goes_on(None, both, 1100.0, "")


def test_a_goal_is_met_by_games_or_by_one_players_duraks() -> None:
    seats = [ANNA, BORIS]
    two = [*game(1, [ANNA, BORIS]), *game(2, [BORIS, ANNA])]
    assert evening(1, seats, two, Goal(Aim.GAMES, 2), Scoring.RATING).over
    assert not evening(1, seats, two, Goal(Aim.GAMES, 3), Scoring.RATING).over
    assert not evening(1, seats, two, Goal(Aim.DURAK, 2), Scoring.RATING).over, "each was the durak once"
    three = [*two, *game(3, [ANNA, BORIS])]
    assert evening(1, seats, three, Goal(Aim.DURAK, 2), Scoring.RATING).over
    assert not evening(1, seats, three, None, Scoring.RATING).over, "without a goal it goes on while they play"


def test_the_durak_and_the_best_of_the_evening_and_a_shared_one() -> None:
    seats = [ANNA, BORIS, VERA]
    rows = [*game(1, [ANNA, BORIS, VERA]), *game(2, [ANNA, VERA, BORIS]), *game(3, [BORIS, ANNA, VERA])]
    night = evening(1, seats, rows, None, Scoring.RATING)
    assert [line.user_id for line in night.duraks()] == [VERA]
    assert [line.user_id for line in night.best()] == [ANNA]
    assert [line.user_id for line in night.ordered()] == [ANNA, BORIS, VERA]
    text = ended(translator("en"), night, NAMES)
    assert "🃏 The durak of the evening: Vera (2 times)" in text and "🥇 The best: Anna (2 first places)" in text
    assert "1. Anna: 🃏 0 · 🥇 2\n2. Boris: 🃏 1 · 🥇 1\n3. Vera: 🃏 2 · 🥇 0" in text
    even = evening(1, [ANNA, BORIS], [*game(1, [ANNA, BORIS]), *game(2, [BORIS, ANNA])], None, Scoring.RATING)
    assert even.even() and "🤝 The evening ends in a draw." in ended(translator("en"), even, NAMES)
    drawn = evening(1, [ANNA, BORIS], game(1, [ANNA, BORIS], draw=True), None, Scoring.RATING)
    assert drawn.duraks() == [] and drawn.best() == []


def test_points_follow_the_chats_scoring_system() -> None:
    rows = [*game(1, [ANNA, BORIS, VERA]), *game(2, [BORIS, ANNA, VERA])]
    places = evening(1, [ANNA, BORIS, VERA], rows, None, Scoring.PLACES)
    assert {line.user_id: line.points for line in places.lines} == {ANNA: 3, BORIS: 3, VERA: 0}
    lines = score_lines(translator("en"), places, NAMES)
    assert lines[1:] == ["🌙 The evening: 2 games", "🃏 Durak (times): Anna 0 · Boris 0 · Vera 2",
                         "🥇 First places: Anna 1 · Boris 1 · Vera 0", "⭐ Points: Anna 3 · Boris 3 · Vera 0"]
    assert "🥇 The best: Anna, Boris (3 points)" in ended(translator("en"), places, NAMES)
    assert score_lines(translator("en"), evening(1, [ANNA], game(1, [ANNA, BORIS]), None, Scoring.RATING),
                       NAMES) == [], "one game is no evening yet"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_evenings_words_in_every_language(language: str) -> None:
    tr = translator(language)
    rows = [*game(1, [ANNA, BORIS, VERA]), *game(2, [ANNA, VERA, BORIS]), *game(3, [BORIS, ANNA, VERA])]
    for goal in (None, Goal(Aim.GAMES, 5), Goal(Aim.DURAK, 2)):
        night = evening(1, [ANNA, BORIS, VERA], rows, goal, Scoring.BASIC)
        text = "\n".join([*score_lines(tr, night, NAMES), ended(tr, night, NAMES)])
        assert all(name in text for name in NAMES.values()) and "{" not in text
        assert ("3" in score_lines(tr, night, NAMES)[1]) and (goal is None or str(goal.n) in text)
        if language != "en":
            assert "evening" not in text.lower(), text


def test_series_reads_a_goal_and_refuses_the_rest() -> None:
    assert parse_goal(["5"]) == Goal(Aim.DURAK, 5)
    assert parse_goal(["3", "games"]) == parse_goal(["3", "игр"]) == parse_goal(["3", "Spiele"]) == Goal(Aim.GAMES, 3)
    for wrong in (["abc"], ["0"], ["51"], ["5", "cats"], ["1", "2", "3"], ["-1"], ["٣"], ["1000"], []):
        assert parse_goal(wrong) is None, wrong
    assert Goal.parse("durak:5") == Goal(Aim.DURAK, 5) and Goal.parse("games:0") is None and Goal.parse("x") is None
