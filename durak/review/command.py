"""``durak-review``: play one game between computer levels and review every seat's moves (``--play``), or review
a finished game of the bot's database (``--game ID``, :mod:`bot.ops.review`).

``durak-review --play --preset podkidnoy --players 2 --levels easy,hard --seed 3 --budget-ms 100 --json``
prints one JSON object: each seat's level, judged moves, accuracy and labels, and every judged move (the
forced ones are left out) with the move played, the best one, its cost in chance points as a fraction and its
label. Without ``--json``, a table a person reads.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from durak.actions import Action
from durak.ai import LEVELS, choose
from durak.ai.hard import BUDGET_MS
from durak.ai.play import fallback, next_seat
from durak.engine import apply
from durak.record import Record, knowledge
from durak.review.game import Judged, decisions_of, judge_all, seat_review
from durak.review.judge import DEALS_MAX
from durak.review.words import describe
from durak.rules import PRESETS, Rules
from durak.setup import new_game
from durak.state import State


def play(rules: Rules, levels: list[str], seed: int, budget_ms: float) -> tuple[State, list[tuple[int, Action]]]:
    """One game between ``levels`` (seat by seat): its deal and every action in order."""
    deal = state = new_game(rules, len(levels), seed)
    record = Record.start(state, lowest_leads=True)
    actions: list[tuple[int, Action]] = []
    while (seat := next_seat(state)) is not None:
        k = knowledge(state, seat, record)
        action = choose(levels[seat], k, seed * 7919 + len(actions), budget_ms) or fallback(state, seat)
        actions.append((seat, action))
        state, events = apply(state, seat, action)
        record = record.after(events)
    return deal, actions


def report(judged: list[Judged], levels: list[str | None]) -> dict[str, Any]:
    """The JSON object ``--json`` prints."""
    seats = []
    for seat, level in enumerate(levels):
        r = seat_review(judged, seat)
        seats.append({"seat": seat, "level": level, "moves": r.moves, "accuracy": r.accuracy,
                      "inaccuracies": r.inaccuracies, "mistakes": r.mistakes, "blunders": r.blunders})
    moves = []
    for j in judged:
        d, v = j.decision, j.verdict
        seen = d.knowledge.view
        leading, taking, hand = not seen.table, seen.taking, seen.hand
        moves.append({"n": d.n, "seat": d.seat, "played": describe(d.played, leading, taking, hand),
                      "best": describe(v.best, leading, taking, hand), "cost": round(v.cost, 3), "label": v.label})
    return {"seats": seats, "moves": moves}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durak-review", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--play", action="store_true", help="play a game between computer levels, then review it")
    parser.add_argument("--game", metavar="ID", help="review a finished game of the bot's database instead")
    parser.add_argument("--preset", default="podkidnoy", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deck", type=int, choices=(24, 32, 36, 52), help="the deck's size (default: the preset's)")
    parser.add_argument("--levels", default="easy,hard",
                        help="the seats' levels in order, comma-separated, repeated to fill the table")
    parser.add_argument("--budget-ms", type=float, default=BUDGET_MS, help="hard's thinking time per move")
    judging_options(parser)
    args = parser.parse_args(argv)
    if not args.play:
        parser.error("--play (a game between computer levels), or --game ID (a game of the bot's database)")
    names = [name.strip() for name in args.levels.split(",") if name.strip()]
    unknown = [name for name in names if name not in LEVELS]
    if unknown or not names:
        parser.error(f"--levels: one or more of {', '.join(LEVELS)}")
    rules = Rules.from_dict({"preset": args.preset} | ({"deck_size": args.deck} if args.deck else {}))
    if not 2 <= args.players <= rules.max_players():
        parser.error(f"--players: 2 to {rules.max_players()} for {args.preset}")
    levels = [names[seat % len(names)] for seat in range(args.players)]
    deal, actions = play(rules, levels, args.seed, args.budget_ms)
    return review_and_print(deal, actions, list(levels), args,
                            f"{args.preset}, {args.players} players, seed {args.seed}")


def judging_options(parser: argparse.ArgumentParser) -> None:
    """The options of the judging itself, for either way of naming the game."""
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes judging moves side by side")
    parser.add_argument("--deals", type=int, default=DEALS_MAX,
                        help=f"the most deals one decision is judged on (default {DEALS_MAX})")
    parser.add_argument("--json", action="store_true")


def review_and_print(deal: State, actions: list[tuple[int, Action]], levels: list[str | None],
                     args: argparse.Namespace, what: str) -> int:
    """Judge the game from ``deal`` and print it (``--json``: the object, else the table headed by ``what``)."""
    started = time.perf_counter()
    judged = judge_all(decisions_of(deal, actions, lowest_leads=True), args.seed, args.jobs, args.deals)
    seconds = time.perf_counter() - started
    out = report(judged, levels)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        show(out, f"durak-review: {what}: {len(actions)} moves, {len(judged)} judged in {seconds:.1f} s")
    return 0

def show(out: dict[str, Any], header: str) -> None:
    """The review as a table a person reads: each seat, then each labelled move."""
    print(header)
    for s in out["seats"]:
        accuracy = "–" if s["accuracy"] is None else f"{s['accuracy']:.1f} %"
        print(f"seat {s['seat']} ({s['level'] or 'a person'}): accuracy {accuracy} over {_count(s['moves'], 'move')}, "
              f"{_count(s['inaccuracies'], 'inaccuracy', 'inaccuracies')}, {_count(s['mistakes'], 'mistake')}, "
              f"{_count(s['blunders'], 'blunder')}")
    for m in out["moves"]:
        if m["label"] is not None:
            print(f"{m['n']:4d}  seat {m['seat']}  {m['label']:10s} {m['cost'] * 100:5.1f}  "
                  f"played: {m['played']:28s} best: {m['best']}")


def _count(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


if __name__ == "__main__":
    sys.exit(main())
