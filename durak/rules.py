"""The table's rules: every option of RULES.md, the four presets, and their validation.

``Rules.from_dict({"preset": "perevodnoy", "draw": False})`` applies the preset first and
then the other fields; an unknown option or value raises :class:`RulesError` naming it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from durak.cards import LOWEST_RANK


class ThrowIn(StrEnum):
    ALL = "all"
    NEIGHBOURS = "neighbours"
    ATTACKER = "attacker"
    OFF = "off"


class Teams(StrEnum):
    NONE = "none"
    TWO_BY_TWO = "2x2"
    THREE_BY_THREE = "3x3"


class FirstAttacker(StrEnum):
    AFTER_FOOL = "after_fool"
    BEFORE_FOOL = "before_fool"
    WINNER = "winner"
    LOWEST_TRUMP = "lowest_trump"


class RulesError(ValueError):
    """An option that does not exist, has a bad value, or does not fit the table."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option


PRESETS: dict[str, dict[str, Any]] = {
    "podkidnoy": {},
    "perevodnoy": {"transfer": True, "transfer_show_trump": True},
    "simple": {"throw_in": ThrowIn.OFF, "lead_max": 2},
    "do_zavala": {"after_take_unlimited": True},
}

TEAM_SIZES = {Teams.TWO_BY_TWO: 4, Teams.THREE_BY_THREE: 6}


@dataclass(frozen=True, slots=True)
class Rules:
    """One table's rules; the defaults are RULES.md's (podkidnoy, 36 cards)."""

    preset: str = "podkidnoy"
    deck_size: int = 36
    hand_size: int = 6
    lead_max: int | None = None
    throw_in: ThrowIn = ThrowIn.ALL
    bout_limit: int = 6
    first_bout_limit: int = 5
    after_take_unlimited: bool = False
    transfer: bool = False
    transfer_first_bout: bool = False
    transfer_show_trump: bool = True
    transfer_last_card: bool = False
    draw: bool = True
    teams: Teams = Teams.NONE
    cheating: bool = False
    first_attacker: FirstAttacker = FirstAttacker.AFTER_FOOL

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from ``{"preset": ..., option: value}``: the preset first, then the overrides."""
        if not isinstance(data, dict):
            raise RulesError("rules", "must be an object of options")
        preset = data.get("preset", "podkidnoy")
        if preset not in PRESETS:
            raise RulesError("preset", f"unknown preset {preset!r} (one of {', '.join(PRESETS)})")
        values: dict[str, Any] = {"preset": preset, **PRESETS[preset]}
        for name, value in data.items():
            if name == "preset":
                continue
            if name not in _FIELDS:
                raise RulesError(name, "unknown option")
            values[name] = _coerce(name, value)
        rules = cls(**values)
        rules.validate()
        return rules

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed, validated like :meth:`from_dict`."""
        return Rules.from_dict({**self.to_dict(), **changes})

    def validate(self) -> None:
        if self.deck_size not in LOWEST_RANK:
            raise RulesError("deck_size", "must be 24, 36 or 52")
        if not 1 <= self.hand_size <= 12:
            raise RulesError("hand_size", "must be 1..12")
        if self.lead_max is not None and self.lead_max < 1:
            raise RulesError("lead_max", "must be at least 1 or null")
        if self.bout_limit < 1:
            raise RulesError("bout_limit", "must be at least 1")
        if self.first_bout_limit < 1:
            raise RulesError("first_bout_limit", "must be at least 1")

    def max_players(self) -> int:
        return min(8, self.deck_size // self.hand_size)

    def check_players(self, players: int) -> None:
        """Refuse a number of players that does not fit the deck or the teams."""
        if players < 2:
            raise RulesError("players", "at least 2 players are needed")
        if players > self.max_players():
            raise RulesError(
                "players",
                f"{players} players do not fit a deck of {self.deck_size} "
                f"with {self.hand_size} cards each (at most {self.max_players()})",
            )
        if self.teams is not Teams.NONE and players != TEAM_SIZES[self.teams]:
            raise RulesError(
                "teams", f"teams {self.teams} need exactly {TEAM_SIZES[self.teams]} players, not {players}"
            )

    def team_of(self, seat: int) -> int | None:
        """Partners sit alternately: seats 0, 2, 4 are team 0 and 1, 3, 5 team 1."""
        return None if self.teams is Teams.NONE else seat % 2


_ENUMS: dict[str, type[StrEnum]] = {
    "throw_in": ThrowIn, "teams": Teams, "first_attacker": FirstAttacker,
}
_BOOLS = {"after_take_unlimited", "transfer", "transfer_first_bout", "transfer_show_trump",
          "transfer_last_card", "draw", "cheating"}
_INTS = {"deck_size", "hand_size", "bout_limit", "first_bout_limit"}
_FIELDS = _BOOLS | _INTS | set(_ENUMS) | {"lead_max"}


def _coerce(name: str, value: Any) -> Any:
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(name, f"must be true or false, not {value!r}")
        return value
    if name in _INTS or name == "lead_max":
        if value is None and name == "lead_max":
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(name, f"must be a whole number, not {value!r}")
        return value
    enum = _ENUMS[name]
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(e.value for e in enum)
        raise RulesError(name, f"unknown value {value!r} (one of {choices})") from None


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value
