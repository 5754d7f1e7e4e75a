"""Starting a game: a seeded shuffle and deal, or an explicit position (as in scenarios)."""

from __future__ import annotations

import random
from typing import NamedTuple

from durak.cards import Card, Suit, deck, parse_suit
from durak.engine import defender_for
from durak.rules import Deal, FirstAttacker, Ranking, Rules, RulesError, StockMode, TrumpSuit
from durak.state import State


class Previous(NamedTuple):
    """The previous game at this table, for who attacks first in a rematch (docs/rules.md §3)."""

    loser: int | None   # None after a draw
    winner: int | None  # the first to go out


class Dealt(NamedTuple):
    """A dealt game before the first attacker is chosen."""

    hands: list[list[Card]]
    stock: list[Card]            # top first
    trump: Suit | None
    trump_card: Card | None      # the turned card, face up (docs/rules.md §2), wherever it lies
    set_aside: list[Card]
    secret: Card | None = None   # потайной: face down under the face-up card
    trumps: tuple[Suit, Suit] | None = None  # двухкозырной: seat 0's and seat 1's trump
    second_card: Card | None = None          # двухкозырной: seat 1's face-up card, under seat 0's


def new_game(rules: Rules, players: int, seed: int | str, previous: Previous | None = None) -> State:
    """Shuffle with ``seed`` (same seed, same game) and deal by the rules (docs/variants.md §2.1); a void deal
    is shuffled again with the same generator."""
    rules.check_players(players)
    rng = random.Random(seed)
    while True:
        cards = deck(rules.deck_size)
        rng.shuffle(cards)
        dealt = deal(rules, players, cards)
        if dealt is not None:
            state = start_dealt(rules, dealt, previous)
            state.seed = seed if isinstance(seed, int) and seed >= 0 else rng.getrandbits(63)
            return state


def deal_decks(rules: Rules, players: int, decks: list[list[Card]], attacker: int | None = None) -> State:
    """Deal from given deck orders (top first), the next order for each redeal: scenarios test the deal so."""
    rules.check_players(players)
    full = set(deck(rules.deck_size))
    for cards in decks:
        if len(cards) != len(full) or set(cards) != full:
            raise RulesError("decks", f"each deck order must hold every card of a deck of {rules.deck_size} once")
        dealt = deal(rules, players, cards)
        if dealt is not None:
            if attacker is None:
                return start_dealt(rules, dealt, None)
            return _start(rules, dealt, _seat(attacker, players), first_bout=True)
    raise RulesError("decks", "the deal was void and no deck order is left to deal again")


def deal(rules: Rules, players: int, cards: list[Card]) -> Dealt | None:
    """Deal ``cards`` (top first) by the rules; None when the deal is void (a redeal)."""
    count = len(cards) if rules.deal is Deal.WHOLE_DECK else rules.hand_size * players
    hands = [cards[p:count:players] for p in range(players)]  # one card at a time, clockwise from seat 0
    rest = cards[count:]
    same = rules.redeal_same_suit
    if same is not None and any(max(sum(1 for c in h if c & 3 == suit) for suit in range(4)) >= same
                                for h in hands):
        return None
    trump_card: Card | None = None
    secret: Card | None = None
    second: Card | None = None
    trumps: tuple[Suit, Suit] | None = None
    trump: Suit | None
    choice = rules.trump_suit
    if rules.two_trumps:  # the next card is seat 0's trump, the next of another suit seat 1's; both drawn last
        trump, trump_card = None, rest[0]
        at = next((i for i in range(1, len(rest)) if rest[i] & 3 != trump_card & 3), None)
        if at is None:
            return None  # no second suit left: the deal is void
        second = rest[at]
        trumps = (trump_card & 3, second & 3)
        stock = rest[1:at] + rest[at + 1:] + [trump_card, second]
    elif choice is TrumpSuit.TURNED:
        if rest:
            trump_card = rest[0]
            if rules.secret_trump:  # the next card lies face down under it, never drawn (max_players keeps one)
                secret, rest = rest[1], rest[1:]
            stock = [*rest[1:], trump_card]  # turned face up, lies under the stock, drawn last
        else:
            trump_card = cards[count - 1]  # the last dealt card: it stays in its holder's hand, shown to all
            stock = []
        trump = trump_card & 3
        if rules.special_suit is not None and trump == parse_suit(rules.special_suit):
            trump = None  # японский: the special suit is never trump; the card stays face up, drawn last
    else:
        trump = None if choice is TrumpSuit.NONE else parse_suit(choice.value)
        stock = rest
    set_aside: list[Card] = []
    if rules.stock_mode is StockMode.REMOVED:
        set_aside, stock = stock, []
    elif rules.stock_mode is StockMode.SORTED:
        face = 2 if second is not None else 1 if stock and stock[-1] == trump_card else 0
        body = stock[:len(stock) - face]
        body.sort(key=lambda c: -(c >> 2))  # aces on top; one rank keeps its shuffled order
        stock = body + stock[len(stock) - face:]
    return Dealt(hands, stock, trump, trump_card, set_aside, secret, trumps, second)


def start_dealt(rules: Rules, dealt: Dealt, previous: Previous | None) -> State:
    attacker = _first_attacker(rules, dealt.hands, dealt.trump, previous, dealt.trumps)
    return _start(rules, dealt, attacker, first_bout=True)


def _seat(seat: int, players: int) -> int:
    if not 0 <= seat < players:
        raise RulesError("attacker", f"no seat {seat}")
    return seat


def position(
    rules: Rules,
    hands: list[list[Card]],
    stock: list[Card],
    trump: Suit | None,
    attacker: int | None = None,
    first_bout: bool = True,
    secret: Card | None = None,
    trumps: tuple[Suit, Suit] | None = None,
) -> State:
    """An explicit position: any cards of the deck, the stock top first (its last card is the
    face-up trump card when a turned card gave the trump). ``attacker`` None chooses him by the rules.
    ``secret``: потайной's face-down card, if it is still unturned. ``trumps``: двухкозырной's two suits (then
    ``trump`` is None), the stock's last two cards the face-up cards of seat 0 and seat 1 (of one card: seat 1's)."""
    rules.check_players(len(hands))
    if secret is not None and not rules.secret_trump:
        raise RulesError("secret_trump", "a secret card needs the secret_trump option")
    every = [c for h in hands for c in h] + stock + ([] if secret is None else [secret])
    if len(set(every)) != len(every):
        raise RulesError("cards", "a card is listed twice")
    if not set(every) <= set(deck(rules.deck_size)):
        raise RulesError("cards", f"a card is not in a deck of {rules.deck_size}")
    if rules.two_trumps:
        return _two_trumps_position(rules, hands, stock, trumps, attacker, first_bout)
    if trumps is not None:
        raise RulesError("trump", "two trumps need the two_trumps option")
    fixed = rules.trump_suit
    if fixed is not TrumpSuit.TURNED and trump != (None if fixed is TrumpSuit.NONE else parse_suit(fixed.value)):
        raise RulesError("trump", f"must agree with trump_suit {fixed.value}")
    turned = fixed is TrumpSuit.TURNED and trump is not None
    trump_card = stock[-1] if stock and turned else None
    if trump_card is not None and trump_card & 3 != trump:
        raise RulesError("trump", "the last card of the stock is the trump card: it must be a trump")
    if attacker is None:
        attacker = _first_attacker(rules, hands, trump, None)
    elif not 0 <= attacker < len(hands):
        raise RulesError("attacker", f"no seat {attacker}")
    return _start(rules, Dealt([h[:] for h in hands], stock[:], trump, trump_card, [], secret), attacker, first_bout)


def _two_trumps_position(rules: Rules, hands: list[list[Card]], stock: list[Card], trumps: tuple[Suit, Suit] | None,
                         attacker: int | None, first_bout: bool) -> State:
    if trumps is None or trumps[0] == trumps[1]:
        raise RulesError("trump", "two_trumps needs two different suits, seat 0's and seat 1's")
    faces: list[Card | None] = [None, None, *stock][-2:]
    first = faces[0] if faces[0] is not None and faces[0] & 3 == trumps[0] else None
    second = faces[1] if faces[1] is not None and faces[1] & 3 == trumps[1] else None
    if stock and (second is None or (len(stock) >= 2 and first is None)):
        raise RulesError("trump", "the stock's last cards are the face-up cards of seat 0's and seat 1's trumps")
    if attacker is None:
        attacker = _first_attacker(rules, hands, None, None, trumps)
    elif not 0 <= attacker < len(hands):
        raise RulesError("attacker", f"no seat {attacker}")
    return _start(rules, Dealt([h[:] for h in hands], stock[:], None, first, [], None, trumps, second), attacker,
                  first_bout)


def _start(rules: Rules, dealt: Dealt, attacker: int, first_bout: bool) -> State:
    """The game's first position: the cards as dealt (or given), ``attacker`` to lead."""
    hands, stock = dealt.hands, dealt.stock
    state = State(rules, dealt.trump, dealt.trump_card, hands, stock, [], [], [], attacker, None,
                  first_bout=first_bout, set_aside=dealt.set_aside, secret=dealt.secret, trumps=dealt.trumps,
                  second_card=dealt.second_card)
    n = len(hands)
    if rules.ranking is Ranking.POGONY:
        state.pogons = ((),) * n
    elif rules.ranking is not Ranking.ORDER:
        state.scores = (0,) * n
    if not stock:
        state.out = [p for p, h in enumerate(hands) if not h]
    if attacker in state.out:
        raise RulesError("attacker", f"seat {attacker} holds no cards")
    state.defender = defender_for(state, attacker)
    if state.defender is None:
        raise RulesError("hands", "at least two players must hold cards")
    return state


def lowest_trump_leads(rules: Rules, players: int, previous: Previous | None) -> bool:
    """Whether the first attacker of a game is its lowest trump's holder (public: so nobody else holds a lower
    one), rather than the seat the previous game names."""
    if previous is None or previous.loser is None or previous.loser >= players:
        return True
    rule = rules.first_attacker
    if rule is FirstAttacker.WINNER:
        return previous.winner is None or previous.winner >= players
    return rule is FirstAttacker.LOWEST_TRUMP


def _first_attacker(rules: Rules, hands: list[list[Card]], trump: Suit | None,
                    previous: Previous | None, trumps: tuple[Suit, Suit] | None = None) -> int:
    n = len(hands)
    rule = rules.first_attacker
    if not lowest_trump_leads(rules, n, previous):
        assert previous is not None and previous.loser is not None
        if rule is FirstAttacker.AFTER_FOOL:
            return (previous.loser + 1) % n
        if rule is FirstAttacker.BEFORE_FOOL:
            return (previous.loser - 1) % n
        assert previous.winner is not None
        return previous.winner
    if trumps is not None:
        return _own_lowest_trump_holder(hands, trumps)
    return lowest_trump_holder(hands, trump)


def _own_lowest_trump_holder(hands: list[list[Card]], trumps: tuple[Suit, Suit]) -> int:
    """двухкозырной (docs/variants.md §2.2): the lower of each seat's lowest card of his own trump (equal: seat 0);
    only one holds his trump: he; neither: the lowest card by rank."""
    lows = [min((c >> 2 for c in hands[p] if c & 3 == trumps[p]), default=None) for p in (0, 1)]
    if lows[0] is not None and lows[1] is not None:
        return 0 if lows[0] <= lows[1] else 1
    if lows[0] is not None or lows[1] is not None:
        return 0 if lows[0] is not None else 1
    return lowest_trump_holder(hands, None)


def lowest_trump_holder(hands: list[list[Card]], trump: Suit | None) -> int:
    """The holder of the lowest trump; without one, of the lowest card by rank (lowest seat on ties)."""
    trumps = [(c, p) for p, h in enumerate(hands) for c in h if c & 3 == trump]
    if trumps:
        return min(trumps)[1]
    ranked = [(c >> 2, p) for p, h in enumerate(hands) for c in h]
    return min(ranked)[1] if ranked else 0
