"""Skill ratings with openskill's Plackett–Luce model: per chat and global, teams rated as teams."""

from __future__ import annotations

from collections import defaultdict

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
GLOBAL = 0  # the scope of the global rating; a chat's scope is its id


def default() -> tuple[float, float]:
    rating = _MODEL.rating()
    return rating.mu, rating.sigma


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: a cautious estimate (mu - 3 sigma), as openskill suggests."""
    return float(_MODEL.rating(mu=mu, sigma=sigma).ordinal())


SCALE = 25           # points per unit of the cautious estimate
BASE = 1000          # a newcomer's points: his cautious estimate is 0
PROVISIONAL_GAMES = 5  # fewer games than this and a rating is marked provisional


def points(mu: float, sigma: float) -> int:
    """The rating players see: the cautious estimate on a familiar scale, a newcomer at 1000."""
    return shown(ordinal(mu, sigma))


def shown(estimate: float) -> int:
    """A cautious estimate (an ordinal) in points; never below 0 (it would have to fall 40 units
    under a newcomer's, which no run of losses does)."""
    return max(0, round(BASE + SCALE * estimate))


def rate(current: dict[int, tuple[float, float]], players: list[tuple[int, int, int | None]]
         ) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) of each player after one game. ``players``: (user id, rank, team or None);
    rank 1 is best and equal ranks tie. Players of one team are rated together."""
    groups: dict[object, list[int]] = defaultdict(list)
    rank_of: dict[object, int] = {}
    for user_id, rank, team in players:
        key: object = ("team", team) if team is not None else ("player", user_id)
        groups[key].append(user_id)
        rank_of[key] = min(rank, rank_of.get(key, rank))
    keys = list(groups)
    teams = [[_MODEL.rating(*current.get(u, default()), name=str(u)) for u in groups[k]] for k in keys]
    rated = _MODEL.rate(teams, ranks=[float(rank_of[k]) for k in keys])
    return {int(r.name or 0): (r.mu, r.sigma) for team in rated for r in team}
