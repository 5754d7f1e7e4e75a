"""How fast ``hard`` thinks, in this interpreter: a fixed search, and the iterations a time budget buys.

    python scripts/hard_bench.py --rounds 3            # the fixed search: µs per iteration, and its choices
    python scripts/hard_bench.py --budget-ms 300 --games 4   # iterations per move with a time budget

The fixed search collects the positions of hard's seat (seat 0) in four two-player podkidnoy and two
three-player perevodnoy games played by normal players, and thinks on each with no time budget (exactly
``ITERATIONS_MIN`` iterations where a tree is needed): microseconds per iteration (the whole move, the exact
endgame included), the best of ``--rounds``, and a digest of the moves chosen, equal for two versions that
choose alike. With ``--budget-ms``, hard (seat 0) plays normal in ``--games`` two-player games with that budget
a move, and the iterations of its searches are printed (p10, p50, p90). Run it with another tree's
interpreter (a worktree's venv) to compare two versions, one after the other.
"""

from __future__ import annotations

import argparse
import hashlib
import time

from durak.ai import choose, hard
from durak.ai.play import fallback, next_seat
from durak.engine import apply
from durak.record import Knowledge, Record, knowledge
from durak.rules import Rules
from durak.setup import new_game

Thinking = tuple[Knowledge, int]  # a position of seat 0 and its seed


def positions(preset: str, players: int, games: int,
              budget_ms: float | None = None) -> tuple[list[Thinking], list[int]]:
    """Seat 0's positions in ``games`` games of normal players, or (``budget_ms``) of hard at seat 0 against
    them, with the iterations of hard's searches."""
    rules = Rules.from_dict({"preset": preset})
    found: list[Thinking] = []
    iterations: list[int] = []
    for seed in range(games):
        state = new_game(rules, players, seed)
        record = Record.start(state, lowest_leads=True)
        while not state.over:
            seat = next_seat(state)
            if seat is None:
                break
            k = knowledge(state, seat, record)
            if seat == 0 and budget_ms is not None:
                thought = hard.think(k, seed, budget_ms)
                action = thought.action
                if thought.iterations:
                    iterations.append(thought.iterations)
            else:
                if seat == 0:
                    found.append((k, seed))
                action = choose("normal", k, seed)
            state, events = apply(state, seat, action or fallback(state, seat))
            record = record.after(events)
    return found, iterations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget-ms", type=float, help="instead: iterations per move with this budget")
    parser.add_argument("--games", type=int, default=4, help="games with --budget-ms")
    args = parser.parse_args()
    if args.budget_ms is not None:
        _, iterations = positions("podkidnoy", 2, args.games, args.budget_ms)
        iterations.sort()
        at = {q: iterations[len(iterations) * q // 100] for q in (10, 50, 90)} if iterations else {}
        print(f"budget {args.budget_ms:g} ms: {len(iterations)} searches, iterations p10 {at.get(10)} "
              f"p50 {at.get(50)} p90 {at.get(90)}, below {hard.ITERATIONS_MIN}: "
              f"{sum(i < hard.ITERATIONS_MIN for i in iterations)}")
        return
    found = positions("podkidnoy", 2, 4)[0] + positions("perevodnoy", 3, 2)[0]
    best = float("inf")
    for _ in range(args.rounds):
        started = time.perf_counter()
        thoughts = [hard.think(k, seed, 0) for k, seed in found]
        best = min(best, time.perf_counter() - started)
    made = sum(t.iterations for t in thoughts)
    digest = hashlib.sha256(repr([t.action for t in thoughts]).encode()).hexdigest()[:10]
    print(f"{len(found)} positions, {made} iterations, best {best:.2f} s: "
          f"{best / made * 1e6:.0f} µs per iteration; moves chosen: {digest}")


if __name__ == "__main__":
    main()
