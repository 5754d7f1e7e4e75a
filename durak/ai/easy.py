"""``easy``: a beginner's game. Legal, often weak, never absurd.

It leads a rank picked at random instead of its cheapest (but keeps its trumps while the stock
lasts), sometimes takes cards it could have beaten, and throws in only now and then. When it
covers, it covers as the greedy player does, with the cheapest card that beats: a beginner may not
see the best plan, but never beats a six with the ace of trumps when a seven would do.

Its choices come from ``rng`` only, never from a hidden card: it sees what ``normal`` sees.
"""

from __future__ import annotations

import random

from durak.actions import PASS, TAKE, Act, Action
from durak.ai import greedy
from durak.cards import strength
from durak.engine import legal_actions, trump_of
from durak.state import State

TAKE_INSTEAD = 0.25   # how often it takes although it could cover
THROW_IN = 0.4        # how often it throws in when it could


def choose(state: State, seat: int, rng: random.Random) -> Action | None:
    """A beginner's move for ``seat`` (only its own hand and the table are looked at)."""
    best = greedy.choose(state, seat)
    if best is None:
        return None
    if not state.attacks:
        return _lead(state, seat, best, rng)
    if seat == state.defender:
        if best is not TAKE and best.act is Act.DEFEND and rng.random() < TAKE_INSTEAD and not state.taking:
            return TAKE
        return best
    if best.act is Act.ATTACK and rng.random() >= THROW_IN:
        return PASS if any(a.act is Act.PASS for a in legal_actions(state, seat)) else best
    return best


def _lead(state: State, seat: int, best: Action, rng: random.Random) -> Action:
    trump = trump_of(state, seat)
    leads = [a for a in greedy.honest_moves(legal_actions(state, seat)) if len(a.cards) == 1]
    plain = [a for a in leads if not (state.stock and a.card & 3 == trump)]
    pool = plain or leads
    if not pool:
        return best
    pool.sort(key=lambda a: strength(a.card, trump))
    return pool[int(rng.random() * len(pool))]
