"""The scenario files and the durak-scenarios runner (docs/scenarios.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from durak.rules import CLASSIC_PRESETS, PRESETS
from durak.scenarios import check_file, main

HERE = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((HERE / "scenarios").glob("*.json"))
INVALID = sorted((HERE / "invalid_scenarios").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_passes(path: Path) -> None:
    name, why = check_file(path)
    assert why is None, f"{name}: {why}"


def test_every_section_of_the_rules_has_scenarios() -> None:
    assert len(SCENARIOS) >= 80
    sections = {p.name.split("_")[0] for p in SCENARIOS}
    assert sections == {"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "v"}
    names = [json.loads(p.read_text())["name"] for p in SCENARIOS]
    assert len(set(names)) == len(names), "each scenario says what it shows, in its own words"


def test_every_variant_preset_has_scenarios_of_its_own() -> None:
    """docs/variants.md §6: each preset is pinned by at least two scenarios that play it."""
    played: dict[str, int] = {}
    for path in SCENARIOS:
        preset = json.loads(path.read_text()).get("rules", {}).get("preset")
        if preset:
            played[preset] = played.get(preset, 0) + 1
    thin = {p: played.get(p, 0) for p in PRESETS if p not in CLASSIC_PRESETS and played.get(p, 0) < 2}
    assert not thin


EXPECTED_REASONS = {
    "unknown_top_key": "unknown key 'jokers'",
    "players_without_decks": "players is given only together with decks",
    "decks_with_hands": "decks deal the game: hands, stock, trump and secret_trump must be absent",
    "deck_order_incomplete": "each deck order must hold every card of a deck of 24 once",
    "no_deck_left_to_redeal": "no deck order is left to deal again",
    "refused_combination": "special_suit: cannot be combined with suitless",
    "stock_lead_with_lead_three": "stock_lead: cannot be combined with lead",
    "self_throw_in_with_transfer_after_cover": "self_throw_in: cannot be combined with transfer_after_cover",
    "secret_trump_with_trump_swap": "secret_trump: cannot be combined with trump_swap",
    "draw_to_cover_without_a_stock": "stock_mode: cannot be combined with draw_to_cover",
    "secret_card_without_the_option": "secret_trump: a secret card needs the secret_trump option",
    "two_trumps_with_three_players": "3 players do not fit a deck of 36 with 6 cards each (at most 2)",
    "scores_without_ranking": "scores are kept only with a ranking option",
    "unknown_option": "jokers: unknown option",
    "unknown_preset": "unknown preset 'martian'",
    "bad_option_value": "throw_in: unknown value 'everybody'",
    "bad_card_code": "bad card code '1X'",
    "card_not_in_deck": "card 2S is not in a deck of 36",
    "card_listed_twice": "a card is listed twice",
    "unknown_act": "step 1: unknown act 'cheer'",
    "unknown_check_field": "step 1: unknown check field 'mood'",
    "missing_step_field": "step 2: defend needs 'target'",
    "bad_step_card": "step 1: bad card code '6Z'",
    "not_json": "not valid JSON",
    "too_many_players": "5 players do not fit a deck of 24",
    "teams_with_three_players": "teams 2x2 need exactly 4 players, not 3",
    "wrong_expectation": "step 2: defend by seat 1 was accepted, expected illegal",
    "wrong_check": "step 1: defender is 1, expected 0",
    "wrong_result": "result: loser is 1, expected 0",
}


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_invalid_scenario_fails_with_its_reason(path: Path) -> None:
    _, why = check_file(path)
    assert why is not None
    assert EXPECTED_REASONS[path.stem] in why


def test_runner_prints_one_line_per_scenario_and_a_total(capsys: pytest.CaptureFixture[str]) -> None:
    good = str(SCENARIOS[0])
    bad = str(HERE / "invalid_scenarios" / "unknown_option.json")
    assert main([good, bad]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("PASS ")
    assert lines[1] == "FAIL unknown rules option: bad rules: jokers: unknown option"
    assert lines[-1] == "1 passed, 1 failed"


def test_runner_exits_zero_when_all_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(HERE / "scenarios")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{len(SCENARIOS)} passed, 0 failed"


def test_missing_path_is_a_fail_not_a_crash(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(HERE / "no_such_file.json")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("FAIL ") and "cannot read" in out[0]
    assert out[-1] == "0 passed, 1 failed"


def test_runner_runs_as_a_program() -> None:
    done = subprocess.run([sys.executable, "-m", "durak.scenarios", str(HERE / "scenarios")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1].endswith("passed, 0 failed")
