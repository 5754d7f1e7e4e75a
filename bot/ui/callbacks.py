"""The callback-data codec: ``v1:<verb>:<game>:<seq>:<arg>``, at most 64 bytes.

Anyone can forge callback data, so a decoded press is only a request: the service checks
the presser, the message and the game. A hand button names an action (cover with 9♠, lead
these cards), never a moment: ``seq`` is 0 there, and the action is applied if it is legal when
pressed. Several cards go packed, one character each (:func:`pack`), so up to 40 fit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

MAX_BYTES = 64
_PATTERN = re.compile(r"v1:([a-zA-Z]):(\d{1,12}):(\d{1,9}):([0-9A-Za-z=_.,-]{0,40})")


class Verb(StrEnum):
    # lobby
    JOIN = "j"
    LEAVE = "l"
    SETTINGS = "s"
    OPTION = "o"       # arg: the option to cycle
    BACK = "b"
    START = "g"
    CANCEL = "x"
    REPLAY = "r"
    COMPUTER = "C"     # arg: a level: seat a computer of that level
    # game
    CARD = "c"         # arg: a card code: lead or throw in this card alone
    PICK = "f"         # arg: a card code: pick it for a several-card lead or throw-in (or put it back)
    COVER = "d"        # arg: a card code: cover with it (asks which card when it covers several)
    TARGET = "t"       # arg: card.target: cover target with card
    LEAD = "m"         # arg: packed cards: lead or throw in these cards
    TRANSFER = "v"     # arg: packed cards
    SHOW = "w"         # arg: a card code
    TAKE = "k"
    PASS = "p"
    ACCUSE = "a"       # arg: seat
    CHEAT = "h"        # toggle cheat mode of the next card press
    BACK_IN = "i"      # "I'm back": stop the computer playing for me
    KICK = "u"         # arg: the user id to remove from the lobby
    VOTE = "y"         # vote to stop the game
    LEAVE_YES = "z"    # the confirmation of Leave, a button of its own
    STAY = "q"         # "no, stay" after Leave
    TOP = "e"          # a leaderboard page: seq is the page, arg "c" (this chat) or "g" (global)
    NOOP = "n"         # a label button
    VARIANTS = "P"     # arg: a page of the lobby's game picker
    VARIANT = "V"      # arg: a preset id: play that game
    STOCK_LEAD = "L"   # армянский: lead the stock's top card
    DRAW = "D"         # вторая попытка: draw a card to cover
    SWAP = "W"         # покерный: arg: the two packed cards to swap; none: start or stop picking them
    COUNTER = "K"      # прибалтийский: arg: target.packed cover and cards of its rank
    PUZZLE = "Z"       # a puzzle: game and seq the move; arg the answer's index in its values, or "next"
    TOURNAMENT = "T"   # a tournament's message: game is the tournament; arg "j" (join) or "l" (leave)


_CARD_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # card value -> one char


def pack(cards: tuple[int, ...] | list[int]) -> str:
    return "".join(_CARD_CHARS[c] for c in cards)


def unpack(arg: str) -> tuple[int, ...]:
    """The cards of a packed arg; ValueError for a character that is no card."""
    cards = tuple(_CARD_CHARS.index(ch) for ch in arg)
    if not cards or any(not 8 <= c <= 59 for c in cards):
        raise ValueError(f"bad packed cards {arg!r}")
    return cards


@dataclass(frozen=True, slots=True)
class Press:
    verb: Verb
    game: int
    seq: int
    arg: str = ""


def encode(verb: Verb, game: int, seq: int, arg: str = "") -> str:
    data = f"v1:{verb.value}:{game}:{seq}:{arg}"
    if len(data.encode()) > MAX_BYTES or not _PATTERN.fullmatch(data):
        raise ValueError(f"callback data does not fit: {data!r}")
    return data


def decode(data: str | None) -> Press | None:
    """The press, or None for anything that is not exactly our format."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    match = _PATTERN.fullmatch(data)
    if match is None:
        return None
    verb, game, seq, arg = match.groups()
    try:
        return Press(Verb(verb), int(game), int(seq), arg)
    except ValueError:
        return None
