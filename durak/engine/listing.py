"""What a seat may do now: :func:`legal_actions`, and the cheaper :func:`actors` and :func:`awaited`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from durak.actions import DRAW_CARD, STOCK_LEAD, TAKE, Action
from durak.cards import Card
from durak.covering import beater_table
from durak.engine.blockers import counter_blocker, draw_blocker, swap_blocker, transfer_blocker
from durak.engine.constants import (
    ATTACK,
    ATTACK_CHEAT,
    DEFEND,
    DEFEND_CHEAT,
    PASS,
    SHOW,
    SHOW_CHEAT,
    THROW_SELF,
    THROW_SELF_CHEAT,
    TRANSFER,
    TRANSFER_CHEAT,
    Act_ACCUSE,
    Act_ATTACK,
    Act_COUNTER,
    Act_SWAP,
    Lead_SAME_RANK,
)
from durak.engine.position import (
    attack_rank,
    cards_room,
    counter_room,
    defender_for,
    lead_room,
    room,
    table_ranks,
    throwers,
    transfer_fits,
    trump_of,
)
from durak.lead_sequence import counted
from durak.leads import attacks, variant_leads
from durak.state import State


def legal_actions(state: State, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may take now; each one is accepted by :func:`apply`.

    A list, except a lead under ``three``, ``pairs`` or ``groups``: there the leads are a sequence counted at
    once, each built when read (``durak.lead_sequence``)."""
    if state.over or seat in state.out or not 0 <= seat < len(state.hands):
        return []
    hand = state.hands[seat]
    cheating = state.rules.cheating
    acts: list[Action] = []
    if not state.attacks:
        if seat == state.attacker:
            counted = _list_leads(state, hand, acts)
            if state.rules.stock_lead and state.stock and lead_room(state) >= 1:
                acts.append(STOCK_LEAD)  # after the leads, in ``counted`` too (``acts`` is its tail)
            if counted is not None:
                return counted
        return acts
    if state.lead_open or state.window:
        if seat == (state.attacker if state.lead_open else state.defender):
            (_list_open_lead if state.lead_open else _list_self_throws)(state, hand, acts)
    elif seat == state.defender:
        if not state.taking:
            _list_defence(state, hand, acts)
    elif hand and seat in throwers(state):
        left = room(state)
        if left is None or left > 0:
            ranks = table_ranks(state)
            if cheating:
                acts.extend([ATTACK[c] if c >> 2 in ranks else ATTACK_CHEAT[c] for c in hand])
            else:
                acts.extend([ATTACK[c] for c in hand if c >> 2 in ranks])
        if seat not in state.passed and (state.taking or None not in state.covers):
            acts.append(PASS)
    if cheating and seat not in state.accused:
        acts.extend(Action(Act_ACCUSE, suspect=p) for p in range(len(state.hands)) if p != seat)
    return acts


def actors(state: State) -> list[int]:
    """The seats that have at least one legal action now, cheaper than listing them."""
    if state.over:
        return []
    if state.rules.cheating and state.attacks:
        return [p for p in range(len(state.hands)) if legal_actions(state, p)]
    if not state.attacks:
        return [] if state.attacker is None else [state.attacker]
    if state.lead_open or state.window:
        seat = state.attacker if state.lead_open else state.defender
        return [] if seat is None else [seat]
    taking = state.taking
    uncovered = None in state.covers
    seats = [state.defender] if uncovered and not taking and state.defender is not None else []
    may_pass = taking or not uncovered
    ranks: set[int] | None = None  # what may be thrown in: worked out once, and only if a thrower may not pass
    hands, passed = state.hands, state.passed
    for p in throwers(state):
        hand = hands[p]
        if not hand:
            continue
        if may_pass and p not in passed:
            seats.append(p)
            continue
        if ranks is None:
            left = room(state)
            ranks = table_ranks(state) if left is None or left > 0 else set()
        for c in hand:  # a loop, not any() over a generator: every simulated move asks
            if c >> 2 in ranks:
                seats.append(p)
                break
    seats.sort()
    return seats


def awaited(state: State) -> list[int]:
    """The seats the game is waiting for: the leader, the defender, or attackers yet to pass.

    Attackers who may throw in while the defender thinks are not waited for.
    """
    if state.over:
        return []
    if not state.attacks:
        return [] if state.attacker is None else [state.attacker]
    if state.lead_open or state.window:
        seat = state.attacker if state.lead_open else state.defender
        return [] if seat is None else [seat]
    if not state.taking and None in state.covers:
        return [] if state.defender is None else [state.defender]
    return [p for p in throwers(state) if state.hands[p] and p not in state.passed]


def _list_leads(state: State, hand: list[Card], acts: list[Action]) -> Sequence[Action] | None:
    """The leads into ``acts``; under ``three``, ``pairs`` and ``groups`` a counted sequence of them is
    returned instead, ``acts`` its tail (no cheat there: every card may be part of a lead)."""
    most = lead_room(state)
    if most < 1:
        return None
    lead = state.rules.lead
    if lead is not Lead_SAME_RANK:
        leads_counted = counted(lead, hand, most, acts)
        if leads_counted is not None:
            return leads_counted
        leads = variant_leads(lead, hand, most)
        acts.extend(attacks(leads))
        if state.rules.cheating:  # a lone card that breaks the lead rule
            honest = {cards[0] for cards in leads if len(cards) == 1}
            acts.extend([ATTACK_CHEAT[c] for c in hand if c not in honest])
        return None
    acts.extend([ATTACK[c] for c in hand])
    if most < 2:
        return None
    groups: dict[int, list[Card]] = {}
    for c in hand:
        groups.setdefault(c >> 2, []).append(c)
    if len(groups) == len(hand):  # no two of a rank: no set to lead
        return None
    for rank in sorted(groups):
        group = groups[rank]
        if len(group) > 1:
            acts.extend(_lead_sets(tuple(sorted(group)), min(most, len(group))))
    return None


@lru_cache(maxsize=1024)  # at most 13 ranks × 17 (suits, size) keys: every lead set there is, once
def _lead_sets(group: tuple[Card, ...], most: int) -> tuple[Action, ...]:
    """Every set of two or more (at most ``most``) of these cards of one rank, as leads: built once."""
    return tuple(Action(Act_ATTACK, combo) for size in range(2, most + 1) for combo in combinations(group, size))


def _list_defence(state: State, hand: list[Card], acts: list[Action]) -> None:
    rules = state.rules
    trump = state.trump if state.trumps is None else trump_of(state, state.defender)
    beaters = beater_table(rules, trump)
    cheating = rules.cheating
    for target, cover in zip(state.attacks, state.covers, strict=True):
        if cover is not None:
            continue
        honest = DEFEND[target]
        beat = beaters[target]
        if cheating:
            cheat = DEFEND_CHEAT[target]
            acts.extend([honest[c] if c in beat else cheat[c] for c in hand])
        else:
            acts.extend([honest[c] for c in hand if c in beat])
    if None in state.covers:
        acts.append(TAKE)
        if rules.draw_to_cover or rules.poker_swap or rules.counter_attack:
            _list_extras(state, hand, acts)
    if transfer_blocker(state) is not None:
        return
    rank = attack_rank(state)
    same = [c for c in hand if c >> 2 == rank]
    if not same and not cheating:  # nothing to pass the bout on with (the usual case): no more to work out
        return
    assert state.defender is not None
    nxt = defender_for(state, state.defender)
    if nxt is None:
        return
    fits = transfer_fits(state, nxt)
    may_empty = rules.transfer_last_card or state.stock or len(hand) > 1
    if fits >= 1 and may_empty:
        if cheating:
            acts.extend([TRANSFER[c] if c >> 2 == rank else TRANSFER_CHEAT[c] for c in hand])
        else:
            acts.extend([TRANSFER[c] for c in same])
    if rules.transfer_show_trump and state.defender not in state.shown:
        if cheating:
            if transfer_fits(state, nxt, show=True) >= 0:
                acts.extend([SHOW[c] if c >> 2 == rank and c & 3 == trump else SHOW_CHEAT[c] for c in hand])
        elif (rank is not None and trump is not None and (rank << 2 | trump) in hand  # one card: the rank's trump
              and transfer_fits(state, nxt, show=True) >= 0):
            acts.append(SHOW[rank << 2 | trump])


def _list_extras(state: State, hand: list[Card], acts: list[Action]) -> None:
    """The defender's extra moves of docs/variants.md §2.6 while a card is to beat: draw, swap, counter-attack."""
    rules = state.rules
    if rules.draw_to_cover and draw_blocker(state) is None:
        acts.append(DRAW_CARD)
    if rules.poker_swap and swap_blocker(state) is None:
        acts.extend(Action(Act_SWAP, pair) for pair in combinations(sorted(hand), 2))
    if rules.counter_attack and counter_blocker(state) is None and counter_room(state) >= 2:
        target = state.attacks[0]
        beat = beater_table(rules, trump_of(state, state.defender))[target]
        may_empty = rules.transfer_last_card or bool(state.stock) or len(hand) > 2
        if may_empty:
            for c in hand:
                if c in beat:
                    acts.extend(Action(Act_COUNTER, (c, k), target=target) for k in hand
                                if k >> 2 == c >> 2 and k != c)


def _list_open_lead(state: State, hand: list[Card], acts: list[Action]) -> None:
    """армянский: the cards that may complete the open stock lead (every subset that fits), or pass."""
    assert state.attacker is not None
    most = cards_room(state, state.attacker) or 0
    rank = state.attacks[0] >> 2
    same = sorted(c for c in hand if c >> 2 == rank)
    acts.extend(Action(Act_ATTACK, combo) for size in range(1, min(most, len(same)) + 1)
                for combo in combinations(same, size))
    acts.append(PASS)


def _list_self_throws(state: State, hand: list[Card], acts: list[Action]) -> None:
    """американский: one card each of a rank on the table to throw in on himself, or pass (бито)."""
    ranks = table_ranks(state)
    if state.rules.cheating:
        acts.extend([THROW_SELF[c] if c >> 2 in ranks else THROW_SELF_CHEAT[c] for c in hand])
    else:
        acts.extend([THROW_SELF[c] for c in hand if c >> 2 in ranks])
    acts.append(PASS)
