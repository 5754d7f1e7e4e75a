"""``durak-scenarios PATH...``: play JSON rules test vectors (docs/scenarios.md) through the engine.

Prints ``PASS name`` or ``FAIL name: step K: what differed`` per scenario, then
``N passed, M failed``; exits 0 only when all passed. A file that is not a valid scenario
is a FAIL with its reason, never a crash and never a pass.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from durak.actions import Act, Action, Illegal
from durak.cards import RANK_NAMES, SUIT_LETTERS, Card, card_code, deck, parse_card, parse_suit
from durak.engine import apply
from durak.rules import Ranking, Rules, RulesError
from durak.scoring import ranks
from durak.setup import deal_decks, position
from durak.state import State, table_pairs
from durak.view import shown_trump_card

TOP_KEYS = {"name", "rules", "trump", "hands", "stock", "attacker", "first_bout", "steps", "result",
            "players", "decks", "scores", "bouts_beaten", "seed", "secret_trump"}
REQUIRED_KEYS = {"name", "steps"}
STEP_FIELDS: dict[str, set[str]] = {
    "attack": {"cards"}, "defend": {"target", "card"}, "transfer": {"cards"}, "show": {"card"},
    "take": set(), "pass": set(), "accuse": {"suspect"},
    "stock_lead": set(), "draw_card": set(), "swap": {"cards"}, "counter": {"target", "card", "cards"},
    "throw_self": {"cards"},
}
CHECK_FIELDS = {"attacker", "defender", "table", "hands", "stock", "discard", "taking",
                "over", "loser", "draw", "order", "pogony",
                "trump", "trump_card", "secret_trump", "to_beat", "stock_cards", "scores", "ranks"}
RESULT_FIELDS = {"over", "loser", "draw", "order", "pogony", "ranks", "scores"}


class ScenarioError(Exception):
    """The file is not a valid scenario."""


class Mismatch(Exception):
    """The engine did something other than the scenario says."""


def run_scenario(data: Any) -> None:
    """Play one scenario; raises :class:`ScenarioError` or :class:`Mismatch` on failure."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise ScenarioError(f"unknown key {sorted(unknown)[0]!r}")
    dealt = "decks" in data
    missing = REQUIRED_KEYS - set(data) | ({"players"} if dealt else {"trump", "hands"}) - set(data)
    if missing:
        raise ScenarioError(f"missing key {sorted(missing)[0]!r}")
    if dealt and set(data) & {"hands", "stock", "trump", "secret_trump"}:
        raise ScenarioError("decks deal the game: hands, stock, trump and secret_trump must be absent")
    if "players" in data and not dealt:
        raise ScenarioError("players is given only together with decks")
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except RulesError as e:
        raise ScenarioError(f"bad rules: {e}") from None
    in_deck = set(deck(rules.deck_size))

    def card(code: Any) -> Card:
        try:
            c = parse_card(code)
        except ValueError as e:
            raise ScenarioError(str(e)) from None
        if c not in in_deck:
            raise ScenarioError(f"card {code} is not in a deck of {rules.deck_size}")
        return c

    def cards(codes: Any, what: str) -> list[Card]:
        if not isinstance(codes, list):
            raise ScenarioError(f"{what} must be a list of card codes")
        return [card(c) for c in codes]

    attacker = data.get("attacker")
    first_bout = data.get("first_bout", True)
    if attacker is not None and not _is_int(attacker):
        raise ScenarioError("attacker must be a seat number")
    if not isinstance(first_bout, bool):
        raise ScenarioError("first_bout must be true or false")
    try:
        state = _dealt(data, rules, cards, attacker) if dealt else _position(data, rules, cards, attacker, first_bout)
    except RulesError as e:
        raise ScenarioError(str(e)) from None
    if "scores" in data:
        _set_scores(state, data["scores"])
    for key, default in (("bouts_beaten", 0 if first_bout else 1), ("seed", 0)):
        value = data.get(key, default)
        if not _is_int(value) or value < 0:
            raise ScenarioError(f"{key} must be a whole number")
        setattr(state, key, value)
    steps = data["steps"]
    if not isinstance(steps, list):
        raise ScenarioError("steps must be a list")
    parsed = [_parse_step(step, k, card) for k, step in enumerate(steps, 1)]
    result = data.get("result", {})
    if not isinstance(result, dict) or set(result) - RESULT_FIELDS:
        raise ScenarioError("result may hold only " + ", ".join(sorted(RESULT_FIELDS)))
    for k, step in enumerate(parsed, 1):
        if isinstance(step, dict):
            _compare(state, step, f"step {k}")
            continue
        seat, action, illegal = step
        before = state.to_json()
        try:
            state, _ = apply(state, seat, action)
        except Illegal as refused:
            if not illegal:
                raise Mismatch(f"step {k}: {action.act} by seat {seat} was refused: {refused}") from None
            if state.to_json() != before:
                raise Mismatch(f"step {k}: a refused action changed the state") from None
            continue
        if illegal:
            raise Mismatch(f"step {k}: {action.act} by seat {seat} was accepted, expected illegal")
    _compare(state, result, "result")


def _position(data: dict[str, Any], rules: Rules, cards: Any, attacker: int | None, first_bout: bool) -> State:
    hands_data = data["hands"]
    if not isinstance(hands_data, list):
        raise ScenarioError("hands must be a list of hands")
    hands = [cards(h, "a hand") for h in hands_data]
    stock = cards(data.get("stock", []), "stock")
    trump = data["trump"]
    pair = None
    try:
        if isinstance(trump, list) and len(trump) == 2:  # двухкозырной: seat 0's and seat 1's
            first, second = (parse_suit(t) for t in trump)
            suit, pair = None, (first, second)
        else:
            suit = None if trump is None else parse_suit(trump)
    except (ValueError, TypeError):
        raise ScenarioError(f"bad trump {trump!r}") from None
    secret = data.get("secret_trump")
    return position(rules, hands, stock, suit, attacker, first_bout, None if secret is None else cards([secret], "")[0],
                    pair)


def _dealt(data: dict[str, Any], rules: Rules, cards: Any, attacker: int | None) -> State:
    """docs/variants.md §2.1 from given deck orders: a scenario that tests the deal itself."""
    players, decks = data["players"], data["decks"]
    if not _is_int(players):
        raise ScenarioError("players must be a number")
    if not isinstance(decks, list) or not decks:
        raise ScenarioError("decks must be a non-empty list of deck orders")
    return deal_decks(rules, players, [cards(d, "a deck order") for d in decks], attacker)


def _set_scores(state: State, scores: Any) -> None:
    """The scores so far: seat → number, or seat → list of pogon ranks with ranking pogony."""
    if not isinstance(scores, dict):
        raise ScenarioError("scores must map seat to a score")
    pogony = state.rules.ranking is Ranking.POGONY
    if not (state.pogons if pogony else state.scores):
        raise ScenarioError("scores are kept only with a ranking option")
    values: list[Any] = list(state.pogons if pogony else state.scores)
    for key, value in scores.items():
        seat = _seat_key(key, state)
        if pogony:
            if not isinstance(value, list):
                raise ScenarioError("with ranking pogony a score is a list of ranks")
            values[seat] = tuple(_rank(r) for r in value)
        elif _is_int(value) and value >= 0:
            values[seat] = value
        else:
            raise ScenarioError(f"bad score {value!r}")
    if pogony:
        state.pogons = tuple(values)
    else:
        state.scores = tuple(values)


def _seat_key(key: Any, state: State) -> int:
    try:
        seat = int(key)
    except ValueError:
        raise ScenarioError(f"no seat {key!r}") from None
    if not 0 <= seat < state.players:
        raise ScenarioError(f"no seat {key!r}")
    return seat


def _rank(name: Any) -> int:
    for rank, text in RANK_NAMES.items():
        if text == name:
            return rank
    raise ScenarioError(f"bad rank {name!r}")


Step = tuple[int, Action, bool] | dict[str, Any]


def _parse_step(step: Any, k: int, card: Any) -> Step:
    where = f"step {k}"
    if not isinstance(step, dict):
        raise ScenarioError(f"{where}: must be an object")
    if "check" in step:
        if set(step) != {"check"} or not isinstance(step["check"], dict):
            raise ScenarioError(f"{where}: a check step holds only an object 'check'")
        unknown = set(step["check"]) - CHECK_FIELDS
        if unknown:
            raise ScenarioError(f"{where}: unknown check field {sorted(unknown)[0]!r}")
        return dict(step["check"])
    act = step.get("act")
    if act not in STEP_FIELDS:
        raise ScenarioError(f"{where}: unknown act {act!r}")
    allowed = STEP_FIELDS[act] | {"seat", "act", "cheat", "expect"}
    unknown = set(step) - allowed
    if unknown:
        raise ScenarioError(f"{where}: unknown key {sorted(unknown)[0]!r} for {act}")
    missing = STEP_FIELDS[act] - set(step)
    if missing or "seat" not in step:
        raise ScenarioError(f"{where}: {act} needs {sorted(missing | {'seat'} - set(step))[0]!r}")
    if not _is_int(step["seat"]):
        raise ScenarioError(f"{where}: seat must be a number")
    expect = step.get("expect")
    if expect not in (None, "illegal"):
        raise ScenarioError(f"{where}: expect may only be \"illegal\"")
    cheat = step.get("cheat", False)
    if not isinstance(cheat, bool):
        raise ScenarioError(f"{where}: cheat must be true or false")
    try:
        action = _action(act, step, card, cheat)
    except ScenarioError as e:
        raise ScenarioError(f"{where}: {e}") from None
    return step["seat"], action, expect == "illegal"


def _action(act: str, step: dict[str, Any], card: Any, cheat: bool) -> Action:
    if act in ("attack", "transfer", "swap", "throw_self"):
        codes = step["cards"]
        if not isinstance(codes, list):
            raise ScenarioError("cards must be a list")
        return Action(Act(act), tuple(card(c) for c in codes), cheat=cheat)
    if act == "counter":
        codes = step["cards"]
        if not isinstance(codes, list):
            raise ScenarioError("cards must be a list")
        return Action(Act.COUNTER, (card(step["card"]), *(card(c) for c in codes)), target=card(step["target"]),
                      cheat=cheat)
    if act == "defend":
        return Action(Act.DEFEND, (card(step["card"]),), target=card(step["target"]), cheat=cheat)
    if act == "show":
        return Action(Act.SHOW, (card(step["card"]),), cheat=cheat)
    if act == "accuse":
        if not _is_int(step["suspect"]):
            raise ScenarioError("suspect must be a seat number")
        return Action(Act.ACCUSE, suspect=step["suspect"], cheat=cheat)
    return Action(Act(act), cheat=cheat)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _observed(state: State, name: str) -> Any:
    if name == "table":
        return [[card_code(a), None if c is None else card_code(c)] for a, c in table_pairs(state)]
    if name == "stock":
        return len(state.stock)
    if name == "discard":
        return len(state.discard)
    if name == "trump":
        if state.trumps is not None:
            return [SUIT_LETTERS[t] for t in state.trumps]
        return None if state.trump is None else SUIT_LETTERS[state.trump]
    if name == "trump_card":
        card = shown_trump_card(state)
        return None if card is None else card_code(card)
    if name == "secret_trump":
        return None if state.secret is None else card_code(state.secret)
    if name == "to_beat":
        return [card_code(a) for a, c in zip(state.attacks, state.covers, strict=True) if c is None]
    if name == "stock_cards":
        return sorted(card_code(c) for c in state.stock)
    if name == "scores":
        if state.pogons:
            return {str(p): sorted(RANK_NAMES[r] for r in ranks) for p, ranks in enumerate(state.pogons)}
        return {str(p): n for p, n in enumerate(state.scores)}
    if name == "ranks":
        return ranks(state) if state.over else None
    if name == "order":
        return list(state.out)
    if name == "loser":
        if state.rules.teams.value != "none":
            return sorted(state.losers) if state.losers else None
        return state.losers[0] if state.losers else None
    return getattr(state, name)


def _compare(state: State, expected: dict[str, Any], where: str) -> None:
    for name, want in expected.items():
        if name == "hands":
            _compare_hands(state, want, where)
            continue
        got = _observed(state, name)
        if name in ("stock", "discard") and isinstance(want, list):  # the cards: the stock's in order
            got = [card_code(c) for c in getattr(state, name)]
            if name == "discard":
                got, want = sorted(got), sorted(_codes(want, where))
        elif name == "stock_cards" and isinstance(want, list):
            want = sorted(_codes(want, where))
        elif name == "scores" and isinstance(want, dict) and isinstance(got, dict):
            got = {k: v for k, v in got.items() if k in want}  # seats not named are not compared
            want = {k: sorted(v) if isinstance(v, list) else v for k, v in want.items()}
        if name == "loser" and isinstance(want, list):
            want = sorted(want)
        if name == "table" and isinstance(want, list):
            want = [list(pair) if isinstance(pair, list) else pair for pair in want]
        if got != want:
            raise Mismatch(f"{where}: {name} is {json.dumps(got)}, expected {json.dumps(want)}")


def _codes(codes: Any, where: str) -> list[str]:
    try:
        return [card_code(parse_card(c)) for c in codes]
    except ValueError as e:
        raise ScenarioError(f"{where}: {e}") from None


def _compare_hands(state: State, want: Any, where: str) -> None:
    if not isinstance(want, dict):
        raise ScenarioError(f"{where}: hands must map seat to a count or a list of cards")
    for key, value in want.items():
        try:
            seat = int(key)
            hand = state.hands[seat]
        except (ValueError, IndexError):
            raise ScenarioError(f"{where}: no seat {key!r}") from None
        if isinstance(value, list):
            got = sorted(card_code(c) for c in hand)
            try:
                expected = sorted(card_code(parse_card(c)) for c in value)
            except ValueError as e:
                raise ScenarioError(f"{where}: {e}") from None
            if got != expected:
                raise Mismatch(f"{where}: hand {seat} is {got}, expected {expected}")
        elif _is_int(value):
            if len(hand) != value:
                raise Mismatch(f"{where}: hand {seat} holds {len(hand)} cards, expected {value}")
        else:
            raise ScenarioError(f"{where}: hand {seat} must be a count or a list of cards")


def scenario_files(paths: list[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(path.rglob("*.json"))
        else:
            yield path


def check_file(path: Path) -> tuple[str, str | None]:
    """(name, None) when the scenario passes, (name, why) when it fails."""
    name = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            name = data["name"]
        run_scenario(data)
    except (ScenarioError, Mismatch) as e:
        return name, str(e)
    except OSError as e:
        return name, f"cannot read: {e.strerror or e}"
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        return name, f"not valid JSON: {e}"
    except Exception as e:  # an engine bug must still be a FAIL line, not a crash
        return name, f"engine error: {type(e).__name__}: {e}"
    return name, None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: durak-scenarios PATH...  (files or folders of *.json)", file=sys.stderr)
        return 2
    passed = failed = 0
    for path in scenario_files(args):
        name, why = check_file(path)
        if why is None:
            passed += 1
            print(f"PASS {name}")
        else:
            failed += 1
            print(f"FAIL {name}: {why}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
