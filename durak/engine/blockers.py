"""Why a variant's own move (a transfer, a draw, a trump swap, a counter) is not open now, or None.
"""

from __future__ import annotations

from durak.actions import Reason
from durak.engine.position import face_up, trump_of
from durak.state import State


def transfer_blocker(state: State) -> Reason | None:
    """Why the defender may not transfer now at all (rank and cards aside)."""
    rules = state.rules
    if not rules.transfer:
        return Reason.TRANSFER_OFF
    if state.taking:
        return Reason.TAKING
    if state.defender in state.drew:
        return Reason.TRANSFER_AFTER_DRAW
    if state.first_bout and not rules.transfer_first_bout:
        return Reason.TRANSFER_FIRST_BOUT
    if not rules.transfer_after_cover and state.covers.count(None) != len(state.covers):
        return Reason.TRANSFER_AFTER_COVER
    if None not in state.covers:  # a timing rule (docs/variants.md §2.5): a cheat does not lift it
        return Reason.TRANSFER_NOTHING_TO_BEAT
    if not rules.transfer_trump_on_table:
        trump = trump_of(state, state.defender)
        for c in (*state.bypassed, *state.attacks, *state.covers):
            if c is not None and c & 3 == trump:
                return Reason.TRANSFER_TRUMP_ON_TABLE
    return None


def _beating_blocker(state: State, on: bool, off: Reason) -> Reason | None:
    """Why the defender may not use an extra move of §2.6 now: the rule is off, he takes, or nothing is to beat."""
    if not on:
        return off
    if state.taking:
        return Reason.TAKING
    if None not in state.covers:
        return Reason.NOTHING_TO_TAKE
    return None


def draw_blocker(state: State) -> Reason | None:
    blocker = _beating_blocker(state, state.rules.draw_to_cover, Reason.DRAW_OFF)
    if blocker is None and state.defender in state.drew:
        return Reason.DRAW_USED
    if blocker is None and not state.stock:
        return Reason.STOCK_EMPTY
    return blocker


def swap_blocker(state: State) -> Reason | None:
    blocker = _beating_blocker(state, state.rules.poker_swap, Reason.SWAP_OFF)
    if blocker is not None:
        return blocker
    if state.defender in state.swapped:
        return Reason.SWAP_USED
    if state.defender in state.covered:
        return Reason.SWAP_AFTER_COVER
    assert state.defender is not None
    if len(state.hands[state.defender]) > state.rules.hand_size:
        return Reason.SWAP_HAND
    if len(state.stock) - face_up(state) < 2:
        return Reason.SWAP_STOCK
    return None


def counter_blocker(state: State) -> Reason | None:
    blocker = _beating_blocker(state, state.rules.counter_attack, Reason.COUNTER_OFF)
    if blocker is None and (len(state.attacks) != 1 or state.bypassed):
        return Reason.COUNTER_NOT_NOW
    return Reason.COUNTER_NOT_NOW if blocker is Reason.NOTHING_TO_TAKE else blocker
