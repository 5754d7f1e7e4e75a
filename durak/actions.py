"""What a seat can do (:class:`Action`), and why the engine may refuse it (:class:`Illegal`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from durak.cards import Card, card_code, parse_card


class Act(StrEnum):
    ATTACK = "attack"      # lead on an empty table, or throw in on an open bout
    DEFEND = "defend"      # cover ``target`` with ``cards[0]``
    TRANSFER = "transfer"  # lay cards of the attack rank and pass the bout on
    SHOW = "show"          # transfer by showing the trump of the attack rank (проездной)
    TAKE = "take"
    PASS = "pass"
    ACCUSE = "accuse"      # cheating mode: accuse ``suspect``
    # the variants (docs/variants.md §4)
    STOCK_LEAD = "stock_lead"  # армянский: lead the stock's top card; the lead may stay open
    DRAW_CARD = "draw_card"    # вторая попытка: the defender draws the stock's top card
    SWAP = "swap"              # покерный: the defender swaps ``cards`` (two) for the stock's top two
    COUNTER = "counter"        # прибалтийский: cover ``target`` with ``cards[0]``, strike back with ``cards[1:]``
    THROW_SELF = "throw_self"  # американский: the defender throws ``cards`` in on himself


class Action(NamedTuple):
    """One atomic action. Use the constructors below rather than the fields.

    ``cheat`` marks a card play made although it may break a card rule (cheating mode).
    """

    act: Act
    cards: tuple[Card, ...] = ()
    target: Card | None = None
    suspect: int | None = None
    cheat: bool = False

    @property
    def card(self) -> Card:
        return self.cards[0]


def attack(*cards: Card, cheat: bool = False) -> Action:
    return Action(Act.ATTACK, tuple(cards), cheat=cheat)


def defend(target: Card, card: Card, cheat: bool = False) -> Action:
    return Action(Act.DEFEND, (card,), target=target, cheat=cheat)


def transfer(*cards: Card, cheat: bool = False) -> Action:
    return Action(Act.TRANSFER, tuple(cards), cheat=cheat)


def show(card: Card, cheat: bool = False) -> Action:
    return Action(Act.SHOW, (card,), cheat=cheat)


TAKE = Action(Act.TAKE)
PASS = Action(Act.PASS)


def accuse(suspect: int) -> Action:
    return Action(Act.ACCUSE, suspect=suspect)


STOCK_LEAD = Action(Act.STOCK_LEAD)
DRAW_CARD = Action(Act.DRAW_CARD)


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as JSON (a stored game's moves): its act, and of the rest only what is set."""
    out: dict[str, Any] = {"a": action.act.value}
    if action.cards:
        out["c"] = [card_code(c) for c in action.cards]
    if action.target is not None:
        out["t"] = card_code(action.target)
    if action.suspect is not None:
        out["p"] = action.suspect
    if action.cheat:
        out["x"] = True
    return out


def action_from_json(data: dict[str, Any]) -> Action:
    """The action :func:`action_to_json` wrote; ValueError (or KeyError, TypeError) for anything else."""
    target = data.get("t")
    suspect = data.get("p")
    return Action(Act(data["a"]), tuple(parse_card(c) for c in data.get("c", ())),
                  None if target is None else parse_card(target), None if suspect is None else int(suspect),
                  bool(data.get("x", False)))


def swap(first: Card, second: Card) -> Action:
    return Action(Act.SWAP, (first, second))


def counter(target: Card, card: Card, *cards: Card) -> Action:
    return Action(Act.COUNTER, (card, *cards), target=target)


def throw_self(*cards: Card, cheat: bool = False) -> Action:
    return Action(Act.THROW_SELF, tuple(cards), cheat=cheat)


class Reason(StrEnum):
    """Why an action was refused; a UI turns it (and its params) into a sentence."""

    GAME_OVER = "game_over"
    NO_SUCH_SEAT = "no_such_seat"
    OUT = "out"                            # the seat has finished
    NOT_YOUR_TURN = "not_your_turn"
    NO_CARDS = "no_cards"                  # an action that lays cards names none
    DUPLICATE_CARD = "duplicate_card"
    NOT_IN_HAND = "not_in_hand"            # card
    ONLY_ATTACKER_LEADS = "only_attacker_leads"
    MIXED_RANKS = "mixed_ranks"
    LEAD_MAX = "lead_max"                  # limit
    LIMIT = "limit"                        # room: how many more cards fit
    NO_THROW_IN = "no_throw_in"            # this seat may not throw in
    RANK_NOT_ON_TABLE = "rank_not_on_table"  # card
    NOT_ON_TABLE = "not_on_table"          # card (a cover target)
    ALREADY_COVERED = "already_covered"    # card
    CANNOT_COVER = "cannot_cover"          # card, target
    TAKING = "taking"                      # the defender declared take and covers nothing more
    NOTHING_TO_TAKE = "nothing_to_take"
    PASS_NOT_NOW = "pass_not_now"          # uncovered cards lie on the table
    ALREADY_PASSED = "already_passed"
    TRANSFER_OFF = "transfer_off"
    TRANSFER_FIRST_BOUT = "transfer_first_bout"
    TRANSFER_AFTER_COVER = "transfer_after_cover"
    TRANSFER_NOTHING_TO_BEAT = "transfer_nothing_to_beat"  # every card on the table is covered
    TRANSFER_RANK = "transfer_rank"        # card
    TRANSFER_LAST_CARD = "transfer_last_card"
    SHOW_OFF = "show_off"
    SHOW_USED = "show_used"
    SHOW_NOT_TRUMP = "show_not_trump"      # card
    CHEATING_OFF = "cheating_off"
    ACCUSE_SELF = "accuse_self"
    ACCUSE_USED = "accuse_used"            # a wrong accusation already made this bout
    NOTHING_TO_ACCUSE = "nothing_to_accuse"
    # the variants (docs/variants.md §4)
    LEAD_SHAPE = "lead_shape"              # size: the number of cards a lead of three must have
    LEAD_NOT_HIGHEST = "lead_not_highest"
    LEAD_NOT_WHOLE_RANK = "lead_not_whole_rank"  # count: how many of that rank must be led
    TRANSFER_TRUMP_ON_TABLE = "transfer_trump_on_table"
    STOCK_LEAD_OFF = "stock_lead_off"
    STOCK_EMPTY = "stock_empty"
    LEAD_OPEN = "lead_open"                # the main attacker is still completing a stock lead
    NOT_TO_BEAT = "not_to_beat"            # card: passed over by a transfer (переводной-3)
    TRANSFER_AFTER_DRAW = "transfer_after_draw"
    DRAW_OFF = "draw_off"
    DRAW_USED = "draw_used"
    SWAP_OFF = "swap_off"
    SWAP_USED = "swap_used"
    SWAP_AFTER_COVER = "swap_after_cover"
    SWAP_HAND = "swap_hand"                # size: the most cards a hand may hold to swap
    SWAP_STOCK = "swap_stock"              # the stock holds too few cards above the face-up card
    COUNTER_OFF = "counter_off"
    COUNTER_NOT_NOW = "counter_not_now"    # not exactly one attack card, uncovered, on the table
    COUNTER_RANK = "counter_rank"          # card: not of the covering card's rank
    SELF_THROW_OFF = "self_throw_off"
    SELF_THROW_NOT_NOW = "self_throw_not_now"
    SELF_THROW_LAST_CARD = "self_throw_last_card"


class Illegal(Exception):
    """A refused action: ``reason`` plus the cards or numbers a message needs."""

    def __init__(self, reason: Reason, **params: Any) -> None:
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        super().__init__(f"{reason.value}" + (f" ({detail})" if detail else ""))
        self.reason = reason
        self.params = params
