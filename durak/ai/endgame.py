"""The exact endgame of the last two players: once no card is hidden, the game is one of perfect information.

When two players hold cards (a two-player game, or the final duel of a bigger one) and every card a
seat cannot see lies in the other hand (the stock is empty and nothing is set aside face down), the
game can be searched to the end: minimax over the honest moves, in the order the playouts use (the
first awaited seat moves; its greedy move tried first), with a table of positions already solved.
Results are 1 (not the durak), 0.5 (a draw) or 0, so a line that reaches the best result possible
ends the search of its node.

Positions can repeat: a transfer bounces the bout back (переводной), hands pass on (круговой),
cards taken are led again. A position met again on the line being searched counts as a draw:
neither side can force the game on from it, and a search that followed it would never end. Values
found under that assumption are kept in the table like the others: the usual approximation of
game-graph search, exact whenever the best line never repeats.

The table keeps a position by its shape where the rules allow (:func:`key_of`): the ranks numbered anew among
those still in play and the table's pairs in one order, so that playing the lone seven or the lone eight of a
suit, once no other seven or eight is in play, leads to one position, solved once.

A node budget, a deadline and a depth limit keep it quick and safe: past any of them the caller
plays on with the Monte Carlo search. A caller that solves position after position of the same games (the
``hard`` computer's thinking process) keeps what it solved in a :class:`Solved` table: a search that ran out of
time leaves its finished subtrees there, and the next move's search, in the same endgame a move later, starts
from them.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable

from durak.actions import Action
from durak.ai import greedy
from durak.ai.greedy import honest_moves
from durak.ai.play import next_seat, score
from durak.engine import apply_in_place, legal_actions
from durak.record import Knowledge
from durak.rules import Ranking, Royal, Rules
from durak.state import State

Key = tuple[object, ...]
Bounds = tuple[float, float]  # what is known of a position's result: at least, at most
DRAW = 0.5
RESULTS = (0.0, DRAW, 1.0)
BOUNDS = {(low, high): (low, high) for low in RESULTS for high in RESULTS if low <= high}  # shared, not one a node
UNKNOWN = BOUNDS[0.0, 1.0]
MAX_DEPTH = 300        # moves along one line; far below Python's recursion limit
CLOCK_EVERY = 256      # nodes between two looks at the clock


class OutOfBudget(Exception):
    """The position needs more nodes, time or depth than allowed."""


# a bound's code in a Table: 1 + 3 × (twice its low) + (twice its high); 0 for a slot not used
CODES: list[Bounds] = [UNKNOWN] * 9
for _low, _high in BOUNDS.values():
    CODES[int(_low * 2) * 3 + int(_high * 2)] = BOUNDS[_low, _high]


class Table:
    """Positions' bounds by their key's 64-bit hash, in two flat arrays (open addressing, at most half the slots
    used, doubled when that is reached): 9 to 18 bytes a position, where a dict kept about 220 (the hash as a
    Python int, its entry and its slot): the process solving a two-million-position endgame at 77 MB, not 450."""

    def __init__(self) -> None:
        self.count = 0
        self.mask = 1023
        self.hashes = array("q", [0]) * 1024
        self.codes = bytearray(1024)

    def __len__(self) -> int:
        return self.count

    def get(self, h: int) -> Bounds:
        h = h or 1  # 0 marks nothing
        mask, hashes, codes = self.mask, self.hashes, self.codes
        i = h & mask
        while True:
            c: int = codes[i]
            if c == 0:
                return UNKNOWN
            if hashes[i] == h:
                return CODES[c - 1]
            i = (i + 1) & mask

    def put(self, h: int, bounds: Bounds) -> None:
        h = h or 1
        code = 1 + int(bounds[0] * 2) * 3 + int(bounds[1] * 2)
        mask, hashes, codes = self.mask, self.hashes, self.codes
        i = h & mask
        while True:
            c: int = codes[i]
            if c == 0:
                break
            if hashes[i] == h:
                codes[i] = code
                return
            i = (i + 1) & mask
        hashes[i] = h
        codes[i] = code
        self.count += 1
        if 2 * self.count > mask:
            self._grow()

    def _grow(self) -> None:
        old_hashes, old_codes = self.hashes, self.codes
        size = 2 * len(old_codes)
        self.mask = mask = size - 1
        self.hashes = hashes = array("q", [0]) * size
        self.codes = codes = bytearray(size)
        for j in range(len(old_codes)):
            code: int = old_codes[j]
            if code:
                h: int = old_hashes[j]
                i = h & mask
                while codes[i]:
                    i = (i + 1) & mask
                hashes[i] = h
                codes[i] = code


class Solved:
    """Positions solved, for each set of rules and pair of seats left (a key says nothing of the rules: the same
    cards go on otherwise in переводной), kept from one search to the next; emptied when it holds ``size``. A
    result is kept as the lower seat of the pair sees it: the other one's is its complement (one of the two is the
    durak, or neither), so a search for either seat finds what a search for the other learned."""

    def __init__(self, size: int = 400_000) -> None:
        self.size = size
        self.seats: dict[tuple[Rules | None, int], Table] = {}

    def of(self, rules: Rules | None, anchor: int) -> Table:
        """The table of results as seat ``anchor`` sees them."""
        if sum(len(m) for m in self.seats.values()) >= self.size:
            self.seats.clear()
        table = self.seats.get((rules, anchor))
        if table is None:
            table = self.seats[rules, anchor] = Table()
        return table


def _key(s: State) -> Key:
    """Everything of a no-stock position that decides how it can go on."""
    return (tuple(tuple(sorted(h)) for h in s.hands), tuple(s.attacks), tuple(s.covers),
            tuple(s.bypassed), s.bypassed_at, s.attacker, s.defender, s.taking, s.passed, s.shown, s.first_bout, s.cap,
            tuple(s.out), s.trump, s.sixes, s.emptied, s.scores, s.pogons, s.lead_open, s.window,
            s.drew, s.swapped, s.covered, s.self_thrown)


def _shape(s: State) -> Key:
    """:func:`_key` with the cards' ranks numbered anew among the ranks still in play (lowest 0) and the table's
    pairs in a fixed order: two positions that differ only in which card of a rank no longer met was played
    (a lone 7 thrown while the lone 8 stays in hand, or the other way round), or in the order the same pairs were
    laid, go on the same way, and are solved once. Only for rules under which a card's rank matters by its
    order and its equality alone (:func:`_ranks_relative`), never by its value."""
    hands = s.hands
    attacks, covers = s.attacks, s.covers
    present = 0  # the ranks in play, a bit each
    for h in hands:
        for c in h:
            present |= 1 << (c >> 2)
    for c in attacks:
        present |= 1 << (c >> 2)
    for cover in covers:
        if cover is not None:
            present |= 1 << (cover >> 2)
    for c in s.bypassed:
        present |= 1 << (c >> 2)
    new = [0] * 15
    i = 0
    for r in range(15):
        if present >> r & 1:
            new[r] = i << 2
            i += 1
    table: Key
    if s.bypassed or s.coverers or s.lead_open:  # where a pair lies on the table matters there
        table = (tuple([new[a >> 2] | a & 3 for a in attacks]),
                 tuple([-1 if c is None else new[c >> 2] | c & 3 for c in covers]),
                 tuple([new[b >> 2] | b & 3 for b in s.bypassed]), s.bypassed_at)
    else:
        table = tuple(sorted([(new[a >> 2] | a & 3, -1 if c is None else new[c >> 2] | c & 3)
                              for a, c in zip(attacks, covers, strict=True)]))
    return (tuple([_hand(h, new) for h in hands]), table,
            s.attacker, s.defender, s.taking, s.passed, s.shown, s.first_bout, s.cap,
            tuple(s.out), s.trump, s.sixes, s.emptied, s.scores, s.pogons, s.lead_open, s.window,
            s.drew, s.swapped, s.covered, tuple(sorted([new[c >> 2] | c & 3 for c in s.self_thrown])))


def _hand(hand: list[int], new: list[int]) -> int:
    """A hand's cards, ranks numbered anew, as one bit each: a set that hashes quicker than a sorted tuple."""
    bits = 0
    for c in hand:
        bits |= 1 << (new[c >> 2] | c & 3)
    return bits


def _ranks_relative(rules: Rules) -> bool:
    """No rule reads a card's rank by its value: not королевский's lowest rank and ace, not японский's queen,
    not фигурный's tens to aces nor погонный's pogony (their ranks are kept)."""
    return (rules.royal is Royal.OFF and rules.special_suit is None
            and rules.ranking in (Ranking.ORDER, Ranking.BEATEN))


def key_of(rules: Rules) -> Callable[[State], Key]:
    """The key a search's table keeps positions by under ``rules``: :func:`_shape` where it is exact, else
    :func:`_key`."""
    return _shape if _ranks_relative(rules) else _key


class Solver:
    """Minimax with alpha-beta: a node whose result can no longer change its parent's choice is left as soon as
    that is known, and the table keeps what was learned of it, a bound (at least, at most) where not the value."""

    def __init__(self, me: int, nodes: int, deadline: float | None = None, solved: Solved | None = None,
                 rules: Rules | None = None, anchor: int | None = None) -> None:
        """``rules``: the game's, for its table's key (:func:`key_of`); None keeps every position by :func:`_key`.
        ``anchor``: the seat whose results the table keeps (the lower of the two left, :func:`anchor_of`), where
        not ``me``: they are turned round on the way in and out."""
        self.me = me
        anchor = me if anchor is None else anchor
        self.flip = anchor != me
        self.key = _key if rules is None else key_of(rules)
        self.left = nodes
        self.deadline = deadline
        # positions by their key's 64-bit hash: two positions of one search share a hash about once in 10^8 searches
        # of 400,000 positions
        self.memo = Table() if solved is None else solved.of(rules, anchor)
        self.path: set[int] = set()   # the positions of the line being searched

    def fingerprint(self, state: State) -> int:
        """What the table and the line keep ``state`` by."""
        return hash(self.key(state))

    def value(self, state: State, alpha: float = 0.0, beta: float = 1.0) -> float:
        """The result for ``me`` of ``state`` with best play on both sides, if it lies between ``alpha`` and
        ``beta``; else a result on the same side of the window that the true one is at least as far out as
        (fail-soft: at most ``alpha``, the true one is no more; at least ``beta``, no less)."""
        if state.over:
            return score(state, self.me)
        key = hash(self.key(state))
        low, high = self.memo.get(key)
        if self.flip:
            low, high = 1.0 - high, 1.0 - low
        if low == high or low >= beta:
            return low
        if high <= alpha:
            return high
        if key in self.path:
            return DRAW
        self.left -= 1
        if self.left < 0 or len(self.path) >= MAX_DEPTH:
            raise OutOfBudget
        if self.deadline is not None and self.left % CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise OutOfBudget
        a, b = max(alpha, low), min(beta, high)
        seat = next_seat(state)
        assert seat is not None
        mine = seat == self.me
        best = -1.0 if mine else 2.0
        self.path.add(key)
        # the greedy player's move first, found without listing the others where it can be: it most often ends
        # the node at once, and the rest are listed only when it does not
        first = greedy.direct(state, seat)
        moves = _ordered(state, seat) if first is None else [first]
        try:
            i = 0
            while i < len(moves):
                action = moves[i]
                i += 1
                child = state.copy()
                apply_in_place(child, seat, action)
                v = self.value(child, a, b)
                if mine:
                    best = max(best, v)
                    a = max(a, v)
                else:
                    best = min(best, v)
                    b = min(b, v)
                if a >= b:
                    break
                if first is not None and i == 1:
                    moves = [first] + [m for m in honest_moves(legal_actions(state, seat)) if m != first]
        finally:
            self.path.discard(key)
        # what this search learned; where a bound kept before says otherwise (a repeated position counts as a
        # draw, so a value can depend on the line it was reached by), the newer holds
        if best <= max(alpha, low):      # every move fell short of the window: the result is at most best
            low, high = min(low, best), best
        elif best >= min(beta, high):    # a move reached past it: at least best
            low, high = best, max(high, best)
        else:
            low = high = best
        self.memo.put(key, BOUNDS[1.0 - high, 1.0 - low] if self.flip else BOUNDS[low, high])
        return best


def _ordered(state: State, seat: int) -> list[Action]:
    """The honest moves, the greedy player's first: it is most often the best, and a best move found first
    ends the search of its node soonest."""
    legal = legal_actions(state, seat)
    moves = honest_moves(legal)
    first = greedy.choose_among(state, seat, legal)
    if first is not None and first in moves and moves[0] != first:
        moves.remove(first)
        moves.insert(0, first)
    return moves


def best_moves(state: State, me: int, nodes: int = 20_000, deadline: float | None = None,
               solved: Solved | None = None, values: list[tuple[float, Action]] | None = None) -> list[Action] | None:
    """The moves of ``me`` (who must be the seat to move) that keep the best result against best play, in
    a position with no stock and two players left: one winning move, else every move that draws, else every move
    (all lose against best play, and the caller picks the one a fallible opponent most often gets wrong).
    None when that needs more than ``nodes`` positions, or is not done by ``deadline`` (perf_counter); then
    ``values`` (if given) holds the moves whose result was found before, with it."""
    if state.players - len(state.out) != 2 or state.stock or next_seat(state) != me:
        return None
    solver = Solver(me, nodes, deadline, solved, state.rules, anchor_of(state))
    solver.path.add(solver.fingerprint(state))
    values = [] if values is None else values
    try:
        for action in _ordered(state, me):
            child = state.copy()
            apply_in_place(child, me, action)
            v = solver.value(child)
            if v == 1.0:
                return [action]
            values.append((v, action))
    except (OutOfBudget, RecursionError):
        return None
    top = max((v for v, _ in values), default=0.0)
    return [a for v, a in values if v == top]


def nothing_hidden(k: Knowledge) -> bool:
    """Two players left, and every card the seat cannot see is in the other one's hand (no stock, and no
    card set aside face down, as in чукотский or потайной): the rest of the game is known to the seat."""
    v = k.view
    others = [p for p in range(len(v.counts)) if p != k.seat and p not in v.out]
    if v.stock or len(others) != 1:
        return False
    other = others[0]
    return len(k.unseen) == v.counts[other] - len(k.known[other])


def values(state: State, me: int, moves: list[Action], nodes: int, deadline: float | None = None,
           solved: Solved | None = None, spent: list[int] | None = None) -> list[float] | None:
    """Each of ``moves``' result for ``me`` (the seat to move) against best play, in a position with no stock and
    two players left: 1, 0.5 or 0. None when that needs more than ``nodes`` positions or the ``deadline``.
    ``solved``: a table kept from the searches before (the same endgame's earlier decisions); ``spent`` (if given)
    has the positions searched appended."""
    if state.players - len(state.out) != 2 or state.stock or next_seat(state) != me:
        if spent is not None:
            spent.append(0)
        return None
    solver = Solver(me, nodes, deadline, solved, state.rules, anchor_of(state))
    solver.path.add(solver.fingerprint(state))
    found: list[float] = []
    try:
        for action in moves:
            child = state.copy()
            apply_in_place(child, me, action)
            found.append(solver.value(child))
    except (OutOfBudget, RecursionError):
        return None
    finally:
        if spent is not None:
            spent.append(nodes - max(solver.left, 0))
    return found


def anchor_of(state: State) -> int:
    """The lower of the two seats left: the one whose results a :class:`Solved` table keeps."""
    return next(p for p in range(state.players) if p not in state.out)
