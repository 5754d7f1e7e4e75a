"""The review's figures: how long a game's review takes, how well two reviews of one game agree, and how the
computer levels score.

    .venv/bin/python scripts/review_bench.py --games 6 --budget-ms 100

For each game (a new seed each) the three levels sit at a two-player table in turn (easy–normal, normal–hard,
easy–hard); every seat is reviewed. It prints the seconds each review took, the share of judged moves whose label
is the same in a second review with another seed, and per level the mean accuracy and the labels per 100 judged
moves. ``--six`` also times one six-player review. Figures go to docs/review.md.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from durak.review import puzzle
from durak.review.command import play
from durak.review.game import decisions_of, judge_all, seat_review
from durak.review.judge import PLAYON, PLAYONS
from durak.rules import Rules

PAIRS = (("easy", "normal"), ("normal", "hard"), ("easy", "hard"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6, help="games per pair of levels")
    parser.add_argument("--budget-ms", type=float, default=100.0, help="hard's thinking time per move")
    parser.add_argument("--preset", default="podkidnoy")
    parser.add_argument("--six", action="store_true", help="also time a six-player game's review")
    parser.add_argument("--jobs", type=int, default=1, help="processes judging a game's moves side by side (the "
                        "bot uses two)")
    parser.add_argument("--playon", default=PLAYON, choices=PLAYONS, help="who plays the game on after each move")
    args = parser.parse_args()
    rules = Rules.from_dict({"preset": args.preset})
    seconds: list[float] = []
    same = judged_twice = 0
    extra: list[float] = []
    puzzles: list[int] = []
    asked: list[int] = []
    accuracy: dict[str, list[float]] = defaultdict(list)
    labels: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for g in range(args.games):
        for pair in PAIRS:
            for levels in (list(pair), list(reversed(pair))):
                seed = 1000 * g + PAIRS.index(pair) * 10 + (levels[0] != pair[0])
                deal, actions = play(rules, levels, seed, args.budget_ms)
                decisions = decisions_of(deal, actions, lowest_leads=True)
                started = time.perf_counter()
                judged = judge_all(decisions, seed=1, jobs=args.jobs, playon=args.playon)
                seconds.append(time.perf_counter() - started)
                candidates = [j for j in judged if puzzle.candidate(j.verdict.values) and not j.verdict.exact]
                started = time.perf_counter()  # the bot judges these again, for its puzzles
                seconds_again = judge_all([j.decision for j in candidates], seed=2, jobs=args.jobs,
                                          playon=[j.verdict.playon for j in candidates])
                extra.append(time.perf_counter() - started)
                second = {j.decision.n: j.verdict for j in seconds_again}
                puzzles.append(sum(puzzle.stable(j.verdict, second.get(j.decision.n)) for j in judged))
                asked.append(sum(puzzle.candidate(j.verdict.values) for j in judged))
                again = {j.decision.n: j.verdict.label for j in judge_all(decisions, seed=2, playon=args.playon)}
                for j in judged:
                    if j.decision.n in again:
                        judged_twice += 1
                        same += again[j.decision.n] == j.verdict.label
                for seat, level in enumerate(levels):
                    r = seat_review(judged, seat)
                    if r.accuracy is not None:
                        accuracy[level].append(r.accuracy)
                    counts = labels[level]
                    counts["moves"] += r.moves
                    counts["inaccuracy"] += r.inaccuracies
                    counts["mistake"] += r.mistakes
                    counts["blunder"] += r.blunders
    print(f"{len(seconds)} two-player reviews of {args.preset}: {statistics.median(seconds):.1f} s median, "
          f"{max(seconds):.1f} s the longest")
    print(f"labels the same in a second review (another seed): {same}/{judged_twice} = {same / judged_twice:.1%}")
    print(f"puzzles: {sum(puzzles)} of {sum(asked)} clear positions stable under a second seed, "
          f"{statistics.mean(puzzles):.1f} a game; judging them again adds {statistics.median(extra):.1f} s at the "
          f"median, {max(extra):.1f} s the longest")
    for level in ("easy", "normal", "hard"):
        c = labels[level]
        per = 100 / max(1, c["moves"])
        print(f"{level:7s} accuracy {statistics.mean(accuracy[level]):5.1f} (per game {min(accuracy[level]):.1f}–"
              f"{max(accuracy[level]):.1f}); per 100 judged moves: {c['inaccuracy'] * per:4.1f} inaccuracies, "
              f"{c['mistake'] * per:4.1f} mistakes, {c['blunder'] * per:4.1f} blunders ({c['moves']} moves)")
    if args.six:
        deal, actions = play(rules, ["easy", "normal", "hard"] * 2, 7, args.budget_ms)
        started = time.perf_counter()
        judged = judge_all(decisions_of(deal, actions, lowest_leads=True), seed=1, jobs=args.jobs)
        print(f"a six-player review: {time.perf_counter() - started:.1f} s ({len(judged)} judged moves)")


if __name__ == "__main__":
    main()
