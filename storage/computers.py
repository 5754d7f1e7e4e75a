"""A computer seat is stored as a user of its own, with a negative id that names its level and its number at
the table (-1011: the first easy one). Read here by whoever must tell a computer from a person."""

from __future__ import annotations

from durak.ai import LEVELS
from storage.models import User

MOST = 5  # computers of one level at a table
_BASE = 1000


def computer_id(level: str, k: int) -> int:
    return -(_BASE + 10 * (LEVELS.index(level) + 1) + k)


def level_of(user_id: int) -> str | None:
    """The level of a computer's user id; None for a person."""
    n = -user_id - _BASE
    if 0 < n < 100 and 1 <= n % 10 <= MOST and 1 <= n // 10 <= len(LEVELS):
        return LEVELS[n // 10 - 1]
    return None


def is_computer(user: User | int) -> bool:
    return level_of(user if isinstance(user, int) else user.id) is not None
