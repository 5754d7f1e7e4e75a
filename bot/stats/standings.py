"""Stats and leaderboards from finished games (docs/rules.md §11), computed from stored results.

A win is first place: the first player out, or in team games the winning team; a draw is
nobody's win. The durak is the player left holding cards (a leaver's loss is not a durak).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.stats.ratings import PROVISIONAL_GAMES
from bot.stats.ratings import points as rating_points
from durak.ai import LEVELS
from durak.scoring import Scoring, points
from storage.computers import level_of
from storage.models import PlayedGame

RANKED_AFTER = PROVISIONAL_GAMES  # games before a player is listed with the ranked players


def won(game: PlayedGame) -> bool:
    return game.rank == 1 and not game.draw and not game.loser


def durak(game: PlayedGame) -> bool:
    return game.loser and game.place is None


def computer_level(game: PlayedGame) -> str | None:
    """The strongest computer level at that table; None for a game among people."""
    levels = [level for u in game.seated if (level := level_of(u)) is not None]
    return max(levels, key=LEVELS.index) if levels else None


def among_people(games: list[PlayedGame]) -> list[PlayedGame]:
    """Stats, ratings and leaderboards count games among people only."""
    return [g for g in games if computer_level(g) is None]


def against_computers(games: list[PlayedGame]) -> tuple[tuple[str, int, int], ...]:
    """(level, games, wins) for each computer level played against, weakest first."""
    counts = {level: [0, 0] for level in LEVELS}
    for game in games:
        level = computer_level(game)
        if level is not None:
            counts[level][0] += 1
            counts[level][1] += won(game)
    return tuple((level, n, wins) for level, (n, wins) in counts.items() if n)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    games: int
    wins: int
    duraks: int
    draws: int
    pogony_given: int
    pogony_received: int
    best_streak: int
    rating: int | None     # in points
    rank: int | None       # place on the rating leaderboard of the scope
    computers: tuple[tuple[str, int, int], ...] = ()  # games against computers: (level, games, wins)

    @property
    def durak_rate(self) -> float:
        return self.duraks / self.games if self.games else 0.0

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def player_stats(every: list[PlayedGame], rating: int | None, rank: int | None) -> PlayerStats:
    """The figures of games among people, and apart from them those against computers."""
    games = among_people(every)
    streak = best = 0
    for game in games:
        streak = streak + 1 if won(game) else 0
        best = max(best, streak)
    return PlayerStats(
        games=len(games),
        wins=sum(won(g) for g in games),
        duraks=sum(durak(g) for g in games),
        draws=sum(g.draw for g in games),
        pogony_given=sum(g.gave_pogony for g in games),
        pogony_received=sum(g.pogony and durak(g) for g in games),
        best_streak=best,
        rating=rating,
        rank=rank,
        computers=against_computers(every),
    )


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    score: float
    games: int


def standings(system: Scoring, played: dict[int, list[PlayedGame]],
              ratings: dict[int, tuple[float, float]]) -> tuple[list[Standing], list[Standing]]:
    """(ranked, newcomers): everyone ordered by the system; newcomers have fewer than five games."""
    rows = []
    for user_id, every in played.items():
        games = among_people(every)
        if not games:
            continue
        if system is Scoring.RATING:
            if user_id not in ratings:
                continue
            score = rating_points(*ratings[user_id])
        else:
            score = sum(points(system, won=won(g), lost=g.loser, rank=g.rank, players=g.players,
                               penalty_points=g.penalty) for g in games)
        rows.append(Standing(user_id, score, len(games)))
    lowest_first = system is Scoring.PENALTY
    rows.sort(key=lambda s: (s.score if lowest_first else -s.score, -s.games, s.user_id))
    return [s for s in rows if s.games >= RANKED_AFTER], [s for s in rows if s.games < RANKED_AFTER]
