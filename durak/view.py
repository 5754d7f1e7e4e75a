"""What one seat may know (or, for seat ``None``, what the whole table may see)."""

from __future__ import annotations

from dataclasses import dataclass

from durak.actions import Action
from durak.cards import Card, Suit
from durak.engine import legal_actions, room
from durak.rules import Rules
from durak.state import State


@dataclass(frozen=True, slots=True)
class View:
    rules: Rules
    seat: int | None                 # whose view; None for the public table
    hand: tuple[Card, ...]           # this seat's cards only (empty for the public view)
    counts: tuple[int, ...]          # every seat's number of cards
    table: tuple[tuple[Card, Card | None], ...]
    trump: Suit | None
    trump_card: Card | None          # shown to everyone while it lies under the stock
    stock: int
    discard: int
    attacker: int | None
    defender: int | None
    taking: bool
    passed: frozenset[int]
    shown: frozenset[int]
    out: tuple[int, ...]             # seats in the order they went out
    first_bout: bool
    room: int | None                 # attack cards that still fit in the open bout
    over: bool
    losers: tuple[int, ...]
    draw: bool
    pogony: bool
    moves: int
    legal: tuple[Action, ...]        # what this seat may do now
    cap: int = 0                     # the defender's hand when the bout began (the bout's limit)
    cheats: frozenset[int] = frozenset()   # broke a card rule this bout (the cards lie face up)
    accused: frozenset[int] = frozenset()  # accused an honest player this bout
    sixes: frozenset[int] = frozenset()    # went out laying only plain sixes
    emptied: tuple[int, ...] = ()    # emptied their hands this bout while the stock lasted, in that order


def view(state: State, seat: int | None) -> View:
    """``seat``'s view of ``state``; never holds another seat's cards."""
    return View(
        rules=state.rules,
        seat=seat,
        hand=() if seat is None else tuple(state.hands[seat]),
        counts=tuple(len(h) for h in state.hands),
        table=tuple(zip(state.attacks, state.covers, strict=True)),
        trump=state.trump,
        trump_card=state.trump_card if state.stock else None,
        stock=len(state.stock),
        discard=len(state.discard),
        attacker=state.attacker,
        defender=state.defender,
        taking=state.taking,
        passed=state.passed,
        shown=state.shown,
        out=tuple(state.out),
        first_bout=state.first_bout,
        room=room(state) if state.attacks else None,
        over=state.over,
        losers=state.losers,
        draw=state.draw,
        pogony=state.pogony,
        moves=state.moves,
        legal=() if seat is None else tuple(legal_actions(state, seat)),
        cap=state.cap,
        cheats=state.cheats,
        accused=state.accused,
        sixes=state.sixes,
        emptied=state.emptied,
    )
