"""``hard``: a search over the positions its seat cannot tell apart, with only what that seat may know.

Once two players are left and every card the seat cannot see is in the other hand, the endgame is
solved exactly (``durak.ai.endgame``) when it fits its time (below). Before that, and with more players, it
searches a tree over the moves (information-set Monte Carlo tree search, single observer). Each
iteration deals the unseen cards at random, consistently with the seat's
:class:`~durak.record.Knowledge` (the cards the table saw each player pick up or show stay in that hand;
the face-up trump card stays under the stock) and, most of the time, with what the other player's moves
this bout say of his hand (``durak.ai.belief``). It walks down the tree by the moves legal in that deal,
each seat choosing by UCB1 what did best for it so far (a move counts as tried only in the deals it was
legal in), adds one move, and plays the rest of the game out with the greedy player for every seat. In the
tree the other seats lean on the greedy player's move: each time, with probability ``LEAN``, they play it, and
otherwise their best so far by UCB1. Bound to it, the tree would read the normal player perfectly and anyone
else wrongly; free of it, it would expect every seat to find its best reply, which few do (docs/computers.md, Computer
opponents, has what each was worth). The choices in the tree are made on what held over many deals, never
on the one deal: unlike a search of each deal by itself, it does not assume that every seat will know the
hidden cards later. It weighs at most
``MAX_CANDIDATES`` moves at the root and ``WIDTH`` below (the greedy player's choice, the cheapest move of
each kind, then the cheapest). It stops when the budget is spent or when the most tried move at the root
can no longer be caught in the time left, and plays the most tried move (a tie: the greedy player's own).
The budget covers the whole move, the exact endgame search aside. A budget too short for ``ITERATIONS_MIN`` iterations
(a small ``COMPUTER_BUDGET_MS``, or a worker shared by many tables) tells the moves apart no better than
chance, so then it plays the greedy player's move.

It never cheats. In cheating mode it accuses a seat whose cheat lies on the table (a card that
breaks a rule is face up for everyone), unless that seat is its partner.

Its entry point takes a ``Knowledge``, never a ``State``: it cannot see a hidden card, and two
positions its seat cannot tell apart give the same choice for the same seed and number of
iterations (a budget of 0 plays exactly ``ITERATIONS_MIN``; a time budget as many as fit, at least one).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import NamedTuple

from durak.actions import Act, Action
from durak.ai import belief, endgame, greedy
from durak.ai.play import fallback, next_seat, play_out, score
from durak.engine import apply_in_place, legal_actions
from durak.record import Knowledge
from durak.state import State

BUDGET_MS = 300.0     # thinking time per move by default
ITERATIONS_MIN = 64   # iterations that tell moves apart: a budget of 0 plays exactly these; fewer, the greedy move
EXPLORE = 0.7         # UCB1's weight of the less tried moves (results lie in 0..1)
LEAN = 0.75           # how often another seat plays the greedy player's move in the tree rather than its best there
MAX_CANDIDATES = 16   # moves weighed at most at the root (the rest are dearer by the greedy player's measure)
WIDTH = 8             # and in the positions below it
CHECK_EVERY = 16      # iterations between looks at whether the most tried move can still be caught
# the exact endgame search may take up to ENDGAME_BUDGETS budgets where the two hands hold at most ENDGAME_CARDS:
# a game comes to it once (what it solved answers the next moves at once), a won endgame thrown away loses the
# whole game, and most take a few milliseconds; should it not finish, the tree still gets TREE_AFTER of a budget.
# Bigger ones (наваленный deals the whole deck: every card known from the first move) are far beyond it, and get
# ENDGAME_SHARE of the budget
ENDGAME_BUDGETS = 8.0
ENDGAME_CARDS = 16
ENDGAME_SHARE = 0.8
TREE_AFTER = 0.2
ENDGAME_NODES_MIN = 2_000    # its positions with no time budget (repeatable: budget 0)
ENDGAME_NODES_MAX = 400_000  # and with one (2–3 s compiled, about 50 MB of table), if the clock has not stopped
#                              it first
# the endgame positions this process has solved, kept for its next moves (a move is repeatable without a time
# budget: then nothing is kept or read)
SOLVED = endgame.Solved()


class Thought(NamedTuple):
    """A move and how it was found: the tree's iterations (0 where no tree was needed: one move, an
    accusation, the exact endgame), fewer than ``ITERATIONS_MIN`` meaning the greedy player's move."""

    action: Action | None
    iterations: int


def choose(k: Knowledge, seed: int = 0, budget_ms: float = BUDGET_MS,
           pause: Callable[[], bool] | None = None) -> Action | None:
    """The move for ``k``'s seat: the exact endgame's, or the search's most tried.

    ``pause`` is called between two iterations of the tree: it may wait while the machine has more urgent
    work (the bot's presses), and says whether it waited. The budget is time on the clock, so a search that
    pauses thinks less; with no time budget it is never called (the move stays repeatable)."""
    return think(k, seed, budget_ms, pause).action


def think(k: Knowledge, seed: int = 0, budget_ms: float = BUDGET_MS,
          pause: Callable[[], bool] | None = None) -> Thought:
    """:func:`choose`'s move with the iterations it took (the bot's load test reports them)."""
    seat = k.seat
    accuse = _accusation(k)
    if accuse is not None:
        return Thought(accuse, 0)
    candidates = greedy.honest_moves(k.view.legal)
    if len(candidates) <= 1:
        return Thought(candidates[0] if candidates else None, 0)
    rng = random.Random(seed)
    started = time.perf_counter()
    deadline = started + budget_ms / 1000  # the whole move, unless the exact endgame search takes longer
    timed = budget_ms > 0
    exact = None
    proven: list[tuple[float, Action]] = []  # the moves the exact search finished, where it ran out of time
    if endgame.nothing_hidden(k):  # the final duel with every card known: solve it exactly if it fits the budget
        exact = endgame.best_moves(
            k.sample(rng), seat, nodes=ENDGAME_NODES_MAX if timed else ENDGAME_NODES_MIN,
            deadline=started + endgame_budgets(k) * budget_ms / 1000 if timed else None,
            solved=SOLVED if timed else None, values=proven)
        if exact is not None and len(exact) == 1:
            return Thought(exact[0], 0)
        deadline = max(deadline, time.perf_counter() + TREE_AFTER * budget_ms / 1000)
    typical = k.sample(random.Random(seed))
    preferred = greedy.choose(typical, seat)  # ties go to the greedy player's own choice
    if exact is not None:  # equal against best play: the one the greedy play-out does best with, every card known
        return Thought(max(exact, key=lambda a: (_played_out(typical, seat, a), a == preferred)), 0)
    lost = {a for v, a in proven if v == 0.0}  # proven to lose: no unproven move can do worse
    if lost and any(a not in lost for a in candidates):
        candidates = [a for a in candidates if a not in lost]
    candidates = shortlist(candidates, preferred, typical, seat)
    thought = _tree(k, candidates, preferred, rng, deadline if timed else None, pause if timed else None)
    return _keep_proven(thought, proven)


def endgame_budgets(k: Knowledge) -> float:
    """The budgets the exact endgame search may take (above)."""
    return ENDGAME_BUDGETS if sum(k.view.counts) <= ENDGAME_CARDS else ENDGAME_SHARE


def _keep_proven(thought: Thought, proven: list[tuple[float, Action]]) -> Thought:
    """The tree's move, unless the exact search, though unfinished, proved another move to draw where the tree's
    is proven worse or was not reached: a drawn endgame is never thrown away for a sampled guess."""
    if not proven:
        return thought
    best, move = max(proven, key=lambda p: p[0])
    mine = next((v for v, a in proven if a == thought.action), None)
    if best >= endgame.DRAW and (mine is None or mine < best):
        return Thought(move, thought.iterations)
    return thought


def _played_out(state: State, seat: int, action: Action) -> float:
    s = state.copy()
    apply_in_place(s, seat, action)
    return score(play_out(s), seat)


class _Node:
    """A move in the tree: how often it was legal when its seat chose (``avail``), tried (``visits``), and
    the results of those tries for the seat that made it (``total``)."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def _tree(k: Knowledge, candidates: list[Action], preferred: Action | None, rng: random.Random,
          deadline: float | None, pause: Callable[[], bool] | None = None) -> Thought:
    """The search of the module's doc: its iterations until ``deadline`` (None: ``ITERATIONS_MIN``)."""
    lacks = belief.unlikely(k)
    root = _Node()
    began = time.perf_counter()
    iterations = 0
    while True:
        _iterate(root, belief.sample(k, rng, lacks), k.seat, candidates, rng)
        iterations += 1
        if deadline is None:
            if iterations >= ITERATIONS_MIN:
                break
        else:
            if iterations % CHECK_EVERY == 0 or iterations == 1:
                now = time.perf_counter()
                if now >= deadline or _settled(root, iterations / (now - began) * (deadline - now)):
                    break
            if pause is not None and pause() and time.perf_counter() >= deadline:  # it waited past the budget
                break
    if iterations < ITERATIONS_MIN and preferred in candidates:  # too few to tell the moves apart
        return Thought(preferred, iterations)
    return Thought(max(candidates, key=lambda a: (root.children[a].visits if a in root.children else 0,
                                                  a == preferred)), iterations)


def _iterate(root: _Node, state: State, seat: int, candidates: list[Action], rng: random.Random,
             first: Action | None = None) -> float:
    """One iteration of the tree on the deal ``state`` (played in place): down the tree, one move added, the rest
    played out by the greedy player; the result for ``seat``. ``first``: the seat's move at the root, given rather
    than chosen (the review's :class:`Weighing` tries each in turn)."""
    node, mover, moves = root, seat, candidates
    lean: Action | None = first
    path: list[tuple[_Node, int]] = []
    while True:
        if lean is not None:  # another seat plays the greedy player's move this time (or the root's move is given)
            chosen = lean
            child = node.children.get(chosen)
            fresh = child is None
            if child is None:
                node.children[chosen] = child = _Node()
            node = child
        else:
            untried: list[Action] = []
            for a in moves:
                child = node.children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            fresh = bool(untried)
            if untried:  # a move not tried here yet: tried now, then played out
                chosen = untried[int(rng.random() * len(untried))]
                node.children[chosen] = node = _Node()
            else:
                chosen, node = _ucb(node, moves)
        if fresh:
            node.avail = 1
        apply_in_place(state, mover, chosen)
        path.append((node, mover))
        after = next_seat(state)
        if fresh or after is None:
            break
        mover = after
        lean = None
        if mover != seat and rng.random() < LEAN:
            lean = greedy.choose(state, mover) or fallback(state, mover)
            continue
        moves = shortlist(greedy.honest_moves(legal_actions(state, mover)), None, state, mover, WIDTH)
        if not moves:
            break
    end = play_out(state)
    for n, who in path:
        n.visits += 1
        n.total += score(end, who)
    return score(end, seat)


class Weighing:
    """Each of ``candidates`` for ``k``'s seat tried in turn on the same deals, the game played on by the tree
    (the seat's later moves by what did best for it so far, the others leaning on the greedy player's move, as in
    :func:`choose`): the review's values, whose play-on learns as the deals add up (docs/review.md)."""

    def __init__(self, k: Knowledge, candidates: list[Action], rng: random.Random) -> None:
        self.k, self.candidates, self.rng = k, candidates, rng
        self.root = _Node()

    def round(self, deal: State) -> list[float]:
        """Each candidate's result on ``deal`` (one the seat cannot rule out), in ``candidates``' order."""
        return [_iterate(self.root, deal.copy(), self.k.seat, self.candidates, self.rng, first=c)
                for c in self.candidates]


def _ucb(node: _Node, moves: list[Action]) -> tuple[Action, _Node]:
    """The move to try among ``moves`` (each tried here before): the best result so far, plus UCB1's bonus
    for a move tried seldom among the times it could have been."""
    best: tuple[Action, _Node] | None = None
    top = -1.0
    for a in moves:
        c = node.children[a]
        value = c.total / c.visits + EXPLORE * math.sqrt(math.log(c.avail) / c.visits)
        if value > top:
            top, best = value, (a, c)
    assert best is not None
    return best


def _settled(root: _Node, left: float) -> bool:
    """The most tried move at the root leads the next by more tries than the ``left`` iterations could add."""
    tries = sorted((c.visits for c in root.children.values()), reverse=True)
    return len(tries) > 1 and tries[0] - tries[1] > left


def shortlist(candidates: list[Action], preferred: Action | None, state: State, seat: int,
               width: int = MAX_CANDIDATES) -> list[Action]:
    """At most ``width`` moves to search (a lead of groups from a big hand lists thousands): the greedy
    player's choice (``preferred``, or worked out here), the cheapest move of each kind (take, pass,
    transfer …), then the cheapest."""
    if len(candidates) <= width:
        return candidates
    if preferred is None:
        preferred = greedy.choose(state, seat)
    ordered = sorted(candidates, key=lambda a: (greedy.cost(state, seat, a.cards), -len(a.cards)))
    kept = [preferred] if preferred in candidates else []
    kinds = {a.act for a in kept}
    for a in ordered:
        if a.act not in kinds:
            kinds.add(a.act)
            kept.append(a)
    kept += [a for a in ordered if a not in kept][:width - len(kept)]
    return kept[:width]


def _accusation(k: Knowledge) -> Action | None:
    v = k.view
    team = v.rules.team_of
    for action in v.legal:
        suspect = action.suspect
        if action.act is Act.ACCUSE and suspect in v.cheats and (
                team(k.seat) is None or team(suspect) != team(k.seat)):
            return action
    return None
