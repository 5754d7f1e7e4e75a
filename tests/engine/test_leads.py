"""The variants' leads (docs/variants.md §2.4): the listing is exactly the leads the check accepts."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from durak import Rules, apply, legal_actions, parse_card, position
from durak.actions import TAKE, Act, Action, Illegal
from durak.cards import deck
from durak.lead_sequence import Combinations, Leads, counted
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


@pytest.mark.parametrize("lead", [Lead.THREE, Lead.PAIRS, Lead.GROUPS])
def test_the_counted_leads_read_one_by_one_are_the_leads_listed(lead: Lead) -> None:
    """What ``legal_actions`` gives a leader of three/pairs/groups: its length, every item by index, negative
    indices and slices, and its iteration are the listed leads as attacks, then its tail."""
    rng = random.Random(7)
    tail = [TAKE]
    for _ in range(150):
        hand = rng.sample(deck(52), rng.randint(0, 24))
        most = rng.randint(1, 6)
        expected = [Action(Act.ATTACK, cards) for cards in variant_leads(lead, hand, most)] + tail
        leads = counted(lead, hand, most, tail)
        assert leads is not None
        assert len(leads) == len(expected)
        assert [leads[i] for i in range(len(leads))] == expected
        assert list(leads) == expected and leads == expected
        assert leads[-1] == expected[-1] and leads[-len(expected)] == expected[0]
        assert leads[2:7] == expected[2:7]
        for index in (len(expected), -len(expected) - 1):
            with pytest.raises(IndexError):
                leads[index]


def test_a_leader_of_groups_is_given_the_counted_leads_and_any_of_them_is_accepted() -> None:
    rules = Rules.from_dict({"preset": "groups"})
    hands = [[parse_card(c) for c in h] for h in (["7S", "7D", "QC", "QH", "9S"], ["6S", "6D", "8C", "8H", "10S"])]
    state = position(rules, hands, [parse_card("AH")], None, attacker=0, first_bout=False)
    listed = legal_actions(state, 0)
    assert isinstance(listed, Leads)
    # docs/variants.md §5.28's hand: 5 singles, 2 pairs, 2×3 pair + single, 1 two pairs, 1 two pairs + 9♠️
    assert len(listed) == 5 + 2 + 6 + 1 + 1
    for index in range(len(listed)):
        apply(state, 0, listed[index])
    assert [a for a in listed if len(a.cards) == 5] == [Action(Act.ATTACK, tuple(parse_card(c) for c in
                                                                               ("7S", "7D", "QC", "QH", "9S")))]


def test_a_leader_of_threes_is_given_every_three_of_his_cards_counted() -> None:
    rules = Rules.from_dict({"preset": "threes"})
    hands = [[parse_card(c) for c in h] for h in (["7S", "7D", "QC", "QH", "9S", "AS"], ["6S", "6D", "8C", "8H",
                                                                                         "10S", "JS"])]
    state = position(rules, hands, [parse_card("AH")], None, attacker=0, first_bout=False)
    listed = legal_actions(state, 0)
    assert isinstance(listed, Combinations) and len(listed) == 20  # 6 cards choose 3
    for index in range(len(listed)):
        apply(state, 0, listed[index])
    assert {frozenset(a.cards) for a in listed} == {frozenset(c) for c in combinations(hands[0], 3)}
