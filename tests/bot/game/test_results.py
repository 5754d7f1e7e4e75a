"""A finished game's stored rows say what its players read: a player who left has no place, and the places of
the others are counted without him."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.game.results import result_rows
from bot.stats import ratings
from bot.ui import render
from bot.ui.i18n import translator
from durak import Rules, apply, legal_actions, new_game
from durak.engine import actors
from storage.models import Away, Game, Seat, Status, User


def finished(seed: int, players: int = 4) -> Game:
    """A game played out by random legal moves."""
    rng = random.Random(seed)
    state = new_game(Rules(), players=players, seed=seed)
    while not state.over:
        seat = rng.choice(actors(state))
        state, _ = apply(state, seat, rng.choice(list(legal_actions(state, seat))))
    seats = tuple(Seat(n, User(100 + n, name)) for n, name in enumerate(("Anna", "Boris", "Vera", "Gleb")[:players]))
    return Game(1, -100, 0, Status.FINISHED, 100, Rules(), players, state, 1, None, seats)


def test_a_leaver_is_stored_without_a_place_and_the_others_move_up() -> None:
    game = next(g for g in map(finished, range(50)) if g.state is not None and len(g.state.out) >= 2)
    assert game.state is not None
    first = game.state.out[0]  # the computer played the leaver's seat out first
    seats = tuple(Seat(s.seat, s.user, away=Away.LEFT) if s.seat == first else s for s in game.seats)
    game = replace(game, seats=seats)
    rows = {r.seat: r for r in result_rows(game)}
    assert rows[first].place is None and rows[first].left and rows[first].loser
    second = game.state.out[1]
    assert rows[second].place == 1, "the next one out is first among those who played on"
    # the table's result says the same
    text, _ = render.result(translator("en"), game)
    assert f"1. {game.seats[second].user.name}" in text
    assert f"🚪 {game.seats[first].user.name}: left the game" in text


def test_a_leaver_loses_a_game_the_others_draw() -> None:
    """He left, the computer played his seat out first, the last two drew: he lost all the same, in his message,
    his row and his rating (he was told «A draw», and ranked with the two, gained points)."""
    game = finished(588, 3)  # random play rarely draws: this one does
    assert game.state is not None and game.state.draw and len(game.state.out) == 3
    first = game.state.out[0]
    game = replace(game, seats=tuple(replace(s, away=Away.LEFT) if s.seat == first else s for s in game.seats))
    rows = {r.seat: r for r in result_rows(game)}
    assert rows[first].loser and rows[first].rank > max(r.rank for r in rows.values() if r.seat != first)
    lines = render.final_lines(translator("en"), game, first, None)
    assert "You left the game: it counts as a loss." in lines and "🤝 A draw: nobody is the durak." not in lines
    rated = ratings.rate({}, [(r.user_id, r.rank, r.team) for r in rows.values()])
    start = ratings.points(*ratings.default())
    assert ratings.points(*rated[game.seats[first].user.id]) < start
    assert all(ratings.points(*rated[r.user_id]) > start for r in rows.values() if r.seat != first)
