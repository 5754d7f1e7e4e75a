"""Questions about a position: whose turn, who attacks and throws in, how much room the bout has,
which ranks lie on the table.
"""

from __future__ import annotations

from durak.cards import Suit
from durak.engine.constants import Teams_NONE, ThrowIn_ALL, ThrowIn_ATTACKER, ThrowIn_OFF
from durak.state import State


def trump_of(state: State, seat: int | None) -> Suit | None:
    """The trump suit for ``seat``: the game's, or with двухкозырной his own (docs/variants.md §2.2)."""
    trumps = state.trumps
    if trumps is None or seat is None:
        return state.trump
    return trumps[seat]


def next_active(state: State, seat: int, opponent_of: int | None = None) -> int | None:
    """The next active seat clockwise (left) of ``seat``; in team games, optionally an opponent."""
    n = len(state.hands)
    out = state.out
    if opponent_of is None or state.rules.teams is Teams_NONE:  # anyone will do
        for i in range(1, n):
            p = (seat + i) % n
            if p not in out:
                return p
        return None
    team = state.rules.team_of
    side = team(opponent_of)
    for i in range(1, n):
        p = (seat + i) % n
        if p in out or team(p) == side:
            continue
        return p
    return None


def previous_active(state: State, seat: int) -> int | None:
    n = len(state.hands)
    for i in range(1, n):
        p = (seat - i) % n
        if p not in state.out:
            return p
    return None


def defender_for(state: State, attacker: int) -> int | None:
    """The next active opponent on the attacker's left (everyone is an opponent without teams)."""
    return next_active(state, attacker, opponent_of=attacker)


def throwers(state: State) -> list[int]:
    """Seats the ``throw_in`` option lets add cards to the open bout (cards in hand or not).

    The answer depends only on the roles and who is out, and every action asks for it two or three
    times, so it is kept on the state under those (a list the callers must not change)."""
    a, d, out = state.attacker, state.defender, state.out
    memo = state.memo
    if memo is not None and memo[0] == a and memo[1] == d and memo[2] == out:
        return memo[3]
    found = _throwers(state, a, d, out)
    state.memo = (a, d, out[:], found)
    return found


def _throwers(state: State, a: int | None, d: int | None, out: list[int]) -> list[int]:
    mode = state.rules.throw_in
    if mode is ThrowIn_OFF or d is None or a is None:
        return []
    if mode is ThrowIn_ATTACKER:
        return [] if a in out else [a]
    if state.rules.teams is Teams_NONE:
        cands = [p for p in range(len(state.hands)) if p != d and p not in out]
    else:
        side = d % 2
        cands = [p for p in range(len(state.hands)) if p % 2 != side and p not in out]
    if mode is ThrowIn_ALL:
        return cands
    near = (next_active(state, d), previous_active(state, d))  # the main attacker only if he sits there
    return [p for p in cands if p in near]


def bout_limit(state: State) -> int:
    return state.rules.first_bout_limit if state.first_bout else state.rules.bout_limit


def room(state: State) -> int | None:
    """How many more attack cards fit in the open bout (None: no limit after a take)."""
    rules = state.rules
    if state.taking and rules.after_take_unlimited:
        return None
    limit = rules.first_bout_limit if state.first_bout else rules.bout_limit
    return (state.cap if state.cap < limit else limit) - len(state.attacks) - len(state.bypassed)


def lead_room(state: State) -> int:
    """How many cards the main attacker may lead on the empty table."""
    assert state.defender is not None
    rules = state.rules
    n = len(state.hands[state.defender])
    limit = rules.first_bout_limit if state.first_bout else rules.bout_limit
    if limit < n:
        n = limit
    lead_max = rules.lead_max
    return n if lead_max is None or n < lead_max else lead_max


def cards_room(state: State, seat: int) -> int | None:
    """How many cards ``seat`` may lay in one action now: a lead, cards added to an open stock lead (армянский),
    a throw-in, or cards the defender throws in on himself, keeping one (американский). None: no limit."""
    if not state.attacks:
        return lead_room(state) if state.defender is not None else 0
    if state.lead_open:
        return lead_room(state) - len(state.attacks)
    left = room(state)
    if state.window and seat == state.defender:
        keep = len(state.hands[seat]) - 1
        return keep if left is None else min(left, keep)
    return left


def attack_rank(state: State) -> int | None:
    """The one rank of the attack cards to beat (all of them, unless переводной-2 left covered pairs), or
    None if cheats mixed them."""
    rank = None
    for a, c in zip(state.attacks, state.covers, strict=True):
        if c is None:
            if rank is None:
                rank = a >> 2
            elif a >> 2 != rank:
                return None
    return rank


def transfer_fits(state: State, nxt: int, show: bool = False) -> int:
    """How many cards a transfer to ``nxt`` may add (docs/variants.md §2.5): he beats at most his hand, the bout
    holds at most its limit. Without covered pairs on the table: min(his hand, limit) - attack cards.
    переводной-3: a transfer (not a show) passes over the cards he would have had to beat."""
    rules = state.rules
    to_beat = 0 if rules.transfer_beat_only_new and not show else state.covers.count(None)
    beats = len(state.hands[nxt]) - to_beat
    fit = (rules.first_bout_limit if state.first_bout else rules.bout_limit) - len(state.attacks) - len(state.bypassed)
    return beats if beats < fit else fit


def table_ranks(state: State) -> set[int]:
    ranks = {c >> 2 for c in state.attacks}
    for c in state.covers:
        if c is not None:
            ranks.add(c >> 2)
    if state.bypassed:
        ranks.update([b >> 2 for b in state.bypassed])
    return ranks


def face_up(state: State) -> int:
    """How many face-up cards lie at the bottom of the stock (двухкозырной: two, then one)."""
    stock, face = state.stock, state.trump_card
    if state.second_card is not None and stock and stock[-1] == state.second_card:
        return 2 if len(stock) > 1 and stock[-2] == face else 1
    return 1 if stock and face is not None and stock[-1] == face else 0


def counter_room(state: State) -> int:
    """How many cards a counter-attack may lay (the cover and its rank): the new defender's hand and the limit
    of a bout after the first (the beaten card opens the discard)."""
    assert state.attacker is not None
    return min(len(state.hands[state.attacker]), state.rules.bout_limit)


def clockwise(s: State, seat: int) -> list[int]:
    """Active seats clockwise from the left of ``seat``."""
    n = len(s.hands)
    return [p for p in ((seat + i) % n for i in range(1, n)) if p not in s.out]
