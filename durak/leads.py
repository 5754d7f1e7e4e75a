"""What a lead may be under the variants' ``lead`` option (docs/variants.md §2.4).

``same_rank`` (docs/rules.md §4.1) stays in the engine's hot path; the other values are listed and
checked here. ``most`` is the lead room: min(defender's hand, bout limit, ``lead_max``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import accumulate, combinations, product, repeat, starmap
from math import prod
from operator import add
from typing import cast

from durak.actions import Act, Action, Illegal, Reason
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
    if lead is Lead.PAIRS or lead is Lead.GROUPS:
        return [cards for block in shaped_blocks(lead, hand, most) for cards in joined(block)]
    by_rank = _by_rank(hand)
    if lead is Lead.WHOLE_RANK:
        found: list[tuple[Card, ...]] = []
        for cards in by_rank.values():
            found.extend([tuple(cards)] if len(cards) <= most else combinations(cards, most))
        return found
    if lead is Lead.HIGHEST:
        top = by_rank[max(by_rank)]
        return [combo for size in range(1, min(most, len(top)) + 1) for combo in combinations(top, size)]
    return list(combinations(sorted(hand), three_size(hand, most)))


def three_size(hand: list[Card], most: int) -> int:
    """``three``: a lead is exactly three cards, or all the leader has, within the room."""
    return min(THREE, len(hand), most)


def attacks(leads: Iterable[tuple[Card, ...]]) -> Iterator[Action]:
    """Leads as actions, built in C: a hand of the variants lists hundreds of them (трёшка, с групп), and the
    Python-level constructor dominated a random game's move in these variants."""
    fields = zip(repeat(Act.ATTACK), leads, repeat(None), repeat(None), repeat(False))
    return cast("Iterator[Action]", map(tuple.__new__, repeat(Action), fields))


def lead_breaks(lead: Lead, hand: list[Card], cards: tuple[Card, ...], most: int) -> Illegal | None:
    """Why ``cards`` (in ``hand``, within the room) are not a lead under ``lead``; None if they are.

    A broken rule is returned (a cheat may lay it, docs/rules.md §8); the count of ``three`` is a limit like
    the room and is raised."""
    if lead is Lead.THREE:
        size = three_size(hand, most)
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


Part = list[tuple[Card, ...]]
Block = tuple[Part, ...]


def shaped_blocks(lead: Lead, hand: list[Card], most: int) -> list[Block]:
    """The leads of ``pairs`` or ``groups`` as blocks, shape after shape: a block's leads are one piece of
    each of its parts, joined (a pair of one rank + a card of another; two pairs + a card of a third), in
    the order of ``itertools.product``. A big hand has hundreds of leads; its blocks are a few dozen lists,
    made with the single cards, the pairs and the cards of other ranks (slices of one list) made once."""
    groups = list(_by_rank(hand).values())  # by rank, lowest first
    singles: Part = [(c,) for cards in groups for c in cards]
    ends = list(accumulate(map(len, groups)))  # singles[starts[i]:ends[i]] are the i-th rank's cards
    starts = [0, *ends[:-1]]
    pairs: list[tuple[int, Part]] = [(i, list(combinations(cards, 2))) for i, cards in enumerate(groups)
                                     if len(cards) >= 2]
    blocks: list[Block] = []
    for shape in SHAPES[lead]:
        if sum(shape) > most:
            continue
        if shape == (1,):
            blocks.append((singles,))
        elif len(shape) == 1:  # one set: a pair, three or four of a rank
            sets: list[Part] = [list(combinations(cards, shape[0])) for cards in groups if len(cards) >= shape[0]]
            blocks += [(cards,) for cards in sets]
        elif shape == (2, 1):
            blocks += [(combos, singles[:starts[i]] + singles[ends[i]:]) for i, combos in pairs]
        elif shape == (2, 2):
            blocks += [(pi, pj) for (_, pi), (_, pj) in combinations(pairs, 2)]
        else:  # (2, 2, 1)
            blocks += [(pi, pj, singles[:starts[i]] + singles[ends[i]:starts[j]] + singles[ends[j]:])
                       for (i, pi), (j, pj) in combinations(pairs, 2)]
    return blocks


def block_size(block: Block) -> int:
    """How many leads a block holds: the product of its parts' sizes."""
    return prod(len(part) for part in block)


def joined(block: Block) -> Iterator[tuple[Card, ...]]:
    """A block's leads, each made of one piece of every part, joined in C."""
    if len(block) == 1:
        return iter(block[0])
    leads: Iterator[tuple[Card, ...]] = starmap(add, product(block[0], block[1]))
    for part in block[2:]:
        leads = starmap(add, product(leads, part))
    return leads
