"""The variants' leads (VARIANTS.md §2.4): the listing is exactly the leads the check accepts."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from durak.actions import Illegal
from durak.cards import deck
from durak.leads import lead_breaks, variant_leads
from durak.rules import Lead


def accepted(lead: Lead, hand: list[int], most: int) -> set[frozenset[int]]:
    """Every set of cards from the hand, within the room, that the check lets a leader lay honestly."""
    found = set()
    for size in range(1, most + 1):
        for cards in combinations(hand, size):
            try:
                if lead_breaks(lead, hand, cards, most) is None:
                    found.add(frozenset(cards))
            except Illegal:
                continue
    return found


@pytest.mark.parametrize("lead", [Lead.WHOLE_RANK, Lead.HIGHEST, Lead.THREE, Lead.PAIRS, Lead.GROUPS])
def test_every_lead_listed_is_accepted_and_every_accepted_lead_is_listed(lead: Lead) -> None:
    rng = random.Random(lead.value)
    for _ in range(150):
        hand = rng.sample(deck(36), rng.randint(1, 10))
        most = rng.randint(1, 6)
        listed = [frozenset(cards) for cards in variant_leads(lead, hand, most)]
        assert len(listed) == len(set(listed)), "each lead once"
        assert set(listed) == accepted(lead, hand, most), (lead, hand, most)
