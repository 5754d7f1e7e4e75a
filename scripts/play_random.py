"""Play GAMES random-policy games of PRESET with PLAYERS seats and print the number of actions: the workload
to count instructions under valgrind, which do not move with the machine's load as the clock does.

    valgrind --tool=cachegrind --cache-sim=no python scripts/play_random.py groups 3 30 [checked]

Run it once with 0 games too: that count (the interpreter's start) is subtracted before dividing by the actions.
The policy is ``durak-bench``'s (a random seat among ``actors``, then a random legal action, one ``random()``
each), written here with the engine's public calls alone, so that an older engine plays it too
(``PYTHONPATH`` pointing at a ``git worktree``): in place where the engine has ``apply_in_place``, else, or
with ``checked``, through ``apply`` as the bot plays a press.
"""

from __future__ import annotations

import random
import sys

from durak import engine
from durak.rules import Rules
from durak.setup import new_game


def play(rules: Rules, players: int, seed: int, checked: bool) -> int:
    rng = random.Random(seed)
    state = new_game(rules, players, seed)
    pick = rng.random
    in_place = None if checked else getattr(engine, "apply_in_place", None)
    moves = 0
    while not state.over:
        seats = engine.actors(state)
        seat = seats[int(pick() * len(seats))]
        actions = engine.legal_actions(state, seat)
        action = actions[int(pick() * len(actions))]
        if in_place is not None:
            in_place(state, seat, action)
        else:
            state, _ = engine.apply(state, seat, action)
        moves += 1
    return moves


def main() -> None:
    preset, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    checked = sys.argv[4:] == ["checked"]
    rules = Rules.from_dict({"preset": preset})
    print("actions", sum(play(rules, players, seed, checked) for seed in range(games)))


if __name__ == "__main__":
    main()
