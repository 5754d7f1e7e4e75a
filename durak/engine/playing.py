"""What an action does to a position: :func:`apply` and :func:`apply_in_place`.
"""

from __future__ import annotations

from durak.actions import Action
from durak.cards import Card
from durak.engine.bout_end import end_bout, face_up_drawn, go_out
from durak.engine.checking import check
from durak.engine.constants import (
    FIGURE_RANK,
    Act_ACCUSE,
    Act_ATTACK,
    Act_COUNTER,
    Act_DEFEND,
    Act_DRAW_CARD,
    Act_PASS,
    Act_SHOW,
    Act_STOCK_LEAD,
    Act_SWAP,
    Act_TAKE,
    Act_TRANSFER,
    Ev_CAUGHT,
    Ev_COUNTER,
    Ev_COVER,
    Ev_DREW_CARD,
    Ev_FACE_SHOWN,
    Ev_LEAD,
    Ev_PASS,
    Ev_SHOW,
    Ev_STOCK_LEAD,
    Ev_SWAPPED,
    Ev_TAKE,
    Ev_THROW_IN,
    Ev_THROW_SELF,
    Ev_TRANSFER,
    Ev_WRONG_ACCUSE,
    PogonyRule_SIXES,
    PogonyRule_TWO_SIXES,
    Ranking_BEATEN,
    Ranking_FIGURES,
    Ranking_ORDER,
    event,
)
from durak.engine.position import defender_for, face_up, lead_room, room, table_ranks, throwers, trump_of
from durak.events import PASS_DONE, PASS_LEAD_ALONE, PASS_LET_TAKE, Event
from durak.state import State, table_pairs


def apply(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """Play ``action`` for ``seat``: the new state and what happened.

    Raises :class:`Illegal` (and leaves ``state`` as it was) when the action is not allowed.
    """
    broken = check(state, seat, action)
    s = state.copy()
    return s, _play(s, seat, action, broken)


def apply_in_place(state: State, seat: int, action: Action) -> list[Event]:
    """Play a legal action on ``state`` itself and return what happened: for simulations and
    searches, which own their copy and draw their actions from :func:`legal_actions`.

    Nothing is checked but a cheat's flag (whether the card broke a rule): an action that is not
    legal leaves an inconsistent state. Anything from outside goes through :func:`apply`."""
    return _play(state, seat, action, check(state, seat, action) if action.cheat else False)


def _play(s: State, seat: int, action: Action, broken: bool) -> list[Event]:
    events: list[Event] = []
    act = action.act
    stock = len(s.stock)
    if act is Act_ATTACK:
        if s.lead_open:
            _complete_lead(s, seat, action.cards, events)
        else:
            _lay_attack(s, seat, action.cards, events)
    elif act is Act_DEFEND:
        assert action.target is not None
        card = action.cards[0]
        s.hands[seat].remove(card)
        s.covers[s.attacks.index(action.target)] = card
        if s.rules.poker_swap:  # the only rule that asks who covered (no swap after one's first cover)
            s.covered = s.covered | {seat}
        events.append(event(Event, (Ev_COVER, seat, (action.target, card), None, 0)))
        if not s.hands[seat] and None in s.covers:  # американский: he threw in more than he can beat
            s.taking = True
            events.append(event(Event, (Ev_TAKE, seat, (), None, 0)))
        elif not s.hands[seat]:
            _after_lay(s, seat, action.cards, events)
    elif act is Act_TRANSFER or act is Act_SHOW:
        _pass_bout_on(s, seat, action, events)
    elif act is Act_TAKE:
        s.taking = True
        events.append(event(Event, (Ev_TAKE, seat, (), None, 0)))
    elif act is Act_PASS:  # number: which button it was (the log says what was pressed)
        pressed = PASS_LEAD_ALONE if s.lead_open else PASS_LET_TAKE if s.taking else PASS_DONE
        events.append(event(Event, (Ev_PASS, seat, (), None, pressed)))
        if s.window:  # американский: the defender lets the bout end
            s.window = False
            end_bout(s, events, taker=None)
        elif s.lead_open:  # армянский: the stock card is the whole lead
            s.lead_open = False
        else:
            s.passed = s.passed | {seat}
    elif act is Act_ACCUSE:
        assert action.suspect is not None
        _accuse(s, seat, action.suspect, events)
    else:
        _extra_move(s, seat, action, events)
    if broken:
        s.cheats = s.cheats | {seat}
    if s.attacks and not s.window and (s.taking or None not in s.covers) and _bout_is_over(s):
        if not s.taking and _self_throw_window(s):
            s.window = True  # американский: the bout waits for the defender
        else:
            end_bout(s, events, taker=s.defender if s.taking else None)
    if len(s.stock) == 1 < stock and s.rules.trump_card_hidden and s.stock[0] == s.trump_card:
        events.append(Event(Ev_FACE_SHOWN, None, (s.stock[0],)))  # невидимый: the last card lies face up now
    s.moves += 1
    return events


def _extra_move(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """The variants' own actions (docs/variants.md §4)."""
    act, stock, hand = action.act, s.stock, s.hands[seat]
    if act is Act_STOCK_LEAD:
        card = stock.pop(0)
        s.attacks, s.covers = [card], [None]
        assert s.defender is not None
        s.cap = len(s.hands[s.defender])
        s.passed = frozenset()
        s.lead_open = lead_room(s) > 1
        events.append(Event(Ev_STOCK_LEAD, seat, (card,), number=int(s.lead_open)))
    elif act is Act_DRAW_CARD:
        hand.append(stock.pop(0))
        s.drew = s.drew | {seat}
        events.append(Event(Ev_DREW_CARD, seat))
        face_up_drawn(s, seat, hand[-1:], len(stock) + 1, events)
    elif act is Act_SWAP:
        for c in action.cards:
            hand.remove(c)
        hand.extend(stock[:2])
        bottom = len(stock) - face_up(s)
        s.stock = stock[2:bottom] + list(action.cards) + stock[bottom:]
        s.swapped = s.swapped | {seat}
        events.append(Event(Ev_SWAPPED, seat))
    elif act is Act_COUNTER:
        _counter(s, seat, action, events)
    else:  # THROW_SELF
        for c in action.cards:
            hand.remove(c)
            s.attacks.append(c)
            s.covers.append(None)
        s.self_thrown = (*s.self_thrown, *action.cards)
        s.passed = frozenset()
        s.window = False
        events.append(Event(Ev_THROW_SELF, seat, action.cards))


def _complete_lead(s: State, seat: int, cards: tuple[Card, ...], events: list[Event]) -> None:
    """армянский: hand cards of the stock card's rank join the open lead, which is then complete."""
    hand = s.hands[seat]
    for c in cards:
        hand.remove(c)
        s.attacks.append(c)
        s.covers.append(None)
    s.lead_open = False
    events.append(Event(Ev_LEAD, seat, cards))
    _after_lay(s, seat, cards, events)


def _counter(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """прибалтийский: the lone attack card is beaten into the discard, and the defender strikes back with the
    cover and cards of its rank: the roles swap and the bout goes on, its marks cleared."""
    target = action.target
    assert target is not None and s.attacker is not None
    hand = s.hands[seat]
    for c in action.cards:
        hand.remove(c)
    s.discard = [*s.discard, target]
    ranking = s.rules.ranking
    if ranking is Ranking_BEATEN or (ranking is Ranking_FIGURES and target >> 2 >= FIGURE_RANK):
        scores = list(s.scores)
        scores[seat] += 1
        s.scores = tuple(scores)
    victim = s.attacker
    s.attacks, s.covers = list(action.cards), [None] * len(action.cards)
    s.attacker, s.defender = seat, victim
    s.first_bout = False
    s.cap = len(s.hands[victim])
    s.passed = s.shown = s.drew = s.swapped = s.covered = frozenset()
    s.self_thrown, s.coverers = (), ()
    events.append(Event(Ev_COUNTER, seat, (target, *action.cards), other=victim))
    _after_lay(s, seat, action.cards, events)


def _self_throw_window(s: State) -> bool:
    """американский: the bout would end beaten; may the defender throw in on himself (docs/variants.md §2.6)?"""
    if not s.rules.self_throw_in:
        return False
    assert s.defender is not None
    hand = s.hands[s.defender]
    left = room(s)
    if len(hand) < 2 or (left is not None and left < 1):
        return False
    ranks = table_ranks(s)
    return any(c >> 2 in ranks for c in hand)


def _lay_attack(s: State, seat: int, cards: tuple[Card, ...], events: list[Event]) -> None:
    lead = not s.attacks
    hand = s.hands[seat]
    for c in cards:
        hand.remove(c)
        s.attacks.append(c)
        s.covers.append(None)
    if lead:
        assert s.defender is not None
        s.cap = len(s.hands[s.defender])
    s.passed = frozenset()
    events.append(event(Event, (Ev_LEAD if lead else Ev_THROW_IN, seat, cards, None, 0)))
    if not hand:
        _after_lay(s, seat, cards, events)


def _pass_bout_on(s: State, seat: int, action: Action, events: list[Event]) -> None:
    nxt = defender_for(s, seat)
    assert nxt is not None
    if action.act is Act_SHOW:
        s.shown = s.shown | {seat}
        events.append(Event(Ev_SHOW, seat, action.cards, other=nxt))
    else:
        if s.rules.transfer_beat_only_new:
            _pass_over(s)
        hand = s.hands[seat]
        for c in action.cards:
            hand.remove(c)
            s.attacks.append(c)
            s.covers.append(None)
        events.append(Event(Ev_TRANSFER, seat, action.cards, other=nxt))
    covered = len(s.covers) - s.covers.count(None)
    if covered and s.rules.ranking is not Ranking_ORDER:  # переводной-2: the pairs he covered stay his
        done = {pair for pair, _ in s.coverers}
        s.coverers = (*s.coverers, *((i, seat) for i, c in enumerate(s.covers) if c is not None and i not in done))
    s.attacker, s.defender = seat, nxt
    s.cap = len(s.hands[nxt]) + covered + len(s.bypassed)  # the limit counts the cards he need not beat
    s.passed = frozenset()
    if action.act is Act_TRANSFER:
        _after_lay(s, seat, action.cards, events)


def _pass_over(s: State) -> None:
    """переводной-3: the cards still to beat are passed over: they stay where they lie on the table and go
    with the bout, but nobody beats them."""
    where: dict[int, int] = {}
    attacks: list[Card] = []
    covers: list[Card | None] = []
    bypassed: list[Card] = []
    at: list[int] = []
    old = iter(range(len(s.attacks)))
    for pos, (a, c) in enumerate(table_pairs(s)):
        i = None if pos in s.bypassed_at else next(old)
        if c is None:
            bypassed.append(a)
            at.append(pos)
        else:
            assert i is not None
            where[i] = len(attacks)
            attacks.append(a)
            covers.append(c)
    s.attacks, s.covers, s.bypassed, s.bypassed_at = attacks, covers, bypassed, tuple(at)
    s.coverers = tuple((where[i], p) for i, p in s.coverers)


def _after_lay(s: State, seat: int, cards: tuple[Card, ...], events: list[Event]) -> None:
    """Note an emptied hand (for pogony) and put the seat out if the stock is empty."""
    if s.hands[seat]:
        return
    trump = trump_of(s, seat)
    rule = s.rules.pogony_rule
    if rule is PogonyRule_SIXES:
        sixes = len(cards) <= 2 and all(c >> 2 == 6 and c & 3 != trump for c in cards)
    else:  # two_sixes: exactly two sixes, one may be the trump six; off: never
        sixes = rule is PogonyRule_TWO_SIXES and len(cards) == 2 and all(c >> 2 == 6 for c in cards)
    s.sixes = s.sixes | {seat} if sixes else s.sixes - {seat}
    if not s.stock:
        go_out(s, seat, events)
    else:  # if the draw leaves him empty, he goes out in this order (docs/rules.md §6)
        s.emptied = (*s.emptied, seat)


def _accuse(s: State, seat: int, suspect: int, events: list[Event]) -> None:
    if suspect not in s.cheats:
        s.accused = s.accused | {seat}
        events.append(Event(Ev_WRONG_ACCUSE, seat, other=suspect))
        return
    events.append(Event(Ev_CAUGHT, suspect, other=seat))
    if suspect in s.out:
        s.out = [p for p in s.out if p != suspect]
    # A caught defender takes; a caught attacker's victim counts as having defended.
    end_bout(s, events, taker=suspect)


def _bout_is_over(s: State) -> bool:
    if not s.taking and None in s.covers:
        return False
    left = room(s)
    if left is not None and left <= 0:
        return True
    assert s.defender is not None
    if not s.taking and not s.hands[s.defender]:
        return True
    hands, passed = s.hands, s.passed
    for p in throwers(s):  # noqa: SIM110 - a loop, not all() over a generator: every move of a bout asks
        if hands[p] and p not in passed:
            return False
    return True
