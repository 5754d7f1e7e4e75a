"""The whole state of one game, its copy, and its lossless JSON form.

A :class:`State` is treated as a value: :func:`durak.engine.apply` returns a new one and
never changes the one it was given. Seat sets are frozensets, and the lists a move seldom changes
(discard, out, set_aside, bypassed) are replaced, never changed in place, so a copy can share them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from durak.cards import SUIT_LETTERS, Card, Suit, card_code, deck, parse_card, parse_suit
from durak.rules import Ranking, Rules, RulesError

FORMAT_VERSION = 5  # 2 added "emptied", 3 the variants' "set_aside", "scores", "pogons", 4 their bout state,
#                      5 "seen" (the repetition draw) for "idle"; older read


class StateError(ValueError):
    """A serialized state that cannot be read: wrong version, bad field, cards that do not add up."""


@dataclass(slots=True, eq=True)
class State:
    rules: Rules
    trump: Suit | None
    trump_card: Card | None          # the face-up card, shown to everyone
    hands: list[list[Card]]
    stock: list[Card]                # top first; the last one is the trump card
    discard: list[Card]
    attacks: list[Card]              # attack cards in the order they were laid
    covers: list[Card | None]        # the card covering attacks[i], or None
    attacker: int | None             # the main attacker; None once the game is over
    defender: int | None
    first_bout: bool = True          # until the game's first successful defence
    cap: int = 0                     # defender's hand size when he became defender
    taking: bool = False
    passed: frozenset[int] = frozenset()
    shown: frozenset[int] = frozenset()    # showed a trump this bout (проездной)
    cheats: frozenset[int] = frozenset()   # broke a card rule this bout
    accused: frozenset[int] = frozenset()  # accused an honest player this bout
    sixes: frozenset[int] = frozenset()    # emptied their hand laying only non-trump sixes
    out: list[int] = field(default_factory=list)  # seats in the order they went out
    over: bool = False
    losers: tuple[int, ...] = ()
    draw: bool = False
    pogony: bool = False
    moves: int = 0
    emptied: tuple[int, ...] = ()    # hands emptied this bout while the stock had cards, in that order
    set_aside: list[Card] = field(default_factory=list)  # out of the game face down (чукотский)
    scores: tuple[int, ...] = ()     # per seat, with ranking beaten or figures (docs/variants.md §2.8)
    pogons: tuple[tuple[int, ...], ...] = ()  # per seat, the ranks of the pogony hung, with ranking pogony
    seen: tuple[int, ...] = ()       # where bouts began after takes that drew nothing (engine.bout_end._repeated)
    coverers: tuple[tuple[int, int], ...] = ()  # переводной-2 with scores: (pair, seat) covered by an earlier defender
    bouts_beaten: int = 0            # отбойный: bouts ended бито so far
    seed: int = 0                    # отбойный: the game's seed, for shuffles during play
    secret: Card | None = None       # потайной: the face-down card under the face-up card, until turned
    bypassed: list[Card] = field(default_factory=list)  # переводной-3: attack cards passed over (nobody beats them)
    lead_open: bool = False          # армянский: the main attacker may still add cards to his stock lead
    window: bool = False             # американский: the bout waits for the defender to throw in on himself or pass
    drew: frozenset[int] = frozenset()     # вторая попытка: drew a card this bout
    swapped: frozenset[int] = frozenset()  # покерный: swapped two cards this bout
    covered: frozenset[int] = frozenset()  # covered a card this bout (покерный: no swap after it)
    self_thrown: tuple[Card, ...] = ()     # американский: attack cards the defender threw in on himself
    trumps: tuple[Suit, Suit] | None = None  # двухкозырной: seat 0's and seat 1's trump (``trump`` is None)
    second_card: Card | None = None  # двухкозырной: seat 1's face-up card, drawn last (``trump_card`` is seat 0's)
    bypassed_at: tuple[int, ...] = ()  # where each of ``bypassed`` lies in the table's laid order (table_pairs)
    # the seats that may throw in and the roles and seats out they were found for (engine.throwers);
    # not part of the game: never compared, copied or saved
    memo: tuple[int | None, int | None, list[int], list[int]] | None = field(default=None, compare=False,
                                                                           repr=False)

    @property
    def players(self) -> int:
        return len(self.hands)

    def copy(self) -> State:
        """A state a move can change without changing this one. Built field by field on a bare instance: the
        dataclass's ``__init__`` with its 44 arguments is much slower, and a press copies the state once. The
        hands, stock and table are copied; ``discard``, ``out``, ``set_aside`` and ``bypassed`` are shared, as
        the engine never changes them in place (a move that changes one gives the state a new list)."""
        n = State.__new__(State)
        n.rules = self.rules
        n.trump = self.trump
        n.trump_card = self.trump_card
        n.hands = list(map(list.copy, self.hands))
        n.stock = self.stock[:]
        n.discard = self.discard
        n.attacks = self.attacks[:]
        n.covers = self.covers[:]
        n.attacker = self.attacker
        n.defender = self.defender
        n.first_bout = self.first_bout
        n.cap = self.cap
        n.taking = self.taking
        n.passed = self.passed
        n.shown = self.shown
        n.cheats = self.cheats
        n.accused = self.accused
        n.sixes = self.sixes
        n.out = self.out
        n.over = self.over
        n.losers = self.losers
        n.draw = self.draw
        n.pogony = self.pogony
        n.moves = self.moves
        n.emptied = self.emptied
        n.set_aside = self.set_aside
        n.scores = self.scores
        n.pogons = self.pogons
        n.seen = self.seen
        n.coverers = self.coverers
        n.bouts_beaten = self.bouts_beaten
        n.seed = self.seed
        n.secret = self.secret
        n.bypassed = self.bypassed
        n.lead_open = self.lead_open
        n.window = self.window
        n.drew = self.drew
        n.swapped = self.swapped
        n.covered = self.covered
        n.self_thrown = self.self_thrown
        n.trumps = self.trumps
        n.second_card = self.second_card
        n.bypassed_at = self.bypassed_at
        n.memo = self.memo
        return n

    def all_cards(self) -> list[Card]:
        """Every card in play, wherever it lies (hands, stock, discard, table)."""
        cards = [c for h in self.hands for c in h] + self.stock + self.discard + self.attacks + self.set_aside
        cards += self.bypassed
        if self.secret is not None:
            cards.append(self.secret)
        return cards + [c for c in self.covers if c is not None]

    def to_json(self) -> dict[str, Any]:
        codes = _codes
        return {
            "format": FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "trump": None if self.trump is None else SUIT_LETTERS[self.trump],
            "trump_card": None if self.trump_card is None else card_code(self.trump_card),
            "hands": [codes(h) for h in self.hands],
            "stock": codes(self.stock),
            "discard": codes(self.discard),
            "table": [[card_code(a), None if c is None else card_code(c)] for a, c in table_pairs(self)],
            "attacker": self.attacker,
            "defender": self.defender,
            "first_bout": self.first_bout,
            "cap": self.cap,
            "taking": self.taking,
            "passed": sorted(self.passed),
            "shown": sorted(self.shown),
            "cheats": sorted(self.cheats),
            "accused": sorted(self.accused),
            "sixes": sorted(self.sixes),
            "out": list(self.out),
            "over": self.over,
            "losers": list(self.losers),
            "draw": self.draw,
            "pogony": self.pogony,
            "moves": self.moves,
            "emptied": list(self.emptied),
            "set_aside": codes(self.set_aside),
            "scores": list(self.scores),
            "pogons": [list(p) for p in self.pogons],
            "seen": list(self.seen),
            "coverers": [list(p) for p in self.coverers],
            "bouts_beaten": self.bouts_beaten,
            "seed": self.seed,
            "secret": None if self.secret is None else card_code(self.secret),
            "bypassed": list(self.bypassed_at),
            "lead_open": self.lead_open,
            "window": self.window,
            "drew": sorted(self.drew),
            "swapped": sorted(self.swapped),
            "covered": sorted(self.covered),
            "self_thrown": codes(list(self.self_thrown)),
            "trumps": None if self.trumps is None else [SUIT_LETTERS[t] for t in self.trumps],
            "second_card": None if self.second_card is None else card_code(self.second_card),
        }

    @classmethod
    def from_json(cls, data: Any) -> State:
        """The inverse of :meth:`to_json`; raises :class:`StateError` for anything malformed."""
        try:
            return _from_json(data)
        except StateError:
            raise
        except RulesError as e:
            raise StateError(f"bad rules: {e}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise StateError(f"malformed game state: {type(e).__name__}: {e}") from None


def table_pairs(state: State) -> list[tuple[Card, Card | None]]:
    """The table as (attack, cover) pairs in the order the attack cards were laid, passed-over ones included
    (переводной-3; covered pairs of переводной-2 may lie before them)."""
    pairs: list[tuple[Card, Card | None]] = list(zip(state.attacks, state.covers, strict=True))
    for at, card in zip(state.bypassed_at, state.bypassed, strict=True):
        pairs.insert(at, (card, None))
    return pairs


def _codes(cards: list[Card]) -> list[str]:
    return [card_code(c) for c in cards]


def _count(n: Any) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise StateError(f"bad score {n!r}")
    return n


def _pair(trumps: Any) -> tuple[Suit, Suit]:
    first, second = (parse_suit(t) for t in trumps)
    return first, second


def _fingerprint(f: Any) -> int:
    if not isinstance(f, int) or isinstance(f, bool) or not -2**63 <= f < 2**63:
        raise StateError(f"bad position fingerprint {f!r}")
    return f


def _rank(r: Any) -> int:
    if not isinstance(r, int) or isinstance(r, bool) or not 2 <= r <= 14:
        raise StateError(f"bad rank {r!r}")
    return r


def _from_json(data: Any) -> State:
    if not isinstance(data, dict):
        raise StateError("a game state must be a JSON object")
    if data.get("format") not in (1, 2, 3, 4, FORMAT_VERSION):  # older formats lack the later fields
        raise StateError(f"unsupported state format {data.get('format')!r} (expected {FORMAT_VERSION})")
    rules = Rules.from_dict(data["rules"])

    def cards(items: Any) -> list[Card]:
        return [parse_card(c) for c in items]

    def seats(items: Any) -> frozenset[int]:
        return frozenset(_seat(s) for s in items)

    def _seat(s: Any) -> int:
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < len(data["hands"]):
            raise StateError(f"bad seat {s!r}")
        return s

    def opt_seat(s: Any) -> int | None:
        return None if s is None else _seat(s)

    table = data["table"]
    bypassed = data.get("bypassed", 0)  # format 5 before the laid order was kept: how many lie first
    at = tuple(range(_count(bypassed))) if isinstance(bypassed, int) else tuple(_count(i) for i in bypassed)
    if (list(at) != sorted(set(at)) or (at and at[-1] >= len(table))
            or any(table[i][1] is not None for i in at)):
        raise StateError("the passed-over cards are uncovered cards on the table")
    kept = [pair for i, pair in enumerate(table) if i not in at]
    state = State(
        rules=rules,
        trump=None if data["trump"] is None else parse_suit(data["trump"]),
        trump_card=None if data["trump_card"] is None else parse_card(data["trump_card"]),
        hands=[cards(h) for h in data["hands"]],
        stock=cards(data["stock"]),
        discard=cards(data["discard"]),
        attacks=[parse_card(a) for a, _ in kept],
        covers=[None if c is None else parse_card(c) for _, c in kept],
        attacker=opt_seat(data["attacker"]),
        defender=opt_seat(data["defender"]),
        first_bout=bool(data["first_bout"]),
        cap=int(data["cap"]),
        taking=bool(data["taking"]),
        passed=seats(data["passed"]),
        shown=seats(data["shown"]),
        cheats=seats(data["cheats"]),
        accused=seats(data["accused"]),
        sixes=seats(data["sixes"]),
        out=[_seat(s) for s in data["out"]],
        over=bool(data["over"]),
        losers=tuple(_seat(s) for s in data["losers"]),
        draw=bool(data["draw"]),
        pogony=bool(data["pogony"]),
        moves=int(data["moves"]),
        emptied=tuple(_seat(s) for s in data.get("emptied", ())),
        set_aside=cards(data.get("set_aside", [])),
        scores=tuple(_count(n) for n in data.get("scores", [])),
        pogons=tuple(tuple(_rank(r) for r in p) for p in data.get("pogons", [])),
        seen=tuple(_fingerprint(f) for f in data.get("seen", [])),
        coverers=tuple((_count(i), _seat(p)) for i, p in data.get("coverers", [])),
        bouts_beaten=_count(data.get("bouts_beaten", 0)),
        seed=_count(data.get("seed", 0)),
        secret=None if data.get("secret") is None else parse_card(data["secret"]),
        bypassed=[parse_card(table[i][0]) for i in at],
        bypassed_at=at,
        lead_open=bool(data.get("lead_open", False)),
        window=bool(data.get("window", False)),
        drew=seats(data.get("drew", [])),
        swapped=seats(data.get("swapped", [])),
        covered=seats(data.get("covered", [])),
        self_thrown=tuple(cards(data.get("self_thrown", []))),
        trumps=None if data.get("trumps") is None else _pair(data["trumps"]),
        second_card=None if data.get("second_card") is None else parse_card(data["second_card"]),
    )
    scored = rules.ranking is Ranking.BEATEN or rules.ranking is Ranking.FIGURES
    if len(state.scores) != (state.players if scored else 0):
        raise StateError("scores must name every seat, and only with ranking beaten or figures")
    if len(state.pogons) != (state.players if rules.ranking is Ranking.POGONY else 0):
        raise StateError("pogony must name every seat, and only with ranking pogony")
    every = state.all_cards()
    if len(set(every)) != len(every):
        raise StateError("a card lies in two places")
    if not set(every) <= set(deck(rules.deck_size)):
        raise StateError(f"a card is not in a deck of {rules.deck_size}")
    if not state.over and (state.attacker is None or state.defender is None):
        raise StateError("a running game needs an attacker and a defender")
    return state
