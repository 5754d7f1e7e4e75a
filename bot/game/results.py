"""A finished game's result rows, the ratings they move and the evening they count in. Pure but for reading the
current ratings and the table's last games."""

from __future__ import annotations

from dataclasses import replace

from bot.stats import badges, ratings
from bot.stats.badges import Badge
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
    own = played_rows(game, results, now)
    return replace(game, series=series, goal=goal), evening(series, seats, [*before, *own], Goal.parse(goal), scoring)


def played_rows(game: Game, results: list[ResultRow], now: float) -> list[tuple[int, PlayedGame]]:
    """The finished game's results as the stats read them back, (user, game) each seat."""
    seats = tuple(r.user_id for r in results)
    places = [r.place for r in results if r.place is not None]
    last = max(places, default=None)
    return [(r.user_id, PlayedGame(game.id, game.chat_id, now, len(results), r.place, r.rank, r.loser, r.draw,
                                   r.pogony, r.left, r.penalty, r.pogony and r.place is not None and r.place == last,
                                   seats)) for r in results]


async def new_badges(repo: Repo, game: Game, results: list[ResultRow], night: Evening | None, now: float
                     ) -> dict[int, list[Badge]]:
    """The badges each person at the finished game earns with it (bot.stats.badges), from his record before it."""
    earned: dict[int, list[Badge]] = {}
    for user, fact in badges.facts(game, played_rows(game, results, now)).items():
        before = [g for _, g in await repo.played(user_id=user) if g.game_id != game.id]
        line = None if night is None else next((line for line in night.lines if line.user_id == user), None)
        record = badges.Record(before, await repo.presets_played(user),
                               None if line is None or night is None else (night.games, line.duraks),
                               badges=set(await repo.badges(user)))
        if found := badges.earned(fact, record):
            earned[user] = found
    return earned
