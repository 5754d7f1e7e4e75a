"""A result card: a finished game (or an evening) drawn as a PNG, to post under the result and to share.

Drawn with Pillow (matplotlib's own image library, already installed) in the Mini App's colours: the felt, white
cards with their red and black ink, the DejaVu fonts matplotlib ships (they hold Cyrillic and the suit signs).
720 pixels wide, so that a phone that shows it 320 wide still reads its smallest line at about 14 px.
"""

from __future__ import annotations

import importlib.util
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pillow is imported when a card is drawn: the bot starts without it (tests/bot/test_startup.py)
    from PIL import ImageDraw, ImageFont

WIDTH = 720
MARGIN = 40
FELT = (30, 107, 67)
FELT_DARK = (22, 82, 51)
INK = (245, 242, 230)
FAINT = (196, 222, 204)
GOLD = (242, 201, 76)
CARD = (255, 255, 255)
RED = (196, 34, 29)
BLACK = (27, 27, 27)


@cache
def _fonts() -> Path:
    """matplotlib's own fonts, found without importing matplotlib."""
    spec = importlib.util.find_spec("matplotlib")
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf"


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont
    return ImageFont.truetype(str(_fonts() / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


@dataclass(frozen=True, slots=True)
class Row:
    place: str           # "1", "2" … or a word ("Durak")
    name: str
    note: str = ""       # beside the name, fainter ("3 points")
    loser: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """A small table under the rows (an evening's score): its heading, its columns' names, a row per player."""

    heading: str
    columns: Sequence[str]
    rows: Sequence[tuple[str, Sequence[int]]]


@dataclass(frozen=True, slots=True)
class Card:
    """What a card shows: a title, its rows, the cards a durak was left with, an evening's score."""

    title: str
    subtitle: str
    rows: Sequence[Row]
    cards: Sequence[str] = ()                  # card codes ("QH", "10S") left in the durak's hand
    table: Table | None = None
    footer: str = ""


def plain(line: str) -> str:
    """A line without the emoji it starts with (the card's font has none)."""
    head, _, rest = line.partition(" ")
    return rest if rest and head and not any(ch.isalnum() for ch in head) else line


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, code: str) -> None:
    rank, suit = code[:-1], code[-1]
    sign = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(suit, suit)
    ink = RED if suit in "HD" else BLACK
    draw.rounded_rectangle((x, y, x + 64, y + 90), radius=8, fill=CARD, outline=(120, 120, 120), width=2)
    draw.text((x + 8, y + 4), rank, font=_font(28, bold=True), fill=ink)
    draw.text((x + 32, y + 62), sign, font=_font(30), fill=ink, anchor="mm")


def _table(pen: ImageDraw.ImageDraw, table: Table, y: int) -> int:
    """The table's heading, its columns' names and its rows, numbers right-aligned in columns of 120 px."""
    pen.text((MARGIN, y), _fit(pen, table.heading, _font(30, bold=True), WIDTH - 2 * MARGIN), font=_font(30, bold=True),
             fill=INK)
    y += 44
    right = [WIDTH - MARGIN - 130 * (len(table.columns) - 1 - i) for i in range(len(table.columns))]
    for x, name in zip(right, table.columns, strict=True):
        pen.text((x, y + 4), _fit(pen, name, _font(24), 124), font=_font(24), fill=FAINT, anchor="ra")
    y += 44
    for name, values in table.rows:
        pen.text((MARGIN, y), _fit(pen, name, _font(30), right[0] - 130 - MARGIN), font=_font(30), fill=INK)
        for x, value in zip(right, values, strict=True):
            pen.text((x, y), str(value), font=_font(30, bold=True), fill=INK, anchor="ra")
        y += 44
    return y


def draw(card: Card) -> bytes:
    """The card as PNG bytes."""
    from PIL import Image, ImageDraw
    rows_h = 58 * len(card.rows)
    cards_h = 110 if card.cards else 0
    score_h = 20 + 44 * (2 + len(card.table.rows)) if card.table else 0
    height = MARGIN + 60 + 44 + 24 + rows_h + cards_h + score_h + 60 + MARGIN
    image = Image.new("RGB", (WIDTH, height), FELT)
    pen = ImageDraw.Draw(image)
    pen.rounded_rectangle((12, 12, WIDTH - 12, height - 12), radius=28, outline=FELT_DARK, width=6)
    inner = WIDTH - 2 * MARGIN
    y = MARGIN
    pen.text((MARGIN, y), _fit(pen, card.title, _font(46, bold=True), inner), font=_font(46, bold=True), fill=INK)
    y += 60
    pen.text((MARGIN, y), _fit(pen, card.subtitle, _font(30), inner), font=_font(30), fill=FAINT)
    y += 44 + 24
    for row in card.rows:
        colour = GOLD if row.place == "1" else (INK if not row.loser else (255, 170, 160))
        pen.text((MARGIN, y), row.place, font=_font(38, bold=True), fill=colour)
        left = MARGIN + max(70, int(pen.textlength(row.place, font=_font(38, bold=True))) + 24)
        room = inner - (left - MARGIN) - (int(pen.textlength(row.note, font=_font(30))) + 24 if row.note else 0)
        name = _fit(pen, row.name, _font(38, bold=row.loser), room)
        pen.text((left, y), name, font=_font(38, bold=row.loser), fill=colour)
        if row.note:
            pen.text((WIDTH - MARGIN, y + 6), row.note, font=_font(30), fill=FAINT, anchor="ra")
        y += 58
    if card.cards:
        x = MARGIN
        for code in list(card.cards)[:9]:
            _card(pen, x, y + 8, code)
            x += 72
        y += cards_h
    if card.table:
        y += 20
        y = _table(pen, card.table, y)
    pen.text((WIDTH - MARGIN, height - MARGIN - 30), card.footer, font=_font(26), fill=FAINT, anchor="ra")
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
