"""This tree's hard computer against another build's (an older commit, say), on mirrored deals.

    git worktree add /tmp/old <commit>
    python3 -m venv /tmp/old/.venv && (cd /tmp/old && DURAK_COMPILE=1 .venv/bin/pip install -q .)
    python scripts/versus.py --other-python /tmp/old/.venv/bin/python --games 400 --budget-ms 300 --jobs 2

Both sides decide from their seat's knowledge only, as in ``durak-arena``: side A with this tree's
``durak``, side B in a child process running ``--other-python`` (an interpreter whose ``durak`` is the
other build; with ``--other-path`` a source tree put first on its path instead). Side A is the ``durak``
of the interpreter running this script: the development venv's (pure), or one built with
``DURAK_COMPILE=1`` to compare compiled builds. The child replays the
game's moves with its own engine before each choice, so nothing but the deal's seed, the moves and
the seat cross between the two. Prints A's wins, losses and draws, its win rate among decided games
with the 95 % Wilson interval, and each side's thinking time per move.

``--peek`` tells side A every other hand (the stock's order stays hidden): more than any honest player
can know, so A's rate then bounds what an honest hard can reach against B.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from durak import Act, Action, Rules, apply, new_game
from durak.ai import choose
from durak.ai.play import fallback, next_seat
from durak.arena import wilson
from durak.record import Knowledge, Record, knowledge
from durak.state import State

# The other side: replays the moves with its own engine, then its hard player chooses for the seat.
CHILD = r"""
import json, sys
from durak import Act, Action, Rules, apply, new_game
from durak.ai import choose
from durak.record import Record, knowledge
for line in sys.stdin:
    ask = json.loads(line)
    state = new_game(Rules.from_dict(ask["rules"]), ask["players"], ask["seed"])
    record = Record.start(state, lowest_leads=True)
    for seat, (act, cards, target, suspect, cheat) in ask["moves"]:
        state, events = apply(state, seat, Action(Act(act), tuple(cards), target, suspect, cheat))
        record = record.after(events)
    action = choose("hard", knowledge(state, ask["seat"], record), ask["choose_seed"], ask["budget_ms"])
    print(json.dumps(None if action is None else [action.act.value, list(action.cards), action.target,
                                                  action.suspect, action.cheat]), flush=True)
"""

_child: subprocess.Popen[str] | None = None


def other(python: str, path: str | None) -> subprocess.Popen[str]:
    global _child
    if _child is None:
        env = {**os.environ, "PYTHONPATH": path} if path else {k: v for k, v in os.environ.items()
                                                               if k != "PYTHONPATH"}
        _child = subprocess.Popen([python, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  cwd="/", env=env)
    return _child


def as_list(action: Action) -> list[Any]:
    return [action.act.value, list(action.cards), action.target, action.suspect, action.cheat]


def told(know: Knowledge, state: State) -> Knowledge:
    """``know`` with every other hand known (``--peek``)."""
    known = tuple(frozenset() if p == know.seat else frozenset(hand) for p, hand in enumerate(state.hands))
    return dataclasses.replace(know, known=known, unseen=know.unseen.difference(*known))


def play_deal(rules: Rules, players: int, seed: int, budget_ms: float, python: str,
              path: str | None, peek: bool = False) -> dict[str, Any]:
    """One deal, once for each seat A takes (B, the other build, takes the rest)."""
    tally: dict[str, Any] = {"wins": 0, "losses": 0, "draws": 0, "ms": {"a": [], "b": []}}
    for a_seat in range(players):
        state = new_game(rules, players, seed)
        record = Record.start(state, lowest_leads=True)
        moves: list[list[Any]] = []
        while not state.over:
            seat = next_seat(state)
            if seat is None:
                break
            started = time.perf_counter()
            choose_seed = seed * 7919 + state.moves
            if seat == a_seat:
                know = knowledge(state, seat, record)
                action = choose("hard", told(know, state) if peek else know, choose_seed, budget_ms)
            else:
                child = other(python, path)
                assert child.stdin is not None and child.stdout is not None
                child.stdin.write(json.dumps({"rules": rules.to_dict(), "players": players, "seed": seed,
                                              "moves": moves, "seat": seat, "choose_seed": choose_seed,
                                              "budget_ms": budget_ms}) + "\n")
                child.stdin.flush()
                answer = json.loads(child.stdout.readline())
                action = None if answer is None else Action(Act(answer[0]), tuple(answer[1]), *answer[2:])
            tally["ms"]["a" if seat == a_seat else "b"].append((time.perf_counter() - started) * 1000)
            action = action or fallback(state, seat)
            state, events = apply(state, seat, action)
            record = record.after(events)
            moves.append([seat, as_list(action)])
        tally["draws" if state.draw else "losses" if a_seat in state.losers else "wins"] += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other-python", default=sys.executable, help="an interpreter with the other build")
    parser.add_argument("--other-path", default=None, help="or a source tree to put first on its path")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7))
    parser.add_argument("--preset", default="podkidnoy")
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--peek", action="store_true", help="tell side A every other hand (a ceiling)")
    args = parser.parse_args()
    rules = Rules.from_dict({"preset": args.preset})
    deals = max(1, math.ceil(args.games / args.players))
    work = [(rules, args.players, args.seed * 100_003 + i, args.budget_ms, args.other_python, args.other_path,
             args.peek) for i in range(deals)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        parts = list(pool.map(play_deal, *zip(*work, strict=True)))
    wins, losses, draws = (sum(p[k] for p in parts) for k in ("wins", "losses", "draws"))
    low, high = wilson(wins, wins + losses)
    ms = {side: sorted(x for p in parts for x in p["ms"][side]) for side in ("a", "b")}
    print(json.dumps({
        "games": wins + losses + draws, "wins": wins, "losses": losses, "draws": draws,
        "win_rate": round(wins / max(wins + losses, 1), 4), "win_rate_95": [round(low, 4), round(high, 4)],
        "ms_per_move": {side: {"p50": round(v[len(v) // 2], 1), "p95": round(v[int(len(v) * 0.95)], 1),
                               "max": round(v[-1], 1)} for side, v in ms.items() if v},
        "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
