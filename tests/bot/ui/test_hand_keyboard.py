"""The hand keyboard fits Telegram (≤ 100 buttons, ≤ 8 a row) for the largest hand of every deck and
preset, in every role, cheating armed or not; and each card has exactly one button."""

from __future__ import annotations

import itertools

import pytest

from bot.ui import hand
from bot.ui.i18n import translator
from bot.ui.seat_view import SeatView
from durak import TAKE, Rules, apply, attack, legal_actions, position
from durak.cards import deck, parse_card
from durak.rules import PRESETS

TR = translator("en")


def positions(rules: Rules) -> list[tuple[str, object, int]]:
    """(role, state, seat) with seat 0 holding all but a few cards of the deck."""
    cards = deck(rules.deck_size)
    fixed = rules.trump_suit.value
    trump = cards[-1] & 3 if fixed == "turned" else None if fixed == "none" else "SCDH".index(fixed)
    trumps = ((trump or 0), ((trump or 0) + 1) % 4) if rules.two_trumps else None  # seat 1's card lies last
    stock = [c for c in cards if c & 3 == (trumps[1] if trumps else trump or 0)][-1:]  # a one-card stock
    if trumps:
        trump = None
    rest = [c for c in cards if c not in stock]
    ranks = sorted({c >> 2 for c in rest})
    low = [c for c in rest if c >> 2 == ranks[0]]       # the lowest rank: four cards for the others
    big = [c for c in rest if c not in low]
    found = []
    leader = position(rules, [big, low], stock, trump, attacker=0, first_bout=False, trumps=trumps)
    found.append(("lead", leader, 0))
    defender = position(rules, [low, big], stock, trump, attacker=0, first_bout=False, trumps=trumps)
    lead = max(legal_actions(defender, 0), key=lambda a: len(a.cards))  # the most cards a lead may hold
    defending, _ = apply(defender, 0, lead)
    found.append(("cover", defending, 1))
    thrower = position(rules, [big, low], stock, trump, attacker=0, first_bout=False, trumps=trumps)
    leads = legal_actions(thrower, 0)
    two = [a for a in leads if len(a.cards) <= 2] or leads  # room is left for throwing in
    taking, _ = apply(thrower, 0, max(two, key=lambda a: len(a.cards)))
    taking, _ = apply(taking, 1, TAKE)
    if taking.attacks:  # (in "simple" a take ends the bout at once: nobody throws in after it)
        found.append(("throw", taking, 0))
    return found


@pytest.mark.parametrize(("preset", "size", "cheating"),
                         list(itertools.product(sorted(PRESETS), (24, 36, 52), (False, True))))
def test_the_largest_hands_fit(preset: str, size: int, cheating: bool) -> None:
    rules = Rules.from_dict({"preset": preset, "deck_size": size, "cheating": cheating})
    for role, state, seat in positions(rules):
        my_cards = state.hands[seat]  # type: ignore[attr-defined]
        for armed in (False, True) if cheating else (False,):
            opts = hand.options(state, seat, armed=armed)  # type: ignore[arg-type]
            assert opts.role.value == role
            picks = sorted(opts.pickable)[:hand.MAX_PICKS]
            selected = next(iter(opts.playable), None) if role == "cover" else None
            view = SeatView(selected=selected, picked=tuple(picks), armed=armed, leaving=True)
            rows = hand.keyboard(TR, 1, state, seat, str, view=view,  # type: ignore[arg-type]
                                 cheating=cheating, away=True)
            count = sum(len(r) for r in rows)
            assert count <= 100, (preset, size, role, armed, count)
            assert all(len(r) <= 8 for r in rows)
            card_buttons = [b for r in rows for b in r if b["callback_data"].split(":")[1] in ("c", "f", "d")]
            assert len(card_buttons) == len(my_cards), "one button per card"


@pytest.mark.parametrize("cheating", [False, True])
def test_a_whole_deck_against_a_lone_card_fits_with_its_counter_attacks(cheating: bool) -> None:
    """прибалтийский: a defender holding 47 cards against one card may strike back with many ranks: one
    button per rank keeps the keyboard within Telegram's limits."""
    rules = Rules.from_dict({"preset": "baltic", "deck_size": 52, "cheating": cheating})
    cards = deck(52)
    low = [c for c in cards if c >> 2 == 2]  # the four twos
    stock = [c for c in cards if c & 3 == 3][-1:]
    big = [c for c in cards if c not in low and c not in stock]
    state = position(rules, [low, big], stock, 3, attacker=0, first_bout=False)
    state, _ = apply(state, 0, next(a for a in legal_actions(state, 0) if len(a.cards) == 1))
    opts = hand.options(state, 1)
    counters = [a for a in opts.extras if a.act.value == "counter"]
    assert 1 <= len(counters) <= 12 and len({a.cards[0] >> 2 for a in counters}) == len(counters)
    assert all(len(a.cards) == 3 for a in counters), "as many as the attacker's three cards can face"
    rows = hand.keyboard(TR, 1, state, 1, str, opts=opts, cheating=cheating, away=True, view=SeatView(leaving=True))
    assert sum(len(r) for r in rows) <= 100 and all(len(r) <= 8 for r in rows)


def lead_buttons(state: object, picks: tuple[int, ...]) -> list[str]:
    rows = hand.keyboard(TR, 1, state, 0, str, view=SeatView(picked=picks))  # type: ignore[arg-type]
    return [b["text"] for row in rows for b in row if b["text"].startswith("▶")]


def test_threes_offer_lead_only_once_the_picks_are_a_lead() -> None:
    """«▶ Lead (n)» after one or two picks in тройки was refused ("Lead exactly 3 cards"): it is not offered."""
    rules = Rules.from_dict({"preset": "threes"})
    cards = [parse_card(c) for c in ("6S", "8C", "10D", "QS", "AC")]
    state = position(rules, [cards, [parse_card(c) for c in ("7S", "9C", "JD", "KS", "7D")]],
                     [parse_card("6H")], 3, attacker=0, first_bout=False)
    assert hand.options(state, 0).pickable == frozenset(cards)
    assert lead_buttons(state, ()) == []
    assert lead_buttons(state, tuple(cards[:1])) == []
    assert lead_buttons(state, tuple(cards[:2])) == []
    assert lead_buttons(state, tuple(cards[:3])) == ["▶ Lead (3)"]


def test_a_card_of_a_plain_lead_or_throw_in_plays_with_one_press() -> None:
    """Podkidnoy: a card with a partner of its rank leads at once, and so does a throw-in; nothing is picked."""
    hands = [[parse_card(c) for c in ("7S", "7C", "7D", "KD")], [parse_card(c) for c in ("8S", "9C", "QD")]]
    state = position(Rules(), hands, [parse_card("6H")], 3, attacker=0, first_bout=False)
    lead = hand.options(state, 0)
    assert lead.playable == frozenset(hands[0]) and not lead.pickable
    assert hand.prompt(TR, state, 0, lead, "B") == "Your lead: press a card; cards of its rank can follow right after."
    state, _ = apply(state, 0, attack(parse_card("7S")))
    throw = hand.options(state, 0)
    assert throw.playable == {parse_card("7C"), parse_card("7D")} and not throw.pickable
    assert lead_buttons(state, ()) == ["▶ Throw in all 7s (2)"]
