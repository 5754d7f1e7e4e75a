"""What the repository's aggregates share: the database and the clock, the failures a read or a write reports,
and the encodings of the values more than one of them stores (rules, users).

The repository is one class per aggregate, each with its own SQL: ``storage.outbox_rows`` (the messages owed to
Telegram, and this process's cache of them), ``storage.game_rows`` (games with their seats, moves and log),
``storage.people`` (users and chats), ``storage.review_rows`` (reviews and /history), ``storage.stat_rows``
(ratings, results, panels); ``storage.repo.Repo`` is all of them at once. The rest of the SQL: ``storage.updates``
(Telegram's updates), ``storage.partitions`` (the leases), ``storage.schema`` (the tables and their migrations)
and the engines, ``storage.sqlite`` and ``storage.postgres``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import lru_cache

from durak import Rules
from storage.database import Database, SqlRow
from storage.models import User


class CorruptRow(Exception):
    """A stored row that cannot be read back; the message names the row."""


class Conflict(Exception):
    """A write that lost a race: the game changed since it was read, or the topic has a game."""


class RatingsMoved(Conflict):
    """A finishing game's ratings were moved by another game since they were read: decide again on the new ones."""


class Rows:
    """An aggregate's rows: the database they are in, and the clock their times are written by."""

    def __init__(self, db: Database, now: Callable[[], float] = time.time) -> None:
        self.db = db
        self.now = now  # the service's clock, so stored times and timers agree


@lru_cache(maxsize=256)
def rules_json(rules: Rules) -> str:
    """Rules as stored: every move of a game writes the same rules, so they are encoded once."""
    return json.dumps(rules.to_dict())


def user_of(row: SqlRow) -> User:
    return User(row["id"], row["name"], row["username"], row["language"], bool(row["private_chat"]),
                row["telegram_language"], bool(row["hidden"]), bool(row["notify"]), bool(row["letters"]))
