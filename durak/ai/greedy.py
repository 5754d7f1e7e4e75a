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

from collections.abc import Iterable

from durak.actions import TAKE, Act, Action
from durak.cards import Card, strength
from durak.covering import beater_table
from durak.engine import legal_actions, trump_of
from durak.state import State

# While this many cards are left in the stock, spending a high trump is not worth it.
LONG_STOCK = 6
HIGH_TRUMP_RANK = 12  # queen and above


def honest_moves(actions: Iterable[Action]) -> list[Action]:
    """The moves a computer player weighs: no cheat, no accusation (``hard`` decides those apart)."""
    return [a for a in actions if not a.cheat and a.act is not Act.ACCUSE]


def choose(state: State, seat: int) -> Action | None:
    """The action to play now, or None when waiting is better (an attacker may wait)."""
    honest = honest_moves(legal_actions(state, seat))
    if not honest:
        return None
    if not state.attacks:
        return _lead(state, seat, honest)
    if state.lead_open:  # армянский: add its plain cards of the stock card's rank
        adds = [a for a in honest if a.act is Act.ATTACK and all(c & 3 != trump_of(state, seat) for c in a.cards)]
        return max(adds, key=lambda a: len(a.cards)) if adds else next(a for a in honest if a.act is Act.PASS)
    if state.window:  # американский: never throws in on itself
        return next(a for a in honest if a.act is Act.PASS)
    if seat == state.defender:
        return _defend(state, seat, honest)
    return _throw_in(state, seat, honest)


def cost(state: State, seat: int, cards: tuple[Card, ...]) -> int:
    """What laying ``cards`` spends: the strength of the dearest of them for ``seat``."""
    return max((strength(c, trump_of(state, seat)) for c in cards), default=0)


def _lead(state: State, seat: int, honest: list[Action]) -> Action:
    # The cheapest rank, with as many of its cards as may be led at once (never the unseen stock card).
    leads = [a for a in honest if a.act is Act.ATTACK]
    return min(leads or honest, key=lambda a: (cost(state, seat, a.cards), -len(a.cards)))


def _defend(state: State, seat: int, honest: list[Action]) -> Action:
    trump = trump_of(state, seat)
    passes_on = [a for a in honest if a.act is Act.SHOW or
                 (a.act is Act.TRANSFER and a.card & 3 != trump)]
    if passes_on:
        return min(passes_on, key=lambda a: (a.act is not Act.SHOW, cost(state, seat, a.cards)))
    plan = cover_plan(state.hands[seat], [a for a, c in zip(state.attacks, state.covers, strict=True)
                                          if c is None], trump, beater_table(state.rules, trump))
    if plan is None and any(a.act is Act.DRAW_CARD for a in honest):
        return Action(Act.DRAW_CARD)  # вторая попытка: one more card may cover
    if plan is None or (len(state.stock) > LONG_STOCK and _too_dear(plan, trump)):
        return TAKE
    target, card = plan[0]
    return Action(Act.DEFEND, (card,), target=target)


def _too_dear(plan: list[tuple[Card, Card]], trump: int | None) -> bool:
    return any(card & 3 == trump and card >> 2 >= HIGH_TRUMP_RANK and target & 3 != trump
               for target, card in plan)


def cover_plan(hand: list[Card], uncovered: list[Card], trump: int | None,
               beaters: list[frozenset[Card]]) -> list[tuple[Card, Card]] | None:
    """Cover the hardest card first, each with the cheapest card that beats it (``beaters[target]``: the
    cards that may cover it); None if one can't be."""
    free = sorted(hand, key=lambda c: strength(c, trump))
    plan = []
    for target in sorted(uncovered, key=lambda c: -strength(c, trump)):
        beat = beaters[target]
        card = next((c for c in free if c in beat), None)
        if card is None:
            return None
        free.remove(card)
        plan.append((target, card))
    return plan


def _throw_in(state: State, seat: int, honest: list[Action]) -> Action | None:
    trump = trump_of(state, seat)
    stock_left = bool(state.stock)
    throws = [a for a in honest if a.act is Act.ATTACK and
              not (stock_left and (a.card & 3 == trump or a.card >> 2 >= HIGH_TRUMP_RANK))]
    if throws:
        return min(throws, key=lambda a: cost(state, seat, a.cards))
    return next((a for a in honest if a.act is Act.PASS), None)
