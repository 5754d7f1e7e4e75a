"""An evening: the games the same people play one after another at one table, and its running score.

A finished game carries on the evening of the table's last game when the same people sat at it (computers
included), it ended at most ``GAP`` before, and that evening had not met its goal; anything else (a player who
joined or left, a night's sleep, a met goal, a lobby opened to a goal of its own) starts a new evening. The
score is counted from the stored results of its games alone, so it is what was written with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.stats.standings import durak, won
from durak.scoring import Scoring, points
from storage.models import Aim, Goal, LastGame, PlayedGame

GAP = 3 * 3600.0     # seconds between two games that still make one evening


@dataclass(frozen=True, slots=True)
class Line:
    """One player's evening: games, times the durak, first places, points (by the chat's scoring system)."""

    user_id: int
    games: int
    duraks: int
    firsts: int
    points: int


@dataclass(frozen=True, slots=True)
class Evening:
    series: int                 # its first game
    games: int
    lines: tuple[Line, ...]     # in seating order of its last game
    goal: Goal | None
    scoring: Scoring

    @property
    def over(self) -> bool:
        """Its goal is met (an evening without one goes on while the same people play)."""
        if self.goal is None:
            return False
        if self.goal.aim is Aim.GAMES:
            return self.games >= self.goal.n
        return max((line.duraks for line in self.lines), default=0) >= self.goal.n

    @property
    def points(self) -> bool:
        """Whether the chat counts points (its rating is shown at each game instead)."""
        return self.scoring is not Scoring.RATING

    def duraks(self) -> list[Line]:
        """The evening's durak: whoever was the durak most often (ties share it); nobody while nobody was."""
        most = max((line.duraks for line in self.lines), default=0)
        return [line for line in self.lines if most and line.duraks == most]

    def best(self) -> list[Line]:
        """The evening's best: by points where the chat counts them, else by first places (ties share it);
        nobody while nobody came first."""
        most = max((self._rank(line) for line in self.lines), default=0)
        return [line for line in self.lines if any(x.firsts for x in self.lines) and self._rank(line) == most]

    def even(self) -> bool:
        """Everybody equal: as often the durak, and as good by the chat's measure (the evening is a draw)."""
        return len({(line.duraks, self._rank(line)) for line in self.lines}) <= 1

    def ordered(self) -> list[Line]:
        """The table, best first (then the fewer times the durak)."""
        return sorted(self.lines, key=lambda line: (-self._rank(line), line.duraks, -line.firsts))

    def _rank(self, line: Line) -> int:
        """The chat's measure, the higher the better: points (penalty points: the fewer, the better) or firsts."""
        if not self.points:
            return line.firsts
        return -line.points if self.scoring is Scoring.PENALTY else line.points


def goes_on(last: LastGame | None, seated: frozenset[int], finished_at: float, own_goal: str) -> bool:
    """Whether a game that ends now carries on ``last``'s evening (its goal still to meet is checked apart)."""
    return (last is not None and not own_goal and last.seated == seated and finished_at - last.finished_at <= GAP)


def evening(series: int, seats: Sequence[int], played: Sequence[tuple[int, PlayedGame]], goal: Goal | None,
            scoring: Scoring) -> Evening:
    """The evening ``series`` of the players in ``seats`` from its games' results ((user, game) rows)."""
    tally = {user: [0, 0, 0, 0] for user in seats}
    games = set()
    for user, game in played:
        games.add(game.game_id)
        row = tally.get(user)
        if row is None:
            continue
        row[0] += 1
        row[1] += durak(game)
        row[2] += won(game)
        if scoring is not Scoring.RATING:
            row[3] += points(scoring, won=won(game), lost=game.loser, rank=game.rank, players=game.players,
                             penalty_points=game.penalty)
    return Evening(series, len(games), tuple(Line(user, *row) for user, row in tally.items()), goal, scoring)
