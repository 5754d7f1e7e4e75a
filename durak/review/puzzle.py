"""Puzzles from a player's own reviewed games: the positions where one move was clearly the best.

A judged decision is a puzzle when its best move is at least ``GAP`` ahead of the next (15 points of the chance
not to be the durak) and a second judging, under another seed, names the same best move (an exact verdict, every
card known, needs no second). An answer is graded by the kept values, as the review's labels are: the best move,
good enough (short of it by less than an inaccuracy), or short.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from durak.review.judge import INACCURACY, Verdict

GAP = 0.15
SAME = 0.005  # values this close are the same move's worth (the kept values are rounded to four places)
A = TypeVar("A")


def candidate(values: Sequence[tuple[A, float]]) -> bool:
    """Whether the best of ``values`` (best first) stands ``GAP`` clear of the next."""
    return len(values) >= 2 and values[0][1] - values[1][1] >= GAP


def stable(first: Verdict, second: Verdict | None) -> bool:
    """Whether a puzzle's answer holds: exact, or the same best move, still clear, under a second judging."""
    if not candidate(first.values):
        return False
    if first.exact:
        return True
    return second is not None and second.best == first.best and candidate(second.values)


def graded(values: Sequence[tuple[A, float]], chosen: int) -> str:
    """"best", "good" or "short": the move ``values[chosen]`` against the best of them."""
    cost = values[0][1] - values[chosen][1]
    return "best" if cost <= SAME else "good" if cost < INACCURACY else "short"
