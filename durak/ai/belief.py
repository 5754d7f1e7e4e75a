"""What the other player's moves in this bout say about his hand: the deals ``hard`` samples lean on it.

Most players, and the greedy player every computer level builds on, lead their cheapest card and cover
with the cheapest card that beats. So, in a duel (two players left), the bout on the table tells the seat
which unseen cards the other player most likely does not hold:

* he led: no card cheaper than his lead (every trump above every plain card);
* he covered a card: no cheaper card that beats it, among those still in his hand;
* he takes a lone card: no card that beats it; while the stock is long, no cheap one (greedy keeps its high
  trumps for later).

He drew nothing since (the bout is still on), so the cards he holds now were in his hand then. Where no
hand ever draws (чукотский, a whole deck dealt), the bouts before say the same: since each of them he only
lost cards or picked up cards everyone saw (``Record.leads``, ``covers``, ``takes``). All of it is public:
anyone watching the table could reason so. Not every player plays that way, so only ``TRUST`` of the deals
are dealt by it; the rest stay uniform, and a reading that no deal can fit (he played otherwise) is dropped.
"""

from __future__ import annotations

import random

from durak.ai.greedy import HIGH_TRUMP_RANK, LONG_STOCK
from durak.cards import Card, strength
from durak.covering import beater_table
from durak.record import Knowledge
from durak.rules import Lead
from durak.state import State

TRUST = 0.8  # of the deals, those dealt by the reading of his moves


def unlikely(k: Knowledge) -> frozenset[Card]:
    """The unseen cards the other player of a duel would have played this bout had he held them; empty when
    the bout says nothing or the table is not a plain one (several players, leads of other shapes or from the
    stock, roles that change in a bout by a transfer or a counter-attack, a card drawn or swapped in the
    bout, a trump per seat)."""
    v = k.view
    rules = v.rules
    if rules.lead is not Lead.SAME_RANK or rules.stock_lead:  # a lead there is not his cheapest card
        return frozenset()
    if rules.transfer or rules.counter_attack:  # the table's cards may be of the bout's earlier roles
        return frozenset()
    others = [p for p in range(len(v.counts)) if p != k.seat and p not in v.out]
    if len(others) != 1 or v.lead_open or v.trumps is not None:
        return frozenset()
    other = others[0]
    if other in v.drew or other in v.swapped:
        return frozenset()
    trump = v.trump
    unseen = k.unseen
    beaters = beater_table(rules, trump)
    out = _shown_before(k, other, beaters)
    if not v.table:
        return frozenset(out)
    if other == v.attacker:  # his lead, the table's first card: nothing cheaper
        least = strength(v.table[0][0], trump)
        return frozenset(out.union(c for c in unseen if strength(c, trump) < least))
    if other != v.defender:
        return frozenset(out)
    for target, cover in v.table:
        if cover is not None:  # the cheapest that beats it, of what he held
            dear = strength(cover, trump)
            out.update(c for c in beaters[target] & unseen if strength(c, trump) < dear)
    uncovered = [t for t, c in v.table if c is None]
    if v.taking and len(uncovered) == 1:  # nothing cheap covers it; with a short stock, nothing at all
        out.update(c for c in beaters[uncovered[0]] & unseen
                   if v.stock <= LONG_STOCK or not (c & 3 == trump and c >> 2 >= HIGH_TRUMP_RANK))
    return frozenset(out)


def _shown_before(k: Knowledge, other: int, beaters: list[frozenset[Card]]) -> set[Card]:
    """What ``other``'s leads, covers and takes of the record say he lacks (``Record.leads``: this bout's, and
    where no hand draws, every bout's since his hand last changed unseen: he only ever lost cards or took seen
    ones)."""
    if not k.leads:
        return set()
    trump, unseen = k.view.trump, k.unseen
    out: set[Card] = set()
    least = max((min(strength(c, trump) for c in lead) for lead in k.leads[other] if lead), default=None)
    if least is not None:
        out.update(c for c in unseen if strength(c, trump) < least)
    for target, cover in k.covers[other]:
        dear = strength(cover, trump)
        out.update(c for c in beaters[target] & unseen if strength(c, trump) < dear)
    for taken in k.takes[other]:  # a lone card he took with no stock to keep his trumps for: nothing beat it
        out.update(beaters[taken] & unseen)
    return out


def sample(k: Knowledge, rng: random.Random, lacks: frozenset[Card]) -> State:
    """A deal consistent with ``k``; with chance ``TRUST``, one where the other hand holds none of ``lacks``
    (uniform among those), if there are cards enough for that."""
    pool = sorted(k.unseen)
    rng.shuffle(pool)
    if lacks and rng.random() < TRUST:
        v = k.view
        other = next(p for p in range(len(v.counts)) if p != k.seat and p not in v.out)
        slots = v.counts[other] - len(k.known[other])
        fits = [c for c in pool if c not in lacks]
        if len(fits) >= slots:  # his unknown cards come first in the pool (every other hand is empty)
            mine = fits[:slots]
            chosen = set(mine)
            pool = mine + [c for c in pool if c not in chosen]
    state = k.deal(pool)
    return state if k.holds(state) else k.sample(rng)  # what the table knows of the deal before any reading
