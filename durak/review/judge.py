"""The game review: what each decision a player made was worth to him, judged only on what he knew then.

For a decision, every candidate move (the honest legal moves; a hand of groups, which lists thousands of leads,
the same shortlist the ``hard`` computer weighs) is valued for the seat that made it: the share of deals in
which, after that move and a game played on to its end, he is not the durak (a draw counts half). Who plays it
on (``PLAYON``, "checked"): the greedy player at every seat, and where that does not soon settle on a cost of
(nearly) nothing for the move played, the ``hard`` computer's tree instead, which agrees better with a stronger
judge but takes 2.3 times as long (docs/review.md). The deals are the seat's :class:`~durak.record.Knowledge`
with every card he could not see dealt at random, exactly what a computer at his seat is given; never the true
deal. All the moves are played on the same deals (common random numbers), so a difference between two moves is
the moves', not the deals'. Deals are added in batches until the played move's label is settled (its cost, give or
take twice its standard error, lies in one label's band) or ``DEALS_MAX`` is reached.

The cost of a move is the best move's value less the played one's, in chance points (0.23 = 23 points).
Labels, as chess sites give them: an inaccuracy from ``INACCURACY``, a mistake from ``MISTAKE``, a blunder from
``BLUNDER``. A forced move (one candidate, or every candidate worth the same on every deal) is not judged. A
player's accuracy in a game is the mean over his judged moves of lichess's per-move accuracy
``103.1668 · e^(−0.04354 · cost in points) − 3.1669``, kept within 0–100.

Where the seat can know every card (two players left, the stock empty, nothing set aside face down), nothing is
sampled: each candidate is valued exactly, against best play on both sides (``durak.ai.endgame``: 1 the seat
escapes, 0.5 a draw, 0 he is the durak), so a move that throws away a won endgame costs 100 points and one among
moves that all lose costs nothing. A position too big for ``EXACT_NODES`` positions a deal (of ``deals_max``) is
sampled as above. A game's endgame is judged decision after decision in one process (:class:`Ending`): what the
search for one decision solved serves the next (its position most often lies in the tree searched before, for
either seat), and the positions the decisions may search are one budget, which the first and biggest may spend.

A move can be judged a mistake although the game was won (the deal was kind), and a move that only the true deal
could justify is not called best: the review never looks at cards the player could not see (docs/review.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from durak.actions import Action
from durak.ai import endgame, greedy
from durak.ai.hard import Weighing, shortlist
from durak.ai.play import play_out, score
from durak.engine import apply_in_place
from durak.record import Knowledge

INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
LABELS = ((BLUNDER, "blunder"), (MISTAKE, "mistake"), (INACCURACY, "inaccuracy"))
BATCH = 64        # deals added at a time
DEALS_MIN = 64    # before a label may be settled
DEALS_MAX = 2048  # the most one decision is given (512 left a fifth of the labels to the seed)
CANDIDATES = 12   # moves weighed at most (the played one always among them)
# who plays the game on after each candidate: "greedy", the greedy player at every seat; "tree", the hard
# computer's tree (durak.ai.hard.Weighing), which learns the seat's later moves as the deals add up; "checked",
# the greedy player, and the tree again wherever the greedy play-on finds the move played costs something
# (``CHECK_FROM``): the greedy play-on's errors are mostly costs it sees where a sound plan has none
PLAYONS = ("greedy", "tree", "checked")
CHECK_FROM = INACCURACY / 2
CHECK_DEALS = 512  # the most the greedy play-on is given as the checked play-on's filter
PLAYON = "checked"  # the greedy play-on, and the tree where a label is at stake (docs/review.md)
MARGIN = 2.0  # standard errors of a cost's difference within which its label must stay to be settled
EXACT_NODES = 200     # positions an exact endgame may search for one decision, per deal it would be given else:
#                       about what sampling that many deals costs (400,000 at the review's 2,048), else it is sampled
EXACT_GAME_NODES = 3_072_000  # the most a game's endgame may search, its decisions' EXACT_NODES together (at most):
#                               about 20 s of one process for the biggest of endgame_bench.py's 200 positions, which
#                               needs 2.6 million, with the compiled engine (docs/review.md)


class Ending:
    """A game's exact endgame, judged decision after decision in one process: the positions solved for each are
    kept for the next, and the game's budget of positions is shared among them. The first decision, the biggest
    (the most cards in hand), may spend what the others would each have been given, up to ``EXACT_GAME_NODES``;
    every decision may search at least its own ``EXACT_NODES`` a deal. The same decisions in the same order give
    the same verdicts."""

    def __init__(self, decisions: int, deals_max: int = DEALS_MAX) -> None:
        self.each = EXACT_NODES * deals_max
        self.left = min(decisions * self.each, max(EXACT_GAME_NODES, self.each))
        self.table = endgame.Solved(size=2 * self.left + self.each * decisions)  # never emptied within the game

    def nodes(self) -> int:
        """What the next decision may search."""
        return max(self.each, self.left)

    def spent(self, nodes: int) -> None:
        self.left -= nodes


def label_of(cost: float) -> str | None:
    """The label a cost earns: a function of the cost alone, so a costlier move never gets a milder one."""
    return next((name for bound, name in LABELS if cost >= bound), None)


def move_accuracy(cost: float) -> float:
    """lichess's accuracy of one move from the chance it lost, 0–100 (100: the best move)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * cost * 100) - 3.1669))


@dataclass(frozen=True, slots=True)
class Verdict:
    """One judged decision: each candidate's value for the seat (best first), the best and the played move."""

    values: tuple[tuple[Action, float], ...]
    played: Action
    best: Action
    cost: float
    label: str | None
    deals: int
    exact: bool = False  # every card known: the values are the results against best play, not samples
    playon: str = "greedy"  # who played the game on ("greedy" or "tree"): a second judging asks the same one

    @property
    def chance(self) -> float:
        """The seat's chance before the move, with the best move (the review's graph)."""
        return self.values[0][1]


def judge(k: Knowledge, played: Action, seed: int = 0, deals_max: int = DEALS_MAX,
          between: Callable[[], object] | None = None, playon: str = PLAYON, settle: bool = True,
          margin: float = MARGIN, ending: Ending | None = None) -> Verdict | None:
    """The verdict on ``played`` at ``k``'s seat, or None for a forced move. Given the seat's knowledge alone, it
    cannot look at a card the seat could not see; the same seed gives the same verdict. ``between`` is called
    before each deal (the bot's review steps aside there while a press is handled). ``playon``: who plays the game
    on after each move (``PLAYONS``); ``settle=False`` plays all of ``deals_max`` (the calibration's judge);
    ``margin``: the standard errors a label must stand by to be settled. The verdict names the play-on it was
    judged with ("checked" gives "greedy" or "tree"), for a second judging of the same position to ask it again.
    ``ending``: the game's endgame judged so far (:class:`Ending`), where every card is known; else the decision
    searches alone, with ``EXACT_NODES`` a deal."""
    seat = k.seat
    candidates = choices(k, played)
    if len(candidates) < 2:
        return None
    typical = k.sample(random.Random(seed))
    if endgame.nothing_hidden(k):  # the one deal there is, every move of it weighed: no shortlist
        if ending is None:
            exact = endgame.values(typical, seat, candidates, EXACT_NODES * deals_max)
        else:
            spent: list[int] = []
            exact = endgame.values(typical, seat, candidates, ending.nodes(), solved=ending.table, spent=spent)
            ending.spent(spent[0])
        if exact is not None:
            return _verdict(candidates, exact, played, 1, exact=True)
    candidates = shortlist(candidates, None, typical, seat, CANDIDATES)
    if played not in candidates:
        candidates[-1] = played
    if playon != "checked":
        return _sampled(k, candidates, played, seed, deals_max, between, playon, settle, margin)[0]
    # the greedy play-on as a filter: its verdict stands where it settles on a cost under CHECK_FROM (no label);
    # it stops as soon as the move surely costs that much, or after CHECK_DEALS deals unsettled, and the tree
    # judges anew (the greedy play-on's figure would be thrown away: its last deals are the review's dearest)
    first, settled = _sampled(k, candidates, played, seed, min(deals_max, CHECK_DEALS) if settle else deals_max,
                              between, "greedy", settle, margin, escalate=CHECK_FROM)
    if first is None or (settled and first.cost < CHECK_FROM):
        return first
    return _sampled(k, candidates, played, seed, deals_max, between, "tree", settle, margin)[0]


def choices(k: Knowledge, played: Action) -> list[Action]:
    """The moves weighed at a decision: the honest ones, and the one played if it was a cheat."""
    candidates = greedy.honest_moves(k.view.legal)
    if played not in candidates:
        candidates.append(played)  # a cheat, judged beside the honest moves
    return candidates


def _sampled(k: Knowledge, candidates: list[Action], played: Action, seed: int, deals_max: int,
             between: Callable[[], object] | None, playon: str, settle: bool, margin: float,
             escalate: float | None = None) -> tuple[Verdict | None, bool]:
    """``candidates`` valued on deals of ``k`` with one play-on, and whether the played move's label settled
    (False where ``deals_max`` ran out first, or where it stopped once the move surely cost ``escalate``)."""
    seat = k.seat
    rng = random.Random(seed)
    results: list[list[float]] = [[] for _ in candidates]
    weighing = Weighing(k, candidates, rng) if playon == "tree" else None
    settled = not settle
    while True:
        for _ in range(BATCH):
            if between is not None:
                between()
            deal = k.sample(rng)
            if weighing is not None:
                for outcomes, outcome in zip(results, weighing.round(deal), strict=True):
                    outcomes.append(outcome)
                continue
            for outcomes, action in zip(results, candidates, strict=True):
                s = deal.copy()
                apply_in_place(s, seat, action)
                outcomes.append(score(play_out(s), seat))
        n = len(results[0])
        if settle and n >= DEALS_MIN:
            low, high = _cost_bounds(results, candidates.index(played), margin)
            settled = label_of(low) == label_of(high)
            if settled or (escalate is not None and low >= escalate):
                break
        if n >= deals_max:
            break
    if all(r == results[0] for r in results[1:]):
        return None, True  # every move comes to the same on every deal
    return _verdict(candidates, [sum(r) / n for r in results], played, n, playon=playon), settled


def _verdict(candidates: list[Action], means: list[float], played: Action, deals: int,
             exact: bool = False, playon: str = "greedy") -> Verdict | None:
    if all(m == means[0] for m in means[1:]):
        return None  # every move comes to the same
    order = sorted(range(len(candidates)), key=lambda i: -means[i])
    best = order[0]
    cost = max(0.0, means[best] - means[candidates.index(played)])
    return Verdict(tuple((candidates[i], means[i]) for i in order), played, candidates[best], cost,
                   label_of(cost), deals, exact, playon)


def _cost_bounds(results: Sequence[Sequence[float]], played: int, margin: float) -> tuple[float, float]:
    """The played move's cost, less and plus ``margin`` standard errors: against each other move the mean of
    their difference on the same deals, the bounds the largest over the other moves. The label is settled where
    both bounds earn the same one (a move that looks best must look best by enough to be no inaccuracy)."""
    n = len(results[played])
    low = high = 0.0
    for i, other in enumerate(results):
        if i == played:
            continue
        diffs = [o - p for o, p in zip(other, results[played], strict=True)]
        mean = sum(diffs) / n
        spread = margin * math.sqrt(max(0.0, sum((d - mean) ** 2 for d in diffs) / (n - 1)) / n)
        low, high = max(low, mean - spread), max(high, mean + spread)
    return low, high
