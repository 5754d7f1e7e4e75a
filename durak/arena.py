"""``durak-arena``: two computer levels play many games against each other; how often each wins.

Every deal is played once per seat rotation: with two players each deal twice, seats swapped; with
more, level A takes each seat in turn and level B the others. So both sides get the same cards
equally often and a lucky deal counts for neither. Each player decides from its seat's
``Knowledge`` alone (``durak.ai.choose``).

It prints A's wins, losses and draws, the win rate among decided games with its 95 % Wilson
interval, how often each side is the durak (per seat: with four players B has three seats a game),
and each side's thinking time per move (p50, p95, the slowest). ``--jobs`` plays deals in parallel processes.

Besides the levels, ``seer`` is the ``hard`` search told the true deal: every deal it imagines is the real one.
It never sits at the bot's tables; what it wins is what a player who saw every card would win, so the gap
between it and ``hard`` says how much a preset's luck leaves to a player who may not look.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from durak.actions import Action
from durak.ai import LEVELS, choose
from durak.ai.hard import BUDGET_MS
from durak.ai.play import fallback, next_seat
from durak.engine import apply
from durak.record import Record, knowledge
from durak.rules import PRESETS, Rules
from durak.setup import new_game
from durak.state import State

SEER = "seer"  # hard told the true deal: a measure, never a seated player
ARENA_LEVELS = (*LEVELS, SEER)


@dataclass
class Tally:
    games: int = 0
    wins: int = 0            # A not the durak, B the durak (two players) / A not the durak (more)
    losses: int = 0
    draws: int = 0
    a_durak: int = 0
    b_durak: int = 0         # games in which one of B's seats was the durak
    b_seats: int = 0         # B's seats over all games
    ms: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})

    def add(self, other: Tally) -> None:
        for name in ("games", "wins", "losses", "draws", "a_durak", "b_durak", "b_seats"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for side in ("a", "b"):
            self.ms[side] += other.ms[side]


def decide(level: str, state: State, seat: int, record: Record, seed: int, budget_ms: float) -> Action | None:
    """``level``'s move at ``seat``, from what the seat may know (the seer: from the true deal too)."""
    k = knowledge(state, seat, record)
    if level == SEER:
        return choose("hard", dataclasses.replace(k, truth=state.copy()), seed, budget_ms)
    return choose(level, k, seed, budget_ms)


def play_deal(a: str, b: str, rules: Rules, players: int, seed: int, budget_ms: float) -> Tally:
    """One deal, once for each seat A may take."""
    tally = Tally()
    for a_seat in range(players):
        state = new_game(rules, players, seed)
        record = Record.start(state, lowest_leads=True)
        while not state.over:
            seat = next_seat(state)
            if seat is None:
                break
            side = "a" if seat == a_seat else "b"
            started = time.perf_counter()
            action = decide(a if side == "a" else b, state, seat, record, seed * 7919 + state.moves, budget_ms)
            tally.ms[side].append((time.perf_counter() - started) * 1000)
            state, events = apply(state, seat, action or fallback(state, seat))
            record = record.after(events)
        tally.games += 1
        tally.b_seats += players - 1
        if state.draw:
            tally.draws += 1
        elif a_seat in state.losers:
            tally.losses += 1
            tally.a_durak += 1
        else:
            tally.wins += 1
            tally.b_durak += 1
    return tally


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(args: argparse.Namespace, tally: Tally, seconds: float) -> dict[str, Any]:
    decided = tally.wins + tally.losses
    low, high = wilson(tally.wins, decided)
    return {
        "a": args.a, "b": args.b, "players": args.players, "preset": args.preset, "budget_ms": args.budget_ms,
        "games": tally.games, "wins": tally.wins, "losses": tally.losses, "draws": tally.draws,
        "win_rate": round(tally.wins / decided, 4) if decided else None,
        "win_rate_95": [round(low, 4), round(high, 4)],
        "durak_rate_a": round(tally.a_durak / tally.games, 4) if tally.games else None,
        "durak_rate_b_per_seat": round(tally.b_durak / tally.b_seats, 4) if tally.b_seats else None,
        "ms_per_move": {side: {"p50": round(_percentile(v, 0.5), 2), "p95": round(_percentile(v, 0.95), 2),
                               "max": round(max(v, default=0.0), 2)} for side, v in tally.ms.items()},
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durak-arena", description=__doc__.splitlines()[0])
    parser.add_argument("--a", choices=ARENA_LEVELS, default="hard")
    parser.add_argument("--b", choices=ARENA_LEVELS, default="normal")
    parser.add_argument("--games", type=int, default=1000, help="games in all (each deal is played once per seat)")
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7))
    parser.add_argument("--preset", choices=sorted(PRESETS), default="podkidnoy")
    parser.add_argument("--deck", type=int, choices=(24, 36, 52), default=36)
    parser.add_argument("--budget-ms", type=float, default=BUDGET_MS, help="hard's thinking time per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing deals in parallel")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rules = Rules.from_dict({"preset": args.preset, "deck_size": args.deck})
    deals = max(1, math.ceil(args.games / args.players))
    tally = Tally()
    started = time.perf_counter()
    work = [(args.a, args.b, rules, args.players, args.seed * 100_003 + i, args.budget_ms) for i in range(deals)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for part in pool.map(play_deal, *zip(*work, strict=True)):
                tally.add(part)
    else:
        for job in work:
            tally.add(play_deal(*job))
    result = summary(args, tally, time.perf_counter() - started)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
