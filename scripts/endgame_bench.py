"""Endgames where every card is known: does the review value each move exactly, and does the hard computer keep
every won or drawn endgame?

``python scripts/endgame_bench.py --positions 200`` plays two-player games between computer levels (easy and
normal, seat by seat, seeds from 1) and takes every decision after which the seat could know every card (the
stock empty, nothing set aside face down) with a real choice, until it has ``--positions`` of them. For each, the
exact result of every honest move (``durak.ai.endgame`` with a generous ``--reference-nodes``) is the truth; it
prints how often the review's verdict has those very values (and how often it had to sample instead: a position
too big for the game's endgame budget, ``judge.Ending``; the review judges each game's endgame as one, and so
does the bench), and how often hard's move at ``--budget-ms`` keeps the best result (and how often
its exact search ran out of its budget). docs/review.md and docs/computers.md quote its figures."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from durak import Rules
from durak.ai import endgame, greedy, hard
from durak.review import decisions_of
from durak.review.command import play
from durak.review.game import Decision, ending_of, judge_ending
from durak.review.judge import Verdict


def positions(presets: list[str], wanted: int) -> list[tuple[str, int, Decision, Verdict | None]]:
    """``wanted`` decisions with a choice where every card is known, each with the review's verdict on it: the
    review judges each game's endgame as one, in order (``judge_ending``), so the bench does too."""
    found: list[tuple[str, int, Decision, Verdict | None]] = []
    seed = 0
    while len(found) < wanted:
        seed += 1
        preset = presets[seed % len(presets)]
        deal, actions = play(Rules.from_dict({"preset": preset}), ["easy", "normal"], seed, 0)
        decisions = decisions_of(deal, actions, lowest_leads=True)
        known = [decisions[i] for i in ending_of(decisions)]
        started = time.perf_counter()
        verdicts = judge_ending(known, seed)
        ENDINGS_S.append(time.perf_counter() - started)
        found += [(preset, seed, d, v) for d, v in zip(known, verdicts, strict=True)
                  if len(greedy.honest_moves(d.knowledge.view.legal)) > 1]
    return found[:wanted]


ENDINGS_S: list[float] = []  # each game's endgame judged by the review, in seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--presets", default="podkidnoy,perevodnoy")
    parser.add_argument("--budget-ms", type=float, default=hard.BUDGET_MS)
    parser.add_argument("--reference-nodes", type=int, default=5_000_000)
    args = parser.parse_args()
    taken = positions(args.presets.split(","), args.positions)
    counts = {"positions": len(taken), "decided_already": 0, "reference_too_big": 0, "review_exact": 0,
              "review_sampled": 0, "review_values_wrong": 0, "hard_keeps_best": 0, "hard_loses_result": 0,
              "hard_search_out_of_budget": 0}
    hard_ms: list[float] = []  # hard's whole move, the exact search and the tree
    reference_s = 0.0  # the exact values of every move of all the positions, searched alone: the search's speed
    lost: list[str] = []
    for preset, seed, d, verdict in taken:
        k = d.knowledge
        moves = greedy.honest_moves(k.view.legal)
        if d.played not in moves:
            moves.append(d.played)
        state = k.sample(random.Random(0))  # nothing hidden: the one deal there is
        started = time.perf_counter()
        truth = endgame.values(state, d.seat, moves, args.reference_nodes)
        reference_s += time.perf_counter() - started
        if truth is None:
            counts["reference_too_big"] += 1
            continue
        if len(set(truth)) == 1:
            counts["decided_already"] += 1
        if verdict is not None and not verdict.exact:  # too big for the review's search
            counts["review_sampled"] += 1
        elif verdict is None:
            counts["review_exact" if len(set(truth)) == 1 else "review_values_wrong"] += 1
        elif not verdict.exact:
            counts["review_values_wrong"] += 1
        elif dict(verdict.values) == dict(zip(moves, truth, strict=True)):
            counts["review_exact"] += 1
        else:
            counts["review_values_wrong"] += 1
        if endgame.best_moves(state, d.seat, nodes=hard.ENDGAME_NODES_MAX,
                              deadline=time.perf_counter() + hard.endgame_budgets(k) * args.budget_ms / 1000) is None:
            counts["hard_search_out_of_budget"] += 1
        started = time.perf_counter()
        chosen = hard.choose(k, seed, args.budget_ms)
        hard_ms.append((time.perf_counter() - started) * 1000)
        value = truth[moves.index(chosen)] if chosen in moves else -1.0
        if value == max(truth):
            counts["hard_keeps_best"] += 1
        else:
            counts["hard_loses_result"] += 1
            lost.append(f"{preset} seed {seed} move {d.n}")
    print(json.dumps({**counts, "review_endgame_s_sum": round(sum(ENDINGS_S), 1),
                      "review_endgame_s_max": round(max(ENDINGS_S), 1), "reference_s": round(reference_s, 1),
                      "hard_ms_p50": round(statistics.median(hard_ms), 1), "hard_ms_max": round(max(hard_ms), 1),
                      "hard_lost_at": lost[:10]}))


if __name__ == "__main__":
    main()
