from __future__ import annotations

import json

import pytest

from durak.bench import WORKLOADS, main, play_random_game
from durak.rules import Rules


def test_bench_json_has_one_entry_per_workload(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {f"{preset}_{players}p" for preset, players in WORKLOADS}
    for row in data.values():
        assert set(row) == {"games", "seconds", "games_per_s", "us_per_action", "checked_us_per_action", "peak_mb"}
        assert row["games"] == 3 and row["games_per_s"] > 0 and row["checked_us_per_action"] > 0
        assert row["peak_mb"] > 0


def test_bench_text_names_the_engine_build(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "pure Python" in out[0] or "mypyc" in out[0]
    assert len(out) == 1 + len(WORKLOADS)


def test_random_games_are_reproducible() -> None:
    rules = Rules.from_dict({"preset": "perevodnoy"})
    assert play_random_game(rules, 4, 12) == play_random_game(rules, 4, 12)


def test_the_checked_games_are_the_same_games() -> None:
    rules = Rules.from_dict({"preset": "podkidnoy", "cheating": True})
    assert [play_random_game(rules, 3, seed) for seed in range(5)] == [
        play_random_game(rules, 3, seed, checked=True) for seed in range(5)]
