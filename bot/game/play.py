"""A running game: what a press on a hand means, and the game a move makes. Pure: no I/O."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.game.decisions import Decision, Intent, Kind
from bot.game.store import GameUI
from bot.game.turns import computer_move, forced_move
from bot.ui import hand, render
from bot.ui.callbacks import Press, Verb, pack, unpack
from bot.ui.i18n import Translator
from durak import Act, Action, Illegal, State, apply, card_code, is_legal, parse_card, transfer
from durak.actions import DRAW_CARD, STOCK_LEAD
from durak.engine import cards_room, check
from durak.events import Ev, Event
from storage.models import Away, Game

Move = tuple[int, Action, bool]  # seat, action, made by the timer


def decide(tr: Translator, game: Game, ui: GameUI, press: Press, user_id: int) -> Decision:
    state = game.state
    seat = game.seat_of(user_id)
    if state is None or seat is None:
        return Decision(tr.gettext("You are not in this game."))
    away = game.seats[seat].away
    if press.verb is Verb.BACK_IN:
        if away in (Away.AWAY, Away.UNREACHABLE):
            return Decision(tr.gettext("Welcome back!"), intent=Intent(Kind.BACK_IN, seat))
        return Decision(tr.gettext("You are playing."))
    if press.verb in (Verb.LEAVE, Verb.LEAVE_YES, Verb.STAY):
        return _decide_leave(tr, game, ui, press.verb, seat)
    if press.verb is Verb.CHEAT:
        return Decision(intent=Intent(Kind.CHEAT, seat)) if game.rules.cheating else Decision(
            tr.gettext("Cheating is off at this table."))
    try:
        action = _action_of(state, ui, seat, press)
    except (ValueError, IndexError):
        return Decision(tr.gettext("Unknown button."))
    if isinstance(action, Intent):
        return Decision(intent=action)
    try:
        check(state, seat, action)
    except Illegal as refused:
        return Decision(render.reason(tr, refused))
    return Decision(intent=Intent(Kind.PLAY, seat, action))


def _decide_leave(tr: Translator, game: Game, ui: GameUI, verb: Verb, seat: int) -> Decision:
    assert game.state is not None
    if seat in game.state.out:
        return Decision(tr.gettext("You are out with a place: it is yours to keep."))
    if game.seats[seat].away is Away.LEFT:
        return Decision(tr.gettext("You have left this game."))
    if verb is Verb.LEAVE:
        if ui.shown(seat).leaving:
            return Decision(tr.gettext("Press “Yes, leave” to leave, or Stay."))
        return Decision(intent=Intent(Kind.LEAVE_ASK, seat))
    if not ui.shown(seat).leaving:
        return Decision(tr.gettext("This button is not valid any more."))
    if verb is Verb.STAY:
        return Decision(intent=Intent(Kind.STAY, seat))
    return Decision(tr.gettext("You left the game."), intent=Intent(Kind.LEAVE_GAME, seat))


def _action_of(state: State, ui: GameUI, seat: int, press: Press) -> Action | Intent:
    """The engine action a press names (or a pick or selection); ValueError for a malformed button.

    A button names an action, not a moment: whatever moved since it was drawn, the action is
    checked against the game as it is now, and refused only if it is illegal now."""
    verb, arg = press.verb, press.arg
    armed = ui.shown(seat).armed
    if verb is Verb.TAKE:
        return Action(Act.TAKE)
    if verb is Verb.PASS:
        return Action(Act.PASS)
    if verb is Verb.STOCK_LEAD:
        return STOCK_LEAD
    if verb is Verb.DRAW:
        return DRAW_CARD
    if verb is Verb.SWAP:  # with cards: swap them; without: start (or stop) picking two
        if arg:
            return Action(Act.SWAP, unpack(arg))
        probe = Action(Act.SWAP, tuple(sorted(state.hands[seat])[:2]))  # refused with the reason if no swap fits
        return Intent(Kind.SWAPPING, seat) if ui.shown(seat).swapping or is_legal(state, seat, probe) else probe
    if verb is Verb.COUNTER:
        aim, cards = arg.split(".")
        return Action(Act.COUNTER, unpack(cards), target=parse_card(aim))
    if verb is Verb.ACCUSE:
        return Action(Act.ACCUSE, suspect=int(arg))
    own = Act.THROW_SELF if state.window and seat == state.defender else Act.ATTACK  # американский
    if verb is Verb.LEAD:
        return Action(own, unpack(arg), cheat=armed)
    if verb is Verb.TRANSFER:
        return Action(Act.TRANSFER, unpack(arg), cheat=armed)
    if verb is Verb.SHOW:
        return Action(Act.SHOW, (parse_card(arg),), cheat=armed)
    if verb is Verb.TARGET:
        card, target = (parse_card(c) for c in arg.split("."))
        return Action(Act.DEFEND, (card,), target=target, cheat=armed)
    card = parse_card(arg)
    if verb is Verb.CARD:
        return Action(own, (card,), cheat=armed)
    if verb is Verb.PICK:
        return _pick(state, ui, seat, card, armed, own)
    if verb is not Verb.COVER:
        raise ValueError(verb)
    if ui.shown(seat).selected == card:
        return Intent(Kind.SELECT, seat)  # a second press puts the card back
    targets = hand.uncovered(state)
    fits = [t for t in targets if is_legal(state, seat, Action(Act.DEFEND, (card,), target=t, cheat=armed))]
    if len(fits) > 1 and seat == state.defender:
        return Intent(Kind.SELECT, seat, arg=card_code(card))
    if not fits and is_legal(state, seat, transfer(card)):  # it covers nothing but moves the attack on: one tap
        return transfer(card)
    target = fits[0] if fits else (targets[0] if targets else card)
    return Action(Act.DEFEND, (card,), target=target, cheat=armed)


def _pick(state: State, ui: GameUI, seat: int, card: int, armed: bool, own: Act) -> Action | Intent:
    """Pick a card for a several-card move (or put it back). A card that cannot go with others
    now is played alone, as its press would have been had the button been drawn now. Picking two cards
    to swap (покерный), a third pick replaces the first."""
    view = ui.shown(seat)
    opts = hand.options(state, seat, view.picked, armed, view.swapping)
    if opts.swapping:
        picks = hand.repicked(state, opts.picked, card, armed)
        return Intent(Kind.PICK, seat, arg=pack(picks[-2:]))
    if card not in opts.pickable:
        return Action(own, (card,), cheat=armed)
    picks = hand.repicked(state, opts.picked, card, armed)
    if len(picks) > hand.MAX_PICKS:
        raise ValueError("too many picks")
    most = cards_room(state, seat)
    if most is not None and len(picks) > most:  # one pick too many: refused now, saying how many fit
        return Action(own, picks, cheat=armed)
    return Intent(Kind.PICK, seat, arg=pack(picks))


def advance(game: Game, moves: list[Move], flags: dict[int, tuple[int, Away]] | None, now: float) -> Game:
    """Play ``moves``, then let the computer move for absent seats; the game with its log, flags and deadline."""
    assert game.state is not None
    state = game.state
    log_lines = list(game.log)
    played = list(game.moves)
    auto = set(game.auto)  # the moves not chosen by their seat's player: his review leaves them out
    seats = {s.seat: (s.missed, s.away) for s in game.seats}
    seats.update(flags or {})
    for seat, action, timed_out in moves:
        taking = state.taking
        try:  # checked once, by apply
            state, events = apply(state, seat, action)
        except Illegal:  # the game moved past it (a timer and a press at once): nothing to play
            continue
        if timed_out:
            auto.add(len(played))
        played.append((seat, action))
        log_lines += events_json(events, "timeout" if timed_out else None, taking)
        missed, away = seats[seat]
        if timed_out:
            missed += 1
            away = Away.AWAY if missed >= 2 and away is Away.PLAYING else away
        seats[seat] = (missed if timed_out else 0, away)
    computer = {seat for seat, (_, away) in seats.items() if away is not Away.PLAYING}
    for _ in range(10_000):  # forced moves, and the computer finishes even a game of absent players
        forced = None if state.over else forced_move(state)
        move = forced or (None if state.over else computer_move(state, computer))
        if move is None:
            break
        taking = state.taking
        state, events = apply(state, *move)
        auto.add(len(played))
        played.append(move)
        log_lines += events_json(events, None if forced else "computer", taking)
    deadline = None if state.over or not game.turn_timeout else now + game.turn_timeout
    new_seats = tuple(replace(s, missed=seats[s.seat][0], away=seats[s.seat][1]) for s in game.seats)
    return replace(game, state=state, log=tuple(log_lines), seats=new_seats, deadline=deadline,
                   moves=tuple(played), auto=frozenset(auto))


def events_json(events: list[Event], by: str | None, taking: bool = False) -> list[dict[str, Any]]:
    """Events as stored in the game's log; ``by`` marks moves made by the timer or the computer;
    ``taking``: the move was made while the defender took (a pass then is "pass", not "done")."""
    stored = []
    for event in events:
        if event.kind is Ev.DREW:
            continue
        data: dict[str, Any] = {"k": event.kind.value}
        if event.seat is not None:
            data["s"] = event.seat
        if event.cards:
            data["c"] = [card_code(c) for c in event.cards]
        if event.other is not None:
            data["o"] = event.other
        if event.number:
            data["n"] = event.number
        if by is not None and event.kind not in (Ev.BEATEN, Ev.PICKED_UP, Ev.OUT, Ev.GAME_OVER):
            data["by"] = by
        if taking and event.kind is Ev.PASS:
            data["t"] = 1
        stored.append(data)
    return stored
