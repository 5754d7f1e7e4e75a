"""The table's rules: every option of docs/rules.md, the four presets, and their validation.

``Rules.from_dict({"preset": "perevodnoy", "draw": False})`` applies the preset first and
then the other fields; an unknown option or value raises :class:`RulesError` naming it.
"""

from __future__ import annotations

import dataclasses
import functools
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


class Deal(StrEnum):
    STANDARD = "standard"
    WHOLE_DECK = "whole_deck"      # наваленный: the whole deck is dealt, no stock


class StockMode(StrEnum):
    KEPT = "kept"
    REMOVED = "removed"            # чукотский: the stock is set aside after the deal
    SORTED = "sorted"              # албанский: the stock is sorted, aces on top


class TrumpSuit(StrEnum):
    TURNED = "turned"              # the turned card decides (docs/rules.md §2)
    NONE = "none"
    S = "S"
    C = "C"
    D = "D"
    H = "H"


class Royal(StrEnum):
    OFF = "off"
    ROYAL = "royal"                # королевский: the lowest rank falls only to an ace, and covers its ace
    ACES = "aces"                  # тузовый: the lowest rank falls only to an ace


class Lead(StrEnum):
    SAME_RANK = "same_rank"
    WHOLE_RANK = "whole_rank"      # бесподкидной: all one's cards of a rank
    HIGHEST = "highest"            # занудный: the highest rank in hand
    THREE = "three"                # трёшка: three cards of any ranks
    PAIRS = "pairs"                # с пар
    GROUPS = "groups"              # с групп


class Refill(StrEnum):
    TO_HAND_SIZE = "to_hand_size"
    WHEN_EMPTY = "when_empty"      # пустой: only an empty hand draws


class PogonyRule(StrEnum):
    SIXES = "sixes"
    TWO_SIXES = "two_sixes"        # exactly two sixes
    OFF = "off"


class Ranking(StrEnum):
    ORDER = "order"                # the order players went out (docs/rules.md §6)
    BEATEN = "beaten"              # очковый: cards covered
    FIGURES = "figures"            # фигурный: 10s to aces covered
    POGONY = "pogony"              # погонный: pogony hung on the attackers' victims


SUIT_OPTIONS = ("S", "C", "D", "H")


class RulesError(ValueError):
    """An option that does not exist, has a bad value, or does not fit the table."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option


_PEREVODNOY: dict[str, Any] = {"transfer": True, "transfer_show_trump": True}

# docs/rules.md §9, then docs/variants.md §5: a preset is a name plus option values over podkidnoy.
PRESETS: dict[str, dict[str, Any]] = {
    "podkidnoy": {},
    "perevodnoy": _PEREVODNOY,
    "simple": {"throw_in": ThrowIn.OFF, "lead_max": 2},
    "do_zavala": {"after_take_unlimited": True},
    "no_trump": {"trump_suit": TrumpSuit.NONE},
    "japanese": {"special_suit": "S"},
    "suitless": {"suitless": True},
    "royal": {"royal": Royal.ROYAL},
    "piled": {"deal": Deal.WHOLE_DECK},
    "chukchi": {"stock_mode": StockMode.REMOVED},
    "empty_hand": {"refill": Refill.WHEN_EMPTY},
    "albanian": {"stock_mode": StockMode.SORTED},
    "invisible": {"trump_card_hidden": True},
    "threes": {"lead": Lead.THREE},
    "tedious": {"lead": Lead.HIGHEST},
    "no_throw_in": {**_PEREVODNOY, "throw_in": ThrowIn.OFF, "lead": Lead.WHOLE_RANK},
    "kind": {"taker_attacks": True},
    "circular": {"rotate_hands": True},
    "points": {"ranking": Ranking.BEATEN},
    "figures": {"ranking": Ranking.FIGURES},
    "pogony_race": {"ranking": Ranking.POGONY},
    "pairs": {"hand_size": 5, "lead": Lead.PAIRS},
    "groups": {"hand_size": 5, "lead": Lead.GROUPS},
    "perevodnoy_2": {**_PEREVODNOY, "transfer_after_cover": True},
    "recycled": {"recycle_discard": True},
    "trump_swap": {"trump_swap": True},
    "armenian": {"stock_lead": True},
    "secret_trump": {"secret_trump": True},
    "perevodnoy_3": {**_PEREVODNOY, "transfer_beat_only_new": True},
    "american": {"self_throw_in": True},
    "second_try": {"draw_to_cover": True},
    "poker": {"poker_swap": True},
    "baltic": {"counter_attack": True},
    "two_trumps": {"two_trumps": True},
}
CLASSIC_PRESETS = ("podkidnoy", "perevodnoy", "simple", "do_zavala")  # docs/rules.md §9

TEAM_SIZES = {Teams.TWO_BY_TWO: 4, Teams.THREE_BY_THREE: 6}


@dataclass(frozen=True, slots=True)
class Rules:
    """One table's rules; the defaults are docs/rules.md's (podkidnoy, 36 cards)."""

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
    # docs/variants.md §2: every default is docs/rules.md's own rule
    deal: Deal = Deal.STANDARD
    redeal_same_suit: int | None = None
    stock_mode: StockMode = StockMode.KEPT
    trump_suit: TrumpSuit = TrumpSuit.TURNED
    special_suit: str | None = None
    trump_card_hidden: bool = False
    suitless: bool = False
    royal: Royal = Royal.OFF
    lead: Lead = Lead.SAME_RANK
    transfer_trump_on_table: bool = True
    transfer_after_cover: bool = False
    recycle_discard: bool = False
    trump_swap: bool = False
    secret_trump: bool = False
    two_trumps: bool = False
    stock_lead: bool = False
    transfer_beat_only_new: bool = False
    self_throw_in: bool = False
    counter_attack: bool = False
    draw_to_cover: bool = False
    poker_swap: bool = False
    taker_attacks: bool = False
    rotate_hands: bool = False
    refill: Refill = Refill.TO_HAND_SIZE
    pogony_rule: PogonyRule = PogonyRule.SIXES
    ranking: Ranking = Ranking.ORDER

    def __reduce__(self) -> tuple[type[Rules], tuple[object, ...]]:
        """Pickled as its fields (a computer's knowledge goes to the thinking process): compiled with mypyc,
        the class refuses pickle's default way back, which sets each frozen field in turn."""
        return Rules, tuple(getattr(self, f.name) for f in dataclasses.fields(self))


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
        return dict(_as_dict(self))  # a copy: the caller may change it

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
        _refuse_combinations(self)
        if self.max_players() < 2:
            raise RulesError("hand_size", f"not even two hands of {self.hand_size} fit a deck of {self.deck_size}")

    def max_players(self) -> int:
        if self.two_trumps:
            return 2  # двухкозырной: exactly two players
        reserve = 2 if self.secret_trump else 0  # the face-up card and the secret card
        return min(8, (self.deck_size - reserve) // self.hand_size)

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


def _refuse_combinations(r: Rules) -> None:
    """docs/variants.md §3: the combinations without a clear meaning."""
    def refuse(option: str, other: str) -> None:
        raise RulesError(option, f"cannot be combined with {other}")

    if r.deal is Deal.WHOLE_DECK:
        if r.redeal_same_suit is not None:
            refuse("deal", "redeal_same_suit")
        if r.two_trumps:
            refuse("deal", "two_trumps")
        if r.stock_mode is not StockMode.KEPT:
            refuse("deal", "stock_mode")
        for option in _STOCK_OPTIONS:
            if _is_set(r, option):
                refuse("deal", option)
    if r.stock_mode is StockMode.REMOVED:
        for option in _STOCK_OPTIONS:
            if _is_set(r, option):
                refuse("stock_mode", option)
    if r.trump_suit is not TrumpSuit.TURNED:
        for option in ("trump_card_hidden", "trump_swap", "secret_trump", "two_trumps"):  # no face-up card
            if _is_set(r, option):
                refuse("trump_suit", option)
    if r.special_suit is not None:
        if r.special_suit not in SUIT_OPTIONS:
            raise RulesError("special_suit", f"unknown value {r.special_suit!r} (one of S, C, D, H or null)")
        if r.trump_suit.value == r.special_suit:
            refuse("special_suit", "trump_suit of the same suit")
        if r.suitless:
            refuse("special_suit", "suitless")
        if r.royal is not Royal.OFF:
            refuse("special_suit", "royal")
        for option in ("trump_swap", "secret_trump", "two_trumps"):
            if _is_set(r, option):
                refuse("special_suit", option)
    if r.suitless and r.royal is not Royal.OFF:
        refuse("suitless", "royal")
    if r.two_trumps:
        if r.suitless:
            refuse("suitless", "two_trumps")
        if r.royal is not Royal.OFF:
            refuse("royal", "two_trumps")
        for option in ("teams", "secret_trump", "trump_swap", "trump_card_hidden"):
            if _is_set(r, option):
                refuse("two_trumps", option)
        if r.deck_size < 2 * r.hand_size + 2:
            raise RulesError("two_trumps", f"needs a deck of at least {2 * r.hand_size + 2} cards")
    if r.lead in (Lead.THREE, Lead.PAIRS, Lead.GROUPS) and r.lead_max is not None:
        refuse("lead", "lead_max")
    if r.ranking is not Ranking.ORDER and r.teams is not Teams.NONE:
        refuse("ranking", "teams")
    if r.secret_trump and r.trump_swap:
        refuse("secret_trump", "trump_swap")
    if r.stock_lead and r.lead is not Lead.SAME_RANK:
        refuse("stock_lead", "lead")
    if r.self_throw_in and r.transfer_after_cover:
        refuse("self_throw_in", "transfer_after_cover")

    if r.redeal_same_suit is not None:
        if r.redeal_same_suit not in (5, 6):
            raise RulesError("redeal_same_suit", "must be 5, 6 or null")
        if r.redeal_same_suit > r.hand_size:
            raise RulesError("redeal_same_suit", f"{r.redeal_same_suit} is more than a hand of {r.hand_size}")


# options that need a stock: refused with no stock (docs/variants.md §3)
_STOCK_OPTIONS = ("refill", "trump_card_hidden", "recycle_discard", "trump_swap", "secret_trump", "stock_lead",
                  "draw_to_cover", "poker_swap")


def _is_set(r: Rules, option: str) -> bool:
    return bool(getattr(r, option) != _DEFAULTS[option])


_ENUMS: dict[str, type[StrEnum]] = {
    "throw_in": ThrowIn, "teams": Teams, "first_attacker": FirstAttacker,
    "deal": Deal, "stock_mode": StockMode, "trump_suit": TrumpSuit, "royal": Royal, "lead": Lead,
    "refill": Refill, "pogony_rule": PogonyRule, "ranking": Ranking,
}
_BOOLS = {"after_take_unlimited", "transfer", "transfer_first_bout", "transfer_show_trump",
          "transfer_last_card", "draw", "cheating", "trump_card_hidden", "suitless",
          "transfer_trump_on_table", "taker_attacks", "rotate_hands", "transfer_after_cover", "recycle_discard",
          "trump_swap", "secret_trump", "stock_lead", "transfer_beat_only_new", "self_throw_in", "counter_attack",
          "draw_to_cover", "poker_swap", "two_trumps"}
_INTS = {"deck_size", "hand_size", "bout_limit", "first_bout_limit"}
_NULLABLE = {"lead_max", "redeal_same_suit", "special_suit"}
_FIELDS = _BOOLS | _INTS | set(_ENUMS) | _NULLABLE
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Rules)}


def _coerce(name: str, value: Any) -> Any:
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(name, f"must be true or false, not {value!r}")
        return value
    if name == "special_suit":
        if value is not None and value not in SUIT_OPTIONS:
            raise RulesError(name, f"unknown value {value!r} (one of S, C, D, H or null)")
        return value
    if name in _INTS or name in _NULLABLE:
        if value is None and name in _NULLABLE:
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


@functools.lru_cache(maxsize=256)
def _as_dict(rules: Rules) -> dict[str, Any]:
    """A game's rules are written with its state at every move: worked out once per set of rules."""
    return {f.name: _plain(getattr(rules, f.name)) for f in dataclasses.fields(rules)}


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value
