"""Rows as typed values. A game's rules and state are the engine's own types."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

from durak import Rules, State
from durak.actions import Action
from durak.setup import Previous
from storage.slots import Slot

DEFAULT_TURN_SECONDS = 60  # a move's time limit unless the lobby or the chat set another
GOAL_MAX = 50              # the longest evening a goal may ask for (in games or in duraks)

class Status(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Aim(StrEnum):
    DURAK = "durak"   # until somebody has been the durak so many times
    GAMES = "games"   # so many games


@dataclass(frozen=True, slots=True)
class Goal:
    """What an evening is played to (/series), as a game row keeps it (``games.goal``)."""

    aim: Aim
    n: int

    def text(self) -> str:
        return f"{self.aim.value}:{self.n}"

    @staticmethod
    def parse(text: str) -> Goal | None:
        """A stored goal ('durak:5'); None for none, or for anything unreadable (an evening without a goal)."""
        match = re.fullmatch(r"(durak|games):([0-9]{1,3})", text)
        if match is None or not 1 <= int(match[2]) <= GOAL_MAX:
            return None
        return Goal(Aim(match[1]), int(match[2]))


@dataclass(frozen=True, slots=True)
class User:
    id: int
    name: str
    username: str | None = None
    language: str | None = None
    private_chat: bool = False
    telegram_language: str | None = None
    hidden: bool = False
    notify: bool = True          # turn pings in the private chat
    letters: bool = False        # the face cards in his language's letters (В Д К Т), not J Q K A


@dataclass(frozen=True, slots=True)
class NewLobby:
    """What a lobby is opened with (``Repo.create_lobby``): the creator (and, for a rematch, the other players)
    seated in this order."""

    chat_id: int
    thread_id: int
    creator: User
    rules: Rules
    max_players: int
    previous: Previous | None = None
    players: Sequence[User] = ()
    turn_timeout: int = DEFAULT_TURN_SECONDS
    title: str = ""
    goal: str = ""                # what the evening is played to (/series; bot.stats.evening.Goal)
    tournament: int | None = None  # a table of this tournament


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat of a finished game."""

    seat: int
    user_id: int
    place: int | None       # 1 = first out; None for the durak
    rank: int               # for ratings: 1 = best, ties share
    loser: bool
    draw: bool
    pogony: bool
    left: bool              # left the game (a loss whatever the computer made of the seat)
    away: bool              # the computer was playing the seat at the end
    penalty: int            # the penalty scoring's points
    team: int | None


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    scope: int              # a chat id, or 0 for the global rating
    user_id: int
    mu: float
    sigma: float
    ordinal: float
    # the rating this one was moved from, as read (None: he had none in this scope): written only if it is still
    # the stored one, so that two games ending at once in two processes never lose a move (Repo.save_game)
    before: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game from one player's side, for stats."""

    game_id: int
    chat_id: int
    finished_at: float
    players: int
    place: int | None
    rank: int
    loser: bool
    draw: bool
    pogony: bool
    left: bool
    penalty: int
    gave_pogony: bool
    seated: tuple[int, ...] = ()   # every user at that table (computers included)


@dataclass(frozen=True, slots=True)
class LastGame:
    """A table's last finished game, as the next one needs it to know whether the evening goes on."""

    game_id: int
    series: int | None
    goal: str
    finished_at: float
    seated: frozenset[int]


@dataclass(frozen=True, slots=True)
class SeasonPlace:
    """A player's line in a closed season's final table."""

    chat_id: int
    season: str
    user_id: int
    place: int
    games: int
    points: int
    firsts: int
    duraks: int


class TournamentStatus(StrEnum):
    OPEN = "open"         # players join, tables are seated
    CLOSING = "closing"   # its time is up: no new table, the last ones finish
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    chat_id: int
    thread_id: int
    creator_id: int
    rules: Rules
    turn_timeout: int
    computers: bool
    title: str
    started_at: float
    ends_at: float
    status: TournamentStatus
    topics: bool = False  # its tables play in forum topics of their own (storage/migrations/019)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A tournament's player: his points so far (``streak``: first places in a row)."""

    user: User
    joined_at: float
    free_since: float
    left: bool
    points: int
    games: int
    firsts: int
    streak: int


@dataclass(frozen=True, slots=True)
class Scored:
    """What one table's end gives a player of its tournament."""

    tournament: int
    user_id: int
    points: int
    first: bool
    streak: int


class Away(IntEnum):
    """Who plays a seat: its owner, or the computer (and why)."""

    PLAYING = 0
    AWAY = 1         # missed two turns in a row; "I'm back" returns
    LEFT = 2         # left the game: the computer plays to the end, a loss in stats
    UNREACHABLE = 3  # the bot cannot write to the player (blocked); "I'm back" returns


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    user: User
    message_id: int | None = None
    missed: int = 0
    away: Away = Away.PLAYING


@dataclass(frozen=True, slots=True)
class ChatSettings:
    id: int
    language: str | None = None
    rules: Rules | None = None
    max_players: int | None = None
    scoring: str = "rating"
    turn_timeout: int | None = None
    letters: bool = False        # its table's face cards in its language's letters
    season: str = "month"        # how long its seasons run (bot.stats.seasons.Length)
    pictures: bool = False       # a result card (a picture) under each result
    tournaments_open: bool = False  # anyone may open a tournament here, not only its admins (the admins' leave)


@dataclass(frozen=True, slots=True)
class Game:
    id: int
    chat_id: int
    thread_id: int
    status: Status
    creator_id: int
    rules: Rules
    max_players: int
    state: State | None
    version: int
    message_id: int | None
    seats: tuple[Seat, ...] = ()
    log: tuple[dict[str, Any], ...] = ()  # the last events, as stored by the bot
    previous: Previous | None = None
    updated_at: float = 0.0
    turn_timeout: int = DEFAULT_TURN_SECONDS  # seconds for a move; 0 = no timer
    deadline: float | None = None   # when the awaited move times out
    title: str = ""                 # the group's title when the game opened ("" in a private chat)
    deal: State | None = None       # the state before the first move (games since migration 010)
    moves: tuple[tuple[int, Action], ...] = ()  # (seat, action) of every move in order, from the deal
    auto: frozenset[int] = frozenset()  # indexes of the moves made for their seat (timer, absence, the only move)
    goal: str = ""                  # the evening it opens or plays in is played to this (bot.stats.evening.Goal)
    series: int | None = None       # the first game of its evening, once it is finished
    tournament: int | None = None   # the tournament it is a table of

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user.id == user_id), None)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A finished game as its player's history lists it: where, when, how it ended for him, its review (JSON)."""

    game_id: int
    chat_id: int
    title: str
    finished_at: float
    recorded: bool          # it kept its moves (games since migration 010): it can be reviewed
    seat: int
    loser: bool
    draw: bool
    review: str | None


@dataclass(frozen=True, slots=True)
class Owed:
    """A message the bot owes Telegram: the content one slot of a game should show."""

    chat_id: int
    slot: Slot                   # which of the game's messages (storage.slots)
    text: str | None             # None with ``deleted``: the message is to go
    markup: str | None = None    # the inline keyboard as Bot API JSON
    thread_id: int = 0
    deleted: bool = False
    resend: bool = False         # post it anew at the bottom of the chat (and delete the old one)
    lazy: bool = False           # not stored: it may wait a moment, so that quick moves make one edit


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """One slot's row: what it should show, and what Telegram shows."""

    id: int
    game_id: int | None
    slot: Slot
    chat_id: int
    thread_id: int
    text: str | None
    markup: str | None
    deleted: bool
    resend: bool
    wanted: int
    delivered: int
    message_id: int | None
    home: int = 0  # the chat whose partition delivers it: its game's chat (storage.partitions)
