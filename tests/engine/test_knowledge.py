"""What the table knows of each hand, computed a second way: from the true states before and after every
move and what everyone could see, not from the events the record reads.

A card is known to lie in a player's hand when everyone saw it go there: picked up from the table, shown
from that hand, or drawn as the face-up card while it lay face up. It stays known while it stays in that
hand; a passing of hands (круговой) carries it along; a swap with the stock (покерный) makes every card
of the swapper's unsure, since nobody saw which two went.
"""

from __future__ import annotations

import pytest

from durak import Ev, Event, Rules, State, apply, new_game
from durak.ai import greedy
from durak.ai.play import fallback, next_seat
from durak.cards import Card
from durak.record import Record, knowledge
from durak.soak import tables
from durak.view import view


def public_cards(state: State) -> set[Card]:
    """The cards everyone sees lying face up: the table and the face-up card(s)."""
    v = view(state, None)
    face = {c for c in (v.trump_card, v.second_card) if c is not None}
    return face | {c for pair in v.table for c in pair if c is not None}


def known_after(before: State, events: list[Event], after: State, known: dict[Card, int]) -> dict[Card, int]:
    """Which seat everyone knows holds which card, once ``events`` took ``before`` to ``after``."""
    # every event is public (cards laid in this move and picked up in it too); cards shuffled back into the
    # stock (отбойный) and drawn again in the same move went out of sight on the way
    recycled = {c for e in events if e.kind is Ev.RECYCLED for c in e.cards}
    seen = (public_cards(before) | {c for e in events for c in e.cards}) - recycled
    shown = {c for e in events if e.kind is Ev.SHOW for c in e.cards}
    swapped = {e.seat for e in events if e.kind is Ev.SWAPPED}
    rotated = any(e.kind is Ev.HANDS_ROTATED for e in events)
    holder_before = {c: p for p, hand in enumerate(before.hands) for c in hand}
    found: dict[Card, int] = {}
    for p, hand in enumerate(after.hands):
        if p in swapped:
            continue
        for c in hand:
            was = holder_before.get(c)
            if c in shown or c in seen:
                found[c] = p  # shown from his hand, or taken from the table or the face-up place
            elif c in known and (was == p or rotated):  # still there, or carried along with the hand
                found[c] = p
    return found


@pytest.mark.parametrize(("preset", "players"), tables())
def test_the_record_knows_what_everyone_saw_and_nothing_else(preset: str, players: int) -> None:
    rules = Rules.from_dict({"preset": preset})
    state = new_game(rules, players, players + 11)
    record = Record.start(state)
    dealt_face_up = {state.trump_card} if not state.stock else set()  # the whole deck dealt: shown to all
    table_knows = {c: p for p, h in enumerate(state.hands) for c in h if c in public_cards(state) | dealt_face_up}
    while not state.over and state.moves < 3000:
        for seat in range(players):
            k = knowledge(state, seat, record)
            for p in range(players):
                if p != seat:
                    expected = {c for c, holder in table_knows.items() if holder == p}
                    assert k.known[p] == expected, (state.moves, seat, p)
        seat = next_seat(state)
        assert seat is not None
        before = state
        state, events = apply(state, seat, greedy.choose(state, seat) or fallback(state, seat))
        record = record.after(events)
        table_knows = known_after(before, events, state, table_knows)


@pytest.mark.parametrize(("preset", "players"), tables())
def test_a_seats_knowledge_survives_the_trip_to_the_thinking_process(preset: str, players: int) -> None:
    """The bot sends a computer's knowledge to another process by pickle: it must arrive whole, with the rules,
    the view and the record as they were (each frozen class rebuilds itself from its fields)."""
    import pickle

    rules = Rules.from_dict({"preset": preset})
    state = new_game(rules, players, seed=5)
    record = Record.start(state)
    for _ in range(12):
        seat = next_seat(state)
        if seat is None:
            break
        state, events = apply(state, seat, greedy.choose(state, seat) or fallback(state, seat))
        record = record.after(events)
    k = knowledge(state, state.defender or 0, record)
    back = pickle.loads(pickle.dumps(k))
    assert back == k and back.view.rules == rules and back.view.legal == k.view.legal
    assert pickle.loads(pickle.dumps(record)) == record
