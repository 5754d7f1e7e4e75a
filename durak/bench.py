"""``durak-bench``: random-policy games per second, microseconds per action, peak memory.

Each step picks a random seat among those that may act, then a random legal action of that
seat (one ``random()`` each: ``Random.choice`` would cost a tenth of a move), and plays it in
place as a simulation does. The same games are played once more the way the bot plays a press
(checked, a new state each move): "checked" microseconds per action. ``--json`` prints one
object with an entry per workload.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

from durak.engine import actors, apply, apply_in_place, legal_actions, playing
from durak.rules import Rules
from durak.setup import new_game

WORKLOADS = [("podkidnoy", 2), ("podkidnoy", 6), ("perevodnoy", 2), ("perevodnoy", 6),
             # a few of docs/variants.md's presets: a cover relation, two lead rules, rotating hands, extra moves
             ("japanese", 4), ("threes", 3), ("groups", 3), ("circular", 4), ("baltic", 2), ("american", 3)]


def play_random_game(rules: Rules, players: int, seed: int, checked: bool = False) -> int:
    """Play one game with the random policy, in place as a simulation does, or ``checked`` the way the bot
    plays a press (``apply``: checked, a new state each move); returns the number of actions."""
    rng = random.Random(seed)
    state = new_game(rules, players, seed)
    moves = 0
    pick = rng.random
    while not state.over:
        seats = actors(state)
        seat = seats[int(pick() * len(seats))]
        actions = legal_actions(state, seat)
        action = actions[int(pick() * len(actions))]
        if checked:
            state, _ = apply(state, seat, action)
        else:
            apply_in_place(state, seat, action)
        moves += 1
    return moves


def _reset_peak() -> None:
    """Reset the kernel's high-water mark of this process, so each workload has its own peak."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _peak_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_workload(preset: str, players: int, games: int) -> dict[str, Any]:
    rules = Rules.from_dict({"preset": preset})
    _reset_peak()
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        actions += play_random_game(rules, players, seed)
    seconds = time.perf_counter() - start
    checked_actions = 0
    checked_start = time.perf_counter()
    for seed in range(games):
        checked_actions += play_random_game(rules, players, seed, checked=True)
    checked_seconds = time.perf_counter() - checked_start
    return {
        "games": games,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 1),
        "us_per_action": round(seconds / actions * 1e6, 2),
        "checked_us_per_action": round(checked_seconds / checked_actions * 1e6, 2),
        "peak_mb": round(_peak_mb(), 1),
    }


def compiled() -> bool:
    return not playing.__file__.endswith(".py")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durak-bench", description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per workload (default 2000)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results: dict[str, dict[str, Any]] = {}
    if not args.json:
        kind = "compiled with mypyc" if compiled() else "pure Python"
        print(f"durak-bench: {args.games} random games per workload, engine {kind}")
    for preset, players in WORKLOADS:
        key = f"{preset}_{players}p"
        results[key] = row = run_workload(preset, players, args.games)
        if not args.json:
            print(f"{key:16s} {row['games_per_s']:9.1f} games/s {row['us_per_action']:7.2f} us/action "
                  f"({row['checked_us_per_action']:.2f} checked) peak {row['peak_mb']:.1f} MB")
    if args.json:
        json.dump(results, sys.stdout)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
