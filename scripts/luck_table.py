"""How much each game leaves to skill: ``hard`` and the all-seeing player against ``normal``, every preset.

For each preset at two seats it plays the same deals twice over (each deal once per seat, as ``durak-arena``
does): ``hard`` against ``normal``, then ``seer`` (the same search told the true deal) against ``normal``. It
prints a Markdown row per preset as soon as both are done: each one's win rate among decided games with its
95 % Wilson interval, the gap between them, and whether ``hard`` meets the mark (docs/computers.md): at least
75 %, or within 10 points of the all-seeing player, where luck leaves less to win.

    python scripts/luck_table.py --games 100 --budget-ms 300 --jobs 2
    python scripts/luck_table.py --presets podkidnoy,chukchi --games 40 --budget-ms 100 --jobs 2 --json out.jsonl

``--json`` appends one line per preset to a file, so a long run that is stopped keeps what it finished.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed

from durak.arena import SEER, Tally, play_deal, wilson
from durak.rules import PRESETS, Rules

PLAYERS = 2
MARK = 0.75       # hard's win rate that needs no excuse
WITHIN = 0.10     # or this close to the all-seeing player's
SIDES = ("hard", SEER)


def rate(tally: Tally) -> tuple[float | None, float, float]:
    decided = tally.wins + tally.losses
    low, high = wilson(tally.wins, decided)
    return (tally.wins / decided if decided else None), low, high


def cell(tally: Tally) -> str:
    share, low, high = rate(tally)
    if share is None:
        return "–"
    return f"{share:.1%} ({low:.1%}–{high:.1%})".replace("%", " %")


def verdict(hard: Tally, seer: Tally) -> tuple[str, float | None]:
    h, s = rate(hard)[0], rate(seer)[0]
    if h is None or s is None:
        return "–", None
    gap = s - h
    return ("yes" if h >= MARK or gap <= WITHIN else "no"), gap


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per preset and side (each deal twice)")
    parser.add_argument("--budget-ms", type=float, default=300.0, help="the search's thinking time per move")
    parser.add_argument("--presets", default="", help="comma-separated; every preset by default")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", default="", help="a file to append each preset's figures to")
    args = parser.parse_args(argv)
    presets = [p for p in args.presets.split(",") if p] or sorted(PRESETS)
    unknown = [p for p in presets if p not in PRESETS]
    if unknown:
        parser.error(f"unknown presets: {', '.join(unknown)}")
    deals = max(1, math.ceil(args.games / PLAYERS))
    work = [(side, "normal", Rules.from_dict({"preset": preset}), PLAYERS, args.seed * 100_003 + i, args.budget_ms)
            for preset in presets for side in SIDES for i in range(deals)]
    pending = {(preset, side): deals for preset in presets for side in SIDES}
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    print(f"{args.games} games per preset and side, {args.budget_ms:g} ms a move, two seats, against normal\n")
    print("| game | hard | all-seeing | gap | hard ≥ 75 % or within 10 |")
    print("|---|---|---|---|---|")
    started, met = time.perf_counter(), 0
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(play_deal, *job): (job[2].preset, job[0]) for job in work}
        for future in as_completed(futures):
            key = futures[future]
            tallies[key].add(future.result())
            pending[key] -= 1
            preset = key[0]
            if pending[(preset, "hard")] or pending[(preset, SEER)]:
                continue
            hard, seer = tallies[(preset, "hard")], tallies[(preset, SEER)]
            ok, gap = verdict(hard, seer)
            met += ok == "yes"
            gap_text = "–" if gap is None else f"{gap * 100:+.1f}"
            print(f"| {preset} | {cell(hard)} | {cell(seer)} | {gap_text} | {ok} |", flush=True)
            if args.json:
                with open(args.json, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"preset": preset, "budget_ms": args.budget_ms, "games": hard.games,
                                          **{side: {"wins": t.wins, "losses": t.losses, "draws": t.draws}
                                             for side, t in (("hard", hard), (SEER, seer))}}) + "\n")
    print(f"\n{met} of {len(presets)} games meet the mark; {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
