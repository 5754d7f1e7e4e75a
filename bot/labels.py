"""How the bot writes a card: ``10♥️``, with red suits in emoji presentation.

The bare ``♥`` and ``♦`` are drawn as black text glyphs by many clients; followed by the
variation selector U+FE0F they are drawn as red emoji everywhere, so a hand reads at a glance.
"""

from __future__ import annotations

from collections.abc import Iterable

from durak.cards import RANK_NAMES, Card

_SUITS = ("♠", "♣", "♦\ufe0f", "♥\ufe0f")


def suit_text(suit: int) -> str:
    return _SUITS[suit]


def card_text(card: Card) -> str:
    return RANK_NAMES[card >> 2] + _SUITS[card & 3]


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def rank_text(card: Card) -> str:
    """The rank alone, for sentences about a rank (no suit: "no 9s on the table")."""
    return RANK_NAMES[card >> 2]
