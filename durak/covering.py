"""Which card covers which (docs/rules.md §4.2, and docs/variants.md §2.3 for the variants' relations).

:func:`beater_table` gives, for a table's rules and the defender's trump, the set of cards that
cover each attack card: the engine lists and checks covers with it, the computer players choose
with it. The tables are built once per relation (a few dozen at most) and shared.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from durak.cards import LOWEST_RANK, Card, Suit, beats, parse_suit
from durak.rules import Royal, Rules

ACE, QUEEN = 14, 12
_ROYAL_OFF: Final = Royal.OFF  # read per cover: a lookup on the enum class costs 55 ns on CPython 3.11
_CARDS = range(60)

# _PLAIN[trump][target]: docs/rules.md's own relation (trump 4: no trump suit)
_PLAIN = [[frozenset(c for c in _CARDS if beats(c, t, None if trump == 4 else trump)) for t in _CARDS]
          for trump in range(5)]


def beater_table(rules: Rules, trump: Suit | None) -> list[frozenset[Card]]:
    """``table[attack]``: every card that may cover ``attack`` under these rules, ``trump`` being the
    defender's trump suit (None: no trump)."""
    if rules.royal is _ROYAL_OFF and rules.special_suit is None and not rules.suitless:
        return _PLAIN[4 if trump is None else trump]
    special = None if rules.special_suit is None else parse_suit(rules.special_suit)
    return _variant_table(4 if trump is None else trump, LOWEST_RANK[rules.deck_size], rules.royal.value,
                          -1 if special is None else special, rules.suitless)


def covers(rules: Rules, trump: Suit | None, card: Card, target: Card) -> bool:
    """Whether ``card`` may cover ``target`` (the defender's trump being ``trump``)."""
    return card in beater_table(rules, trump)[target]


@lru_cache(maxsize=64)
def _variant_table(trump: int, low: int, royal: str, special: int, suitless: bool) -> list[frozenset[Card]]:
    return [frozenset(c for c in _CARDS if _beats(c, t, trump, low, royal, special, suitless)) for t in _CARDS]


def _beats(cover: Card, attack: Card, trump: int, low: int, royal: str, special: int, suitless: bool) -> bool:
    """docs/variants.md §2.3, step by step; ``trump`` 4 and ``special`` -1 mean none."""
    if cover == attack:
        return False
    rank_a, rank_c, suit_a, suit_c = attack >> 2, cover >> 2, attack & 3, cover & 3
    if royal != Royal.OFF.value and rank_a == low:
        return rank_c == ACE and suit_c in (suit_a, trump)
    if royal == Royal.ROYAL.value and rank_a == ACE and rank_c == low and suit_c == suit_a:
        return True
    if suit_a == special:
        return suit_c == special and (rank_c > rank_a or rank_c == QUEEN)
    if suit_a == trump:
        return suit_c == trump and rank_c > rank_a
    if suit_c == trump:
        return True
    if suitless:
        return rank_c > rank_a
    return suit_c == suit_a and rank_c > rank_a
