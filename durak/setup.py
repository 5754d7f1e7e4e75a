"""Starting a game: a seeded shuffle and deal, or an explicit position (as in scenarios)."""

from __future__ import annotations

import random
from typing import NamedTuple

from durak.cards import Card, Suit, deck
from durak.engine import defender_for
from durak.rules import FirstAttacker, Rules, RulesError
from durak.state import State


class Previous(NamedTuple):
    """The previous game at this table, for who attacks first in a rematch (RULES.md §3)."""

    loser: int | None   # None after a draw
    winner: int | None  # the first to go out


def new_game(rules: Rules, players: int, seed: int | str, previous: Previous | None = None) -> State:
    """Shuffle with ``seed`` (same seed, same game) and deal ``hand_size`` cards each."""
    rules.check_players(players)
    cards = deck(rules.deck_size)
    random.Random(seed).shuffle(cards)
    size = rules.hand_size
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(size * players):  # one card at a time, clockwise from seat 0
        hands[i % players].append(cards[i])
    rest = cards[size * players:]
    if rest:
        trump_card = rest[0]
        stock = [*rest[1:], trump_card]  # turned face up, lies under the stock, drawn last
    else:
        trump_card = hands[(size * players - 1) % players][-1]  # the last dealt card
        stock = []
    return _start(rules, hands, stock, trump_card & 3, trump_card,
                  _first_attacker(rules, hands, trump_card & 3, previous), first_bout=True)


def position(
    rules: Rules,
    hands: list[list[Card]],
    stock: list[Card],
    trump: Suit | None,
    attacker: int | None = None,
    first_bout: bool = True,
) -> State:
    """An explicit position: any cards of the deck, the stock top first (its last card is the
    face-up trump card). ``attacker`` None chooses him by the rules."""
    rules.check_players(len(hands))
    every = [c for h in hands for c in h] + stock
    if len(set(every)) != len(every):
        raise RulesError("cards", "a card is listed twice")
    if not set(every) <= set(deck(rules.deck_size)):
        raise RulesError("cards", f"a card is not in a deck of {rules.deck_size}")
    trump_card = stock[-1] if stock and trump is not None else None
    if trump_card is not None and trump_card & 3 != trump:
        raise RulesError("trump", "the last card of the stock is the trump card: it must be a trump")
    if attacker is None:
        attacker = _first_attacker(rules, hands, trump, None)
    elif not 0 <= attacker < len(hands):
        raise RulesError("attacker", f"no seat {attacker}")
    return _start(rules, [h[:] for h in hands], stock[:], trump, trump_card, attacker, first_bout)


def _start(rules: Rules, hands: list[list[Card]], stock: list[Card], trump: Suit | None,
           trump_card: Card | None, attacker: int, first_bout: bool) -> State:
    state = State(rules, trump, trump_card, hands, stock, [], [], [], attacker, None,
                  first_bout=first_bout)
    if not stock:
        state.out = [p for p, h in enumerate(hands) if not h]
    if attacker in state.out:
        raise RulesError("attacker", f"seat {attacker} holds no cards")
    state.defender = defender_for(state, attacker)
    if state.defender is None:
        raise RulesError("hands", "at least two players must hold cards")
    return state


def _first_attacker(rules: Rules, hands: list[list[Card]], trump: Suit | None,
                    previous: Previous | None) -> int:
    n = len(hands)
    rule = rules.first_attacker
    if previous is not None and previous.loser is not None and previous.loser < n:
        if rule is FirstAttacker.AFTER_FOOL:
            return (previous.loser + 1) % n
        if rule is FirstAttacker.BEFORE_FOOL:
            return (previous.loser - 1) % n
        if rule is FirstAttacker.WINNER and previous.winner is not None and previous.winner < n:
            return previous.winner
    return lowest_trump_holder(hands, trump)


def lowest_trump_holder(hands: list[list[Card]], trump: Suit | None) -> int:
    """The holder of the lowest trump; without one, of the lowest card by rank (lowest seat on ties)."""
    trumps = [(c, p) for p, h in enumerate(hands) for c in h if c & 3 == trump]
    if trumps:
        return min(trumps)[1]
    ranked = [(c >> 2, p) for p, h in enumerate(hands) for c in h]
    return min(ranked)[1] if ranked else 0
