"""The baseline computer player: legal, quick and sensible, never cheats.

It leads its cheapest rank, covers with the cheapest card that beats, keeps its trumps
while the stock is long, transfers with plain cards, and takes when covering would cost
too much. It acts for absent players and is the yardstick for stronger players.

>>> from durak import Rules, new_game
>>> state = new_game(Rules(), players=2, seed=3)
>>> choose(state, state.attacker).act
<Act.ATTACK: 'attack'>
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from durak.actions import PASS, TAKE, Act, Action
from durak.cards import Card, strength
from durak.covering import beater_table
from durak.engine import lead_room, legal_actions, room, throwers, trump_of
from durak.engine.position import table_ranks
from durak.rules import Lead
from durak.state import State

# While this many cards are left in the stock, spending a high trump is not worth it.
LONG_STOCK = 6
HIGH_TRUMP_RANK = 12  # queen and above

# This player makes every move of hard's play-outs, so its hot paths read enum members from globals (on
# CPython 3.11 a lookup through the enum's class is a Python-level call, see durak.engine.constants) and work out the
# trump suit once a move.
_ACCUSE: Final = Act.ACCUSE
_ATTACK: Final = Act.ATTACK
_DEFEND: Final = Act.DEFEND
_DRAW_CARD: Final = Act.DRAW_CARD
_PASS: Final = Act.PASS
_SHOW: Final = Act.SHOW
_TRANSFER: Final = Act.TRANSFER
_SAME_RANK: Final = Lead.SAME_RANK
# cards.strength of every card for each trump suit ([4]: no trump), read by index
_STRENGTH: Final = [[strength(c, trump if trump < 4 else None) for c in range(60)] for trump in range(5)]


def honest_moves(actions: Iterable[Action]) -> list[Action]:
    """The moves a computer player weighs: no cheat, no accusation (``hard`` decides those apart)."""
    return [a for a in actions if not a.cheat and a.act is not _ACCUSE]


def choose(state: State, seat: int) -> Action | None:
    """The action to play now, or None when waiting is better (an attacker may wait)."""
    first = direct(state, seat)
    return first if first is not None else choose_among(state, seat, legal_actions(state, seat))


def direct(state: State, seat: int) -> Action | None:
    """:func:`choose`'s move where it can be worked out without listing every legal move: a lead of one rank, a
    defence with nothing to pass on or draw, a throw-in (listing every cover and every set of a rank was a quarter
    of a play-out's time). None: list them (``tests/engine/test_greedy.py`` checks both ways agree on every preset)."""
    rules = state.rules
    if (rules.cheating or state.over or seat in state.out or state.lead_open or state.window
            or not 0 <= seat < len(state.hands)):
        return None
    if not state.attacks:
        hand = state.hands[seat]
        if seat != state.attacker or rules.lead is not _SAME_RANK or not hand:
            return None
        most = lead_room(state)
        return _lowest_lead(hand, most, trump_of(state, seat)) if most >= 1 else None
    if seat == state.defender:
        if not state.taking and None in state.covers and not rules.transfer and not rules.draw_to_cover:
            return _defend(state, seat, ())  # it reads the listed moves only for a transfer or a draw
        return None
    hand = state.hands[seat]
    if not hand or seat not in throwers(state):
        return None
    left = room(state)
    if left is None or left > 0:
        card = _cheapest_throw(state, seat, hand)
        if card is not None:
            return Action(_ATTACK, (card,))
    return PASS if seat not in state.passed and (state.taking or None not in state.covers) else None


def _lowest_lead(hand: list[Card], most: int, trump: int | None) -> Action:
    """:func:`_lead` over the leads of one rank the listing would give: the cheapest cards (every trump is dearer
    than every plain card, so they are of one rank), as many as may be led; the first of equals in the listing's
    order (the hand's for one card, the lowest cards first for a set)."""
    strengths = _STRENGTH[4 if trump is None else trump]
    low = min([strengths[c] for c in hand])
    cheapest = [c for c in hand if strengths[c] == low]
    if most == 1 or len(cheapest) == 1:
        return Action(_ATTACK, (cheapest[0],))
    return Action(_ATTACK, tuple(sorted(cheapest)[:most]))


def _cheapest_throw(state: State, seat: int, hand: list[Card]) -> Card | None:
    """:func:`_throw_in`'s card among those the listing gives (a rank on the table): the cheapest, the first of
    equals in the hand's order; no trump nor anything from a queen up while the stock lasts."""
    ranks = table_ranks(state)
    trump = trump_of(state, seat)
    strengths = _STRENGTH[4 if trump is None else trump]
    stock_left = bool(state.stock)
    best: Card | None = None
    for c in hand:
        if c >> 2 in ranks and not (stock_left and (c & 3 == trump or c >> 2 >= HIGH_TRUMP_RANK)) and (
                best is None or strengths[c] < strengths[best]):
            best = c
    return best


def choose_among(state: State, seat: int, legal: Sequence[Action]) -> Action | None:
    """:func:`choose` given the seat's legal moves (a caller that has listed them already)."""
    honest = honest_moves(legal) if state.rules.cheating else legal  # only cheating lists cheats and accusations
    if not honest:
        return None
    if not state.attacks:
        return _lead(state, seat, honest)
    if state.lead_open:  # армянский: add its plain cards of the stock card's rank
        adds = [a for a in honest if a.act is _ATTACK and all(c & 3 != trump_of(state, seat) for c in a.cards)]
        return max(adds, key=lambda a: len(a.cards)) if adds else next(a for a in honest if a.act is _PASS)
    if state.window:  # американский: never throws in on itself
        return next(a for a in honest if a.act is _PASS)
    if seat == state.defender:
        return _defend(state, seat, honest)
    return _throw_in(state, seat, honest)


def cost(state: State, seat: int, cards: tuple[Card, ...]) -> int:
    """What laying ``cards`` spends: the strength of the dearest of them for ``seat``."""
    return _dearest(cards, trump_of(state, seat))


def _dearest(cards: tuple[Card, ...], trump: int | None) -> int:
    strengths = _STRENGTH[4 if trump is None else trump]
    most = 0
    for c in cards:  # a loop, not max() over a generator: every move of a play-out asks
        if strengths[c] > most:
            most = strengths[c]
    return most


def _lead(state: State, seat: int, honest: Sequence[Action]) -> Action:
    # The cheapest rank, with as many of its cards as may be led at once (never the unseen stock card); the
    # first of equals, as min() would choose.
    trump = trump_of(state, seat)
    best: Action | None = None
    low = (0, 0)
    for a in honest:
        if a.act is not _ATTACK:
            continue
        key = (_dearest(a.cards, trump), -len(a.cards))
        if best is None or key < low:
            best, low = a, key
    if best is not None:
        return best
    return min(honest, key=lambda a: (cost(state, seat, a.cards), -len(a.cards)))  # the stock lead alone


def _defend(state: State, seat: int, honest: Sequence[Action]) -> Action:
    trump = trump_of(state, seat)
    passes_on = [a for a in honest if a.act is _SHOW or
                 (a.act is _TRANSFER and a.card & 3 != trump)] if state.rules.transfer else None
    if passes_on:
        return min(passes_on, key=lambda a: (a.act is not _SHOW, _dearest(a.cards, trump)))
    plan = cover_plan(state.hands[seat], [a for a, c in zip(state.attacks, state.covers, strict=True)
                                          if c is None], trump, beater_table(state.rules, trump))
    if plan is None and any(a.act is _DRAW_CARD for a in honest):
        return Action(_DRAW_CARD)  # вторая попытка: one more card may cover
    if plan is None or (len(state.stock) > LONG_STOCK and _too_dear(plan, trump)):
        return TAKE
    target, card = plan[0]
    return Action(_DEFEND, (card,), target=target)


def _too_dear(plan: list[tuple[Card, Card]], trump: int | None) -> bool:
    return any(card & 3 == trump and card >> 2 >= HIGH_TRUMP_RANK and target & 3 != trump
               for target, card in plan)


def cover_plan(hand: list[Card], uncovered: list[Card], trump: int | None,
               beaters: list[frozenset[Card]]) -> list[tuple[Card, Card]] | None:
    """Cover the hardest card first, each with the cheapest card that beats it (``beaters[target]``: the
    cards that may cover it); None if one can't be."""
    order = _STRENGTH[4 if trump is None else trump].__getitem__
    free = sorted(hand, key=order)
    plan = []
    for target in sorted(uncovered, key=order, reverse=True):  # equals keep their order, as with -strength
        beat = beaters[target]
        card = next((c for c in free if c in beat), None)
        if card is None:
            return None
        free.remove(card)
        plan.append((target, card))
    return plan


def _throw_in(state: State, seat: int, honest: Sequence[Action]) -> Action | None:
    trump = trump_of(state, seat)
    stock_left = bool(state.stock)
    throws = [a for a in honest if a.act is _ATTACK and
              not (stock_left and (a.card & 3 == trump or a.card >> 2 >= HIGH_TRUMP_RANK))]
    if throws:
        return min(throws, key=lambda a: _dearest(a.cards, trump))
    return next((a for a in honest if a.act is _PASS), None)
