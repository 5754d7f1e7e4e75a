"""Play GAMES random-policy games of PRESET with PLAYERS seats and print the number of actions: the workload
to count instructions under valgrind, which do not move with the machine's load as the clock does.

    valgrind --tool=cachegrind --cache-sim=no python scripts/play_random.py groups 3 30

Run it once with 0 games too: that count (the interpreter's start) is subtracted before dividing by the actions.
"""

from __future__ import annotations

import sys

from durak.bench import play_random_game
from durak.rules import Rules


def main() -> None:
    preset, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rules = Rules.from_dict({"preset": preset})
    print("actions", sum(play_random_game(rules, players, seed) for seed in range(games)))


if __name__ == "__main__":
    main()
