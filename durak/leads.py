"""What a lead may be under the variants' ``lead`` option (VARIANTS.md §2.4).

``same_rank`` (RULES.md §4.1) stays in the engine's hot path; the other values are listed and
checked here. ``most`` is the lead room: min(defender's hand, bout limit, ``lead_max``).
"""

from __future__ import annotations

from collections import Counter
from itertools import accumulate, combinations, product, starmap
from operator import add

from durak.actions import Illegal, Reason
from durak.cards import Card
from durak.rules import Lead

THREE = 3
# the lead's rank counts, largest first: one card; a pair + one card; two pairs + one card; …
SHAPES: dict[Lead, tuple[tuple[int, ...], ...]] = {
    Lead.PAIRS: ((1,), (2, 1), (2, 2, 1)),
    Lead.GROUPS: ((1,), (2,), (2, 1), (2, 2), (2, 2, 1), (3,), (4,)),
}


def variant_leads(lead: Lead, hand: list[Card], most: int) -> list[tuple[Card, ...]]:
    """Every legal lead from ``hand``, its cards grouped by rank."""
    by_rank = _by_rank(hand)
    if lead is Lead.WHOLE_RANK:
        found: list[tuple[Card, ...]] = []
        for cards in by_rank.values():
            found.extend([tuple(cards)] if len(cards) <= most else combinations(cards, most))
        return found
    if lead is Lead.HIGHEST:
        top = by_rank[max(by_rank)]
        return [combo for size in range(1, min(most, len(top)) + 1) for combo in combinations(top, size)]
    if lead is Lead.THREE:
        return list(combinations(sorted(hand), min(THREE, len(hand), most)))
    return _shaped(by_rank, [shape for shape in SHAPES[lead] if sum(shape) <= most])


def lead_breaks(lead: Lead, hand: list[Card], cards: tuple[Card, ...], most: int) -> Illegal | None:
    """Why ``cards`` (in ``hand``, within the room) are not a lead under ``lead``; None if they are.

    A broken rule is returned (a cheat may lay it, RULES.md §8); the count of ``three`` is a limit like
    the room and is raised."""
    if lead is Lead.THREE:
        size = min(THREE, len(hand), most)
        if len(cards) != size:
            raise Illegal(Reason.LEAD_SHAPE, size=size)
        return None
    if lead is Lead.PAIRS or lead is Lead.GROUPS:
        shape = tuple(sorted(Counter(c >> 2 for c in cards).values(), reverse=True))
        return None if shape in SHAPES[lead] else Illegal(Reason.LEAD_SHAPE)
    rank = cards[0] >> 2
    if any(c >> 2 != rank for c in cards):
        return Illegal(Reason.MIXED_RANKS)
    if lead is Lead.HIGHEST:
        top = max(c >> 2 for c in hand)
        return None if rank == top else Illegal(Reason.LEAD_NOT_HIGHEST)
    held = sum(1 for c in hand if c >> 2 == rank)  # whole_rank
    return None if len(cards) == min(held, most) else Illegal(Reason.LEAD_NOT_WHOLE_RANK, count=min(held, most))


def _by_rank(hand: list[Card]) -> dict[int, list[Card]]:
    groups: dict[int, list[Card]] = {}
    for c in sorted(hand):
        groups.setdefault(c >> 2, []).append(c)
    return groups


def _shaped(by_rank: dict[int, list[Card]], shapes: list[tuple[int, ...]]) -> list[tuple[Card, ...]]:
    """Every lead of these shapes, shape after shape: distinct ranks for a lead's parts (pairs, sets, a
    single card of another rank). A big hand has hundreds of them on every lead, so the pairs and the
    single cards are made once for all shapes, the cards of other ranks are slices of one list, and the
    tuples are joined in C (``starmap(add, product)``)."""
    groups = list(by_rank.values())  # by rank, lowest first
    singles = [(c,) for cards in groups for c in cards]
    ends = list(accumulate(map(len, groups)))  # singles[starts[i]:ends[i]] are the i-th rank's cards
    starts = [0, *ends[:-1]]
    pairs = [(i, list(combinations(cards, 2))) for i, cards in enumerate(groups) if len(cards) >= 2]
    two_pairs: list[tuple[int, int, list[tuple[Card, ...]]]] = []
    found: list[tuple[Card, ...]] = []
    for shape in shapes:
        if shape == (1,):
            found += singles
        elif len(shape) == 1:  # one set: a pair, three or four of a rank
            size = shape[0]
            for cards in groups:
                if len(cards) >= size:
                    found += combinations(cards, size)
        elif shape == (2, 1):
            for i, combos in pairs:
                found += starmap(add, product(combos, singles[:starts[i]] + singles[ends[i]:]))
        else:  # (2, 2) and (2, 2, 1): the two pairs are joined once for both
            if not two_pairs:
                two_pairs = [(i, j, list(starmap(add, product(pi, pj)))) for (i, pi), (j, pj) in combinations(pairs, 2)]
            for i, j, both in two_pairs:
                if shape == (2, 2):
                    found += both
                else:
                    rest = singles[:starts[i]] + singles[ends[i]:starts[j]] + singles[ends[j]:]
                    found += starmap(add, product(both, rest))
    return found
