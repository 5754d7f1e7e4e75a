"""``hard``: a search over the positions its seat cannot tell apart, with only what that seat may know.

With two players and an empty stock every card is known, and the endgame is solved exactly
(``durak.ai.endgame``) when it fits the budget. Before that, and with more players, it plays
perfect-information Monte Carlo (determinized search): the unseen cards are dealt at random,
consistently with the seat's :class:`~durak.record.Knowledge` (the cards the table saw each player
pick up or show stay in that hand; the face-up trump card stays under the stock), and every
candidate move is played out to the end in the same deals by the greedy player for every seat. The
move with the best mean score wins; deals go on until the time budget is spent. All candidates
share each deal, so they are compared on equal luck, and every MIN_DEALS deals the moves clearly
behind the best (by two standard errors of their deal-by-deal difference) are dropped, so the rest
get more deals.

It never cheats. In cheating mode it accuses a seat whose cheat lies on the table (a card that
breaks a rule is face up for everyone), unless that seat is its partner.

Its entry point takes a ``Knowledge``, never a ``State``: it cannot see a hidden card, and two
positions its seat cannot tell apart give the same choice for the same seed and number of deals
(a budget of 0 plays exactly MIN_DEALS; a time budget plays as many as fit).
"""

from __future__ import annotations

import math
import random
import time

from durak.actions import Act, Action
from durak.ai import endgame, greedy
from durak.ai.play import play_out, score
from durak.engine import apply_in_place
from durak.record import Knowledge

BUDGET_MS = 300.0     # thinking time per move by default
MIN_DEALS = 8         # deals every choice gets, whatever the budget
MAX_DEALS = 400       # more rarely changes the choice
NODES_PER_MS = 40     # endgame positions searched per millisecond of budget (about 25 µs each)
ENDGAME_NODES_MIN = 2_000


def choose(k: Knowledge, seed: int = 0, budget_ms: float = BUDGET_MS) -> Action | None:
    """The move for ``k``'s seat: the candidate with the best mean result over sampled deals."""
    seat = k.seat
    accuse = _accusation(k)
    if accuse is not None:
        return accuse
    candidates = greedy.honest_moves(k.view.legal)
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    rng = random.Random(seed)
    v = k.view
    most = MAX_DEALS
    if v.stock == 0 and len(v.counts) == 2:  # every card is known now: solve it exactly if it is small enough
        exact = endgame.best_moves(k.sample(rng), seat, nodes=max(ENDGAME_NODES_MIN, int(budget_ms * NODES_PER_MS)))
        if exact is not None:
            if len(exact) == 1:
                return exact[0]
            candidates, most = exact, 1  # equal against best play: the one the playout does best with
    results: list[list[float]] = [[] for _ in candidates]  # per move, its result in each deal
    alive = list(range(len(candidates)))
    deadline = time.perf_counter() + budget_ms / 1000
    deals = 0
    while deals < most and len(alive) > 1 and (deals < min(MIN_DEALS, most) or time.perf_counter() < deadline):
        deal = k.sample(rng)
        for i in alive:
            state = deal.copy()
            apply_in_place(state, seat, candidates[i])
            results[i].append(score(play_out(state), seat))
        deals += 1
        if deals % MIN_DEALS == 0:  # the deals go to the moves still in the running
            alive = _contenders(alive, results)
    # ties go to the greedy player's own choice
    preferred = greedy.choose(k.sample(random.Random(seed)), seat)
    best = max(alive, key=lambda i: (sum(results[i]), candidates[i] == preferred))
    return candidates[best]


def _contenders(alive: list[int], results: list[list[float]]) -> list[int]:
    """The moves not clearly behind the best one: compared deal by deal (every move still alive was played
    in the same deals), a move goes when its mean difference is more than two standard errors below 0.
    Most deals end alike for two moves, so the paired difference tells them apart far sooner than
    their means would."""
    best = max(alive, key=lambda i: sum(results[i]))
    keep = []
    for i in alive:
        diffs = [a - b for a, b in zip(results[i], results[best], strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else 1.0
        if mean + 2 * spread >= 0:
            keep.append(i)
    return keep


def _accusation(k: Knowledge) -> Action | None:
    v = k.view
    team = v.rules.team_of
    for action in v.legal:
        suspect = action.suspect
        if action.act is Act.ACCUSE and suspect in v.cheats and (
                team(k.seat) is None or team(suspect) != team(k.seat)):
            return action
    return None
