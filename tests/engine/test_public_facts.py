"""What the table knows of the deal beyond the cards it saw: where the game's lowest trump holder attacks
first, nobody else was dealt a lower trump. No deal a seat imagines (the review's judge, the hard computer)
may contradict it while the deal's hands are whole; a rematch whose first attacker follows the last durak tells
nothing of the kind."""

from __future__ import annotations

import random

import pytest

from durak import Rules, State, apply, new_game
from durak.ai import belief, greedy
from durak.ai.play import fallback, next_seat
from durak.cards import Card, parse_card
from durak.record import Knowledge, Record, knowledge
from durak.rules import FirstAttacker
from durak.setup import Previous, lowest_trump_leads, position
from durak.soak import tables

NO_TRUMP = 99


def lowest_holder(sampled: State, laid: list[set[Card]]) -> int | None:
    """Who holds the lowest trump of the deal in ``sampled``: each seat's hand and what it truly laid."""
    trump = sampled.trump
    lows = [min(((c >> 2) for c in (*hand, *mine) if c & 3 == trump), default=NO_TRUMP)
            for hand, mine in zip(sampled.hands, laid, strict=True)]
    best = min(lows)
    return None if best == NO_TRUMP else lows.index(best)


def imagined(k: Knowledge, rng: random.Random) -> list[State]:
    return [k.sample(rng) for _ in range(6)] + [belief.sample(k, rng, belief.unlikely(k)) for _ in range(3)]


@pytest.mark.parametrize(("preset", "players"), tables())
def test_no_imagined_deal_contradicts_the_first_attackers_lowest_trump(preset: str, players: int) -> None:
    rules = Rules.from_dict({"preset": preset})
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        deal = state = new_game(rules, players, seed)
        record = Record.start(state, lowest_leads=True)
        first = deal.attacker
        while record.lowest is not None and not state.over:
            assert record.lowest == first
            laid = [set(d) - set(h) for d, h in zip(deal.hands, state.hands, strict=True)]  # the deal's hands are whole
            for seat in range(players):
                for sampled in imagined(knowledge(state, seat, record), rng):
                    assert lowest_holder(sampled, laid) in (first, None), (seed, state.moves, seat)
                    checked += 1
            seat = next_seat(state)
            assert seat is not None
            state, events = apply(state, seat, greedy.choose(state, seat) or fallback(state, seat))
            record = record.after(events)
    public = deal.trump is not None and not rules.trump_card_hidden and not rules.secret_trump and not rules.two_trumps
    assert checked > 0 or not public


def test_without_the_fact_a_quarter_of_the_defenders_deals_would_contradict_it() -> None:
    """The figure the fact mends: the deals a plain shuffle gives the defender at his first decision."""
    rules, rng, contradicted, total = Rules(), random.Random(3), 0, 0
    for seed in range(60):
        state = new_game(rules, 2, seed)
        first = state.attacker
        state, _ = apply(state, first, greedy.choose(state, first) or fallback(state, first))
        k = knowledge(state, 1 - first, Record.start(state))  # the fact left out
        laid = [set(d) - set(h) for d, h in zip(new_game(rules, 2, seed).hands, state.hands, strict=True)]
        for _ in range(16):
            contradicted += lowest_holder(k.sample(rng), laid) not in (first, None)
            total += 1
    assert 0.1 < contradicted / total < 0.4, contradicted / total


def test_the_first_attacker_holding_only_the_ace_of_trumps_knows_the_lower_trumps_lie_in_the_stock() -> None:
    cards = [parse_card(c) for c in ("AH", "7S", "8S", "9C", "10C", "JD")]
    other = [parse_card(c) for c in ("6S", "7C", "8D", "9D", "QS", "KC")]
    stock = [parse_card(c) for c in ("6C", "6D", "QC", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH")]
    state = position(Rules(), [cards, other], stock, trump=3, attacker=0, first_bout=True)
    k = knowledge(state, 0, Record.start(state, lowest_leads=True))
    rng = random.Random(1)
    for _ in range(50):
        sampled = k.sample(rng)
        assert not [c for c in sampled.hands[1] if c & 3 == 3], "no trump in the other hand: all are lower"
        assert sampled.hands[0] == state.hands[0] and len(sampled.hands[1]) == 6 and len(sampled.stock) == 11
        assert sampled.stock[-1] == state.stock[-1], "the face-up card stays at the bottom"


def test_the_fact_ends_with_the_first_draw_and_a_rematch_never_has_it() -> None:
    rules = Rules()
    state = new_game(rules, 2, 4)
    record = Record.start(state, lowest_leads=True)
    while not state.over and record.lowest is not None:
        seat = next_seat(state)
        assert seat is not None
        state, events = apply(state, seat, greedy.choose(state, seat) or fallback(state, seat))
        record = record.after(events)
    assert record.lowest is None and state.moves < 40, "gone once cards came into a hand unseen"
    assert Record.start(new_game(rules, 2, 4)).lowest is None
    assert lowest_trump_leads(rules, 3, None) and lowest_trump_leads(rules, 3, Previous(None, 1))
    assert not lowest_trump_leads(rules, 3, Previous(1, 0)), "after a durak: the seat after him attacks"
    assert lowest_trump_leads(Rules(first_attacker=FirstAttacker.LOWEST_TRUMP), 3, Previous(1, 0))
    assert not lowest_trump_leads(Rules(first_attacker=FirstAttacker.WINNER), 3, Previous(1, 0))
    assert lowest_trump_leads(Rules(first_attacker=FirstAttacker.WINNER), 3, Previous(1, None))


def test_with_the_stock_set_aside_the_lower_trumps_lie_aside() -> None:
    """чукотский: the stock is laid aside at the deal. A first attacker whose lowest trump is high knows every lower
    trump lies there, face down, and his imagined deals put it there, however long chance takes to."""
    rules = Rules.from_dict({"preset": "chukchi"})
    rng, checked = random.Random(5), 0
    for seed in range(400):
        state = new_game(rules, 2, seed)
        first = state.attacker
        trumps = [c >> 2 for c in state.hands[first] if c & 3 == state.trump]
        if not trumps or min(trumps) < 13:  # his lowest trump a king or the ace
            continue
        k = knowledge(state, first, Record.start(state, lowest_leads=True))
        for _ in range(100):
            sampled = k.sample(rng)
            assert k.holds(sampled) and sampled.hands[first] == state.hands[first]
            assert sorted(sampled.hands[1 - first] + sampled.set_aside) == sorted(
                state.hands[1 - first] + state.set_aside), "the same cards, hidden elsewhere"
            checked += 1
    assert checked >= 100, checked
