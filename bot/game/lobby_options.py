"""The lobby's Settings buttons: each press moves an option to its next value that fits."""

from __future__ import annotations

from durak import Rules, RulesError
from durak.rules import PRESETS, TEAM_SIZES, Teams, ThrowIn

DECKS = (24, 36, 52)
OPTIONS_ORDER = ("preset", "deck", "players", "throw_in", "transfer", "draw", "cheating", "teams", "redeal", "pogony")
REDEALS = ("off", "5", "6")   # пересдача: a hand of this many cards of one suit is dealt again
POGONY = ("sixes", "two_sixes", "off")
MAX_TABLE = 6  # the bot seats at most six: a bigger group table is no fun to wait for


def table_max(rules: Rules) -> int:
    """Seats the lobby offers: a team game's exact size, else as many as the deck allows, up to six."""
    return TEAM_SIZES[rules.teams] if rules.teams is not Teams.NONE else min(MAX_TABLE, rules.max_players())


def fits(rules: Rules, seated: int) -> bool:
    return seated <= table_max(rules) <= rules.max_players()


def with_preset(rules: Rules, preset: str, max_players: int, seated: int) -> tuple[Rules, int]:
    """The rules of another game, keeping the deck, cheating, draws and teams where the game allows them;
    raises RulesError if the game does not fit the seated players."""
    new = _as_preset(rules, preset)
    if new is None or not fits(new, seated):
        raise RulesError("preset", "does not fit the seated players")
    return new, table_max(new) if new.teams is not Teams.NONE else min(max(max_players, seated), table_max(new))


def _as_preset(rules: Rules, preset: str) -> Rules | None:
    keep = {"deck_size": rules.deck_size, "teams": rules.teams.value, "cheating": rules.cheating, "draw": rules.draw,
            "redeal_same_suit": rules.redeal_same_suit, "pogony_rule": rules.pogony_rule.value}
    extras = ("redeal_same_suit", "pogony_rule")  # the seed options, kept where the game takes them
    # a score ranking has no teams; a deck may not fit
    for dropped in ((), extras, (*extras, "teams"), (*extras, "teams", "deck_size")):
        try:
            return Rules.from_dict({"preset": preset, **{k: v for k, v in keep.items() if k not in dropped}})
        except RulesError:
            continue
    return None


def _after(values: list[str], current: str) -> list[str]:
    """The other values in cycling order, starting after ``current``."""
    i = values.index(current)
    return values[i + 1:] + values[:i]


def _valid(rules: Rules, changes: list[dict[str, object]]) -> list[Rules]:
    """The rules with each change the game takes (a whole deck dealt has no redeal, say)."""
    found = []
    for change in changes:
        try:
            found.append(rules.replace(**change))
        except RulesError:
            continue
    return found


def cycle(option: str, rules: Rules, max_players: int, seated: int) -> tuple[Rules, int]:
    """The rules and seat count after one press of ``option``; raises RulesError if nothing fits."""
    if option == "players":
        sizes = list(range(max(2, seated), table_max(rules) + 1))
        later = [n for n in sizes if n > max_players]
        return rules, (later or sizes)[0]
    if option in ("transfer", "draw", "cheating"):
        candidates = [rules.replace(**{option: not getattr(rules, option)})]
    elif option == "preset":
        candidates = [r for p in _after(list(PRESETS), rules.preset) if (r := _as_preset(rules, p)) is not None]
    elif option == "deck":
        decks = [str(d) for d in DECKS]
        candidates = [rules.replace(deck_size=int(d)) for d in _after(decks, str(rules.deck_size))]
    elif option == "throw_in":
        candidates = [rules.replace(throw_in=t) for t in _after([t.value for t in ThrowIn], rules.throw_in.value)]
    elif option == "teams":
        candidates = [rules.replace(teams=t) for t in _after([t.value for t in Teams], rules.teams.value)]
    elif option == "redeal":
        now = "off" if rules.redeal_same_suit is None else str(rules.redeal_same_suit)
        candidates = _valid(rules, [{"redeal_same_suit": None if v == "off" else int(v)}
                                    for v in _after(list(REDEALS), now)])
    elif option == "pogony":
        candidates = _valid(rules, [{"pogony_rule": v} for v in _after(list(POGONY), rules.pogony_rule.value)])
    else:
        raise RulesError(option, "unknown option")
    for new in candidates:
        if fits(new, seated):
            players = table_max(new) if new.teams is not Teams.NONE else min(max(max_players, seated), table_max(new))
            return new, players
    raise RulesError(option, "no value fits the seated players")
