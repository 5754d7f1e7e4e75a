"""How the bot writes a card: ``10♥️``, with red suits in emoji presentation.

The bare suit signs are drawn as text glyphs by many clients; followed by the variation selector U+FE0F
they are drawn as emoji everywhere (♥️ ♦️ red), all four the same size, so a hand reads at a glance.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from bot.ui.i18n import Translator, local_letters
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


# The face cards' letters as the reader's country writes them: «В Д К Т» (валет, дама, король, туз), «B D K A»
# (Bube, Dame, König, Ass). A reader who chose them (/letters) gets every card of a text so.
FACES = NP_("card letters: jack, queen, king, ace", "J Q K A")
_FACE = re.compile("(?<![0-9A-Za-z])([JQKA])(?=[♠♣♦♥])")


def lettered(text: str, tr: Translator) -> str:
    """``text`` with the cards in it written in the reader's letters, if he chose his country's."""
    if not local_letters(tr):
        return text
    faces = dict(zip("JQKA", tr.pgettext("card letters: jack, queen, king, ace", FACES).split(), strict=True))
    return _FACE.sub(lambda m: faces[m.group(1)], text)


def lettered_rows(rows: list[list[dict[str, Any]]], tr: Translator) -> list[list[dict[str, Any]]]:
    """Buttons whose labels show cards, lettered as :func:`lettered` (their data untouched)."""
    if not local_letters(tr):
        return rows
    return [[{**b, "text": lettered(str(b["text"]), tr)} for b in row] for row in rows]


def lettered_all(value: Any, tr: Translator) -> Any:
    """Every text in ``value`` (a Mini App frame: dicts, lists, strings) lettered as :func:`lettered`; card codes
    ("QH") and press data carry no suit sign and stay as they are."""
    if not local_letters(tr):
        return value
    if isinstance(value, str):
        return lettered(value, tr)
    if isinstance(value, list):
        return [lettered_all(v, tr) for v in value]
    if isinstance(value, dict):
        return {k: lettered_all(v, tr) for k, v in value.items()}
    return value


def faces(tr: Translator) -> str:
    """The face cards' letters the reader sees: "J Q K A", or his country's."""
    return tr.pgettext("card letters: jack, queen, king, ace", FACES) if local_letters(tr) else FACES


# A card's whole name, for screen readers («дама червей», "queen of hearts"): the Mini App composes it from these
# (``bot.webapp.view.page_texts``).
RANK_WORDS = [NP_("card name", "two"), NP_("card name", "three"), NP_("card name", "four"),
              NP_("card name", "five"), NP_("card name", "six"), NP_("card name", "seven"),
              NP_("card name", "eight"), NP_("card name", "nine"), NP_("card name", "ten"),
              NP_("card name", "jack"), NP_("card name", "queen"), NP_("card name", "king"), NP_("card name", "ace")]
SUIT_WORDS = [NP_("card name", "spades"), NP_("card name", "clubs"), NP_("card name", "diamonds"),
              NP_("card name", "hearts")]
CARD_NAME = NP_("card name", "{rank} of {suit}")


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
