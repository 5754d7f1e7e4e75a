"""``durak-soak``: every preset, every number of seats and every pairing of computer levels, many games
each, looking for anything that would hold a game up.

A game is played as ``durak-arena`` plays it (each seat decides from its own ``Knowledge``, the move
is applied checked), with the levels of a pairing seated alternately. It counts, and names the first
few of each:

- exceptions: a level's thinking (or the engine) raised;
- illegal moves: a level chose a move the engine refuses;
- stalls: a game not over after ``MOVE_LIMIT`` moves;
- and the slowest move, with its preset, seats and level.

It exits with 1 when any exception, illegal move or stall was found. ``--budget-ms`` is hard's
thinking time per move (small by default, so the soak covers much ground); ``--jobs`` plays in
parallel processes.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from durak.ai import LEVELS, choose
from durak.ai.play import fallback, next_seat
from durak.engine import apply, is_legal
from durak.record import Record, knowledge
from durak.rules import PRESETS, Rules, RulesError
from durak.setup import new_game

MOVE_LIMIT = 5000
SHOWN = 5  # examples kept of each kind of failure


@dataclass
class Findings:
    games: int = 0
    moves: int = 0
    exceptions: list[str] = field(default_factory=list)
    illegal: list[str] = field(default_factory=list)
    stalls: list[str] = field(default_factory=list)
    slowest_ms: float = 0.0
    slowest: str = ""
    counts: dict[str, int] = field(default_factory=lambda: {"exceptions": 0, "illegal": 0, "stalls": 0})

    def add(self, other: Findings) -> None:
        self.games += other.games
        self.moves += other.moves
        for kind in ("exceptions", "illegal", "stalls"):
            self.counts[kind] += other.counts[kind]
            kept: list[str] = getattr(self, kind)
            kept += getattr(other, kind)[:SHOWN - len(kept)]
        if other.slowest_ms > self.slowest_ms:
            self.slowest_ms, self.slowest = other.slowest_ms, other.slowest

    def note(self, kind: str, what: str) -> None:
        self.counts[kind] += 1
        kept: list[str] = getattr(self, kind)
        if len(kept) < SHOWN:
            kept.append(what)


def tables() -> list[tuple[str, int]]:
    """Every preset with every number of seats from 2 to 6 that its rules allow."""
    found = []
    for preset in sorted(PRESETS):
        rules = Rules.from_dict({"preset": preset})
        for players in range(2, 7):
            try:
                rules.check_players(players)
            except RulesError:
                continue
            found.append((preset, players))
    return found


def pairings() -> list[tuple[str, str]]:
    return list(itertools.combinations_with_replacement(LEVELS, 2))


def play(preset: str, players: int, levels: tuple[str, str], seed: int, budget_ms: float) -> Findings:
    """One game of ``preset``: seat p is played by ``levels[p % 2]``."""
    found = Findings(games=1)
    where = f"{preset} {players} seats {levels[0]}/{levels[1]} seed {seed}"
    rules = Rules.from_dict({"preset": preset})
    state = new_game(rules, players, seed)
    record = Record.start(state, lowest_leads=True)
    while not state.over:
        if state.moves >= MOVE_LIMIT:
            found.note("stalls", f"{where}: not over after {MOVE_LIMIT} moves")
            break
        seat = next_seat(state)
        if seat is None:
            found.note("stalls", f"{where}: nobody to move at move {state.moves}")
            break
        level = levels[seat % 2]
        started = time.perf_counter()
        try:
            action = choose(level, knowledge(state, seat, record), seed * 7919 + state.moves, budget_ms)
        except Exception:
            found.note("exceptions", f"{where} move {state.moves} ({level}): {traceback.format_exc(limit=-3)}")
            action = None
        ms = (time.perf_counter() - started) * 1000
        if ms > found.slowest_ms:
            found.slowest_ms, found.slowest = ms, f"{where} move {state.moves} ({level})"
        if action is not None and not is_legal(state, seat, action):
            found.note("illegal", f"{where} move {state.moves} ({level}): {action}")
            action = None
        try:
            state, events = apply(state, seat, action or fallback(state, seat))
        except Exception:
            found.note("exceptions", f"{where} move {state.moves} (engine): {traceback.format_exc(limit=-3)}")
            break
        record = record.after(events)
        found.moves += 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durak-soak", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per preset, seats and pairing")
    parser.add_argument("--budget-ms", type=float, default=5.0, help="hard's thinking time per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing in parallel")
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS), help="only these (repeatable)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    work = [(preset, players, levels, args.seed * 100_003 + i, args.budget_ms)
            for preset, players in tables() if not args.preset or preset in args.preset
            for levels in pairings() for i in range(args.games)]
    total = Findings()
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for part in pool.map(play, *zip(*work, strict=True), chunksize=4):
                total.add(part)
    else:
        for job in work:
            total.add(play(*job))
    result: dict[str, Any] = {
        "games": total.games, "moves": total.moves, **total.counts,
        "slowest_move_ms": round(total.slowest_ms, 1), "slowest_move": total.slowest,
        "seconds": round(time.perf_counter() - started, 1),
        "examples": {kind: kept for kind in ("exceptions", "illegal", "stalls") if (kept := getattr(total, kind))},
    }
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 1 if any(total.counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
