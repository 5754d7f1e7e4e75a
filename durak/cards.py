"""Cards as small integers: cheap to compare, hash and copy on the hot path.

A card is ``rank * 4 + suit``: ranks 2..14 (J=11, Q=12, K=13, A=14), suits 0..3 in the
order spades, clubs, diamonds, hearts. :func:`parse_card` and :func:`card_code` convert
to and from the codes of docs/rules.md (``"6S"``, ``"10H"``, ``"AC"``).

>>> card_code(parse_card("10H"))
'10H'
>>> beats(parse_card("7H"), parse_card("AS"), trump=parse_suit("H"))
True
"""

from __future__ import annotations

Card = int
Suit = int

SUIT_LETTERS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"
RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_BY_NAME = {name: rank for rank, name in RANK_NAMES.items()}
# Lowest rank of each deck size: 24 cards are 9..A, 36 are 6..A, 52 are 2..A.
LOWEST_RANK = {24: 9, 36: 6, 52: 2}


def make_card(rank: int, suit: Suit) -> Card:
    return rank * 4 + suit


def rank_of(card: Card) -> int:
    return card >> 2


def parse_suit(letter: str) -> Suit:
    """``"S"`` → 0 … ``"H"`` → 3; raises ValueError for anything else."""
    if len(letter) != 1 or letter not in SUIT_LETTERS:
        raise ValueError(f"unknown suit {letter!r} (one of S, C, D, H)")
    return SUIT_LETTERS.index(letter)


def parse_card(code: str) -> Card:
    """A card code such as ``"QD"`` → its card; raises ValueError for a bad code."""
    if not isinstance(code, str) or len(code) < 2:
        raise ValueError(f"bad card code {code!r}")
    rank = _RANK_BY_NAME.get(code[:-1])
    if rank is None:
        raise ValueError(f"bad card code {code!r}: unknown rank {code[:-1]!r}")
    try:
        return make_card(rank, parse_suit(code[-1]))
    except ValueError:
        raise ValueError(f"bad card code {code!r}: unknown suit {code[-1]!r}") from None


def card_code(card: Card) -> str:
    return RANK_NAMES[card >> 2] + SUIT_LETTERS[card & 3]


def card_label(card: Card) -> str:
    """How people read a card: ``10♥``."""
    return RANK_NAMES[card >> 2] + SUIT_SYMBOLS[card & 3]


def deck(size: int) -> list[Card]:
    """Every card of a deck of 24, 36 or 52, lowest rank first."""
    low = LOWEST_RANK[size]
    return [make_card(rank, suit) for rank in range(low, 15) for suit in range(4)]


def beats(cover: Card, attack: Card, trump: Suit | None) -> bool:
    """Whether ``cover`` may cover ``attack``: higher of the same suit, or a trump on a non-trump."""
    if cover & 3 == attack & 3:
        return cover > attack
    return cover & 3 == trump


def strength(card: Card, trump: Suit | None) -> int:
    """An order for choosing cheap cards: every trump above every plain card."""
    return (card >> 2) + (20 if card & 3 == trump else 0)
