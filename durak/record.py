"""The public record of a game, and what one seat may know: the engine's public layer.

Every card laid in Durak is face up, so the whole table sees which cards a taker picks up, which
trump a defender shows, who draws the face-up trump card (the last card of the stock) and which
cards go to the discard. :class:`Record` keeps exactly that, from the public events alone.
:class:`Knowledge` is one seat's view plus the record: everything a player at that seat could
know by watching, and nothing more. A computer player that decides from it cannot peek.

>>> from durak import Rules, new_game, legal_actions, apply
>>> state = new_game(Rules(), players=2, seed=1)
>>> record = Record.start(state)
>>> seat = state.attacker
>>> state, events = apply(state, seat, legal_actions(state, seat)[0])
>>> record = record.after(events)
>>> len(knowledge(state, 1 - seat, record).unseen) == len(state.stock) - 1 + len(state.hands[seat])
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from durak.cards import Card, deck
from durak.events import Ev, Event
from durak.rules import Deal, StockMode
from durak.state import State
from durak.view import View, shown_trump_card, view


@dataclass(frozen=True, slots=True)
class Record:
    """What everyone has seen: the cards each seat is known to hold, and the cards gone for good."""

    known: tuple[frozenset[Card], ...]   # per seat: picked up, shown, or the trump card drawn; not yet laid
    gone: frozenset[Card]                # the discard
    stock: int                           # cards left in the stock
    trump_card: Card | None              # the face-up card (face_drawn events say who drew a face-up card)
    lowest: int | None = None            # the seat dealt the lowest trump, while the deal's hands are whole
    laid: tuple[frozenset[Card], ...] = ()  # per seat: the cards it laid since the deal, while ``lowest`` holds
    # per seat, what its play showed of its hand (``durak.ai.belief``): the cards of each bout it led, and each
    # card it covered with its cover; this bout's, or, where no hand ever draws (``lasting``: чукотский, a whole
    # deck dealt), every bout's since the hands last changed unseen; there also each lone card it took
    leads: tuple[tuple[tuple[Card, ...], ...], ...] = ()
    covers: tuple[tuple[tuple[Card, Card], ...], ...] = ()
    lasting: bool = False
    takes: tuple[tuple[Card, ...], ...] = ()
    uncovered: tuple[Card, ...] = ()  # the bout's cards not covered yet (``lasting``: what a take leaves)

    def __reduce__(self) -> tuple[type[Record], tuple[object, ...]]:
        """Pickled as its fields (a computer's knowledge goes to the thinking process): compiled with mypyc,
        the class refuses pickle's default way back, which sets each frozen field in turn."""
        return Record, tuple(getattr(self, f.name) for f in dataclasses.fields(self))


    @classmethod
    def start(cls, state: State, since_deal: Iterable[Event] = (), lowest_leads: bool = False) -> Record:
        """The record of ``state``, given the public events ``since_deal`` (none at the deal; a stored log,
        which leaves out the draws' counts but keeps who drew a face-up card). Beyond them it knows the
        discard and the face-up card(s): whoever holds one once it has left the stock was dealt it in front
        of everyone (the whole deck dealt) or drew it (a log stored before face_drawn events).
        ``lowest_leads``: the game's first attacker was its lowest trump's holder (a first game, or the table's
        rule; ``durak.setup.lowest_trump_leads``), which everyone knows: nobody else was dealt a lower trump."""
        events = list(since_deal)
        n = len(state.hands)
        first = next((e.seat for e in events if e.kind is Ev.LEAD), None) if events else state.attacker
        rules = state.rules
        plain = (lowest_leads and state.trump is not None and state.trumps is None and not rules.trump_card_hidden
                 and not rules.secret_trump)
        empty = tuple(frozenset[Card]() for _ in range(n))
        lasting = rules.stock_mode is StockMode.REMOVED or rules.deal is Deal.WHOLE_DECK or (
            n * rules.hand_size >= rules.deck_size)
        start = cls(empty, frozenset(), 0, None, first if plain else None, empty if plain and first is not None
                    else (), ((),) * n, ((),) * n, lasting, ((),) * n)
        seen = start.after([e for e in events if e.kind is not Ev.DREW])
        # a stored log keeps no draws: a hand that holds more than it was dealt, less what it laid, drew
        stock_dealt = rules.deal is Deal.STANDARD and n * rules.hand_size < rules.deck_size
        drew = stock_dealt and seen.lowest is not None and any(
            len(hand) + len(laid) > rules.hand_size for hand, laid in zip(state.hands, seen.laid, strict=True))
        if drew or any(e.kind is Ev.DREW for e in events):
            seen = dataclasses.replace(seen, lowest=None, laid=())
        second = state.second_card  # both of двухкозырной's cards lie face up from the deal
        # once drawn, the face-up card's holder is public, unless невидимый hid it until a draw that took it
        # with other cards: then the log holds no face_shown, and nobody saw it
        no_stock_dealt = rules.deal is Deal.WHOLE_DECK or state.players * rules.hand_size >= rules.deck_size
        drawn_unseen = rules.trump_card_hidden and not state.stock and seen.trump_card is None and not no_stock_dealt
        public = shown_trump_card(state) is not None or (not state.stock and not drawn_unseen) or second is not None
        card = state.trump_card if public else None
        drawn = {c for c, depth in _faces(card, second) if len(state.stock) <= depth}
        known = tuple(k | (drawn & set(hand)) for k, hand in zip(seen.known, state.hands, strict=True))
        return cls(known, frozenset(state.discard), len(state.stock), card, seen.lowest, seen.laid, seen.leads,
                   seen.covers, lasting, seen.takes, seen.uncovered)

    def after(self, events: Sequence[Event]) -> Record:
        """The record once ``events`` (one move's, from ``apply``) have happened."""
        known = list(self.known)
        gone, stock, face = self.gone, self.stock, self.trump_card
        lowest, laid = self.lowest, list(self.laid)
        leads, covers, takes, uncovered = list(self.leads), list(self.covers), list(self.takes), self.uncovered
        lasting = self.lasting
        for e in events:
            kind, seat = e.kind, e.seat
            if leads:
                if kind in _FORGETS or (kind in _BOUT_ENDS and not lasting):
                    leads, covers, takes = [()] * len(leads), [()] * len(covers), [()] * len(takes)
                elif seat is not None and kind is Ev.LEAD:
                    leads[seat] = (*leads[seat], e.cards)
                elif seat is not None and kind is Ev.COVER:
                    covers[seat] = (*covers[seat], (e.cards[0], e.cards[1]))
                elif seat is not None and kind is Ev.TAKE and lasting and len(uncovered) == 1:
                    takes[seat] = (*takes[seat], uncovered[0])
                if lasting:  # the bout's cards not covered, for what a take says
                    if kind in _BOUT_ENDS:
                        uncovered = ()
                    elif kind in _ATTACKS:
                        uncovered = (*uncovered, *e.cards)
                    elif kind is Ev.COVER:
                        uncovered = tuple(c for c in uncovered if c != e.cards[0])
            if lowest is not None:  # the deal's hands stay whole until a card comes into one unseen or moves
                if kind in _HANDS_CHANGE:
                    lowest, laid = None, []
                elif seat is not None and kind in _LAID_BY:
                    laid[seat] = laid[seat] | set(e.cards[1:] if kind in (Ev.COVER, Ev.COUNTER) else e.cards)
            if kind is Ev.HANDS_ROTATED:  # what was known of a hand now lies in the next active seat's
                active = [p for p in range(len(known)) if e.number >> p & 1]
                moved = [known[p] for p in active]
                for i, p in enumerate(active):
                    known[p] = moved[i - 1]
                continue
            if kind is Ev.RECYCLED:  # отбойный: the bout's cards went back into the stock
                gone = gone.difference(e.cards)
                stock += e.number
                continue
            if kind is Ev.TRUMP_SWAPPED:  # козырной: the old face-up card is discarded, a cover lies there now
                old, face = e.cards
                gone = gone.difference((face,)) | {old}
                continue
            if kind is Ev.FACE_SHOWN:  # невидимый: everyone sees it now, and who draws it
                face = e.cards[0]
                continue
            if kind is Ev.SECRET_TRUMP:  # потайной: turned face up and laid aside, out of play: the face-up card
                face = e.cards[0]
                continue
            if seat is None:
                continue
            if kind is Ev.COUNTER:  # прибалтийский: the beaten card is discarded, the rest laid from his hand
                gone = gone | {e.cards[0]}
                known[seat] = known[seat].difference(e.cards[1:])
            elif kind is Ev.SWAPPED:  # покерный: which two of his cards went into the stock nobody saw
                known[seat] = frozenset()
            elif kind is Ev.DREW_CARD or kind is Ev.STOCK_LEAD:
                stock -= 1
            elif kind in _LAID:
                put = e.cards[1:] if kind is Ev.COVER else e.cards
                known[seat] = known[seat].difference(put)
            elif kind is Ev.SHOW or kind is Ev.PICKED_UP:  # a shown trump stays in the hand
                known[seat] = known[seat] | set(e.cards)
            elif kind is Ev.BEATEN:
                gone = gone | set(e.cards)
            elif kind is Ev.DREW:
                stock -= e.number
            elif kind is Ev.FACE_DRAWN:
                known[seat] = known[seat] | set(e.cards)
        if (stock == self.stock and gone is self.gone and known == list(self.known) and face == self.trump_card
                and lowest == self.lowest and laid == list(self.laid) and leads == list(self.leads)
                and covers == list(self.covers) and takes == list(self.takes) and uncovered == self.uncovered):
            return self
        return Record(tuple(known), gone, stock, face, lowest, tuple(laid), tuple(leads), tuple(covers), lasting,
                      tuple(takes), uncovered)


def _faces(face: Card | None, second: Card | None) -> list[tuple[Card, int]]:
    """The face-up cards at the bottom of the stock, each with the number of cards under it."""
    if second is None:
        return [] if face is None else [(face, 0)]
    return [(second, 0)] if face is None else [(face, 1), (second, 0)]


TRIES = 32       # deals drawn at random before one is mended to fit what the table knows
NONE = 1 << 10   # no trump: above every card

_LAID = frozenset({Ev.LEAD, Ev.THROW_IN, Ev.COVER, Ev.TRANSFER, Ev.THROW_SELF})
_LAID_BY = _LAID | {Ev.COUNTER}
_BOUT_ENDS = frozenset({Ev.BEATEN, Ev.PICKED_UP, Ev.RECYCLED})
_ATTACKS = frozenset({Ev.LEAD, Ev.THROW_IN, Ev.TRANSFER, Ev.THROW_SELF})
# after these what a seat's play showed no longer holds: its hand took cards unseen, or the trump changed
_FORGETS = frozenset({Ev.DREW, Ev.DREW_CARD, Ev.SWAPPED, Ev.STOCK_LEAD, Ev.HANDS_ROTATED, Ev.CAUGHT,
                      Ev.TRUMP_SWAPPED, Ev.SECRET_TRUMP})
# after these a hand holds cards it was not dealt (drawn, picked up, swapped, passed on) or the trump changed
_HANDS_CHANGE = frozenset({Ev.DREW, Ev.DREW_CARD, Ev.SWAPPED, Ev.STOCK_LEAD, Ev.HANDS_ROTATED, Ev.PICKED_UP,
                           Ev.FACE_DRAWN, Ev.TRUMP_SWAPPED, Ev.SECRET_TRUMP, Ev.CAUGHT})


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What ``view.seat`` may know: its view (its own hand, counts, the table, the state of the bout, its
    legal actions) and the public record. ``unseen``: the cards it cannot place, in other hands or the
    stock."""

    view: View
    known: tuple[frozenset[Card], ...]   # the other seats' cards the table has seen (empty for its own)
    gone: frozenset[Card]
    unseen: frozenset[Card]
    trump_card: Card | None              # turned up at the deal: everyone saw it
    aside: frozenset[Card] = frozenset()  # face-up cards everyone saw laid aside, out of play (чукотский, потайной)
    lowest: int | None = None            # the seat dealt the lowest trump, while the deal's hands are whole
    laid: tuple[frozenset[Card], ...] = ()  # each seat's cards laid since the deal, while ``lowest`` holds
    # per seat, the leads, covers and lone takes its play showed (``Record``)
    leads: tuple[tuple[tuple[Card, ...], ...], ...] = ()
    covers: tuple[tuple[tuple[Card, Card], ...], ...] = ()
    takes: tuple[tuple[Card, ...], ...] = ()
    # the true deal, told to the all-seeing player of ``durak-arena`` alone (a measure of what luck leaves to
    # win); the bot and the review never set it, and every deal this knowledge imagines is then that one
    truth: State | None = None

    def __reduce__(self) -> tuple[type[Knowledge], tuple[object, ...]]:
        """Pickled as its fields (a computer's knowledge goes to the thinking process): compiled with mypyc,
        the class refuses pickle's default way back, which sets each frozen field in turn."""
        return Knowledge, tuple(getattr(self, f.name) for f in dataclasses.fields(self))


    @property
    def seat(self) -> int:
        assert self.view.seat is not None
        return self.view.seat

    def sample(self, rng: random.Random) -> State:
        """A whole game state consistent with this knowledge: the seat's own hand and everything public as
        they are, every other hand's known cards where the table saw them, and the unseen cards dealt at
        random to the rest of the hands and the stock (the face-up trump card stays at its bottom), so that
        what the table knows of the deal holds (:meth:`holds`)."""
        pool = sorted(self.unseen)
        for _ in range(TRIES):
            rng.shuffle(pool)
            state = self.deal(list(pool))
            if self.holds(state):
                return state
        return self.mended(state)

    def holds(self, state: State) -> bool:
        """Whether ``state`` fits what the table knows of the deal beyond the cards seen: the first attacker,
        the lowest trump's holder, was dealt a lower trump than anyone else (``lowest``)."""
        if self.lowest is None:
            return True
        lows = self._lowest_trumps(state)
        mine = lows[self.lowest]
        return all(low > mine for p, low in enumerate(lows) if p != self.lowest)

    def _lowest_trumps(self, state: State) -> list[int]:
        """Each seat's lowest trump of the deal (its hand and what it laid since; NONE without a trump)."""
        trump = state.trump
        return [min((c for c in (*hand, *laid) if c & 3 == trump), default=NONE)
                for hand, laid in zip(state.hands, self.laid, strict=True)]

    def mended(self, state: State) -> State:
        """``state`` changed as little as it takes to fit :meth:`holds`, where chance found no such deal quickly
        (the first attacker himself, holding only a high trump, knows the others' low trumps lie in the stock)."""
        lowest = self.lowest
        if lowest is None or self.holds(state):
            return state
        trump, hands = state.trump, [list(h) for h in state.hands]
        stock, aside = list(state.stock), list(state.set_aside)
        unseen = self.unseen
        if self.seat == lowest:  # a lower trump in another hand changes places with a hidden card of the stock
            bound = self._lowest_trumps(state)[lowest]  # (or of the cards set aside face down)
            spare = [(pile, j) for pile in (stock, aside) for j, c in enumerate(pile)
                     if c in unseen and (c & 3 != trump or c > bound)]
            for p, hand in enumerate(hands):
                for i, c in enumerate(hand):
                    if p != lowest and c & 3 == trump and c < bound and c in unseen and spare:
                        pile, j = spare.pop()
                        hand[i], pile[j] = pile[j], c
        else:  # the first attacker's unseen cards take the lowest unseen trump
            low = min((c for c in unseen if c & 3 == trump), default=None)
            free = [i for i, c in enumerate(hands[lowest]) if c in unseen and c != low]
            if low is not None and free and low not in hands[lowest]:
                i, mine = free[0], hands[lowest][free[0]]
                where = next(pile for pile in (*hands, stock, aside) if low in pile)  # unseen: somewhere hidden
                where[where.index(low)] = mine
                hands[lowest][i] = low
        return dataclasses.replace(state, hands=hands, stock=stock, set_aside=aside)

    def deal(self, pool: list[Card]) -> State:
        """The whole game state with the unseen cards dealt in the order of ``pool`` (which this uses up): the
        unknown cards of each other hand, seat by seat, then the stock from the top down to its face-up
        card(s), then the cards that lie face down aside."""
        if self.truth is not None:
            return self.truth.copy()
        v = self.view
        hands: list[list[Card]] = []
        for p, count in enumerate(v.counts):
            if p == v.seat:
                hands.append(list(v.hand))
                continue
            hand = list(self.known[p])
            take = count - len(hand)
            hands.append(hand + pool[:take])
            del pool[:take]
        face = [c for c in (v.trump_card, v.second_card) if c is not None] if v.stock else []
        stock = pool[:v.stock - len(face)]
        if v.rules.stock_mode is StockMode.SORTED:  # албанский: aces on top, one rank in shuffled order
            stock.sort(key=lambda c: -(c >> 2))
        stock += face
        set_aside = pool[v.stock - len(face):]
        secret = set_aside.pop() if v.secret and set_aside else None
        set_aside += sorted(self.aside)
        bypassed = v.bypassed
        kept = [pair for i, pair in enumerate(v.table) if i not in bypassed]
        trump_card, second = self.trump_card, v.second_card
        if v.trumps is not None and second is None:  # двухкозырной: seat 1's face-up card lies alone
            trump_card, second = None, v.trump_card
        return State(
            rules=v.rules, trump=v.trump, trump_card=trump_card,
            hands=hands, stock=stock, discard=sorted(self.gone), attacks=[a for a, _ in kept],
            covers=[c for _, c in kept], attacker=v.attacker, defender=v.defender,
            first_bout=v.first_bout,
            cap=v.cap, taking=v.taking, passed=v.passed, shown=v.shown, cheats=v.cheats, accused=v.accused,
            sixes=v.sixes, out=list(v.out), over=v.over, losers=v.losers, draw=v.draw, pogony=v.pogony,
            moves=v.moves, emptied=v.emptied, set_aside=set_aside, bouts_beaten=v.bouts_beaten, scores=v.scores,
            pogons=v.pogons, secret=secret,
            bypassed=[v.table[i][0] for i in bypassed], bypassed_at=bypassed, lead_open=v.lead_open, window=v.window,
            drew=v.drew, swapped=v.swapped, covered=v.covered, self_thrown=v.self_thrown, trumps=v.trumps,
            second_card=second)


def knowledge(state: State, seat: int, record: Record) -> Knowledge:
    """What ``seat`` may know of ``state``, given the public ``record`` of the game so far."""
    v = view(state, seat)
    known = tuple(frozenset() if p == seat else record.known[p] for p in range(state.players))
    seen = set(v.hand).union(*known, record.gone, (c for pair in v.table for c in pair if c is not None))
    trump_card = v.trump_card if record.trump_card is None else record.trump_card
    aside: frozenset[Card] = frozenset()
    rules = state.rules
    laid_aside = rules.stock_mode is StockMode.REMOVED and trump_card not in seen  # with the stock, at the deal
    turned = rules.secret_trump and not v.secret and not v.stock  # the secret card, turned beside the table
    if trump_card is not None and v.set_aside and (laid_aside or turned):
        aside = frozenset((trump_card,))
    seen |= aside | {c for c in (v.trump_card, v.second_card) if c is not None}
    unseen = frozenset(c for c in deck(rules.deck_size) if c not in seen)
    return Knowledge(v, known, record.gone, unseen, trump_card, aside, record.lowest, record.laid, record.leads,
                     record.covers, record.takes)
