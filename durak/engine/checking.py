"""Whether one action is legal now (:func:`check`), with the reason a refused one gets.

It must agree with :mod:`durak.engine.listing` on every position; tests/engine/test_properties.py
holds them equal.
"""

from __future__ import annotations

from durak.actions import Action, Illegal, Reason
from durak.cards import Card
from durak.covering import beater_table
from durak.engine.blockers import counter_blocker, draw_blocker, swap_blocker, transfer_blocker
from durak.engine.constants import (
    Act_ACCUSE,
    Act_ATTACK,
    Act_COUNTER,
    Act_DEFEND,
    Act_DRAW_CARD,
    Act_PASS,
    Act_STOCK_LEAD,
    Act_SWAP,
    Act_TAKE,
    Act_THROW_SELF,
    Act_TRANSFER,
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
from durak.leads import lead_breaks
from durak.state import State


def check(state: State, seat: int, action: Action) -> bool:
    """Raise :class:`Illegal` if ``seat`` may not play ``action``; else whether it breaks a
    card rule (only possible as a cheat in cheating mode)."""
    if state.over:
        raise Illegal(Reason.GAME_OVER)
    if not 0 <= seat < len(state.hands):
        raise Illegal(Reason.NO_SUCH_SEAT)
    if seat in state.out:
        raise Illegal(Reason.OUT)
    if action.cheat and not state.rules.cheating:
        raise Illegal(Reason.CHEATING_OFF)
    act = action.act
    if act is Act_ACCUSE:
        _check_accuse(state, seat, action)
        return False
    if state.lead_open and (seat != state.attacker or act not in (Act_ATTACK, Act_PASS)):
        raise Illegal(Reason.LEAD_OPEN)
    if state.window and seat != state.defender:  # американский: the bout waits for the defender alone
        raise Illegal(Reason.NOT_YOUR_TURN)
    if act is Act_TAKE or act is Act_PASS:
        if not state.attacks:
            raise Illegal(Reason.NOT_YOUR_TURN)
        if act is Act_PASS and (state.lead_open or state.window):
            return False  # the leader completes his lead, or the defender ends the bout (his alone, above)
        (_check_take if act is Act_TAKE else _check_pass)(state, seat)
        return False
    if act is Act_STOCK_LEAD:
        _check_stock_lead(state, seat)
        return False
    if act is Act_DRAW_CARD:
        _check_defender(state, seat, draw_blocker(state))
        return False
    cards = action.cards
    if not cards:
        raise Illegal(Reason.NO_CARDS)
    if len(cards) > 1 and len(set(cards)) != len(cards):
        raise Illegal(Reason.DUPLICATE_CARD)
    hand = state.hands[seat]
    for c in cards:
        if c not in hand:
            raise Illegal(Reason.NOT_IN_HAND, card=c)
    if act is Act_ATTACK:
        broken = _check_attack(state, seat, cards)
    elif act is Act_DEFEND:
        if len(cards) != 1:
            raise Illegal(Reason.NO_CARDS)
        broken = _check_defend(state, seat, action.target, cards[0])
    elif act is Act_TRANSFER:
        broken = _check_transfer(state, seat, cards)
    elif act is Act_SWAP:
        if len(cards) != 2:
            raise Illegal(Reason.NO_CARDS)
        _check_defender(state, seat, swap_blocker(state))
        return False
    elif act is Act_COUNTER:
        _check_counter(state, seat, action.target, cards)
        return False
    elif act is Act_THROW_SELF:
        broken = _check_throw_self(state, seat, cards)
    else:
        if len(cards) != 1:
            raise Illegal(Reason.NO_CARDS)
        broken = _check_show(state, seat, cards[0])
    if broken is not None and not action.cheat:
        raise broken
    return broken is not None


def _check_attack(state: State, seat: int, cards: tuple[Card, ...]) -> Illegal | None:
    if seat == state.defender:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if state.lead_open:  # армянский: cards of the stock card's rank complete the lead; never as a cheat
        most = cards_room(state, seat) or 0
        if len(cards) > most:
            raise Illegal(Reason.LIMIT, room=most)
        for c in cards:
            if c >> 2 != state.attacks[0] >> 2:
                raise Illegal(Reason.RANK_NOT_ON_TABLE, card=c)
        return None
    if not state.attacks:
        if seat != state.attacker:
            raise Illegal(Reason.ONLY_ATTACKER_LEADS)
        lead_max = state.rules.lead_max
        if lead_max is not None and len(cards) > lead_max:
            raise Illegal(Reason.LEAD_MAX, limit=lead_max)
        most = lead_room(state)
        if len(cards) > most:
            raise Illegal(Reason.LIMIT, room=most)
        lead = state.rules.lead
        if lead is not Lead_SAME_RANK:
            return lead_breaks(lead, state.hands[seat], cards, most)
        rank = cards[0] >> 2
        for c in cards:
            if c >> 2 != rank:
                return Illegal(Reason.MIXED_RANKS)
        return None
    if seat not in throwers(state):
        raise Illegal(Reason.NO_THROW_IN)
    left = room(state)
    if left is not None and len(cards) > left:
        raise Illegal(Reason.LIMIT, room=max(left, 0))
    ranks = table_ranks(state)
    for c in cards:
        if c >> 2 not in ranks:
            return Illegal(Reason.RANK_NOT_ON_TABLE, card=c)
    return None


def _check_defend(state: State, seat: int, target: Card | None, card: Card) -> Illegal | None:
    if seat != state.defender or not state.attacks:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if state.taking:
        raise Illegal(Reason.TAKING)
    if target is not None and target in state.bypassed:
        raise Illegal(Reason.NOT_TO_BEAT, card=target)
    if target is None or target not in state.attacks:
        raise Illegal(Reason.NOT_ON_TABLE, card=target)
    if state.covers[state.attacks.index(target)] is not None:
        raise Illegal(Reason.ALREADY_COVERED, card=target)
    if card not in beater_table(state.rules, trump_of(state, seat))[target]:
        return Illegal(Reason.CANNOT_COVER, card=card, target=target)
    return None


def _check_transfer_common(state: State, seat: int) -> int:
    """Checks shared by transfer and show; returns the new defender."""
    if seat != state.defender or not state.attacks:
        raise Illegal(Reason.NOT_YOUR_TURN)
    blocker = transfer_blocker(state)
    if blocker is not None:
        raise Illegal(blocker)
    nxt = defender_for(state, seat)
    if nxt is None:
        raise Illegal(Reason.NOT_YOUR_TURN)
    return nxt


def _check_transfer(state: State, seat: int, cards: tuple[Card, ...]) -> Illegal | None:
    nxt = _check_transfer_common(state, seat)
    fits = transfer_fits(state, nxt)
    if len(cards) > fits:
        raise Illegal(Reason.LIMIT, room=max(fits, 0))
    hand = state.hands[seat]
    if len(cards) == len(hand) and not state.stock and not state.rules.transfer_last_card:
        raise Illegal(Reason.TRANSFER_LAST_CARD)
    rank = attack_rank(state)
    for c in cards:
        if c >> 2 != rank:
            return Illegal(Reason.TRANSFER_RANK, card=c)
    return None


def _check_show(state: State, seat: int, card: Card) -> Illegal | None:
    if not state.rules.transfer or not state.rules.transfer_show_trump:
        raise Illegal(Reason.SHOW_OFF)
    nxt = _check_transfer_common(state, seat)
    if seat in state.shown:
        raise Illegal(Reason.SHOW_USED)
    if transfer_fits(state, nxt, show=True) < 0:
        raise Illegal(Reason.LIMIT, room=0)
    if card >> 2 != attack_rank(state) or card & 3 != trump_of(state, seat):
        return Illegal(Reason.SHOW_NOT_TRUMP, card=card)
    return None


def _check_stock_lead(state: State, seat: int) -> None:
    if not state.rules.stock_lead:
        raise Illegal(Reason.STOCK_LEAD_OFF)
    if state.attacks:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if seat != state.attacker:
        raise Illegal(Reason.ONLY_ATTACKER_LEADS)
    if not state.stock:
        raise Illegal(Reason.STOCK_EMPTY)
    if lead_room(state) < 1:
        raise Illegal(Reason.LIMIT, room=0)


def _check_defender(state: State, seat: int, blocker: Reason | None) -> None:
    """The defender's draw, swap and counter-attack: on at this table, his turn, and nothing in the way."""
    if blocker in (Reason.DRAW_OFF, Reason.SWAP_OFF, Reason.COUNTER_OFF):
        raise Illegal(blocker)
    if seat != state.defender or not state.attacks:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if blocker is not None:
        raise Illegal(blocker, size=state.rules.hand_size) if blocker is Reason.SWAP_HAND else Illegal(blocker)


def _check_counter(state: State, seat: int, target: Card | None, cards: tuple[Card, ...]) -> None:
    _check_defender(state, seat, counter_blocker(state))
    if target is None or target != state.attacks[0]:
        raise Illegal(Reason.NOT_ON_TABLE, card=target)
    card = cards[0]
    if card not in beater_table(state.rules, trump_of(state, seat))[target]:
        raise Illegal(Reason.CANNOT_COVER, card=card, target=target)
    if len(cards) < 2:
        raise Illegal(Reason.NO_CARDS)
    for c in cards[1:]:
        if c >> 2 != card >> 2:
            raise Illegal(Reason.COUNTER_RANK, card=c)
    most = counter_room(state)
    if len(cards) > most:
        raise Illegal(Reason.LIMIT, room=most)
    if len(cards) == len(state.hands[seat]) and not state.stock and not state.rules.transfer_last_card:
        raise Illegal(Reason.TRANSFER_LAST_CARD)


def _check_throw_self(state: State, seat: int, cards: tuple[Card, ...]) -> Illegal | None:
    if not state.rules.self_throw_in:
        raise Illegal(Reason.SELF_THROW_OFF)
    if seat != state.defender or not state.window:
        raise Illegal(Reason.SELF_THROW_NOT_NOW)
    left = room(state)
    if left is not None and len(cards) > left:
        raise Illegal(Reason.LIMIT, room=max(left, 0))
    if len(cards) >= len(state.hands[seat]):
        raise Illegal(Reason.SELF_THROW_LAST_CARD)
    ranks = table_ranks(state)
    for c in cards:
        if c >> 2 not in ranks:
            return Illegal(Reason.RANK_NOT_ON_TABLE, card=c)
    return None


def _check_take(state: State, seat: int) -> None:
    if seat != state.defender:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if state.taking:
        raise Illegal(Reason.TAKING)
    if None not in state.covers:
        raise Illegal(Reason.NOTHING_TO_TAKE)


def _check_pass(state: State, seat: int) -> None:
    if seat == state.defender or seat not in throwers(state) or not state.hands[seat]:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if not state.taking and None in state.covers:
        raise Illegal(Reason.PASS_NOT_NOW)
    if seat in state.passed:
        raise Illegal(Reason.ALREADY_PASSED)


def _check_accuse(state: State, seat: int, action: Action) -> None:
    if not state.rules.cheating:
        raise Illegal(Reason.CHEATING_OFF)
    suspect = action.suspect
    if suspect is None or not 0 <= suspect < len(state.hands):
        raise Illegal(Reason.NO_SUCH_SEAT)
    if suspect == seat:
        raise Illegal(Reason.ACCUSE_SELF)
    if not state.attacks:
        raise Illegal(Reason.NOTHING_TO_ACCUSE)
    if seat in state.accused:
        raise Illegal(Reason.ACCUSE_USED)


def is_legal(state: State, seat: int, action: Action) -> bool:
    try:
        check(state, seat, action)
    except Illegal:
        return False
    return True
