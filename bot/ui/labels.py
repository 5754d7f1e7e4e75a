"""How the bot writes a card: ``10♥️``, with red suits in emoji presentation.

The bare suit signs are drawn as text glyphs by many clients; followed by the variation selector U+FE0F
they are drawn as emoji everywhere (♥️ ♦️ red), all four the same size, so a hand reads at a glance.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.ui.i18n import Translator
from durak.cards import RANK_NAMES, Card

_SUITS = ("♠\ufe0f", "♣\ufe0f", "♦\ufe0f", "♥\ufe0f")


def suit_text(suit: int) -> str:
    return _SUITS[suit]


def card_text(card: Card) -> str:
    return RANK_NAMES[card >> 2] + _SUITS[card & 3]


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def NP_(context: str, message: str) -> str:
    """Marks a message with a context for extraction (``scripts/update_catalogs.py`` knows NP_)."""
    return message


# A rank named in the plural, as a sentence needs it: "all 7s" (all the sevens, «все семёрки») and "no aces"
# (none of the aces, «нет тузов»): Russian names each rank by a word, in two cases; English the face cards.
_ALL = [NP_("all", "2s"), NP_("all", "3s"), NP_("all", "4s"), NP_("all", "5s"), NP_("all", "6s"), NP_("all", "7s"),
        NP_("all", "8s"), NP_("all", "9s"), NP_("all", "10s"), NP_("all", "jacks"), NP_("all", "queens"),
        NP_("all", "kings"), NP_("all", "aces")]
_NONE = [NP_("none", "2s"), NP_("none", "3s"), NP_("none", "4s"), NP_("none", "5s"), NP_("none", "6s"),
         NP_("none", "7s"), NP_("none", "8s"), NP_("none", "9s"), NP_("none", "10s"), NP_("none", "jacks"),
         NP_("none", "queens"), NP_("none", "kings"), NP_("none", "aces")]


def ranks_text(tr: Translator, card: Card, case: str) -> str:
    """The card's rank in the plural: ``case`` "all" ("all 7s": «все семёрки») or "none" ("no 7s": «нет семёрок»)."""
    return tr.pgettext(case, (_ALL if case == "all" else _NONE)[(card >> 2) - 2])


def rank_text(card: Card) -> str:
    """The rank alone, for sentences about a rank (no suit: "no 9s on the table")."""
    return RANK_NAMES[card >> 2]
