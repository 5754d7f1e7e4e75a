"""A finished game's result rows, the ratings they move and the evening they count in. Pure but for reading the
current ratings and the table's last games."""

from __future__ import annotations

from dataclasses import replace

from bot.stats import ratings
from bot.stats.evening import Evening, evening, goes_on
from bot.ui.places import places_of
from durak.scoring import Scoring, penalty, ranks
from storage.computers import is_computer
from storage.models import Away, Game, Goal, PlayedGame, RatingUpdate, ResultRow
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


async def evening_of(repo: Repo, game: Game, results: list[ResultRow], now: float) -> tuple[Game, Evening]:
    """The finished game with the evening it counts in (its first game and goal, written with its results), and
    that evening's score with it (bot.stats.evening: when it goes on, when a new one starts)."""
    seated = frozenset(r.user_id for r in results)
    scoring = Scoring((await repo.chat(game.chat_id)).scoring)
    seats = [r.user_id for r in results]
    last = await repo.last_game(game.chat_id, game.thread_id)
    series, goal, before = game.id, game.goal, []
    if last is not None and last.series is not None and goes_on(last, seated, now, game.goal):
        played = await repo.played(series=last.series)
        if not evening(last.series, seats, played, Goal.parse(last.goal), scoring).over:
            series, goal, before = last.series, last.goal, played
    players = len(results)
    own = [(r.user_id, PlayedGame(game.id, game.chat_id, now, players, r.place, r.rank, r.loser, r.draw, r.pogony,
                                  r.left, r.penalty, False, tuple(seats))) for r in results]
    return replace(game, series=series, goal=goal), evening(series, seats, [*before, *own], Goal.parse(goal), scoring)
