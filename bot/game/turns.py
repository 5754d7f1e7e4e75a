"""Who moves when a player does not: the timeout's careful move, and the computer for absent seats."""

from __future__ import annotations

from durak import PASS, TAKE, Act, Action, State, is_legal
from durak.ai import greedy
from durak.ai.play import fallback
from durak.engine import awaited, room

TIMEOUTS = (0, 30, 60, 120, 300)  # the turn timer's choices, in seconds; 0 = off


def timeout_action(state: State, seat: int) -> Action | None:
    """What a careful player does when his time runs out: the defender takes, attackers pass,
    a main attacker who must lead plays the baseline computer's lead."""
    if not state.attacks:
        return greedy.choose(state, seat) if seat == state.attacker else None
    if seat == state.defender:
        return TAKE if is_legal(state, seat, TAKE) else None
    done = Action(Act.PASS)
    return done if is_legal(state, seat, done) else None


def computer_action(state: State, seat: int, chosen: Action | None) -> Action:
    """What a computer seat plays: its choice when legal, else (its thinking failed, or chose to wait while
    the game waits for it) the careful move of a timed-out seat, else the baseline computer's move."""
    if chosen is not None and is_legal(state, seat, chosen):
        return chosen
    careful = timeout_action(state, seat)
    if careful is not None:
        return careful
    return greedy.choose(state, seat) or fallback(state, seat)


def computer_move(state: State, computer: set[int]) -> tuple[int, Action] | None:
    """The next move of a computer-played seat that the game is waiting for, if any."""
    for seat in awaited(state):
        if seat in computer:
            action = greedy.choose(state, seat)
            if action is not None:
                return seat, action
    return None


def forced_move(state: State) -> tuple[int, Action] | None:
    """A move nobody needs to be asked for, since it changes nothing anyone could choose:

    - every attack card is covered (or the defender takes) and no card fits any more: the
      attackers' pass is the only move left, and that no card fits is public;
    - the stock is empty and only the defender holds cards, more than lie open (or draws are
      off): whatever he does he is the durak, so he takes and the game ends at once.

    Never in cheating mode, where an accusation may still change the bout."""
    if state.over or not state.attacks or state.rules.cheating or state.defender is None:
        return None
    open_cards = sum(1 for c in state.covers if c is None)
    if (state.taking or not open_cards) and room(state) == 0:
        for seat in awaited(state):
            if is_legal(state, seat, PASS):
                return seat, PASS
    defender = state.defender
    hand = state.hands[defender]
    alone = not state.stock and all(not h for p, h in enumerate(state.hands) if p != defender)
    if alone and not state.taking and open_cards and (len(hand) > open_cards or not state.rules.draw):
        return defender, TAKE
    return None
