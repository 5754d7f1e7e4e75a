"""What one seat may know (or, for seat ``None``, what the whole table may see)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from durak.actions import Action
from durak.cards import Card, Suit
from durak.engine import legal_actions, room
from durak.rules import Rules
from durak.state import State, table_pairs


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
    set_aside: int = 0               # cards out of the game face down (чукотский): their number only
    scores: tuple[int, ...] = ()     # with ranking beaten or figures (docs/variants.md §2.8)
    pogons: tuple[tuple[int, ...], ...] = ()  # with ranking pogony: the ranks of each seat's pogony
    bypassed: tuple[int, ...] = ()   # переводной-3: where on the table the passed-over cards lie (nobody beats them)
    secret: bool = False             # потайной: a face-down card lies under the face-up card
    lead_open: bool = False          # армянский: the main attacker may still add to his stock lead
    window: bool = False             # американский: the defender may throw in on himself, or pass
    drew: frozenset[int] = frozenset()
    swapped: frozenset[int] = frozenset()
    covered: frozenset[int] = frozenset()
    self_thrown: tuple[Card, ...] = ()
    trumps: tuple[Suit, Suit] | None = None  # двухкозырной: seat 0's and seat 1's trump (both public)
    second_card: Card | None = None  # двухкозырной: seat 1's face-up card while it lies under seat 0's
    bouts_beaten: int = 0            # отбойный: bouts ended бито so far (every second one is recycled)

    def __reduce__(self) -> tuple[type[View], tuple[object, ...]]:
        """Pickled as its fields, as :class:`durak.rules.Rules` is (the compiled class refuses the default)."""
        return View, tuple(getattr(self, f.name) for f in dataclasses.fields(self))


def view(state: State, seat: int | None) -> View:
    """``seat``'s view of ``state``; never holds another seat's cards."""
    return View(
        rules=state.rules,
        seat=seat,
        hand=() if seat is None else tuple(state.hands[seat]),
        counts=tuple(len(h) for h in state.hands),
        table=tuple(table_pairs(state)),
        trump=state.trump,
        trump_card=shown_trump_card(state),
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
        set_aside=len(state.set_aside),
        scores=state.scores,
        pogons=state.pogons,
        bypassed=state.bypassed_at,
        secret=state.secret is not None,
        lead_open=state.lead_open,
        window=state.window,
        drew=state.drew,
        swapped=state.swapped,
        covered=state.covered,
        self_thrown=state.self_thrown,
        trumps=state.trumps,
        second_card=_second_card(state),
        bouts_beaten=state.bouts_beaten,
    )


def _second_card(state: State) -> Card | None:
    stock, second = state.stock, state.second_card
    if second is None or len(stock) < 2 or stock[-1] != second or stock[-2] != state.trump_card:
        return None
    return second


def shown_trump_card(state: State) -> Card | None:
    """The face-up card while it lies under the stock; невидимый hides it until it is the stock's last card;
    потайной's turned secret card lies face up beside the table."""
    stock = state.stock
    second = state.second_card
    if second is not None:  # двухкозырной: seat 0's face-up card while it lies, then seat 1's
        if len(stock) >= 2 and stock[-1] == second and stock[-2] == state.trump_card:
            return state.trump_card
        return second if stock and stock[-1] == second else None
    if state.rules.secret_trump and not stock and state.secret is None and state.trump_card in state.set_aside:
        return state.trump_card
    if not stock or stock[-1] != state.trump_card:
        return None
    if state.rules.trump_card_hidden and len(stock) > 1:
        return None
    return state.trump_card
