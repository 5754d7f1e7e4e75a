"""A message's slot in its game, as stored with what it owes: ``table``, ``result``, ``vote``, or one seat's
``hand:<seat>`` or ``ping:<seat>``. Written and read here only, by the bot and by storage alike."""

from __future__ import annotations

_HAND, _PING = "hand:", "ping:"


def hand_slot(seat: int) -> str:
    return f"{_HAND}{seat}"


def ping_slot(seat: int) -> str:
    return f"{_PING}{seat}"


def hand_seat(slot: str) -> int | None:
    """The seat whose hand the slot holds; None for any other slot."""
    return int(slot[len(_HAND):]) if slot.startswith(_HAND) else None


def is_ping(slot: str) -> bool:
    return slot.startswith(_PING)
