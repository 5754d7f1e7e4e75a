"""Our engine against a pure-Python peer on the same random workload, in one process, alternating.

The peer is ``durakgame`` (PyPI, MIT; installed with ``pip install -e '.[dev]'``): a two-player
36-card podkidnoy simulator, whose ``MrRandom`` picks a random legal move. Ours plays the same
game (``podkidnoy``, two players, 36 cards) with ``durak-bench``'s random policy, in place as a
simulation does, and also checked, as the bot plays a press. Rounds alternate the two, so a busy
moment of the machine hits both; the best round of each is printed. The peer's rules are simpler
(no throw-in by a third seat, no five-card limit before the first bito), so it plays fewer actions
per game: compare microseconds per action first.

The peer offers an attacker whose defender takes every set of cards he may add as a move of its own
(up to C(18, 6) = 18,564 lists): a random game sometimes builds such lists move after move and takes
seconds or gigabytes. Those games (``--peer-limit`` seconds at most) are stopped, counted, and left out
of the peer's figures: it is measured on its quick games only, which favours it.

Memory: our engine's resident set after the first tenth of ``--memory-games`` games and after all of
them (flat: nothing is kept per game).

    python scripts/peer_bench.py --games 1000 --rounds 3 --memory-games 20000

Our engine is measured as the interpreter running this script imports it: pure Python from the dev
install, or compiled with mypyc (as the Dockerfile ships the bot) from a venv holding
``DURAK_COMPILE=1 pip install . durakgame==1.0.4``; the output says which. Instruction counts, which do
not move with the machine's load: ``valgrind --tool=cachegrind --cache-sim=no python
scripts/peer_bench.py --only NAME --games 200`` (and ``--games 0``, the start to subtract), divided by
the actions it prints.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import time
from pathlib import Path
from typing import Any

from durak.bench import compiled, play_random_game
from durak.rules import Rules


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class _TooLong(Exception):
    pass


def _stop(signum: int, frame: object) -> None:
    raise _TooLong


def _fixed(process: Any) -> Any:
    """durakgame's ``Game.process`` with its one-line bug fixed: the cards an attacker adds to a take
    (``FinishingMove``) go to the taker but were never taken out of the attacker's hand, so they were
    doubled, hands grew, and the lists of moves with them. Measured as published, the peer is slow for that
    bug's sake: compare with the fixed one."""
    from durakgame.move import FinishingMove

    def process_fixed(self: Any, move: Any) -> Any:
        if isinstance(move, FinishingMove):
            for card in move.cards:
                self.currentPlayer.hand.remove(card)
        return process(self, move)

    return process_fixed


def peer_games(games: int, first_seed: int, limit: float, fixed: bool = False) -> tuple[float, int, int]:
    """Seconds and actions of durakgame's random players over ``games`` seeds, and how many games were
    stopped after ``limit`` seconds (left out of the seconds and actions). ``fixed``: with its bug fixed."""
    import durakgame
    from durakgame.game import Game

    published = Game.process
    if fixed:
        Game.process = _fixed(published)  # type: ignore[method-assign]
    try:
        return _peer_games(durakgame, games, first_seed, limit)
    finally:
        Game.process = published  # type: ignore[method-assign]


def _peer_games(durakgame: Any, games: int, first_seed: int, limit: float) -> tuple[float, int, int]:
    actions = stopped = 0
    seconds = 0.0
    signal.signal(signal.SIGALRM, _stop)
    for seed in range(first_seed, first_seed + games):
        random.seed(seed)
        start = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            history = durakgame.play(durakgame.MrRandom(), durakgame.MrRandom())
        except _TooLong:
            stopped += 1
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        seconds += time.perf_counter() - start
        actions += len(history.p1Moves) + len(history.p2Moves)
    return seconds, actions, stopped


def our_games(games: int, first_seed: int, checked: bool) -> tuple[float, int, int]:
    rules = Rules.from_dict({"preset": "podkidnoy"})
    actions = 0
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        actions += play_random_game(rules, 2, seed, checked=checked)
    return time.perf_counter() - start, actions, 0


def figures(seconds: float, actions: int, stopped: int, games: int) -> dict[str, float]:
    played = games - stopped
    return {"games_per_s": round(played / seconds, 1), "us_per_action": round(seconds / actions * 1e6, 2),
            "actions_per_game": round(actions / played, 1), "games_stopped": stopped}


PLAYERS = {"peer": lambda games, seed, limit: peer_games(games, seed, limit),
           "peer_fixed": lambda games, seed, limit: peer_games(games, seed, limit, fixed=True),
           "ours": lambda games, seed, limit: our_games(games, seed, checked=False),
           "ours_checked": lambda games, seed, limit: our_games(games, seed, checked=True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games of each engine per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory-games", type=int, default=20000, help="our games for the memory figure (0: none)")
    parser.add_argument("--peer-limit", type=float, default=0.05, help="seconds after which a peer game is stopped")
    parser.add_argument("--only", choices=sorted(PLAYERS),
                        help="play this one alone, once, and print its actions: the workload to count instructions "
                        "under valgrind (run it with --games 0 too: the interpreter's start, to subtract)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.only:
        _, actions, stopped = PLAYERS[args.only](args.games, 0, args.peer_limit)
        print(json.dumps({"only": args.only, "games": args.games, "actions": actions, "games_stopped": stopped,
                          "engine": engine_build()}))
        return
    best: dict[str, dict[str, float]] = {}
    for r in range(args.rounds):
        seed = r * args.games
        for name, play in PLAYERS.items():
            row = figures(*play(args.games, seed, args.peer_limit), args.games)
            if name not in best or row["us_per_action"] < best[name]["us_per_action"]:
                best[name] = row
    result: dict[str, Any] = {"games_per_round": args.games, "rounds": args.rounds, "engine": engine_build(), **best,
                              "ours_speed_vs_peer_per_action": round(best["peer"]["us_per_action"]
                                                                     / best["ours"]["us_per_action"], 2),
                              "ours_checked_speed_vs_peer_per_action": round(
                                  best["peer"]["us_per_action"] / best["ours_checked"]["us_per_action"], 2),
                              "ours_speed_vs_fixed_peer_per_action": round(
                                  best["peer_fixed"]["us_per_action"] / best["ours"]["us_per_action"], 2),
                              "ours_checked_speed_vs_fixed_peer_per_action": round(
                                  best["peer_fixed"]["us_per_action"] / best["ours_checked"]["us_per_action"], 2)}
    if args.memory_games:
        tenth = max(args.memory_games // 10, 1)
        our_games(tenth, 10**6, checked=False)
        early = rss_mb()
        our_games(args.memory_games - tenth, 10**6 + tenth, checked=False)
        result["memory_mb"] = {f"after_{tenth}": round(early, 1), f"after_{args.memory_games}": round(rss_mb(), 1)}
    if args.json:
        print(json.dumps(result))
        return
    print(f"our engine: {result['engine']}")
    for name in PLAYERS:
        row = best[name]
        print(f"{name:13s} {row['games_per_s']:8.1f} games/s {row['us_per_action']:7.2f} us/action "
              f"{row['actions_per_game']:6.1f} actions/game"
              + (f" ({row['games_stopped']} games stopped)" if name.startswith("peer") else ""))
    print(f"ours per action: {result['ours_speed_vs_fixed_peer_per_action']}x the fixed peer's speed "
          f"(checked: {result['ours_checked_speed_vs_fixed_peer_per_action']}x); against the peer as published "
          f"{result['ours_speed_vs_peer_per_action']}x (checked: {result['ours_checked_speed_vs_peer_per_action']}x)")
    if "memory_mb" in result:
        print("our resident memory, MB:", result["memory_mb"])


def engine_build() -> str:
    return "compiled with mypyc" if compiled() else "pure Python"


if __name__ == "__main__":
    main()
