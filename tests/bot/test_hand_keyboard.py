"""The hand keyboard fits Telegram (≤ 100 buttons, ≤ 8 a row) for the largest hand of every deck and
preset, in every role, cheating armed or not; and each card has exactly one button."""

from __future__ import annotations

import itertools

import pytest

from bot import hand
from bot.i18n import translator
from durak import TAKE, Rules, apply, legal_actions, position
from durak.cards import deck
from durak.rules import PRESETS

TR = translator("en")


def positions(rules: Rules) -> list[tuple[str, object, int]]:
    """(role, state, seat) with seat 0 holding all but a few cards of the deck."""
    cards = deck(rules.deck_size)
    fixed = rules.trump_suit.value
    trump = cards[-1] & 3 if fixed == "turned" else None if fixed == "none" else "SCDH".index(fixed)
    stock = [c for c in cards if c & 3 == (trump or 0)][-1:]  # the trump card under a one-card stock
    rest = [c for c in cards if c not in stock]
    ranks = sorted({c >> 2 for c in rest})
    low = [c for c in rest if c >> 2 == ranks[0]]       # the lowest rank: four cards for the others
    big = [c for c in rest if c not in low]
    found = []
    leader = position(rules, [big, low], stock, trump, attacker=0, first_bout=False)
    found.append(("lead", leader, 0))
    defender = position(rules, [low, big], stock, trump, attacker=0, first_bout=False)
    lead = max(legal_actions(defender, 0), key=lambda a: len(a.cards))  # the most cards a lead may hold
    defending, _ = apply(defender, 0, lead)
    found.append(("cover", defending, 1))
    thrower = position(rules, [big, low], stock, trump, attacker=0, first_bout=False)
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
            rows = hand.keyboard(TR, 1, state, seat, str, picks=picks, selected=selected,  # type: ignore[arg-type]
                                 armed=armed, cheating=cheating, away=True, leaving=True)
            count = sum(len(r) for r in rows)
            assert count <= 100, (preset, size, role, armed, count)
            assert all(len(r) <= 8 for r in rows)
            card_buttons = [b for r in rows for b in r if b["callback_data"].split(":")[1] in ("c", "f", "d")]
            assert len(card_buttons) == len(my_cards), "one button per card"
