"""Ratings move the right way; each scoring system ranks prepared results as docs/rules.md §11 says."""

from __future__ import annotations

from bot.stats import ratings
from bot.stats.standings import player_stats, standings
from durak.scoring import Scoring
from storage.models import PlayedGame


def test_the_first_out_gains_and_the_durak_loses() -> None:
    new = ratings.rate({}, [(1, 1, None), (2, 2, None), (3, 3, None)])
    start = ratings.default()[0]
    assert new[1][0] > start > new[3][0]
    assert new[1][0] > new[2][0] > new[3][0]
    assert all(sigma < ratings.default()[1] for _, sigma in new.values()), "every game makes ratings surer"


def test_a_draw_moves_the_tied_players_alike() -> None:
    new = ratings.rate({}, [(1, 1, None), (2, 1, None)])
    assert abs(new[1][0] - new[2][0]) < 1e-9


def test_an_upset_moves_more_than_an_expected_result() -> None:
    strong, weak = (35.0, 3.0), (20.0, 3.0)
    expected = ratings.rate({1: strong, 2: weak}, [(1, 1, None), (2, 2, None)])
    upset = ratings.rate({1: strong, 2: weak}, [(1, 2, None), (2, 1, None)])
    assert upset[2][0] - weak[0] > expected[1][0] - strong[0] > 0


def test_teams_are_rated_together() -> None:
    new = ratings.rate({}, [(1, 1, 0), (2, 2, 1), (3, 1, 0), (4, 2, 1)])
    assert new[1] == new[3] and new[2] == new[4]
    assert new[1][0] > new[2][0]


def game(rank: int, players: int = 3, loser: bool = False, draw: bool = False, penalty: int = 0,
         pogony: bool = False, gave: bool = False) -> PlayedGame:
    place = None if loser else rank
    return PlayedGame(0, -1, 0.0, players, place, rank, loser, draw, pogony, False, penalty, gave)


PREPARED = {
    # Anna: 5 games, won 3, durak once
    1: [game(1), game(1), game(2), game(3, loser=True, penalty=30), game(1)],
    # Boris: 5 games, won 1, durak 3 times
    2: [game(3, loser=True, penalty=10), game(1), game(3, loser=True, penalty=12), game(2),
        game(3, loser=True, penalty=5)],
    # Vera: 2 games only
    3: [game(1), game(1)],
}


def test_each_system_ranks_the_prepared_results() -> None:
    def order(system: Scoring) -> tuple[list[tuple[int, float]], list[int]]:
        ranked, newcomers = standings(system, PREPARED, {1: (30.0, 2.0), 2: (24.0, 2.0), 3: (40.0, 5.0)})
        return [(s.user_id, s.score) for s in ranked], [s.user_id for s in newcomers]

    assert order(Scoring.BASIC) == ([(1, 3), (2, 1)], [3])
    assert order(Scoring.BASIC_PLUS) == ([(1, 2), (2, -2)], [3])
    assert order(Scoring.PLACES) == ([(1, 2 + 2 + 1 + 0 + 2), (2, 0 + 2 + 0 + 1 + 0)], [3])
    assert order(Scoring.PENALTY) == ([(2, 27), (1, 30)], [3]), "the fewest penalty points lead"
    ranked, newcomers = standings(Scoring.RATING, PREPARED, {1: (30.0, 2.0), 2: (24.0, 2.0), 3: (40.0, 5.0)})
    assert [s.user_id for s in ranked] == [1, 2] and [s.user_id for s in newcomers] == [3]
    assert ranked[0].score == ratings.points(30.0, 2.0) == 1000 + 25 * 24


def test_player_stats() -> None:
    games = [*PREPARED[1], game(2, pogony=True, gave=True), game(3, loser=True, pogony=True), game(1, draw=True)]
    s = player_stats(games, 1012, 2)
    assert (s.games, s.wins, s.duraks, s.draws) == (8, 3, 2, 1)
    assert (s.pogony_given, s.pogony_received, s.best_streak) == (1, 1, 2)
    assert s.durak_rate == 2 / 8 and not s.provisional
    assert player_stats(games[:4], 1012, 2).provisional


def test_ratings_read_as_points_a_newcomer_at_1000_and_never_negative() -> None:
    assert ratings.points(*ratings.default()) == 1000
    current = {1: ratings.default(), 2: ratings.default()}
    for _ in range(300):  # player 2 is the durak of every game
        current = ratings.rate(current, [(1, 1, None), (2, 2, None)])
    assert 0 < ratings.points(*current[2]) < 1000 < ratings.points(*current[1])


def test_the_leaderboard_tells_two_players_of_one_name_apart() -> None:
    from bot.stats import render as render_stats
    from bot.stats.standings import Standing
    from bot.ui.i18n import translator

    ranked = [Standing(10001234, 30, 6), Standing(20005678, 20, 6), Standing(7, 10, 6)]
    text, _ = render_stats.top(translator("ru"), {10001234: "Саша", 20005678: "Саша", 7: "Оля"}, ranked, [], 0,
                               Scoring.BASIC, "везде", chat_wide=False)
    assert "1. Саша (…1234)" in text and "2. Саша (…5678)" in text and "3. Оля ·" in text


def test_stats_of_computer_games_only_have_no_empty_section_above() -> None:
    from bot.stats import render as render_stats
    from bot.stats.standings import PlayerStats
    from bot.ui.i18n import translator

    text = render_stats.stats(translator("ru"), "Костя", PlayerStats(0, 0, 0, 0, 0, 0, 0, None, None,
                                                                    (("hard", 3, 1),)), "за всё время")
    assert "выше не учтено" not in text and "🤖 Против компьютера:" in text and text.count("\n") == 2, text
