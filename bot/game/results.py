"""A finished game's result rows and the ratings they move. Pure but for reading the current ratings."""

from __future__ import annotations

from bot.stats import ratings
from bot.ui.places import places_of
from durak.scoring import penalty, ranks
from storage.computers import is_computer
from storage.models import Away, Game, RatingUpdate, ResultRow
from storage.repo import Repo


def result_rows(game: Game) -> list[ResultRow]:
    """One row per seat. A player who left counts as a loser (ranked last in free-for-all games, below a draw's
    last two: tied with them, he would have drawn) whatever the computer made of his seat; a player who was out
    with a place before could not leave."""
    state = game.state
    assert state is not None and state.over
    rank_of = ranks(state)
    worst = max(rank_of) + (1 if state.draw else 0)
    team = game.rules.team_of
    rows = []
    places = places_of(game)
    for seat in game.seats:
        number = seat.seat
        place = places.get(number)
        left = seat.away is Away.LEFT
        rank = worst if left and team(number) is None else rank_of[number]
        rows.append(ResultRow(number, seat.user.id, place, rank, number in state.losers or left, state.draw,
                              state.pogony, left, seat.away is not Away.PLAYING, penalty(state, number),
                              team(number)))
    return rows


async def new_ratings(repo: Repo, game: Game, results: list[ResultRow]
                      ) -> tuple[list[RatingUpdate], dict[int, tuple[int, int]]]:
    """The new ratings of every player (in the chat and globally), and each one's chat rating in
    points before and after, for his end-of-game message. A game with a computer seat moves no rating:
    ratings compare people."""
    if any(is_computer(r.user_id) for r in results):
        return [], {}
    players = [(r.user_id, r.rank, r.team) for r in results]
    updates = []
    changes: dict[int, tuple[int, int]] = {}
    for scope in (game.chat_id, ratings.GLOBAL):
        current = await repo.ratings(scope, [r.user_id for r in results])
        for user_id, (mu, sigma) in ratings.rate(current, players).items():
            updates.append(RatingUpdate(scope, user_id, mu, sigma, ratings.ordinal(mu, sigma),
                                         current.get(user_id)))
            if scope == game.chat_id:
                before = ratings.points(*current.get(user_id, ratings.default()))
                changes[user_id] = (before, ratings.points(mu, sigma))
    return updates, changes
