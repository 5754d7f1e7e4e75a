"""Computer players, by level: ``easy`` (a beginner), ``normal`` (the greedy player that also stands in
for absent players) and ``hard`` (a search over the deals its seat cannot tell apart).

:func:`choose` is the one entry point: it takes a seat's :class:`~durak.record.Knowledge`, never a
game's state, so no level can see a hidden card. ``easy`` and ``normal`` look only at their own hand
and the table, so any deal consistent with the knowledge gives them the same position.
"""

from __future__ import annotations

import random

from durak.actions import Action
from durak.ai import easy, greedy, hard
from durak.record import Knowledge

LEVELS = ("easy", "normal", "hard")


def choose(level: str, k: Knowledge, seed: int = 0, budget_ms: float = hard.BUDGET_MS) -> Action | None:
    """``level``'s move for ``k``'s seat (None: it waits); ``seed`` makes it repeatable."""
    if level == "hard":
        return hard.choose(k, seed, budget_ms)
    rng = random.Random(seed)
    position = k.sample(rng)  # the hidden cards are dealt at random: these levels never look at them
    if level == "easy":
        return easy.choose(position, k.seat, rng)
    if level == "normal":
        return greedy.choose(position, k.seat)
    raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")
