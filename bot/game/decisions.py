"""What a press or command means: a toast for the presser and, if it changes anything, an intent."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from durak import Action


class Kind(Enum):
    # lobby
    JOIN = "join"
    LEAVE = "leave"
    SETTINGS = "settings"
    BACK = "back"
    OPTION = "option"
    TIMER = "timer"
    KICK = "kick"
    START = "start"
    CANCEL = "cancel"
    ADD_COMPUTER = "add_computer"  # arg: the level
    PICKER = "picker"        # arg: the page of games to show
    VARIANT = "variant"      # arg: the preset to play
    # a game
    PLAY = "play"
    SELECT = "select"        # a card chosen to cover with (or put back)
    PICK = "pick"            # the cards picked for a several-card lead or throw-in (packed in arg)
    CHEAT = "cheat"          # the next card is a cheat (or not)
    SWAPPING = "swapping"    # покерный: start or stop picking two cards to swap
    BACK_IN = "back_in"      # "I'm back"
    LEAVE_ASK = "leave_ask"  # Leave pressed: ask to confirm
    STAY = "stay"            # the confirmation answered no
    LEAVE_GAME = "leave_game"
    VOTE = "vote"


@dataclass(frozen=True, slots=True)
class Intent:
    kind: Kind
    seat: int | None = None
    action: Action | None = None
    arg: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    toast: str | None = None
    url: str | None = None
    intent: Intent | None = None


class Closing(StrEnum):
    """Why a lobby or a game ended without a result (its last words on the table say so)."""

    CANCELLED = "cancelled"      # the creator or an admin cancelled it
    EXPIRED = "expired"          # the lobby's time ran out
    LOBBY_EMPTY = "lobby_empty"  # everybody left the lobby
    REFUSED = "refused"          # Telegram refused to post the table
    STOPPED = "stopped"          # the creator or an admin stopped the game
    VOTED = "voted"              # the players voted to stop it
