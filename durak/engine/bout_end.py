"""The end of a bout: cards to the discard or the taker, refilling from the stock, scores, players
going out, the game's end and its draw by repetition.
"""

from __future__ import annotations

import random

from durak.cards import Card
from durak.engine.constants import (
    FIGURE_RANK,
    REPEATS,
    Ev_BEATEN,
    Ev_DREW,
    Ev_FACE_DRAWN,
    Ev_GAME_OVER,
    Ev_HANDS_ROTATED,
    Ev_OUT,
    Ev_PICKED_UP,
    Ev_POGON,
    Ev_RECYCLED,
    Ev_SECRET_TRUMP,
    Ev_TRUMP_SWAPPED,
    Ranking_FIGURES,
    Ranking_ORDER,
    Ranking_POGONY,
    Refill_WHEN_EMPTY,
    event,
)
from durak.engine.position import clockwise, defender_for, next_active
from durak.events import Event
from durak.state import State


def go_out(s: State, seat: int, events: list[Event]) -> None:
    s.out = [*s.out, seat]
    s.seen = ()
    events.append(Event(Ev_OUT, seat, number=len(s.out)))


def end_bout(s: State, events: list[Event], taker: int | None) -> None:
    attacker, defender = s.attacker, s.defender
    assert attacker is not None and defender is not None
    table = s.bypassed + s.attacks + [c for c in s.covers if c is not None]
    defended = taker != defender
    if s.rules.ranking is not Ranking_ORDER:
        _score(s, attacker, defender, taker, table, events)
    if taker is None:
        events.append(event(Event, (Ev_BEATEN, defender, tuple(table), None, 0)))
        if not (s.rules.recycle_discard and _recycled(s, table, events)):
            s.discard = s.discard + table
            if s.rules.trump_swap:
                _swap_trump(s, events)
    else:
        s.hands[taker].extend(table)
        events.append(event(Event, (Ev_PICKED_UP, taker, tuple(table), None, 0)))
    if defended:
        s.first_bout = False
    s.attacks, s.covers, s.bypassed, s.bypassed_at = [], [], [], ()
    s.taking = s.lead_open = s.window = False
    s.passed = s.shown = s.cheats = s.accused = s.drew = s.swapped = s.covered = frozenset()
    s.cap = 0
    s.coverers = ()
    s.self_thrown = ()
    stock = len(s.stock)
    _refill(s, attacker, defender, events)
    if s.secret is not None and not s.stock:
        _turn_secret(s, events)
    if _game_over(s, defender, events):
        return
    repeatable = taker is not None and len(s.stock) == stock  # a take, nothing drawn: hands only changed places
    if not repeatable:
        s.seen = ()  # a card left play or came into it: no earlier position can come back
    if s.rules.rotate_hands:
        _rotate_hands(s, events)
    if not defended and s.rules.taker_attacks and defender not in s.out:
        nxt: int | None = defender  # добрый: the taker attacks next
    elif defended and defender in s.out:
        # Teams: the attack passes to the out defender's next active partner (docs/rules.md §7).
        mates = [p for p in clockwise(s, defender) if s.rules.team_of(p) == s.rules.team_of(defender)]
        nxt = mates[0] if mates and s.rules.team_of(defender) is not None else next_active(s, defender)
    elif defended:
        nxt = defender
    else:
        nxt = next_active(s, defender)
    assert nxt is not None
    s.attacker = nxt
    s.defender = defender_for(s, nxt)
    if repeatable:
        _repeated(s, events)


def _repeated(s: State, events: list[Event]) -> None:
    """Where the canon is silent: cards can go round for ever (a forced lead nothing covers in занудный,
    hands passed on in круговой, a card taken and led back while full hands draw nothing). Players call such
    a game a draw once it truly repeats: when, after a take that drew nothing, a bout begins for the
    ``REPEATS``-th time with the same hands, roles and trump, and no card has gone to the discard or come
    from the stock since the first of them. Then the game ends in a draw. (Only bouts after such takes are
    counted: any other bout end changes the cards in play for good, so an endless game is takes alone.)"""
    # Python's hash of ints, and of tuples and frozensets of them, is the same in every process (str and bytes
    # hashes are salted, and before 3.12 None's is its address: hence -1); two positions sharing one 64-bit
    # value is a risk far below any other
    trump = -1 if s.trump is None else s.trump
    position = hash((*map(frozenset, s.hands), len(s.stock), s.attacker, s.defender, trump, s.bouts_beaten & 1,
                     s.scores, s.pogons))
    if s.seen.count(position) < REPEATS - 1:
        s.seen = (*s.seen, position)
        return
    s.over, s.draw, s.losers, s.pogony = True, True, (), False
    s.attacker = s.defender = None
    events.append(Event(Ev_GAME_OVER))


def face_up_drawn(s: State, seat: int, got: list[Card], before: int, events: list[Event]) -> None:
    """The face-up cards among those ``seat`` drew from a stock of ``before`` cards: everyone saw them go to
    his hand (невидимый: only the one that lay alone, shown)."""
    if s.rules.trump_card_hidden and before > 1:
        return
    for card in (s.trump_card, s.second_card):
        if card is not None and card in got:
            events.append(Event(Ev_FACE_DRAWN, seat, (card,)))


def _refill(s: State, attacker: int, defender: int, events: list[Event]) -> None:
    """Draw to ``hand_size``: the main attacker, the others clockwise from the defender's left,
    the defender last."""
    n = len(s.hands)
    order = [attacker]
    for i in range(1, n):
        p = (defender + i) % n
        if p != attacker and p != defender:
            order.append(p)
    order.append(defender)
    size = s.rules.hand_size
    stock, hands, out = s.stock, s.hands, s.out
    only_empty = s.rules.refill is Refill_WHEN_EMPTY
    for p in order:
        if not stock:
            break
        if p in out or (only_empty and hands[p]):
            continue
        want = size - len(hands[p])
        if want > 0:
            got = stock[:want]
            del stock[:want]
            hands[p].extend(got)
            events.append(event(Event, (Ev_DREW, p, (), None, len(got))))
            if len(stock) <= 1:
                face_up_drawn(s, p, got, len(stock) + len(got), events)
    if not stock:  # the order hands became empty; the draw order for any not recorded (an old state)
        for p in [*s.emptied, *order]:
            if p not in s.out and not hands[p]:  # s.out: each going out gives the state a new list
                go_out(s, p, events)
    s.emptied = ()


def _score(s: State, attacker: int, defender: int, taker: int | None, table: list[Card],
           events: list[Event]) -> None:
    """docs/variants.md §2.8: a beaten bout scores the covered cards for who covered them (the defender: a cover
    lies only on cards he had to beat); a declared take of exactly one pair hangs a pogon on the taker."""
    ranking = s.rules.ranking
    if ranking is Ranking_POGONY:
        if taker == defender and s.taking and len(table) == 2 and table[0] >> 2 == table[1] >> 2:
            rank = table[0] >> 2
            pogons = list(s.pogons)
            pogons[attacker] = (*pogons[attacker], rank)
            s.pogons = tuple(pogons)
            events.append(Event(Ev_POGON, attacker, (), defender, rank))
        return
    if taker is not None:
        return
    low = FIGURE_RANK if ranking is Ranking_FIGURES else 0
    coverer = dict(s.coverers)
    scores = list(s.scores)
    own = s.self_thrown
    for i, (a, c) in enumerate(zip(s.attacks, s.covers, strict=True)):
        if c is not None and a >> 2 >= low and a not in own:
            scores[coverer.get(i, defender)] += 1
    s.scores = tuple(scores)


def _turn_secret(s: State, events: list[Event]) -> None:
    """потайной: with the stock gone the secret card is turned and laid aside, out of play: its suit is trump."""
    card = s.secret
    assert card is not None
    s.secret = None
    s.set_aside = [*s.set_aside, card]
    s.trump_card, s.trump = card, card & 3
    events.append(Event(Ev_SECRET_TRUMP, None, (card,)))


def _swap_trump(s: State, events: list[Event]) -> None:
    """козырной: after a beaten bout (its cards in the discard) the cover of the last covered pair replaces
    the face-up card under the stock, and its suit is trump from now on; the old face-up card is discarded."""
    stock, old = s.stock, s.trump_card
    if not stock or old is None or stock[-1] != old:
        return
    new = next((c for c in reversed(s.covers) if c is not None), None)
    if new is None:
        return
    s.discard = [c for c in s.discard if c != new] + [old]
    stock[-1] = new
    s.trump_card, s.trump = new, new & 3
    events.append(Event(Ev_TRUMP_SWAPPED, None, (old, new)))


def _recycled(s: State, table: list[Card], events: list[Event]) -> bool:
    """отбойный: every second beaten bout of the game, while the stock has cards, goes back into the stock,
    shuffled with the cards above the face-up card(s) (двухкозырной: two), which stay at the bottom."""
    s.bouts_beaten += 1
    if s.bouts_beaten % 2 or not s.stock:
        return False
    stock = s.stock
    face = 0
    while face < len(stock) and stock[-1 - face] in (s.trump_card, s.second_card):
        face += 1
    mixed = stock[:len(stock) - face] + table
    random.Random(f"{s.seed}:{s.bouts_beaten}").shuffle(mixed)
    s.stock = mixed + stock[len(stock) - face:]
    events.append(Event(Ev_RECYCLED, None, tuple(table), None, len(table)))
    return True


def _rotate_hands(s: State, events: list[Event]) -> None:
    """круговой: every active hand passes to the next active seat clockwise."""
    active = [p for p in range(len(s.hands)) if p not in s.out]
    hands = [s.hands[p] for p in active]
    for i, p in enumerate(active):
        s.hands[p] = hands[i - 1]
    events.append(Event(Ev_HANDS_ROTATED, number=sum(1 << p for p in active)))


def _game_over(s: State, last_defender: int, events: list[Event]) -> bool:
    active = [p for p in range(len(s.hands)) if p not in s.out]
    team = s.rules.team_of
    if team(0) is None:
        if len(active) >= 2:
            return False
        if active:
            losers: tuple[int, ...] = (active[0],)
        elif s.rules.draw:
            losers = ()
        else:
            losers = (last_defender,)
    else:
        alive = {team(p) for p in active}
        if len(alive) == 2:
            return False
        if alive:
            (lost,) = alive
        elif s.rules.draw:
            lost = None
        else:
            lost = team(last_defender)
        losers = () if lost is None else tuple(p for p in range(len(s.hands)) if team(p) == lost)
    if not losers:
        s.draw = True
    elif last_defender in losers and last_defender in s.out and not active:
        # with draws off, the last defender is the durak and not among those out
        s.out = [p for p in s.out if p != last_defender]
    s.over = True
    s.losers = losers
    s.attacker = s.defender = None
    s.pogony = bool(losers) and bool(s.out) and s.out[-1] in s.sixes
    events.append(Event(Ev_GAME_OVER))
    return True
