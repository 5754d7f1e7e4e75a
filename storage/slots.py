"""A message's slot: which of a game's messages a row of the outbox holds. Written and read here only, by the bot
and by storage alike; stored as text (``table``, ``hand:2``, ``note:kicked:101``) and parsed back when read."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    TABLE = "table"    # the group's lobby, then its table
    RESULT = "result"  # the group's result message
    HAND = "hand"      # a seat's hand, in his private chat
    PING = "ping"      # a seat's "your turn" ping, deleted once he moved
    VOTE = "vote"      # a vote to stop the game (its number in the game)
    REVIEW = "review"  # a seat's review announced in private
    NOTE = "note"      # a one-off notice (kicked, unreachable, a lobby refused), named by what it is about
    PICTURE = "picture"  # a picture drawn when it is sent (a result card), named by what it shows: result:12
    OTHER = ""         # read back, of a kind this version does not know: its message is still delivered


@dataclass(frozen=True, slots=True)
class Slot:
    kind: Kind
    key: str = ""  # the seat of a hand, ping or review; the vote's number; the note's name

    def __str__(self) -> str:
        if self.kind is Kind.OTHER:
            return self.key
        return f"{self.kind.value}:{self.key}" if self.key else self.kind.value

    @classmethod
    def parse(cls, text: str) -> Slot:
        """The slot a stored text names; one this version does not know is kept as it is (``OTHER``: its
        message is still delivered, and nothing takes it for a hand or a table)."""
        kind, _, key = text.partition(":")
        if kind not in _KINDS or (kind in _SEATED and not key.isdigit()):
            return cls(Kind.OTHER, text)
        return cls(Kind(kind), key)

    @property
    def seat(self) -> int | None:
        """The seat whose hand, ping or review the slot holds; None for any other slot."""
        return int(self.key) if self.kind in (Kind.HAND, Kind.PING, Kind.REVIEW) else None


_KINDS = frozenset(kind.value for kind in Kind if kind is not Kind.OTHER)
_SEATED = frozenset({Kind.HAND.value, Kind.PING.value, Kind.REVIEW.value})
TABLE = Slot(Kind.TABLE)
RESULT = Slot(Kind.RESULT)


def hand_slot(seat: int) -> Slot:
    return Slot(Kind.HAND, str(seat))


def ping_slot(seat: int) -> Slot:
    return Slot(Kind.PING, str(seat))


def review_slot(seat: int) -> Slot:
    return Slot(Kind.REVIEW, str(seat))


def vote_slot(number: int) -> Slot:
    return Slot(Kind.VOTE, str(number))


def note_slot(*about: object) -> Slot:
    """A notice's slot, named by what it is about (``note_slot("kicked", user_id)``): one message per name."""
    return Slot(Kind.NOTE, ":".join(str(part) for part in about))


def picture_slot(*about: object) -> Slot:
    """A picture's slot (``picture_slot("result", game_id)``): its row's text is its caption."""
    return Slot(Kind.PICTURE, ":".join(str(part) for part in about))


def is_ping(slot: Slot) -> bool:
    return slot.kind is Kind.PING


def hand_seat(slot: Slot) -> int | None:
    """The seat whose hand the slot holds; None for any other slot."""
    return slot.seat if slot.kind is Kind.HAND else None
