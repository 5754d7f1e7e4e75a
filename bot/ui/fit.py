"""How wide a button's label shows on a phone, and rows of buttons that fit a 320-px screen.

Telegram gives the buttons of a row equal widths and cuts a label that does not fit with "…". On a 320-px
phone a private chat's keyboard is about 270 px wide: two buttons a row show about 20 letters each, three
about 12, one alone about 41 (Roboto Medium at 15 px, 10 px of padding a button). An emoji shows about as
wide as two letters; a variation selector or a joiner takes no room.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from typing import TypeVar

FITS = {1: 41, 2: 20, 3: 12, 4: 9, 5: 7}  # letters a label shows whole in a row of that many buttons
MOST_PER_ROW = max(FITS)

T = TypeVar("T")


def width(label: str) -> int:
    """The label's width in letters, as a phone shows it."""
    total = 0
    for i, ch in enumerate(label):
        if unicodedata.category(ch) in ("Mn", "Me", "Cf") or 0xFE00 <= ord(ch) <= 0xFE0F:
            continue  # combining marks, joiners, variation selectors
        emoji = label[i + 1:i + 2] == "\uFE0F"  # ♠️: a symbol asked to show as an emoji
        total += 2 if emoji or ord(ch) >= 0x1F000 or unicodedata.east_asian_width(ch) == "W" else 1
    return total


def fits(label: str, in_row: int) -> bool:
    """Whether ``label`` shows whole in a row of ``in_row`` buttons."""
    return width(label) <= FITS.get(in_row, 0)


def rows(buttons: Sequence[T], label: Callable[[T], str], most: int = MOST_PER_ROW) -> list[list[T]]:
    """The buttons in order, as many to a row (up to ``most``) as let every label of the row show whole."""
    laid: list[list[T]] = []
    for button in buttons:
        row = laid[-1] if laid else None
        if row is not None and len(row) < most and all(fits(label(b), len(row) + 1) for b in (*row, button)):
            row.append(button)
        else:
            laid.append([button])
    return laid
