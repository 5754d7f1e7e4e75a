"""How the review's labels agree with a stronger judge, for each way of playing the game on (issue 57, goal 2).

    .venv-compiled/bin/python scripts/calibrate_review.py --decisions 300 --jobs 2

Games between the computer levels (each pair of levels, both seatings, several presets and table sizes) give the
decisions; each decision the review judges by sampling (not the exact endgames, which need no judge) is judged
again by the stronger judge: the hard computer's tree trying every candidate on ``--strong`` deals, never
stopping early, under another seed. Then for each play-on (``durak.review.judge.PLAYONS``) at the review's own
settings (``--variants``, each with the margin a label must stand by) it prints how often its label is the strong
judge's (``--strong 0``: no strong judge, only the rest), how many of its blunders the strong judge puts
under 10 points, how often a second review (another seed) keeps its label, and the seconds a decision took.
Figures go to docs/review.md.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from durak.ai import endgame
from durak.review.command import play
from durak.review.game import Decision, decisions_of
from durak.review.judge import BLUNDER, MARGIN, MISTAKE, PLAYONS, Verdict, judge
from durak.rules import Rules

TABLES = (("podkidnoy", 2), ("perevodnoy", 2), ("podkidnoy", 3), ("simple", 2), ("two_trumps", 2))
LEVELS = (("easy", "normal"), ("normal", "hard"), ("easy", "hard"))
STRONG_SEED = 977
PER_GAME = 12  # decisions a game gives at most


@dataclass(frozen=True, slots=True)
class Row:
    """One decision judged by the strong judge and by each play-on under two seeds."""

    table: str
    strong: Verdict | None
    reviews: dict[str, tuple[Verdict | None, Verdict | None]]
    seconds: dict[str, float]


def decisions(count: int, budget_ms: float) -> Iterator[tuple[str, Decision]]:
    """Decisions of computer games, each table in turn, until ``count`` (only those a review would sample)."""
    given = game = 0
    while True:
        for preset, players in TABLES:
            levels = list(LEVELS[game % len(LEVELS)]) + ["normal"] * (players - 2)
            if game // len(LEVELS) % 2:
                levels.reverse()
            deal, actions = play(Rules.from_dict({"preset": preset}), levels, 5000 + game, budget_ms)
            game += 1
            sampled = [d for d in decisions_of(deal, actions, lowest_leads=True)
                       if len(d.knowledge.view.legal) > 1 and not endgame.nothing_hidden(d.knowledge)]
            for d in sampled[::max(1, -(-len(sampled) // PER_GAME))]:  # spread over the game, and over many games
                yield f"{preset} {players}p", d
                given += 1
                if given >= count:
                    return


def weigh(table: str, d: Decision, strong: int, variants: list[str]) -> Row:
    began = time.perf_counter()
    strong_verdict = judge(d.knowledge, d.played, STRONG_SEED, deals_max=strong, playon="tree",
                           settle=False) if strong else None
    seconds = {"strong": time.perf_counter() - began}
    reviews = {}
    for variant in variants:
        playon, margin = variant.split(":")
        began = time.perf_counter()
        first = judge(d.knowledge, d.played, 1, playon=playon, margin=float(margin))
        seconds[variant] = time.perf_counter() - began
        reviews[variant] = (first, judge(d.knowledge, d.played, 2, playon=playon, margin=float(margin)))
    return Row(table, strong_verdict, reviews, seconds)


def cost_of(v: Verdict | None) -> float:
    return 0.0 if v is None else v.cost


def label(v: Verdict | None) -> str | None:
    return None if v is None else v.label


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--strong", type=int, default=4096, help="deals the strong judge plays each candidate on")
    parser.add_argument("--budget-ms", type=float, default=0.0, help="hard's thinking time in the games (0: 64 "
                        "iterations a move, repeatable)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--variants", default=",".join(f"{p}:{MARGIN:g}" for p in PLAYONS),
                        help="play-on:margin pairs to compare (the margin: standard errors a label must stand by)")
    args = parser.parse_args()
    variants = args.variants.split(",")
    chosen = list(decisions(args.decisions, args.budget_ms))
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(weigh, [t for t, _ in chosen], [d for _, d in chosen], [args.strong] * len(chosen),
                             [variants] * len(chosen)))
    tables = sorted({r.table for r in rows})
    print(f"{len(rows)} sampled decisions ({', '.join(f'{t}: {sum(r.table == t for r in rows)}' for t in tables)}), "
          f"the strong judge on {args.strong} deals a candidate; {time.perf_counter() - began:.0f} s")
    strong_labels = [label(r.strong) for r in rows]
    print("strong judge's labels: " + ", ".join(f"{name or 'none'} {strong_labels.count(name)}" for name in
                                                (None, "inaccuracy", "mistake", "blunder")))
    for playon in variants:
        firsts = [r.reviews[playon][0] for r in rows]
        seconds = [r.reviews[playon][1] for r in rows]
        agree = sum(label(v) == s for v, s in zip(firsts, strong_labels, strict=True))
        labelled = [(v, s) for v, s in zip(firsts, strong_labels, strict=True) if label(v) or s]
        agree_labelled = sum(label(v) == s for v, s in labelled)
        blunders = [(v, r) for v, r in zip(firsts, rows, strict=True) if label(v) == "blunder"]
        false = sum(cost_of(r.strong) < MISTAKE for _, r in blunders)
        missed = sum(cost_of(r.strong) >= BLUNDER and label(v) is None for v, r in zip(firsts, rows, strict=True))
        kept = sum(label(a) == label(b) for a, b in zip(firsts, seconds, strict=True))
        judged = [(a, b) for a, b in zip(firsts, seconds, strict=True) if label(a) or label(b)]
        kept_judged = sum(label(a) == label(b) for a, b in judged)
        errors = [abs(cost_of(v) - cost_of(r.strong)) * 100 for v, r in zip(firsts, rows, strict=True)]
        print(f"{playon:8s}: labels as the strong judge's {agree}/{len(rows)} = {agree / len(rows):.1%} "
              f"(where either labels: {agree_labelled}/{len(labelled)} = "
              f"{agree_labelled / max(1, len(labelled)):.1%}); "
              f"false blunders (strong < 10 points) {false}/{len(blunders)} = {false / max(1, len(blunders)):.1%}; "
              f"blunders (strong ≥ 20) left unlabelled {missed}; cost off by {statistics.mean(errors):.1f} points "
              f"on average; another seed keeps {kept}/{len(rows)} = {kept / len(rows):.1%} "
              f"(where either labels: {kept_judged}/{len(judged)} = {kept_judged / max(1, len(judged)):.1%}); "
              f"{statistics.median(r.seconds[playon] for r in rows):.2f} s a decision at the median, "
              f"{max(r.seconds[playon] for r in rows):.1f} s the longest")
    print(f"the strong judge: {statistics.median(r.seconds['strong'] for r in rows):.1f} s a decision at the median")


if __name__ == "__main__":
    main()
