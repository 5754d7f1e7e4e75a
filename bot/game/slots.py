"""What every message of a game should show, as outbox rows: a pure function of the game.

A game's messages are slots: ``table`` in the group (the lobby, then the table), ``hand:<seat>``
in each player's private chat, ``ping:<seat>`` there too when that seat must act and has not acted
for PING_DELAY seconds (a new message, since edits do not notify; deleted once he has acted, and
not posted again while he goes on pressing), ``result`` in the group at the end. Each write of a
game owes the content of every slot; the outbox skips slots whose content did not change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import orjson
from telegram import InlineKeyboardMarkup

from bot.game.store import GameUI
from bot.stats.badge_text import announce
from bot.stats.evening import Evening
from bot.stats.evening_text import ended, score_lines
from bot.ui import render
from bot.ui.i18n import Translator, pick_language, translator
from bot.ui.labels import cards_text, lettered
from durak import State
from durak.cards import Card
from durak.engine import awaited
from storage.computers import is_computer
from storage.models import Away, Game, Owed, Seat, Status
from storage.slots import RESULT, TABLE, hand_slot, note_slot, ping_slot

PING_DELAY = 5.0  # seconds a seat that must act may take before his turn is pinged
LATER = 3.0       # an attacker the game waits for only to say Done or Pass is pinged this many delays later


def markup_json(markup: InlineKeyboardMarkup | list[list[dict[str, Any]]] | None) -> str | None:
    """A keyboard as stored in the outbox; button rows built as plain data need no conversion."""
    if markup is None:
        return None
    data = {"inline_keyboard": markup} if isinstance(markup, list) else markup.to_dict()
    return orjson.dumps(data).decode()


def seat_tr(seat: Seat, default_language: str) -> Translator:
    return translator(pick_language(seat.user.language, seat.user.telegram_language, default_language),
                      seat.user.letters)




def must_act(state: State) -> dict[int, tuple[Card, ...]]:
    """The seats the game cannot go on without: the leader (no cards to beat) and a defender who has
    cards to beat (those cards). Attackers who may throw in or pass are not among them."""
    if state.over:
        return {}
    if not state.attacks:
        return {} if state.attacker is None else {state.attacker: ()}
    if state.taking or state.defender is None:
        return {}
    open_cards = tuple(a for a, c in zip(state.attacks, state.covers, strict=True) if c is None)
    return {state.defender: open_cards} if open_cards else {}


def to_ping(state: State) -> dict[int, tuple[tuple[Card, ...], bool]]:
    """The seats a ping may call: those the game cannot go on without (``must_act``: seat -> (cards to beat,
    False)), else the seats it waits for to say Done or Pass, lead from the stock or throw in on himself
    (seat -> ((), True): pinged ``LATER``, every such seat alike, so a ping tells nothing of his cards)."""
    acting = must_act(state)
    if acting:
        return {seat: (cards, False) for seat, cards in acting.items()}
    return {seat: ((), True) for seat in awaited(state)}


def track_turns(game: Game, ui: GameUI, now: float, movers: frozenset[int] | None) -> None:
    """Before a write of ``game``: each seat that must act has its position written now (his ping waits
    PING_DELAY from here), and a mover who must act again (a defender with more to beat) is quiet: he is
    looking at his hand. ``movers`` None: no move (a refresh), nothing changes for the seats."""
    acting = to_ping(game.state) if game.state is not None and game.status is Status.PLAYING else {}
    for seat in [s for s in ui.turn_since if s not in acting]:
        del ui.turn_since[seat]
    ui.quiet &= acting.keys()
    if movers is not None:
        ui.turn_since.update(dict.fromkeys(acting, now))
        ui.quiet = set(movers & acting.keys())


def ping_due(ui: GameUI, seat: int, now: float, delay: float) -> bool:
    """His position was written ``delay`` seconds ago (or shown, if that came later) and he has not acted:
    a player who answers within the delay is never pinged, so an active player's chat does not buzz on
    every turn, and an idle one learns of his turn a few seconds late. After a restart (or another process taking
    over) the delay still counts from when his position was written (``GameService.resume``)."""
    return now >= ping_at(ui, seat, now, delay)


def ping_at(ui: GameUI, seat: int, now: float, delay: float) -> float:
    """When the seat's ping is due (see ``ping_due``): fixed while his turn lasts, so its text is too. Never
    while his hand has not shown the position yet: a ping before it would call him to an old hand (and under
    pressure spend two calls of Telegram's budget, its post and its deletion, on nothing he can do)."""
    if seat in ui.unseen:
        return math.inf
    since = ui.turn_since.setdefault(seat, now)
    return max(since, ui.shown_at.get(seat, since)) + delay


def in_play(game: Game, movers: frozenset[int] | None) -> bool:
    """This write is a move of a game still being played (not its start, end, or a refresh)."""
    return movers is not None and game.state is not None and game.status is Status.PLAYING and not game.state.over


def awaited_seats(game: Game) -> frozenset[int]:
    """The seats a game being played waits for."""
    if game.state is None or game.status is not Status.PLAYING:
        return frozenset()
    return frozenset(awaited(game.state))


def lazy_seats(game: Game, movers: frozenset[int] | None, short: bool = False) -> frozenset[int]:
    """The seats whose private message may wait: not awaited, and not among the movers unless Telegram's
    budget is ``short`` (never at the end). A mover's own card leaving his hand is then folded into his
    next turn: the call it would cost is a turn of another game."""
    if movers is None or game.state is None or not in_play(game, movers):
        return frozenset()
    waiting = frozenset(s.seat for s in game.seats) - set(awaited(game.state))
    return waiting if short else waiting - movers


def pings(game: Game, default_language: str, ui: GameUI | None = None, now: float = 0.0,
          delay: float = PING_DELAY) -> list[Owed]:
    """A ping for each seat that must act and is due one (``ping_due``; if its owner wants pings and plays
    himself); the others' go. ``ui`` None: nobody is pinged (a closed game).

    A quiet seat has just pressed: he is looking at his hand, so his ping goes even if he must act
    again (a defender with more cards to beat): a new one would only flicker and cost two calls. A seat
    whose Mini App page is live (``watched``) is not pinged either: his page shows his turn."""
    acting = {} if ui is None or game.state is None or game.status is not Status.PLAYING else to_ping(game.state)
    owed = []
    for s in game.seats:
        if is_computer(s.user):
            continue
        cards, later = acting.get(s.seat, ((), False))
        wait = delay * LATER if later else delay
        if (s.seat in acting and ui is not None and s.seat not in ui.quiet | ui.watched and s.away is Away.PLAYING
                and s.user.notify and ping_due(ui, s.seat, now, wait)):
            owed.append(Owed(s.user.id, ping_slot(s.seat), ping_text(seat_tr(s, default_language), game, cards,
                                                                     later, ping_at(ui, s.seat, now, wait),
                                                                     ui.shown_at.get(s.seat))))
        else:
            owed.append(Owed(s.user.id, ping_slot(s.seat), None, deleted=True))
    return owed


def ping_text(tr: Translator, game: Game, cards: tuple[Card, ...], later: bool, at: float,
              shown: float | None = None) -> str:
    """«🔔 [Friends] Your move: beat 7♠. ⏰ 42 s left»: the group (he may play in two), what to do, and the time
    left when the ping was due (``at``: the text stays the same however often the game is written). His turn
    runs from when his hand showed it (``shown``; ``Timers.turn_deadline``), never ending before the stored
    deadline."""
    text = (tr.gettext("🔔 The game is waiting for you.") if later
            else tr.gettext("🔔 Your move: beat {cards}.").format(cards=cards_text(cards)) if cards
            else tr.gettext("🔔 Your move: lead."))
    if game.title:
        text = f"🔔 [{game.title}] {text.removeprefix('🔔 ')}"
    if game.turn_timeout and game.deadline is not None:
        deadline = game.deadline if shown is None else max(game.deadline, shown + game.turn_timeout)
        text += " " + tr.gettext("⏰ {n} s left").format(n=max(0, round(deadline - at)))
    return lettered(text, tr)


def ping_pending(game: Game, ui: GameUI, default_language: str, now: float, delay: float) -> bool:
    """A seat is due a ping that was not written yet: the sweep writes it."""
    return any(o.text is not None and ui.written.get(o.slot, (None,) * 5)[2] is None
               for o in pings(game, default_language, ui, now, delay))


def _content(o: Owed) -> tuple[object, ...]:
    return (o.chat_id, o.thread_id, o.text, o.markup, o.deleted)


def _markup_written(ui: GameUI, seat: int) -> object:
    written = ui.written.get(hand_slot(seat))
    return None if written is None else written[3]


def unwritten(ui: GameUI, owed: list[Owed]) -> list[Owed]:
    """The slots whose content differs from what this process last wrote for them (``written``): a move
    changes a few of a game's messages, and every slot written again was an SQL statement, and a chat's
    worker woken for nothing. After a restart ``written`` is empty and every slot is written."""
    return [o for o in owed if o.resend or ui.written.get(o.slot) != _content(o)]


def note_written(ui: GameUI, owed: list[Owed]) -> None:
    """Call once ``owed`` is committed: only what is in the database may be skipped later."""
    for o in owed:
        ui.written[o.slot] = _content(o)


def lobby_message(tr: Translator, game: Game, ui: GameUI,
                  list_players: bool = True) -> tuple[str, InlineKeyboardMarkup]:
    """The lobby as its creator left it: the game picker, the settings, or the lobby itself."""
    if ui.picker_page is not None:
        text, markup = render.variant_picker(tr, game, ui.picker_page)
    else:
        text, markup = render.settings(tr, game) if ui.settings_open else render.lobby(tr, game, list_players)
    return (f"{text}\n\n{ui.note}" if ui.note else text), markup


@dataclass(frozen=True)
class Write:
    """One write of a game's messages, beyond the game: the group's language (``tr``), the default for a seat
    with none, and when. ``closing``: the table's last words when a lobby or game ends without a result.
    ``links``: where the game's Mini App page opens from a hand and from the group's table (docs/mini-app.md).

    ``movers``: the seats whose moves made this write. Then the table and the private messages of the
    other seats the game is not waiting for are lazy: under pressure the outbox holds them while the seats
    that must act get their hands, and a run of moves edits them once. ``short``: Telegram's budget is short
    now, and the movers' own hands are lazy too, and so is the hand of a seat the game waited for before this
    move too (``steady``) whose buttons stay as they were written: another player's move changed only its
    text (his Done while this one may still throw in or pass), and what he can press is what he sees."""

    tr: Translator
    default_language: str
    now: float
    closing: str | None = None
    movers: frozenset[int] | None = None
    ping_delay: float = PING_DELAY
    links: tuple[str, str | None] | None = None
    short: bool = False
    steady: frozenset[int] = frozenset()


def owed(game: Game, ui: GameUI, write: Write) -> list[Owed]:
    """Every slot's content for one write (:class:`Write`)."""
    tr, default_language, now, links = write.tr, write.default_language, write.now, write.links
    closing, movers, short, steady = write.closing, write.movers, write.short, write.steady
    solo = game.chat_id > 0  # a table in a private chat: one message at a time (the lobby, then the hand,
    # which keeps the last moves and his own place when the result comes below it)
    # a tournament's tables have no table message: several run at once in one group, whose budget (20 edits a
    # minute) their moves would share; the group follows them in the tournament's own message and their results
    tabled = game.tournament is None
    if closing is not None:
        slots = [Owed(game.chat_id, TABLE, closing, None, game.thread_id)] if tabled else []
        if game.state is not None:
            slots += [Owed(s.user.id, hand_slot(s.seat), None, deleted=True) if solo else
                      Owed(s.user.id, hand_slot(s.seat), seat_tr(s, default_language).gettext(
                          "The game was cancelled."), None) for s in game.seats if not is_computer(s.user)]
            slots += pings(game, default_language)  # a closed game pings nobody: every ping goes
        return slots
    if game.status is Status.LOBBY and not tabled:
        return []
    if game.status is Status.LOBBY:
        text, markup = lobby_message(tr, game, ui)
        rows: list[list[dict[str, Any]]] = markup.to_dict()["inline_keyboard"]
        # the lobby opens in the Mini App too: from a web_app button in a private chat, a link in a group
        if links and (solo or links[1]):
            opener = {"web_app": {"url": links[0]}} if solo else {"url": links[1]}
            rows = [*rows, [{"text": tr.gettext("🃏 Open the table"), **opener}]]
        return [Owed(game.chat_id, TABLE, text, markup_json(rows), game.thread_id)]
    over = game.status is Status.FINISHED
    table_link = [[{"text": tr.gettext("🃏 Open the table"), "url": links[1]}]] if links and links[1] else None
    slots = [] if not tabled else [
        Owed(game.chat_id, TABLE, None, deleted=True) if solo else
        Owed(game.chat_id, TABLE, render.table(tr, game, now), markup_json(table_link), game.thread_id,
             lazy=in_play(game, movers))]
    lazy = lazy_seats(game, movers, short)
    common: render.Common = {}
    for s in game.seats:
        if is_computer(s.user) or (s.seat in ui.watched and not over and hand_slot(s.seat) in ui.written):
            continue  # a seat whose live page shows every move within 50 ms: an edit of his hand is a call no one
            # reads, on the budget the tables wait for; his hand catches up when the page closes or goes quiet
        seat_language = seat_tr(s, default_language)
        text, hand = render.private(seat_language, game, s.seat, now, ui.shown(s.seat), ui.changes.get(s.user.id),
                                    common)
        if links and not over:  # web_app buttons work in private chats only: the group gets a link
            hand = [*(hand or []), [{"text": seat_language.gettext("🃏 Table"), "web_app": {"url": links[0]}}]]
        keys = markup_json(hand)
        if short and s.seat in steady and s.seat not in lazy and _markup_written(ui, s.seat) == keys:
            lazy |= {s.seat}
        slots.append(Owed(s.user.id, hand_slot(s.seat), text, keys, lazy=s.seat in lazy))
    lazy_pings = {ping_slot(seat) for seat in lazy}
    slots += [replace(p, lazy=True) if p.slot in lazy_pings else p
              for p in pings(game, default_language, ui, now, write.ping_delay)]
    if over:
        names = seat_names(game)
        text, result_markup = render.result(tr, game, [*score_lines(tr, ui.evening, names),
                                                       *announce(tr, ui.badges, names)])
        slots.append(Owed(game.chat_id, RESULT, text, markup_json(result_markup), game.thread_id))
    return slots


def seat_names(game: Game) -> dict[int, str]:
    return {s.user.id: render.name_of(game, s.seat) for s in game.seats}


def evening_end(tr: Translator, game: Game, evening: Evening) -> Owed:
    """The message that closes an evening at its goal, posted under the result of its last game."""
    return Owed(game.chat_id, note_slot("evening", game.id), ended(tr, evening, seat_names(game)), None,
                game.thread_id)
