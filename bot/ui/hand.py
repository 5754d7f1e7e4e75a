"""A player's hand as an inline keyboard, and the prompt that names its buttons. Pure: no I/O.

Layout: one button per card, one row per suit in a fixed order (♠️ ♣️ ♦️ ♥️) with the trump suit
(the seat's own, двухкозырной) last and each trump marked ★, ranks ascending; a suit of more than 7
cards wraps. ✅ marks a picked card, ✖ a card that cannot be played now. Then the move buttons
(Lead or Throw in the picked cards, the cover targets, transfers, the variants' moves: lead from
the stock, draw, swap, one strike-back per rank; Take, Pass or Done), cheating and accusations,
I'm back, and Leave alone on the last row. A hand of the whole 52-card deck needs 52 card
buttons and at most 40 others: always under Telegram's 100.

Every button names an action, not a moment (``seq`` is 0): a card press leads, throws in or
covers with that card; Lead names its cards. The service applies it if it is legal for the seat
when pressed, so another player's move never spoils a press that is still legal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from bot.ui import fit
from bot.ui.callbacks import Verb, encode, pack
from bot.ui.i18n import Translator
from bot.ui.labels import card_text, ranks_text
from bot.ui.seat_view import NOTHING, SeatView
from durak import Act, Action, State, attack, card_code, defend, is_legal, legal_actions, transfer
from durak.actions import STOCK_LEAD
from durak.engine import awaited, cards_room, lead_room, trump_of
from durak.rules import Lead

PER_ROW = 7          # card buttons per row: 13 cards of one suit wrap into 7 + 6
MAX_PICKS = 30       # packed into the Lead button's 64 bytes of callback data
SELECTED = "✅"
UNPLAYABLE = "✖"
TRUMP = "★"
Button = dict[str, Any]  # an inline button as the Bot API takes it: built as plain data, it is cheap


class Role(Enum):
    LEAD = "lead"      # the table is empty and this seat leads
    COVER = "cover"    # this seat defends against uncovered cards
    THROW = "throw"    # this seat may add cards or say pass / done
    WAIT = "wait"      # nothing to do with cards now


@dataclass(frozen=True, slots=True)
class Options:
    """What one seat may do with its cards now."""

    role: Role
    playable: frozenset[int] = frozenset()   # cards a press plays now (alone, or with picks)
    pickable: frozenset[int] = frozenset()   # cards that may go with others in one move: a press picks them
    picked: tuple[int, ...] = ()             # the picks that are still playable
    transfers: tuple[int, ...] = ()          # cards that transfer alone
    shows: tuple[int, ...] = ()              # trumps that transfer by being shown
    moves: frozenset[Act] = frozenset()      # Take and Pass, when legal
    accusable: tuple[int, ...] = ()          # seats this one may accuse of cheating
    extras: tuple[Action, ...] = ()          # the variants' moves: lead the stock card, draw, counter-attack
    swap: bool = False                       # покерный: he may swap two cards (a press on 🔄 starts picking them)
    swapping: bool = False                   # ... and is picking them: card presses pick


def uncovered(state: State) -> list[int]:
    return [a for a, c in zip(state.attacks, state.covers, strict=True) if c is None]


def options(state: State, seat: int, picks: Iterable[int] = (), armed: bool = False,
            swapping: bool = False) -> Options:
    """The seat's card moves; ``picks`` are the cards it picked for a several-card move (or, ``swapping``,
    the two cards to swap with the stock).

    One pass over the engine's legal actions (none for a lead, whose several-card sets are
    not listed: any card leads alone, and cards of one rank go together)."""
    if state.over or seat in state.out:
        return Options(Role.WAIT)
    hand = state.hands[seat]
    if not state.attacks:
        if seat != state.attacker or lead_room(state) < 1:
            return Options(Role.WAIT)
        extras = (STOCK_LEAD,) if state.rules.stock_lead and is_legal(state, seat, STOCK_LEAD) else ()
        if state.rules.lead is not Lead.SAME_RANK:
            return replace(_variant_lead(state, seat, picks, armed), extras=extras)
        playable = frozenset(hand)
        if not armed or lead_room(state) < 2:  # one tap leads the card; its partners are thrown in after
            return Options(Role.LEAD, playable, extras=extras)
        return Options(Role.LEAD, playable, playable, _picked(hand, picks, playable), extras=extras)
    acts = legal_actions(state, seat)
    moves = frozenset(a.act for a in acts if a.act in (Act.TAKE, Act.PASS))
    accusable = tuple(a.suspect for a in acts if a.act is Act.ACCUSE and a.suspect is not None)
    if (state.lead_open and seat != state.attacker) or (state.window and seat != state.defender):
        return Options(Role.WAIT, accusable=accusable)  # the stock lead, or the American window, is one seat's
    if seat == state.defender and not state.window:
        if state.taking:
            return Options(Role.WAIT, moves=moves, accusable=accusable)
        swap = any(a.act is Act.SWAP for a in acts)
        if swap and swapping:  # покерный: every card press picks one of the two
            return Options(Role.COVER, frozenset(hand), frozenset(hand), _picked(hand, picks, frozenset(hand))[-2:],
                           moves=moves, accusable=accusable, swap=True, swapping=True)
        playable = frozenset(a.card for a in acts if a.act is Act.DEFEND and (armed or not a.cheat))
        transfers = tuple(a.card for a in acts if a.act is Act.TRANSFER and not a.cheat)
        shows = tuple(a.card for a in acts if a.act is Act.SHOW and not a.cheat)
        moves_too = tuple(a for a in acts if a.act is Act.DRAW_CARD) + _counters(state, seat, acts)
        return Options(Role.COVER, playable, transfers=transfers, shows=shows, moves=moves, accusable=accusable,
                       extras=moves_too, swap=swap)
    own = Act.THROW_SELF if state.window else Act.ATTACK  # американский: the defender throws in on himself
    playable = frozenset(a.card for a in acts if a.act is own and (armed or not a.cheat))
    if not playable and Act.PASS not in moves:
        return Options(Role.WAIT, moves=moves, accusable=accusable)
    left = cards_room(state, seat)  # one tap throws a card in; a cheat may pick several to lay at once
    pickable = playable if armed and (left is None or left >= 2) and len(playable) >= 2 else frozenset()
    return Options(Role.THROW, playable, pickable, _picked(hand, picks, pickable), moves=moves,
                   accusable=accusable)


def _variant_lead(state: State, seat: int, picks: Iterable[int], armed: bool) -> Options:
    """Leads of the variants (docs/variants.md §2.4) from the engine's list: a card that leads alone plays at
    once; a card that belongs to a lead of several is picked, and ▶ Lead plays the picks."""
    leads = [a.cards for a in legal_actions(state, seat) if a.act is Act.ATTACK and (armed or not a.cheat)]
    pickable = frozenset(c for cards in leads if len(cards) > 1 for c in cards)
    playable = frozenset(cards[0] for cards in leads if len(cards) == 1) | pickable
    if armed:  # a cheat may pick any cards
        pickable = frozenset(state.hands[seat])
    return Options(Role.LEAD, playable, pickable, _picked(state.hands[seat], picks, pickable))


def _counters(state: State, seat: int, acts: Sequence[Action]) -> tuple[Action, ...]:
    """прибалтийский: one counter-attack per rank, covering with the cheapest card of that rank that beats (a
    plain one before a trump) and striking back with every other card of the rank that fits, plain ones first.
    The engine lists each pair; a button per rank keeps a whole deck's hand within Telegram's 100 buttons."""
    counters = [a for a in acts if a.act is Act.COUNTER]
    if not counters:
        return ()
    trump = trump_of(state, seat)

    def cost(card: int) -> tuple[bool, int]:
        return card & 3 == trump, card

    covers: dict[int, int] = {}  # rank -> its cheapest covering card
    for a in counters:
        card = a.cards[0]
        if card >> 2 not in covers or cost(card) < cost(covers[card >> 2]):
            covers[card >> 2] = card
    found = []
    for rank in sorted(covers):
        card = covers[rank]
        mates = sorted({a.cards[1] for a in counters if a.cards[0] == card}, key=cost)
        for n in range(len(mates), 0, -1):
            action = Action(Act.COUNTER, (card, *mates[:n]), target=counters[0].target)
            if is_legal(state, seat, action):
                found.append(action)
                break
    return tuple(found)


def _picked(hand: list[int], picks: Iterable[int], pickable: frozenset[int]) -> tuple[int, ...]:
    chosen = set(picks)
    return tuple(c for c in sorted(hand) if c in chosen and c in pickable)


def repicked(state: State, picks: tuple[int, ...], card: int, armed: bool) -> tuple[int, ...]:
    """The picks after a press on ``card``: a picked card goes back; a lead of one rank starts over
    when a card of another rank is pressed (unless cheating)."""
    if card in picks:
        return tuple(c for c in picks if c != card)
    if (not state.attacks and not armed and picks and picks[0] >> 2 != card >> 2
            and state.rules.lead is Lead.SAME_RANK):
        return (card,)
    return (*picks, card)


def suits_in_order(trump: int | None) -> list[int]:
    return [s for s in range(4) if s != trump] + ([trump] if trump is not None else [])


def card_rows(game_id: int, state: State, seat: int, opts: Options, selected: int | None) -> list[list[Button]]:
    hand = state.hands[seat]
    rows: list[list[Button]] = []
    trump = trump_of(state, seat)  # двухкозырной: his own
    for suit in suits_in_order(trump):
        cards = sorted(c for c in hand if c & 3 == suit)
        if not cards:
            continue
        buttons = [_card_button(game_id, c, suit == trump, opts, selected) for c in cards]
        per_row = -(-len(buttons) // -(-len(buttons) // PER_ROW))  # wrap into rows of even length
        rows += [buttons[i:i + per_row] for i in range(0, len(buttons), per_row)]
    return rows


def _card_button(game_id: int, card: int, trump: bool, opts: Options, selected: int | None) -> Button:
    label = card_text(card) + (TRUMP if trump else "")
    if card in opts.picked or card == selected:
        label = SELECTED + label
    elif opts.role is not Role.WAIT and card not in opts.playable and card not in opts.transfers:  # waiting, no
        # card is marked; one that transfers plays (its tap transfers)
        label = UNPLAYABLE + label
    if opts.role is Role.COVER and not opts.swapping:
        verb = Verb.COVER
    elif card in opts.pickable:
        verb = Verb.PICK
    else:
        verb = Verb.CARD
    return _button(label, verb, game_id, card_code(card))


def _button(text: str, verb: Verb, game_id: int, arg: str = "") -> Button:
    return {"text": text, "callback_data": encode(verb, game_id, 0, arg)}


def move_buttons(tr: Translator, game_id: int, state: State, seat: int, opts: Options,
                 selected: int | None, armed: bool) -> list[Button]:
    """The moves beside single cards: several cards at once, cover targets, transfers, Take, Pass."""
    buttons: list[Button] = []
    if opts.swapping:  # покерный: only the swap, once two cards are picked, or back
        if len(opts.picked) == 2:
            names = " ".join(card_text(c) for c in opts.picked)
            buttons.append(_button(tr.gettext("🔄 Swap {cards}").format(cards=names), Verb.SWAP, game_id,
                                   pack(opts.picked)))
        return [*buttons, _button(tr.gettext("↩ Don't swap"), Verb.SWAP, game_id)]
    if opts.picked and (state.lead_open or is_legal(state, seat, attack(*opts.picked, cheat=armed))):
        text = (tr.gettext("▶ Lead ({n})") if opts.role is Role.LEAD or state.lead_open
                else tr.gettext("▶ Throw in ({n})"))
        buttons.append(_button(text.format(n=len(opts.picked)), Verb.LEAD, game_id, pack(opts.picked)))
    elif opts.role is Role.THROW and not armed and _one_rank(opts.playable):
        cards = tuple(sorted(opts.playable))
        if len(cards) >= 2 and is_legal(state, seat, attack(*cards)):
            buttons.append(_button(tr.gettext("▶ Throw in all {ranks} ({n})").format(
                ranks=ranks_text(tr, cards[0], "all"), n=len(cards)), Verb.LEAD, game_id, pack(cards)))
    if opts.role is Role.COVER and selected is not None:
        buttons += [_button(tr.gettext("on {card}").format(card=card_text(t)), Verb.TARGET, game_id,
                            f"{card_code(selected)}.{card_code(t)}")
                    for t in uncovered(state) if is_legal(state, seat, defend(t, selected, cheat=armed))]
    for c in opts.transfers:
        buttons.append(_button(tr.gettext("↪ Transfer {card}").format(card=card_text(c)), Verb.TRANSFER,
                               game_id, pack((c,))))
    if len(opts.transfers) >= 2 and is_legal(state, seat, transfer(*opts.transfers)):
        buttons.append(_button(tr.gettext("↪ Transfer all ({n})").format(n=len(opts.transfers)), Verb.TRANSFER,
                               game_id, pack(opts.transfers)))
    for c in opts.shows:
        buttons.append(_button(tr.gettext("👁 Show {card}").format(card=card_text(c)), Verb.SHOW, game_id,
                               card_code(c)))
    buttons += [_extra_button(tr, game_id, a) for a in opts.extras]
    if opts.swap:
        buttons.append(_button(tr.gettext("🔄 Swap two cards"), Verb.SWAP, game_id))
    if Act.TAKE in opts.moves:
        buttons.append(_button(tr.gettext("Take"), Verb.TAKE, game_id))
    if Act.PASS in opts.moves:
        buttons.append(_button(pass_label(tr, state), Verb.PASS, game_id))
    return buttons


def _extra_button(tr: Translator, game_id: int, action: Action) -> Button:
    if action.act is Act.STOCK_LEAD:
        return _button(tr.gettext("🂠 Lead the stock's top card"), Verb.STOCK_LEAD, game_id)
    if action.act is Act.DRAW_CARD:
        return _button(tr.gettext("🂠 Draw a card"), Verb.DRAW, game_id)
    assert action.target is not None  # a counter-attack
    return _button(tr.gettext("⚔ {card} and back {cards}").format(
        card=card_text(action.cards[0]), cards=" ".join(card_text(c) for c in action.cards[1:])),
        Verb.COUNTER, game_id, f"{card_code(action.target)}.{pack(action.cards)}")


def pass_label(tr: Translator, state: State) -> str:
    """"Pass" when the defender takes (nothing was beaten), "Done" when everything is covered,
    "Lead it alone" for a stock lead."""
    if state.lead_open:
        return tr.gettext("Lead it alone")
    return tr.gettext("Pass") if state.taking else tr.gettext("Done")


def _one_rank(cards: frozenset[int]) -> bool:
    return len({c >> 2 for c in cards}) == 1


def prompt(tr: Translator, state: State, seat: int, opts: Options, defender_name: str,
           selected: int | None = None, name_of: Callable[[int], str] | None = None) -> str:
    """What the seat may do, naming only buttons it has. ``selected``: a cover card that fits several open
    cards, waiting for its target. ``name_of``: the seats' names, to name the one he waits for rather than
    «the others» when there is one (two players, or a computer moving)."""
    take = Act.TAKE in opts.moves
    others = [p for p in range(len(state.hands)) if p != seat and p not in state.out]
    if opts.role is Role.COVER and selected is not None and not opts.swapping:
        return tr.gettext("{card} can cover more than one card: press “on …” below your cards to choose which.").format(
            card=card_text(selected))
    may_pass = Act.PASS in opts.moves
    if opts.swapping:
        return tr.gettext("Pick two cards to swap for the stock's top two.")
    if state.lead_open and opts.role is Role.THROW:
        return tr.gettext("Add cards of its rank to your lead, or press Lead it alone.")
    if state.window and opts.role is Role.THROW:
        return tr.gettext("Everything is covered: throw cards in on yourself, or press Done.")
    if opts.role is Role.LEAD:
        if any(a.act is Act.STOCK_LEAD for a in opts.extras):
            return tr.gettext("Your lead: press a card, or lead the stock's top card.")
        if opts.pickable:  # the variants' leads of several cards, or a cheat's
            return tr.gettext("Your lead: press the cards (✅ marks them), then Lead.")
        hand = state.hands[seat]
        if len({c >> 2 for c in hand}) < len(hand):
            return tr.gettext("Your lead: press a card; cards of its rank can follow right after.")
        return tr.gettext("Your lead: press a card.")
    if opts.role is Role.COVER:
        transfer_too = bool(opts.transfers or opts.shows)
        if None not in state.covers and not state.taking:  # nothing left to beat: the attackers decide now
            return (tr.gettext("Everything is covered: you may transfer, or wait for more cards or the end of "
                               "the bout.") if transfer_too
                    else tr.gettext("Everything is covered. Wait: {name} may throw in more, or end the bout.")
                    .format(name=name_of(others[0])) if name_of is not None and len(others) == 1
                    else tr.gettext("Everything is covered. Wait: the others may throw in more, or end the bout."))
        if opts.playable:
            return (tr.gettext("Defend: press a card to cover, transfer, or press Take.") if transfer_too
                    else tr.gettext("Defend: press a card to cover, or press Take."))
        if take:
            return (tr.gettext("You can't cover: transfer, or press Take.") if transfer_too
                    else tr.gettext("You can't cover: press Take."))
        return tr.gettext("Defend.")
    if opts.role is Role.THROW:
        if state.taking:
            return (tr.gettext("{name} takes: throw in more, or press Pass.") if may_pass and opts.playable
                    else tr.gettext("{name} takes: press Pass.") if may_pass
                    else tr.gettext("{name} takes: you may throw in more.")).format(name=defender_name)
        if None not in state.covers:
            return (tr.gettext("Everything is covered: throw in more, or press Done.")
                    if may_pass and opts.playable else tr.gettext("Everything is covered: press Done.")
                    if may_pass else tr.gettext("Everything is covered: you may throw in more."))
        return tr.gettext("You may throw in: press a card. {name} is defending.").format(name=defender_name)
    if seat == state.defender and state.taking:
        return (tr.gettext("You take the cards; {name} may throw in more.").format(name=name_of(others[0]))
                if name_of is not None and len(others) == 1 else
                tr.gettext("You take the cards; the others may throw in more."))
    if state.lead_open:
        return tr.gettext("Wait: the lead from the stock is not complete yet.")
    if state.window:
        return tr.gettext("Wait: {name} may add more cards to beat.").format(name=defender_name)
    if state.attacks and None in state.covers and not state.taking:
        return tr.gettext("Wait: {name} is defending.").format(name=defender_name)
    acting = [p for p in awaited(state) if p != seat]
    if name_of is not None and len(acting) == 1:
        return tr.gettext("Wait: {name} moves.").format(name=name_of(acting[0]))
    return tr.gettext("Wait for the others.")


def _text(button: Button) -> str:
    return str(button["text"])


def keyboard(tr: Translator, game_id: int, state: State, seat: int, name_of: Callable[[int], str], *,
             opts: Options | None = None, view: SeatView = NOTHING, cheating: bool = False,
             away: bool = False) -> list[list[Button]]:
    """Every button of the seat's private message, in rows. ``view``: what his hand shows beyond the game (the
    card chosen to cover with, cards picked, a cheat armed, the leave question); ``away``: the computer plays
    for him."""
    selected, armed, leaving = view.selected, view.armed, view.leaving
    opts = opts or options(state, seat, view.picked, armed)
    rows = card_rows(game_id, state, seat, opts, selected)
    rows += fit.rows(move_buttons(tr, game_id, state, seat, opts, selected, armed), _text)
    if cheating and opts.role is not Role.WAIT:
        rows.append([_button(tr.gettext("🎭 Cheat: on") if armed else tr.gettext("🎭 Cheat: off"), Verb.CHEAT,
                             game_id)])
    accuse = [_button(tr.gettext("Accuse {name}").format(name=name_of(p)), Verb.ACCUSE, game_id, str(p))
              for p in opts.accusable]
    rows += fit.rows(accuse, _text, most=2)
    if away:
        rows.append([_button(tr.gettext("🙋 I'm back"), Verb.BACK_IN, game_id)])
    if seat in state.out:  # a placed result is final: nothing to leave
        return rows
    if leaving:
        rows.append([_button(tr.gettext("🚪 Yes, leave"), Verb.LEAVE_YES, game_id),
                     _button(tr.gettext("Stay"), Verb.STAY, game_id)])
    else:
        rows.append([_button(tr.gettext("🚪 Leave the game"), Verb.LEAVE, game_id)])
    return rows
