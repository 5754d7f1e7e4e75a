"""``hard``: a search over the positions its seat cannot tell apart, with only what that seat may know.

Once two players are left and every card the seat cannot see is in the other hand, the endgame is
solved exactly (``durak.ai.endgame``) when it fits the budget. Before that, and with more players,
it plays perfect-information Monte Carlo (determinized search): the unseen cards are dealt at
random, consistently with the seat's :class:`~durak.record.Knowledge` (the cards the table saw each
player pick up or show stay in that hand; the face-up trump card stays under the stock) and, most of
the time, with what the other player's moves this bout say of his hand (``durak.ai.belief``), and every
candidate move (at most MAX_CANDIDATES of them) is played out to the end in the same deals by the
greedy player for every seat. All candidates share each deal, so they are compared on equal luck,
and every MIN_DEALS deals the moves clearly behind the best (by two standard errors of their
deal-by-deal difference) are dropped, so the rest get more deals. Deals go on until the time budget
is spent; it covers the whole move, the exact search too, and a deal the budget ends inside is
dropped. The move with the best mean result wins, unless it beats the greedy player's own move by
less than PRIOR_ERRORS standard errors: then the greedy move, whose sense (trumps kept while the
stock lasts, a cover before a take) the noise of a few deals should not overturn.

It never cheats. In cheating mode it accuses a seat whose cheat lies on the table (a card that
breaks a rule is face up for everyone), unless that seat is its partner.

Its entry point takes a ``Knowledge``, never a ``State``: it cannot see a hidden card, and two
positions its seat cannot tell apart give the same choice for the same seed and number of deals
(a budget of 0 plays exactly MIN_DEALS; a time budget plays as many as fit, at least one).
"""

from __future__ import annotations

import math
import random
import time

from durak.actions import Act, Action
from durak.ai import belief, endgame, greedy
from durak.ai.play import play_out, score
from durak.engine import apply_in_place
from durak.record import Knowledge
from durak.state import State

BUDGET_MS = 300.0     # thinking time per move by default
MIN_DEALS = 8         # deals every choice gets, whatever the budget
MAX_DEALS = 400       # more rarely changes the choice (2,000 did not: README, Computer opponents)
PRIOR_ERRORS = 1.0    # standard errors a move must beat the greedy move's result by to be played instead
MAX_CANDIDATES = 16   # moves searched at most (the rest are dearer by the greedy player's measure)
ENDGAME_SHARE = 0.8   # of the budget, the most the exact endgame search may take before the deals (exact beats sampled)
ENDGAME_NODES_MIN = 2_000    # its positions with no time budget (repeatable: budget 0)
ENDGAME_NODES_MAX = 400_000  # and with one, where the clock stops it first (about 25 µs a position)


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
    started = time.perf_counter()
    deadline = started + budget_ms / 1000  # the whole move: the exact search and the deals
    timed = budget_ms > 0
    most = MAX_DEALS
    if _nothing_hidden(k):  # the final duel with every card known: solve it exactly if it fits the budget
        exact = endgame.best_moves(
            k.sample(rng), seat, nodes=ENDGAME_NODES_MAX if timed else ENDGAME_NODES_MIN,
            deadline=started + ENDGAME_SHARE * budget_ms / 1000 if timed else None)
        if exact is not None:
            if len(exact) == 1:
                return exact[0]
            candidates, most = exact, 1  # equal against best play: the one the playout does best with
    typical = k.sample(random.Random(seed))
    preferred = greedy.choose(typical, seat)  # ties go to the greedy player's own choice
    candidates = _shortlist(candidates, preferred, typical, seat)
    results: list[list[float]] = [[] for _ in candidates]  # per move, its result in each deal
    alive = list(range(len(candidates)))
    lacks = belief.unlikely(k)
    deals = 0
    # with no time budget exactly MIN_DEALS deals (repeatable); with one, as many as fit, at least one
    while deals < most and len(alive) > 1 and (
            (not deals or time.perf_counter() < deadline) if timed else deals < MIN_DEALS):
        deal = belief.sample(k, rng, lacks)
        finished = True
        for i in alive:
            state = deal.copy()
            apply_in_place(state, seat, candidates[i])
            results[i].append(score(play_out(state), seat))
            if timed and deals and time.perf_counter() > deadline:
                finished = False
                break
        if not finished:  # the budget ran out inside this deal: dropped, so every move keeps the same deals
            for i in alive:
                del results[i][deals:]
            break
        deals += 1
        if deals % MIN_DEALS == 0:  # the deals go to the moves still in the running
            alive = _contenders(alive, results)
    best = max(alive, key=lambda i: (sum(results[i]), candidates[i] == preferred))
    mine = candidates.index(preferred) if preferred in candidates else None
    sampled = most > 1  # the exact search's equal moves get one deal with every card known: no noise to fear
    if sampled and mine is not None and mine in alive and _paired(results[best], results[mine]) < PRIOR_ERRORS:
        return preferred  # not clearly better than the greedy move: keep its sense (trumps kept, cover before take)
    return candidates[best]


def _paired(a: list[float], b: list[float]) -> float:
    """How many standard errors the deal-by-deal difference of ``a`` over ``b`` lies above 0."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    if spread == 0:
        return math.copysign(math.inf, mean) if mean else 0.0
    return mean / spread


def _shortlist(candidates: list[Action], preferred: Action | None, typical: State, seat: int) -> list[Action]:
    """At most MAX_CANDIDATES moves to search (a lead of groups from a big hand lists thousands): the
    greedy player's choice, the cheapest move of each kind (take, pass, transfer …), then the cheapest."""
    if len(candidates) <= MAX_CANDIDATES:
        return candidates
    ordered = sorted(candidates, key=lambda a: (greedy.cost(typical, seat, a.cards), -len(a.cards)))
    kept = [preferred] if preferred in candidates else []
    kinds = {a.act for a in kept}
    for a in ordered:
        if a.act not in kinds:
            kinds.add(a.act)
            kept.append(a)
    kept += [a for a in ordered if a not in kept][:MAX_CANDIDATES - len(kept)]
    return kept[:MAX_CANDIDATES]


def _nothing_hidden(k: Knowledge) -> bool:
    """Two players left, and every card the seat cannot see is in the other one's hand (no stock, and no
    card set aside face down, as in чукотский or потайной): the rest of the game is known to the seat."""
    v = k.view
    others = [p for p in range(len(v.counts)) if p != k.seat and p not in v.out]
    if v.stock or len(others) != 1:
        return False
    other = others[0]
    return len(k.unseen) == v.counts[other] - len(k.known[other])


def _contenders(alive: list[int], results: list[list[float]]) -> list[int]:
    """The moves not clearly behind the best one: compared deal by deal (every move still alive was played
    in the same deals), a move goes when its mean difference is more than two standard errors below 0.
    Most deals end alike for two moves, so the paired difference tells them apart far sooner than
    their means would."""
    best = max(alive, key=lambda i: sum(results[i]))
    return [i for i in alive if _paired(results[i], results[best]) >= -2]


def _accusation(k: Knowledge) -> Action | None:
    v = k.view
    team = v.rules.team_of
    for action in v.legal:
        suspect = action.suspect
        if action.act is Act.ACCUSE and suspect in v.cheats and (
                team(k.seat) is None or team(suspect) != team(k.seat)):
            return action
    return None
