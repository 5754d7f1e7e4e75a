"""Seasons: a group's leaderboard runs by calendar periods (a month unless its admins choose a week or a quarter,
in UTC), each ranked within itself; ratings carry on across them.

A season ranks the games among people it holds by the chat's scoring system: its points (a chat ranked by
rating, whose rating never restarts, counts the places' points: n-1 for first out ... 0 for the durak), then the
first places, then the fewer times the durak. Its champion is the first of that table, its durak whoever was the
durak most often.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.stats.standings import among_people, durak, won
from durak.scoring import Scoring, points
from storage.models import PlayedGame


class Length(StrEnum):
    WEEK = "week"
    MONTH = "month"
    QUARTER = "quarter"


DEFAULT = Length.MONTH


@dataclass(frozen=True, slots=True)
class Period:
    key: str        # '2026-12', '2026-W49', '2026-Q4': a chat's season, as kept
    start: float    # UTC seconds, inclusive
    end: float      # exclusive

    @property
    def first_day(self) -> dt.date:
        return dt.datetime.fromtimestamp(self.start, dt.UTC).date()


def _stamp(day: dt.date) -> float:
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp()


def period(length: Length, t: float) -> Period:
    """The season of ``length`` that holds the moment ``t``."""
    day = dt.datetime.fromtimestamp(t, dt.UTC).date()
    if length is Length.WEEK:
        start = day - dt.timedelta(days=day.weekday())
        year, week, _ = start.isocalendar()
        return Period(f"{year}-W{week:02d}", _stamp(start), _stamp(start + dt.timedelta(days=7)))
    months = 3 if length is Length.QUARTER else 1
    first = (day.month - 1) // months * months + 1
    start = dt.date(day.year, first, 1)
    after = dt.date(day.year + (first + months > 12), (first + months - 1) % 12 + 1, 1)
    key = f"{day.year}-Q{(first + 2) // 3}" if length is Length.QUARTER else f"{day.year}-{first:02d}"
    return Period(key, _stamp(start), _stamp(after))


def previous(length: Length, t: float) -> Period:
    """The season before the one that holds ``t``."""
    return period(length, period(length, t).start - 1)


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    games: int
    points: int
    firsts: int
    duraks: int


def measure(system: Scoring) -> Scoring:
    """The points a season counts by: the chat's own, or the places' where the chat ranks by rating."""
    return Scoring.PLACES if system is Scoring.RATING else system


def table(system: Scoring, played: Sequence[tuple[int, PlayedGame]]) -> list[Standing]:
    """A season's table from its (user, game) rows, best first; games with computers do not count."""
    counted = measure(system)
    tally: dict[int, list[int]] = {}
    for user, game in played:
        if not among_people([game]):
            continue
        row = tally.setdefault(user, [0, 0, 0, 0])
        row[0] += 1
        row[1] += points(counted, won=won(game), lost=game.loser, rank=game.rank, players=game.players,
                         penalty_points=game.penalty)
        row[2] += won(game)
        row[3] += durak(game)
    lower_first = counted is Scoring.PENALTY
    rows = [Standing(user, *row) for user, row in tally.items()]
    rows.sort(key=lambda s: (s.points if lower_first else -s.points, -s.firsts, s.duraks, -s.games, s.user_id))
    return rows


def season_durak(rows: Sequence[Standing]) -> Standing | None:
    """Whoever was the durak most often (the lower in the table among equals); None if nobody was."""
    worst = max(reversed(rows), key=lambda s: s.duraks, default=None)
    return worst if worst is not None and worst.duraks else None
