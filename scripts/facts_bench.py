"""How many of the deals a seat imagines contradict what the table knows of the deal: the defender's first
decision (the attacker led first because he holds the lowest trump), with and without that fact.

    python scripts/facts_bench.py [--games 200] [--deals 64] [--players 2]
"""

from __future__ import annotations

import argparse
import random

from durak import Rules, apply, new_game
from durak.ai import greedy
from durak.ai.play import fallback
from durak.record import Record, knowledge


def contradicted(games: int, deals: int, players: int, with_fact: bool) -> float:
    rules, rng, bad, total = Rules(), random.Random(1), 0, 0
    for seed in range(games):
        deal = state = new_game(rules, players, seed)
        first = state.attacker
        state, _ = apply(state, first, greedy.choose(state, first) or fallback(state, first))
        laid = [set(d) - set(h) for d, h in zip(deal.hands, state.hands, strict=True)]
        k = knowledge(state, state.defender or 0, Record.start(state, lowest_leads=with_fact))
        for _ in range(deals):
            sampled = k.sample(rng)
            lows = [min((c >> 2 for c in (*h, *mine) if c & 3 == sampled.trump), default=99)
                    for h, mine in zip(sampled.hands, laid, strict=True)]
            bad += min(lows) < 99 and lows.index(min(lows)) != first
            total += 1
    return bad / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--deals", type=int, default=64)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    for with_fact in (False, True):
        share = contradicted(args.games, args.deals, args.players, with_fact)
        print(f"{'with' if with_fact else 'without'} the first lead's fact: {share:.1%} of the defender's "
              f"{args.games * args.deals} imagined deals contradict it ({args.players} players)")


if __name__ == "__main__":
    main()
