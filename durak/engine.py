"""The rules of docs/rules.md §4–§8: which actions are legal, and what an action does.

:func:`legal_actions` lists what a seat may do now; :func:`apply` returns the new state
and the events, or raises :class:`~durak.actions.Illegal` and changes nothing.

Choices where docs/rules.md is silent (see also docs/engine.md):

* Attackers throw in at any moment of an open bout, in any order; the main attacker has
  no priority. A player who passed may still throw in later (it clears all passes).
* With ``throw_in=neighbours`` only the nearest active player on each side of the defender
  throws in (an opponent, in team games). A main attacker sitting further round (3×3 teams,
  seats out between) leads but does not throw in, and the bout does not wait for his pass.
* A pass is needed from every attacker who may throw in and holds cards, even one with
  no card of a rank on the table: passing reveals nothing about a hand.
* Listing: a lead lists every same-rank set that fits; a throw-in, a transfer and a
  cheat list one card each (several may be played in one action all the same).
* Cheating: a player caught while out comes back in with the table's cards.
* Variants (docs/variants.md): a defender who threw in on himself more than he can beat and covers with his
  last card while cards remain to beat takes (he cannot beat them, and nobody else may act then).
  A lone card that breaks a variant's lead rule is listed as a cheat.
* A game whose position repeats ends in a draw (``_repeated``): the third time a bout begins after a
  take that drew nothing with the same hands, roles and trump, while no card has left play or been
  drawn since.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Final

from durak.actions import DRAW_CARD, STOCK_LEAD, TAKE, Act, Action, Illegal, Reason
from durak.cards import Card, Suit
from durak.covering import beater_table
from durak.events import PASS_DONE, PASS_LEAD_ALONE, PASS_LET_TAKE, Ev, Event
from durak.lead_sequence import counted
from durak.leads import attacks, lead_breaks, variant_leads
from durak.rules import Lead, PogonyRule, Ranking, Refill, Teams, ThrowIn
from durak.state import State, table_pairs

# Enum members read through their class cost a Python-level call on CPython 3.11 (``EnumType`` defines
# ``__getattr__``, so every lookup on the class goes through it): about 55 ns, against 5 for a module global,
# and an action reads a dozen. The engine reads them from these globals.
_Act_ACCUSE: Final = Act.ACCUSE
_Act_ATTACK: Final = Act.ATTACK
_Act_COUNTER: Final = Act.COUNTER
_Act_DEFEND: Final = Act.DEFEND
_Act_DRAW_CARD: Final = Act.DRAW_CARD
_Act_PASS: Final = Act.PASS
_Act_SHOW: Final = Act.SHOW
_Act_STOCK_LEAD: Final = Act.STOCK_LEAD
_Act_SWAP: Final = Act.SWAP
_Act_TAKE: Final = Act.TAKE
_Act_THROW_SELF: Final = Act.THROW_SELF
_Act_TRANSFER: Final = Act.TRANSFER
_Ev_BEATEN: Final = Ev.BEATEN
_Ev_CAUGHT: Final = Ev.CAUGHT
_Ev_COUNTER: Final = Ev.COUNTER
_Ev_COVER: Final = Ev.COVER
_Ev_DREW: Final = Ev.DREW
_Ev_DREW_CARD: Final = Ev.DREW_CARD
_Ev_FACE_DRAWN: Final = Ev.FACE_DRAWN
_Ev_FACE_SHOWN: Final = Ev.FACE_SHOWN
_Ev_GAME_OVER: Final = Ev.GAME_OVER
_Ev_HANDS_ROTATED: Final = Ev.HANDS_ROTATED
_Ev_LEAD: Final = Ev.LEAD
_Ev_OUT: Final = Ev.OUT
_Ev_PASS: Final = Ev.PASS
_Ev_PICKED_UP: Final = Ev.PICKED_UP
_Ev_POGON: Final = Ev.POGON
_Ev_RECYCLED: Final = Ev.RECYCLED
_Ev_SECRET_TRUMP: Final = Ev.SECRET_TRUMP
_Ev_SHOW: Final = Ev.SHOW
_Ev_STOCK_LEAD: Final = Ev.STOCK_LEAD
_Ev_SWAPPED: Final = Ev.SWAPPED
_Ev_TAKE: Final = Ev.TAKE
_Ev_THROW_IN: Final = Ev.THROW_IN
_Ev_THROW_SELF: Final = Ev.THROW_SELF
_Ev_TRANSFER: Final = Ev.TRANSFER
_Ev_TRUMP_SWAPPED: Final = Ev.TRUMP_SWAPPED
_Ev_WRONG_ACCUSE: Final = Ev.WRONG_ACCUSE
_Lead_SAME_RANK: Final = Lead.SAME_RANK
_PogonyRule_SIXES: Final = PogonyRule.SIXES
_PogonyRule_TWO_SIXES: Final = PogonyRule.TWO_SIXES
_Ranking_BEATEN: Final = Ranking.BEATEN
_Ranking_FIGURES: Final = Ranking.FIGURES
_Ranking_ORDER: Final = Ranking.ORDER
_Ranking_POGONY: Final = Ranking.POGONY
_Refill_WHEN_EMPTY: Final = Refill.WHEN_EMPTY
_Teams_NONE: Final = Teams.NONE
_ThrowIn_ALL: Final = ThrowIn.ALL
_ThrowIn_ATTACKER: Final = ThrowIn.ATTACKER
_ThrowIn_OFF: Final = ThrowIn.OFF

_PASS = Action(_Act_PASS)
# Single-card actions are built once: listing them is the hot path of every simulation.
_CARDS = range(60)
_ATTACK = [Action(_Act_ATTACK, (c,)) for c in _CARDS]
_ATTACK_CHEAT = [Action(_Act_ATTACK, (c,), cheat=True) for c in _CARDS]
_TRANSFER = [Action(_Act_TRANSFER, (c,)) for c in _CARDS]
_TRANSFER_CHEAT = [Action(_Act_TRANSFER, (c,), cheat=True) for c in _CARDS]
_SHOW = [Action(_Act_SHOW, (c,)) for c in _CARDS]
_SHOW_CHEAT = [Action(_Act_SHOW, (c,), cheat=True) for c in _CARDS]
_DEFEND = [[Action(_Act_DEFEND, (c,), target=t) for c in _CARDS] for t in _CARDS]
_DEFEND_CHEAT = [[Action(_Act_DEFEND, (c,), target=t, cheat=True) for c in _CARDS] for t in _CARDS]
_THROW_SELF = [Action(_Act_THROW_SELF, (c,)) for c in _CARDS]
_THROW_SELF_CHEAT = [Action(_Act_THROW_SELF, (c,), cheat=True) for c in _CARDS]
FIGURE_RANK = 10  # фигурный: 10s to aces score
REPEATS = 3       # the time a bout begins in the same position that ends the game in a draw


# ---------------------------------------------------------------- seats and roles

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
    if opponent_of is None or state.rules.teams is _Teams_NONE:  # anyone will do
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
    if mode is _ThrowIn_OFF or d is None or a is None:
        return []
    if mode is _ThrowIn_ATTACKER:
        return [] if a in out else [a]
    if state.rules.teams is _Teams_NONE:
        cands = [p for p in range(len(state.hands)) if p != d and p not in out]
    else:
        side = d % 2
        cands = [p for p in range(len(state.hands)) if p % 2 != side and p not in out]
    if mode is _ThrowIn_ALL:
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


def _transfer_blocker(state: State) -> Reason | None:
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


def _attack_rank(state: State) -> int | None:
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


def _transfer_fits(state: State, nxt: int, show: bool = False) -> int:
    """How many cards a transfer to ``nxt`` may add (docs/variants.md §2.5): he beats at most his hand, the bout
    holds at most its limit. Without covered pairs on the table: min(his hand, limit) - attack cards.
    переводной-3: a transfer (not a show) passes over the cards he would have had to beat."""
    rules = state.rules
    to_beat = 0 if rules.transfer_beat_only_new and not show else state.covers.count(None)
    beats = len(state.hands[nxt]) - to_beat
    fit = (rules.first_bout_limit if state.first_bout else rules.bout_limit) - len(state.attacks) - len(state.bypassed)
    return beats if beats < fit else fit


def _table_ranks(state: State) -> set[int]:
    ranks = {c >> 2 for c in state.attacks}
    for c in state.covers:
        if c is not None:
            ranks.add(c >> 2)
    if state.bypassed:
        ranks.update([b >> 2 for b in state.bypassed])
    return ranks


# ---------------------------------------------------------------- legal actions

def legal_actions(state: State, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may take now; each one is accepted by :func:`apply`.

    A list, except a lead under ``three``, ``pairs`` or ``groups``: there the leads are a sequence counted at
    once, each built when read (``durak.lead_sequence``)."""
    if state.over or seat in state.out or not 0 <= seat < len(state.hands):
        return []
    hand = state.hands[seat]
    cheating = state.rules.cheating
    acts: list[Action] = []
    if not state.attacks:
        if seat == state.attacker:
            counted = _list_leads(state, hand, acts)
            if state.rules.stock_lead and state.stock and lead_room(state) >= 1:
                acts.append(STOCK_LEAD)  # after the leads, in ``counted`` too (``acts`` is its tail)
            if counted is not None:
                return counted
        return acts
    if state.lead_open or state.window:
        if seat == (state.attacker if state.lead_open else state.defender):
            (_list_open_lead if state.lead_open else _list_self_throws)(state, hand, acts)
    elif seat == state.defender:
        if not state.taking:
            _list_defence(state, hand, acts)
    elif hand and seat in throwers(state):
        left = room(state)
        if left is None or left > 0:
            ranks = _table_ranks(state)
            if cheating:
                acts.extend([_ATTACK[c] if c >> 2 in ranks else _ATTACK_CHEAT[c] for c in hand])
            else:
                acts.extend([_ATTACK[c] for c in hand if c >> 2 in ranks])
        if seat not in state.passed and (state.taking or None not in state.covers):
            acts.append(_PASS)
    if cheating and seat not in state.accused:
        acts.extend(Action(_Act_ACCUSE, suspect=p) for p in range(len(state.hands)) if p != seat)
    return acts


def actors(state: State) -> list[int]:
    """The seats that have at least one legal action now, cheaper than listing them."""
    if state.over:
        return []
    if state.rules.cheating and state.attacks:
        return [p for p in range(len(state.hands)) if legal_actions(state, p)]
    if not state.attacks:
        return [] if state.attacker is None else [state.attacker]
    if state.lead_open or state.window:
        seat = state.attacker if state.lead_open else state.defender
        return [] if seat is None else [seat]
    taking = state.taking
    uncovered = None in state.covers
    seats = [state.defender] if uncovered and not taking and state.defender is not None else []
    may_pass = taking or not uncovered
    ranks: set[int] | None = None  # what may be thrown in: worked out once, and only if a thrower may not pass
    hands, passed = state.hands, state.passed
    for p in throwers(state):
        hand = hands[p]
        if not hand:
            continue
        if may_pass and p not in passed:
            seats.append(p)
            continue
        if ranks is None:
            left = room(state)
            ranks = _table_ranks(state) if left is None or left > 0 else set()
        for c in hand:  # a loop, not any() over a generator: every simulated move asks
            if c >> 2 in ranks:
                seats.append(p)
                break
    seats.sort()
    return seats


def awaited(state: State) -> list[int]:
    """The seats the game is waiting for: the leader, the defender, or attackers yet to pass.

    Attackers who may throw in while the defender thinks are not waited for.
    """
    if state.over:
        return []
    if not state.attacks:
        return [] if state.attacker is None else [state.attacker]
    if state.lead_open or state.window:
        seat = state.attacker if state.lead_open else state.defender
        return [] if seat is None else [seat]
    if not state.taking and None in state.covers:
        return [] if state.defender is None else [state.defender]
    return [p for p in throwers(state) if state.hands[p] and p not in state.passed]


def _list_leads(state: State, hand: list[Card], acts: list[Action]) -> Sequence[Action] | None:
    """The leads into ``acts``; under ``three``, ``pairs`` and ``groups`` a counted sequence of them is
    returned instead, ``acts`` its tail (no cheat there: every card may be part of a lead)."""
    most = lead_room(state)
    if most < 1:
        return None
    lead = state.rules.lead
    if lead is not _Lead_SAME_RANK:
        leads_counted = counted(lead, hand, most, acts)
        if leads_counted is not None:
            return leads_counted
        leads = variant_leads(lead, hand, most)
        acts.extend(attacks(leads))
        if state.rules.cheating:  # a lone card that breaks the lead rule
            honest = {cards[0] for cards in leads if len(cards) == 1}
            acts.extend([_ATTACK_CHEAT[c] for c in hand if c not in honest])
        return None
    acts.extend([_ATTACK[c] for c in hand])
    if most < 2:
        return None
    groups: dict[int, list[Card]] = {}
    for c in hand:
        groups.setdefault(c >> 2, []).append(c)
    if len(groups) == len(hand):  # no two of a rank: no set to lead
        return None
    for rank in sorted(groups):
        group = groups[rank]
        if len(group) > 1:
            acts.extend(_lead_sets(tuple(sorted(group)), min(most, len(group))))
    return None


@lru_cache(maxsize=1024)  # at most 13 ranks × 17 (suits, size) keys: every lead set there is, once
def _lead_sets(group: tuple[Card, ...], most: int) -> tuple[Action, ...]:
    """Every set of two or more (at most ``most``) of these cards of one rank, as leads: built once."""
    return tuple(Action(_Act_ATTACK, combo) for size in range(2, most + 1) for combo in combinations(group, size))


def _list_defence(state: State, hand: list[Card], acts: list[Action]) -> None:
    rules = state.rules
    trump = state.trump if state.trumps is None else trump_of(state, state.defender)
    beaters = beater_table(rules, trump)
    cheating = rules.cheating
    for target, cover in zip(state.attacks, state.covers, strict=True):
        if cover is not None:
            continue
        honest = _DEFEND[target]
        beat = beaters[target]
        if cheating:
            cheat = _DEFEND_CHEAT[target]
            acts.extend([honest[c] if c in beat else cheat[c] for c in hand])
        else:
            acts.extend([honest[c] for c in hand if c in beat])
    if None in state.covers:
        acts.append(TAKE)
        if rules.draw_to_cover or rules.poker_swap or rules.counter_attack:
            _list_extras(state, hand, acts)
    if _transfer_blocker(state) is not None:
        return
    rank = _attack_rank(state)
    same = [c for c in hand if c >> 2 == rank]
    if not same and not cheating:  # nothing to pass the bout on with (the usual case): no more to work out
        return
    assert state.defender is not None
    nxt = defender_for(state, state.defender)
    if nxt is None:
        return
    fits = _transfer_fits(state, nxt)
    may_empty = rules.transfer_last_card or state.stock or len(hand) > 1
    if fits >= 1 and may_empty:
        if cheating:
            acts.extend([_TRANSFER[c] if c >> 2 == rank else _TRANSFER_CHEAT[c] for c in hand])
        else:
            acts.extend([_TRANSFER[c] for c in same])
    if rules.transfer_show_trump and state.defender not in state.shown:
        if cheating:
            if _transfer_fits(state, nxt, show=True) >= 0:
                acts.extend([_SHOW[c] if c >> 2 == rank and c & 3 == trump else _SHOW_CHEAT[c] for c in hand])
        elif (rank is not None and trump is not None and (rank << 2 | trump) in hand  # one card: the rank's trump
              and _transfer_fits(state, nxt, show=True) >= 0):
            acts.append(_SHOW[rank << 2 | trump])


def _list_extras(state: State, hand: list[Card], acts: list[Action]) -> None:
    """The defender's extra moves of docs/variants.md §2.6 while a card is to beat: draw, swap, counter-attack."""
    rules = state.rules
    if rules.draw_to_cover and _draw_blocker(state) is None:
        acts.append(DRAW_CARD)
    if rules.poker_swap and _swap_blocker(state) is None:
        acts.extend(Action(_Act_SWAP, pair) for pair in combinations(sorted(hand), 2))
    if rules.counter_attack and _counter_blocker(state) is None and _counter_room(state) >= 2:
        target = state.attacks[0]
        beat = beater_table(rules, trump_of(state, state.defender))[target]
        may_empty = rules.transfer_last_card or bool(state.stock) or len(hand) > 2
        if may_empty:
            for c in hand:
                if c in beat:
                    acts.extend(Action(_Act_COUNTER, (c, k), target=target) for k in hand
                                if k >> 2 == c >> 2 and k != c)


def _list_open_lead(state: State, hand: list[Card], acts: list[Action]) -> None:
    """армянский: the cards that may complete the open stock lead (every subset that fits), or pass."""
    assert state.attacker is not None
    most = cards_room(state, state.attacker) or 0
    rank = state.attacks[0] >> 2
    same = sorted(c for c in hand if c >> 2 == rank)
    acts.extend(Action(_Act_ATTACK, combo) for size in range(1, min(most, len(same)) + 1)
                for combo in combinations(same, size))
    acts.append(_PASS)


def _list_self_throws(state: State, hand: list[Card], acts: list[Action]) -> None:
    """американский: one card each of a rank on the table to throw in on himself, or pass (бито)."""
    ranks = _table_ranks(state)
    if state.rules.cheating:
        acts.extend([_THROW_SELF[c] if c >> 2 in ranks else _THROW_SELF_CHEAT[c] for c in hand])
    else:
        acts.extend([_THROW_SELF[c] for c in hand if c >> 2 in ranks])
    acts.append(_PASS)


def _face_up(state: State) -> int:
    """How many face-up cards lie at the bottom of the stock (двухкозырной: two, then one)."""
    stock, face = state.stock, state.trump_card
    if state.second_card is not None and stock and stock[-1] == state.second_card:
        return 2 if len(stock) > 1 and stock[-2] == face else 1
    return 1 if stock and face is not None and stock[-1] == face else 0


def _beating_blocker(state: State, on: bool, off: Reason) -> Reason | None:
    """Why the defender may not use an extra move of §2.6 now: the rule is off, he takes, or nothing is to beat."""
    if not on:
        return off
    if state.taking:
        return Reason.TAKING
    if None not in state.covers:
        return Reason.NOTHING_TO_TAKE
    return None


def _draw_blocker(state: State) -> Reason | None:
    blocker = _beating_blocker(state, state.rules.draw_to_cover, Reason.DRAW_OFF)
    if blocker is None and state.defender in state.drew:
        return Reason.DRAW_USED
    if blocker is None and not state.stock:
        return Reason.STOCK_EMPTY
    return blocker


def _swap_blocker(state: State) -> Reason | None:
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
    if len(state.stock) - _face_up(state) < 2:
        return Reason.SWAP_STOCK
    return None


def _counter_blocker(state: State) -> Reason | None:
    blocker = _beating_blocker(state, state.rules.counter_attack, Reason.COUNTER_OFF)
    if blocker is None and (len(state.attacks) != 1 or state.bypassed):
        return Reason.COUNTER_NOT_NOW
    return Reason.COUNTER_NOT_NOW if blocker is Reason.NOTHING_TO_TAKE else blocker


def _counter_room(state: State) -> int:
    """How many cards a counter-attack may lay (the cover and its rank): the new defender's hand and the limit
    of a bout after the first (the beaten card opens the discard)."""
    assert state.attacker is not None
    return min(len(state.hands[state.attacker]), state.rules.bout_limit)


# ---------------------------------------------------------------- checking an action

def check(state: State, seat: int, action: Action) -> bool:
    """Raise :class:`Illegal` if ``seat`` may not play ``action``; else whether it breaks a
    card rule (only possible as a cheat in cheating mode)."""
    if state.over:
        raise Illegal(Reason.GAME_OVER)
    if not 0 <= seat < len(state.hands):
        raise Illegal(Reason.NO_SUCH_SEAT)
    if seat in state.out:
        raise Illegal(Reason.OUT)
    if action.cheat and not state.rules.cheating:
        raise Illegal(Reason.CHEATING_OFF)
    act = action.act
    if act is _Act_ACCUSE:
        _check_accuse(state, seat, action)
        return False
    if state.lead_open and (seat != state.attacker or act not in (_Act_ATTACK, _Act_PASS)):
        raise Illegal(Reason.LEAD_OPEN)
    if state.window and seat != state.defender:  # американский: the bout waits for the defender alone
        raise Illegal(Reason.NOT_YOUR_TURN)
    if act is _Act_TAKE or act is _Act_PASS:
        if not state.attacks:
            raise Illegal(Reason.NOT_YOUR_TURN)
        if act is _Act_PASS and (state.lead_open or state.window):
            return False  # the leader completes his lead, or the defender ends the bout (his alone, above)
        (_check_take if act is _Act_TAKE else _check_pass)(state, seat)
        return False
    if act is _Act_STOCK_LEAD:
        _check_stock_lead(state, seat)
        return False
    if act is _Act_DRAW_CARD:
        _check_defender(state, seat, _draw_blocker(state))
        return False
    cards = action.cards
    if not cards:
        raise Illegal(Reason.NO_CARDS)
    if len(cards) > 1 and len(set(cards)) != len(cards):
        raise Illegal(Reason.DUPLICATE_CARD)
    hand = state.hands[seat]
    for c in cards:
        if c not in hand:
            raise Illegal(Reason.NOT_IN_HAND, card=c)
    if act is _Act_ATTACK:
        broken = _check_attack(state, seat, cards)
    elif act is _Act_DEFEND:
        if len(cards) != 1:
            raise Illegal(Reason.NO_CARDS)
        broken = _check_defend(state, seat, action.target, cards[0])
    elif act is _Act_TRANSFER:
        broken = _check_transfer(state, seat, cards)
    elif act is _Act_SWAP:
        if len(cards) != 2:
            raise Illegal(Reason.NO_CARDS)
        _check_defender(state, seat, _swap_blocker(state))
        return False
    elif act is _Act_COUNTER:
        _check_counter(state, seat, action.target, cards)
        return False
    elif act is _Act_THROW_SELF:
        broken = _check_throw_self(state, seat, cards)
    else:
        if len(cards) != 1:
            raise Illegal(Reason.NO_CARDS)
        broken = _check_show(state, seat, cards[0])
    if broken is not None and not action.cheat:
        raise broken
    return broken is not None


def _check_attack(state: State, seat: int, cards: tuple[Card, ...]) -> Illegal | None:
    if seat == state.defender:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if state.lead_open:  # армянский: cards of the stock card's rank complete the lead; never as a cheat
        most = cards_room(state, seat) or 0
        if len(cards) > most:
            raise Illegal(Reason.LIMIT, room=most)
        for c in cards:
            if c >> 2 != state.attacks[0] >> 2:
                raise Illegal(Reason.RANK_NOT_ON_TABLE, card=c)
        return None
    if not state.attacks:
        if seat != state.attacker:
            raise Illegal(Reason.ONLY_ATTACKER_LEADS)
        lead_max = state.rules.lead_max
        if lead_max is not None and len(cards) > lead_max:
            raise Illegal(Reason.LEAD_MAX, limit=lead_max)
        most = lead_room(state)
        if len(cards) > most:
            raise Illegal(Reason.LIMIT, room=most)
        lead = state.rules.lead
        if lead is not _Lead_SAME_RANK:
            return lead_breaks(lead, state.hands[seat], cards, most)
        rank = cards[0] >> 2
        for c in cards:
            if c >> 2 != rank:
                return Illegal(Reason.MIXED_RANKS)
        return None
    if seat not in throwers(state):
        raise Illegal(Reason.NO_THROW_IN)
    left = room(state)
    if left is not None and len(cards) > left:
        raise Illegal(Reason.LIMIT, room=max(left, 0))
    ranks = _table_ranks(state)
    for c in cards:
        if c >> 2 not in ranks:
            return Illegal(Reason.RANK_NOT_ON_TABLE, card=c)
    return None


def _check_defend(state: State, seat: int, target: Card | None, card: Card) -> Illegal | None:
    if seat != state.defender or not state.attacks:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if state.taking:
        raise Illegal(Reason.TAKING)
    if target is not None and target in state.bypassed:
        raise Illegal(Reason.NOT_TO_BEAT, card=target)
    if target is None or target not in state.attacks:
        raise Illegal(Reason.NOT_ON_TABLE, card=target)
    if state.covers[state.attacks.index(target)] is not None:
        raise Illegal(Reason.ALREADY_COVERED, card=target)
    if card not in beater_table(state.rules, trump_of(state, seat))[target]:
        return Illegal(Reason.CANNOT_COVER, card=card, target=target)
    return None


def _check_transfer_common(state: State, seat: int) -> int:
    """Checks shared by transfer and show; returns the new defender."""
    if seat != state.defender or not state.attacks:
        raise Illegal(Reason.NOT_YOUR_TURN)
    blocker = _transfer_blocker(state)
    if blocker is not None:
        raise Illegal(blocker)
    nxt = defender_for(state, seat)
    if nxt is None:
        raise Illegal(Reason.NOT_YOUR_TURN)
    return nxt


def _check_transfer(state: State, seat: int, cards: tuple[Card, ...]) -> Illegal | None:
    nxt = _check_transfer_common(state, seat)
    fits = _transfer_fits(state, nxt)
    if len(cards) > fits:
        raise Illegal(Reason.LIMIT, room=max(fits, 0))
    hand = state.hands[seat]
    if len(cards) == len(hand) and not state.stock and not state.rules.transfer_last_card:
        raise Illegal(Reason.TRANSFER_LAST_CARD)
    rank = _attack_rank(state)
    for c in cards:
        if c >> 2 != rank:
            return Illegal(Reason.TRANSFER_RANK, card=c)
    return None


def _check_show(state: State, seat: int, card: Card) -> Illegal | None:
    if not state.rules.transfer or not state.rules.transfer_show_trump:
        raise Illegal(Reason.SHOW_OFF)
    nxt = _check_transfer_common(state, seat)
    if seat in state.shown:
        raise Illegal(Reason.SHOW_USED)
    if _transfer_fits(state, nxt, show=True) < 0:
        raise Illegal(Reason.LIMIT, room=0)
    if card >> 2 != _attack_rank(state) or card & 3 != trump_of(state, seat):
        return Illegal(Reason.SHOW_NOT_TRUMP, card=card)
    return None


def _check_stock_lead(state: State, seat: int) -> None:
    if not state.rules.stock_lead:
        raise Illegal(Reason.STOCK_LEAD_OFF)
    if state.attacks:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if seat != state.attacker:
        raise Illegal(Reason.ONLY_ATTACKER_LEADS)
    if not state.stock:
        raise Illegal(Reason.STOCK_EMPTY)
    if lead_room(state) < 1:
        raise Illegal(Reason.LIMIT, room=0)


def _check_defender(state: State, seat: int, blocker: Reason | None) -> None:
    """The defender's draw, swap and counter-attack: on at this table, his turn, and nothing in the way."""
    if blocker in (Reason.DRAW_OFF, Reason.SWAP_OFF, Reason.COUNTER_OFF):
        raise Illegal(blocker)
    if seat != state.defender or not state.attacks:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if blocker is not None:
        raise Illegal(blocker, size=state.rules.hand_size) if blocker is Reason.SWAP_HAND else Illegal(blocker)


def _check_counter(state: State, seat: int, target: Card | None, cards: tuple[Card, ...]) -> None:
    _check_defender(state, seat, _counter_blocker(state))
    if target is None or target != state.attacks[0]:
        raise Illegal(Reason.NOT_ON_TABLE, card=target)
    card = cards[0]
    if card not in beater_table(state.rules, trump_of(state, seat))[target]:
        raise Illegal(Reason.CANNOT_COVER, card=card, target=target)
    if len(cards) < 2:
        raise Illegal(Reason.NO_CARDS)
    for c in cards[1:]:
        if c >> 2 != card >> 2:
            raise Illegal(Reason.COUNTER_RANK, card=c)
    most = _counter_room(state)
    if len(cards) > most:
        raise Illegal(Reason.LIMIT, room=most)
    if len(cards) == len(state.hands[seat]) and not state.stock and not state.rules.transfer_last_card:
        raise Illegal(Reason.TRANSFER_LAST_CARD)


def _check_throw_self(state: State, seat: int, cards: tuple[Card, ...]) -> Illegal | None:
    if not state.rules.self_throw_in:
        raise Illegal(Reason.SELF_THROW_OFF)
    if seat != state.defender or not state.window:
        raise Illegal(Reason.SELF_THROW_NOT_NOW)
    left = room(state)
    if left is not None and len(cards) > left:
        raise Illegal(Reason.LIMIT, room=max(left, 0))
    if len(cards) >= len(state.hands[seat]):
        raise Illegal(Reason.SELF_THROW_LAST_CARD)
    ranks = _table_ranks(state)
    for c in cards:
        if c >> 2 not in ranks:
            return Illegal(Reason.RANK_NOT_ON_TABLE, card=c)
    return None


def _check_take(state: State, seat: int) -> None:
    if seat != state.defender:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if state.taking:
        raise Illegal(Reason.TAKING)
    if None not in state.covers:
        raise Illegal(Reason.NOTHING_TO_TAKE)


def _check_pass(state: State, seat: int) -> None:
    if seat == state.defender or seat not in throwers(state) or not state.hands[seat]:
        raise Illegal(Reason.NOT_YOUR_TURN)
    if not state.taking and None in state.covers:
        raise Illegal(Reason.PASS_NOT_NOW)
    if seat in state.passed:
        raise Illegal(Reason.ALREADY_PASSED)


def _check_accuse(state: State, seat: int, action: Action) -> None:
    if not state.rules.cheating:
        raise Illegal(Reason.CHEATING_OFF)
    suspect = action.suspect
    if suspect is None or not 0 <= suspect < len(state.hands):
        raise Illegal(Reason.NO_SUCH_SEAT)
    if suspect == seat:
        raise Illegal(Reason.ACCUSE_SELF)
    if not state.attacks:
        raise Illegal(Reason.NOTHING_TO_ACCUSE)
    if seat in state.accused:
        raise Illegal(Reason.ACCUSE_USED)


# ---------------------------------------------------------------- applying an action

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


# The events of the moves a game plays most are built from all five fields at once: ``Event(...)`` runs
# NamedTuple's ``__new__``, a Python function, which cost 2-3 % of a random game's instructions.
_event = tuple.__new__


def _play(s: State, seat: int, action: Action, broken: bool) -> list[Event]:
    events: list[Event] = []
    act = action.act
    stock = len(s.stock)
    if act is _Act_ATTACK:
        if s.lead_open:
            _complete_lead(s, seat, action.cards, events)
        else:
            _lay_attack(s, seat, action.cards, events)
    elif act is _Act_DEFEND:
        assert action.target is not None
        card = action.cards[0]
        s.hands[seat].remove(card)
        s.covers[s.attacks.index(action.target)] = card
        if s.rules.poker_swap:  # the only rule that asks who covered (no swap after one's first cover)
            s.covered = s.covered | {seat}
        events.append(_event(Event, (_Ev_COVER, seat, (action.target, card), None, 0)))
        if not s.hands[seat] and None in s.covers:  # американский: he threw in more than he can beat
            s.taking = True
            events.append(_event(Event, (_Ev_TAKE, seat, (), None, 0)))
        elif not s.hands[seat]:
            _after_lay(s, seat, action.cards, events)
    elif act is _Act_TRANSFER or act is _Act_SHOW:
        _pass_bout_on(s, seat, action, events)
    elif act is _Act_TAKE:
        s.taking = True
        events.append(_event(Event, (_Ev_TAKE, seat, (), None, 0)))
    elif act is _Act_PASS:  # number: which button it was (the log says what was pressed)
        pressed = PASS_LEAD_ALONE if s.lead_open else PASS_LET_TAKE if s.taking else PASS_DONE
        events.append(_event(Event, (_Ev_PASS, seat, (), None, pressed)))
        if s.window:  # американский: the defender lets the bout end
            s.window = False
            _end_bout(s, events, taker=None)
        elif s.lead_open:  # армянский: the stock card is the whole lead
            s.lead_open = False
        else:
            s.passed = s.passed | {seat}
    elif act is _Act_ACCUSE:
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
            _end_bout(s, events, taker=s.defender if s.taking else None)
    if len(s.stock) == 1 < stock and s.rules.trump_card_hidden and s.stock[0] == s.trump_card:
        events.append(Event(_Ev_FACE_SHOWN, None, (s.stock[0],)))  # невидимый: the last card lies face up now
    s.moves += 1
    return events


def _extra_move(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """The variants' own actions (docs/variants.md §4)."""
    act, stock, hand = action.act, s.stock, s.hands[seat]
    if act is _Act_STOCK_LEAD:
        card = stock.pop(0)
        s.attacks, s.covers = [card], [None]
        assert s.defender is not None
        s.cap = len(s.hands[s.defender])
        s.passed = frozenset()
        s.lead_open = lead_room(s) > 1
        events.append(Event(_Ev_STOCK_LEAD, seat, (card,), number=int(s.lead_open)))
    elif act is _Act_DRAW_CARD:
        hand.append(stock.pop(0))
        s.drew = s.drew | {seat}
        events.append(Event(_Ev_DREW_CARD, seat))
        _face_up_drawn(s, seat, hand[-1:], len(stock) + 1, events)
    elif act is _Act_SWAP:
        for c in action.cards:
            hand.remove(c)
        hand.extend(stock[:2])
        bottom = len(stock) - _face_up(s)
        s.stock = stock[2:bottom] + list(action.cards) + stock[bottom:]
        s.swapped = s.swapped | {seat}
        events.append(Event(_Ev_SWAPPED, seat))
    elif act is _Act_COUNTER:
        _counter(s, seat, action, events)
    else:  # THROW_SELF
        for c in action.cards:
            hand.remove(c)
            s.attacks.append(c)
            s.covers.append(None)
        s.self_thrown = (*s.self_thrown, *action.cards)
        s.passed = frozenset()
        s.window = False
        events.append(Event(_Ev_THROW_SELF, seat, action.cards))


def _complete_lead(s: State, seat: int, cards: tuple[Card, ...], events: list[Event]) -> None:
    """армянский: hand cards of the stock card's rank join the open lead, which is then complete."""
    hand = s.hands[seat]
    for c in cards:
        hand.remove(c)
        s.attacks.append(c)
        s.covers.append(None)
    s.lead_open = False
    events.append(Event(_Ev_LEAD, seat, cards))
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
    if ranking is _Ranking_BEATEN or (ranking is _Ranking_FIGURES and target >> 2 >= FIGURE_RANK):
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
    events.append(Event(_Ev_COUNTER, seat, (target, *action.cards), other=victim))
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
    ranks = _table_ranks(s)
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
    events.append(_event(Event, (_Ev_LEAD if lead else _Ev_THROW_IN, seat, cards, None, 0)))
    if not hand:
        _after_lay(s, seat, cards, events)


def _pass_bout_on(s: State, seat: int, action: Action, events: list[Event]) -> None:
    nxt = defender_for(s, seat)
    assert nxt is not None
    if action.act is _Act_SHOW:
        s.shown = s.shown | {seat}
        events.append(Event(_Ev_SHOW, seat, action.cards, other=nxt))
    else:
        if s.rules.transfer_beat_only_new:
            _pass_over(s)
        hand = s.hands[seat]
        for c in action.cards:
            hand.remove(c)
            s.attacks.append(c)
            s.covers.append(None)
        events.append(Event(_Ev_TRANSFER, seat, action.cards, other=nxt))
    covered = len(s.covers) - s.covers.count(None)
    if covered and s.rules.ranking is not _Ranking_ORDER:  # переводной-2: the pairs he covered stay his
        done = {pair for pair, _ in s.coverers}
        s.coverers = (*s.coverers, *((i, seat) for i, c in enumerate(s.covers) if c is not None and i not in done))
    s.attacker, s.defender = seat, nxt
    s.cap = len(s.hands[nxt]) + covered + len(s.bypassed)  # the limit counts the cards he need not beat
    s.passed = frozenset()
    if action.act is _Act_TRANSFER:
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
    if rule is _PogonyRule_SIXES:
        sixes = len(cards) <= 2 and all(c >> 2 == 6 and c & 3 != trump for c in cards)
    else:  # two_sixes: exactly two sixes, one may be the trump six; off: never
        sixes = rule is _PogonyRule_TWO_SIXES and len(cards) == 2 and all(c >> 2 == 6 for c in cards)
    s.sixes = s.sixes | {seat} if sixes else s.sixes - {seat}
    if not s.stock:
        _go_out(s, seat, events)
    else:  # if the draw leaves him empty, he goes out in this order (docs/rules.md §6)
        s.emptied = (*s.emptied, seat)


def _go_out(s: State, seat: int, events: list[Event]) -> None:
    s.out = [*s.out, seat]
    s.seen = ()
    events.append(Event(_Ev_OUT, seat, number=len(s.out)))


def _accuse(s: State, seat: int, suspect: int, events: list[Event]) -> None:
    if suspect not in s.cheats:
        s.accused = s.accused | {seat}
        events.append(Event(_Ev_WRONG_ACCUSE, seat, other=suspect))
        return
    events.append(Event(_Ev_CAUGHT, suspect, other=seat))
    if suspect in s.out:
        s.out = [p for p in s.out if p != suspect]
    # A caught defender takes; a caught attacker's victim counts as having defended.
    _end_bout(s, events, taker=suspect)


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


def _end_bout(s: State, events: list[Event], taker: int | None) -> None:
    attacker, defender = s.attacker, s.defender
    assert attacker is not None and defender is not None
    table = s.bypassed + s.attacks + [c for c in s.covers if c is not None]
    defended = taker != defender
    if s.rules.ranking is not _Ranking_ORDER:
        _score(s, attacker, defender, taker, table, events)
    if taker is None:
        events.append(_event(Event, (_Ev_BEATEN, defender, tuple(table), None, 0)))
        if not (s.rules.recycle_discard and _recycled(s, table, events)):
            s.discard = s.discard + table
            if s.rules.trump_swap:
                _swap_trump(s, events)
    else:
        s.hands[taker].extend(table)
        events.append(_event(Event, (_Ev_PICKED_UP, taker, tuple(table), None, 0)))
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
        mates = [p for p in _clockwise(s, defender) if s.rules.team_of(p) == s.rules.team_of(defender)]
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
    events.append(Event(_Ev_GAME_OVER))


def _clockwise(s: State, seat: int) -> list[int]:
    """Active seats clockwise from the left of ``seat``."""
    n = len(s.hands)
    return [p for p in ((seat + i) % n for i in range(1, n)) if p not in s.out]


def _face_up_drawn(s: State, seat: int, got: list[Card], before: int, events: list[Event]) -> None:
    """The face-up cards among those ``seat`` drew from a stock of ``before`` cards: everyone saw them go to
    his hand (невидимый: only the one that lay alone, shown)."""
    if s.rules.trump_card_hidden and before > 1:
        return
    for card in (s.trump_card, s.second_card):
        if card is not None and card in got:
            events.append(Event(_Ev_FACE_DRAWN, seat, (card,)))


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
    only_empty = s.rules.refill is _Refill_WHEN_EMPTY
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
            events.append(_event(Event, (_Ev_DREW, p, (), None, len(got))))
            if len(stock) <= 1:
                _face_up_drawn(s, p, got, len(stock) + len(got), events)
    if not stock:  # the order hands became empty; the draw order for any not recorded (an old state)
        for p in [*s.emptied, *order]:
            if p not in s.out and not hands[p]:  # s.out: each going out gives the state a new list
                _go_out(s, p, events)
    s.emptied = ()


def _score(s: State, attacker: int, defender: int, taker: int | None, table: list[Card],
           events: list[Event]) -> None:
    """docs/variants.md §2.8: a beaten bout scores the covered cards for who covered them (the defender: a cover
    lies only on cards he had to beat); a declared take of exactly one pair hangs a pogon on the taker."""
    ranking = s.rules.ranking
    if ranking is _Ranking_POGONY:
        if taker == defender and s.taking and len(table) == 2 and table[0] >> 2 == table[1] >> 2:
            rank = table[0] >> 2
            pogons = list(s.pogons)
            pogons[attacker] = (*pogons[attacker], rank)
            s.pogons = tuple(pogons)
            events.append(Event(_Ev_POGON, attacker, (), defender, rank))
        return
    if taker is not None:
        return
    low = FIGURE_RANK if ranking is _Ranking_FIGURES else 0
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
    events.append(Event(_Ev_SECRET_TRUMP, None, (card,)))


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
    events.append(Event(_Ev_TRUMP_SWAPPED, None, (old, new)))


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
    events.append(Event(_Ev_RECYCLED, None, tuple(table), None, len(table)))
    return True


def _rotate_hands(s: State, events: list[Event]) -> None:
    """круговой: every active hand passes to the next active seat clockwise."""
    active = [p for p in range(len(s.hands)) if p not in s.out]
    hands = [s.hands[p] for p in active]
    for i, p in enumerate(active):
        s.hands[p] = hands[i - 1]
    events.append(Event(_Ev_HANDS_ROTATED, number=sum(1 << p for p in active)))


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
    events.append(Event(_Ev_GAME_OVER))
    return True


def is_legal(state: State, seat: int, action: Action) -> bool:
    try:
        check(state, seat, action)
    except Illegal:
        return False
    return True
