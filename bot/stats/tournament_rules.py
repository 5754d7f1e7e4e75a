"""A tournament's rules, pure: the points a table gives, and who sits at the next tables.

Points as lichess's arenas give them, by place: ``2 × (players − rank)`` (the durak 0, first place most; in a draw
the tied last places share the last two places' points), doubled while a player is on a streak (his last two
tables he came first: lichess's "fire"), until a table he does not come first at.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence

STREAK = 2          # first places in a row that put a player on fire: his points count double
TABLE_MOST = 4      # players at one table at most (fewer where the rules allow fewer)


def points(players: int, rank: int, draw: bool, tied: int, streak: int) -> int:
    """A seat's points: ``rank`` its rank (1 best), ``tied`` how many share it in a draw, ``streak`` the first places
    in a row before this table."""
    base = 2 * (players - rank)
    if draw and tied > 1:  # the tied places' points shared: rank r to r+tied-1
        base = round(sum(2 * (players - r) for r in range(rank, rank + tied)) / tied)
    return base * 2 if streak >= STREAK else base


def next_streak(streak: int, first: bool) -> int:
    return streak + 1 if first else 0


def sizes(free: int, most: int) -> list[int]:
    """Tables for ``free`` players, each of 2 to ``most``, as even as can be (7 at most 4: 4 + 3; 5: 3 + 2)."""
    if free < 2:
        return []
    count = math.ceil(free / most)
    base, extra = divmod(free, count)
    return [base + 1] * extra + [base] * (count - extra)


def tables(free: Sequence[int], met: Counter[tuple[int, int]], most: int) -> list[list[int]]:
    """Seat the ``free`` players (the longest waiting first) at tables, each table begun by the longest waiting of
    the rest and filled by whoever has met its players least (``met``: tables shared so far, per pair)."""
    left = list(free)
    seated = []
    for size in sizes(len(left), max(2, min(most, TABLE_MOST))):
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda p: (sum(met[pair(p, q)] for q in table), left.index(p)))
            left.remove(best)
            table.append(best)
        seated.append(table)
    return seated


def pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def meetings(tables_seated: Sequence[Sequence[int]]) -> Counter[tuple[int, int]]:
    """How often each pair shared a table."""
    return Counter(pair(a, b) for seated in tables_seated for a, b in itertools.combinations(seated, 2))
