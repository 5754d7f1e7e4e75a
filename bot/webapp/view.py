"""What a Mini App page of a game shows: one JSON frame per seat (or for a spectator). Pure: no I/O.

The frame holds the public table (``durak.view`` for seat None) and, for a seated player, his own
hand and moves exactly as his private message offers them: the same buttons (``render.private``),
so the page can do nothing the chat could not, and each press goes through the same path. A card's
``press`` is the callback data of its button; its ``mark`` says how to show it: ``play`` (a tap plays it:
lifted), ``pick`` / ``picked`` (a tap picks it for a move of several cards), ``dim`` (it cannot be played
now: a tap is answered with why), ``idle`` (the seat waits: a tap is answered with why, as in the chat).
Nothing of another hand is ever in a frame but its number of cards.
"""

from __future__ import annotations

from typing import Any

from bot.game import slots
from bot.game.store import GameUI
from bot.ui import hand, render
from bot.ui.callbacks import Verb, decode, encode
from bot.ui.hand import SELECTED, UNPLAYABLE
from bot.ui.i18n import N_, Translator
from bot.ui.labels import CARD_NAME, RANK_WORDS, SUIT_WORDS, faces, suit_text
from bot.ui.places import places_of
from durak import State, card_code
from durak.cards import SUIT_LETTERS
from durak.engine import awaited, trump_of
from durak.view import view
from storage.computers import is_computer
from storage.models import Away, Game, Status

CARD_VERBS = (Verb.CARD, Verb.PICK, Verb.COVER)

# The page's own words: sent with a socket's first frame in the player's language; the page's file carries them
# in every language for what it shows before it is connected (``page_texts``).
PAGE_TEXTS = {
    "connecting": N_("Connecting to the table…"),
    "offline": N_("No connection to the table. Reconnecting…"),
    "held": N_("No connection: your move will be sent when the table is back."),
    "sent": N_("Connected again: your move was sent."),
    "dropped": N_("Connected again, but the game moved on: your tap was not sent."),
    "outside": N_("This table opens in Telegram: tap «🃏 Table» under your cards in the chat with the bot."),
    "playable": N_("playable"), "picked": N_("picked"), "dim": N_("cannot be played now"),
    "idle": N_("not your move"),
    "four_colours": N_("Four-colour suits"), "seats": N_("Players"), "table": N_("Table"), "hand": N_("Your cards"),
    "moves": N_("Moves"), "stock": N_("Stock"), "discard": N_("Discard"),
    "durak_cards": N_("The durak's cards ({name}):"),
    "invite": N_("📨 Invite to the game"),
    "share": N_("🖼 Share the result"),
    "seat_label": N_("{name}, cards: {n}, {role}"),
    # the review
    "review_you": N_("Your move: {move}"), "review_better": N_("Better: {move}"),
    "review_chance": N_("Your chance not to be the durak: {before} with the best move, {after} after yours"),
    "review_option": N_("{move}: {value}"), "review_retry": N_("↺ Retry: try another move"),
    "review_move": N_("Move {n} of {total}"), "review_next": N_("Next mistake"), "review_start": N_("To the start"),
    "review_back": N_("Move back"), "review_forward": N_("Move forward"),
    "review_graph": N_("Your chance not to be the durak over the game"), "review_good": N_("no loss"),
    "inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder"),
    "review_reveal": N_("👁 Show every hand"),
    "review_find": N_("🎯 Find a better move: tap one."), "review_answer": N_("Show the answer"),
    "try_best": N_("✔ {move}: the best move."), "try_good": N_("✔ {move}: good enough, {points} % below the best."),
    "try_bad": N_("✘ {move}: still {points} % below the best."), "try_played": N_("✘ {move}: the move you played."),
    "puzzle_review": N_("📊 The game's review"),
}


def page_texts(tr: Translator) -> dict[str, str]:
    """The page's words, with how it writes a card: its face letters and, for screen readers, its whole name
    ("{rank} of {suit}" from the ranks 2…A and the suits in ``SUIT_LETTERS`` order, «|» between)."""
    return {**{key: tr.gettext(text) for key, text in PAGE_TEXTS.items()}, "faces": faces(tr),
            "card_name": tr.pgettext("card name", CARD_NAME),
            "rank_names": "|".join(tr.pgettext("card name", w) for w in RANK_WORDS),
            "suit_names": "|".join(tr.pgettext("card name", w) for w in SUIT_WORDS)}


def frame(tr: Translator, game: Game, ui: GameUI, seat: int | None, now: float, token: str) -> dict[str, Any]:
    """The page's whole picture of ``game`` for ``seat`` (None: someone who is not seated)."""
    state = game.state
    base: dict[str, Any] = {"type": "state", "game": token, "you": seat,
                            "rules": render.rules_line(tr, game.rules, players=len(game.seats))}
    if game.status is Status.LOBBY:
        return _lobby(tr, game, ui, seat, {**base, "rules": render.rules_line(tr, game.rules, game.max_players)})
    closed = game.status not in (Status.PLAYING, Status.FINISHED) or state is None
    if closed or state is None:
        return {**base, "status": "closed", "seats": [], "table": [], "hand": [], "buttons": [],
                "prompt": tr.gettext("The game was cancelled.") if game.status is Status.CANCELLED else
                tr.gettext("This game is over."), "moves": [], "result": []}
    seen = view(state, None)
    acting = set(awaited(state))
    places = places_of(game) if seen.out else {}
    seats = []
    for p, count in enumerate(seen.counts):
        s = game.seats[p] if p < len(game.seats) else None
        seats.append({
            "name": render.name_of(game, p), "cards": count, "you": p == seat, "acting": p in acting,
            "computer": s is not None and is_computer(s.user),
            "away": s is not None and s.away is not Away.PLAYING,
            "role": _role(tr, game, p, places),
            "passed": p in seen.passed,
        })
    left = None if game.deadline is None or seen.over else max(0.0, game.deadline - now)
    picture: dict[str, Any] = {
        **base, "status": "over" if seen.over else "playing", "moves_made": seen.moves,
        "trump": None if seen.trump is None else SUIT_LETTERS[seen.trump],
        "trump_card": None if seen.trump_card is None else card_code(seen.trump_card),
        "trump_text": tr.gettext("Trump: {trump}").format(
            trump=tr.gettext("no trump") if seen.trump is None else suit_text(seen.trump)),
        "stock": seen.stock, "discard": seen.discard, "taking": seen.taking, "defender": seen.defender,
        "seats": seats,
        "table": [[card_code(a), None if c is None else card_code(c)] for a, c in seen.table],
        "timer": None if left is None else {"left": round(left, 1), "total": game.turn_timeout},
        "moves": [line.removeprefix("• ") for line in render.recent_moves(tr, game)[1:]],
        "hand": [], "buttons": [], "prompt": "", "result": [],
    }
    if seen.over:
        picture["result"] = render.final_lines(tr, game, seat, ui.changes.get(game.seats[seat].user.id)) \
            if seat is not None else _public_result(tr, game)
        # what the durak was left holding: the game is over, nothing is hidden any more
        picture["left"] = [{"name": render.name_of(game, p), "cards": in_hand_order(state, p)}
                           for p in state.losers if state.hands[p]]
        if seat is not None and game.status is Status.FINISHED:  # as under the group's result message
            picture["share"] = True  # its result card, to a chat he picks (bot.webapp.server: share)
            picture["buttons"] = [{"text": tr.gettext("🔁 Play again"),
                                   "press": encode(Verb.REPLAY, game.id, game.version)}]
        return picture
    if seat is None or is_computer(game.seats[seat].user):
        picture["prompt"] = render.waiting_line(tr, game, now)  # as the group's table says it
        return picture
    shown = ui.shown(seat)
    text, rows = render.private(tr, game, seat, now, shown)
    hand_cards = {card_code(c) for c in state.hands[seat]}
    # no card lifted: a tap says why
    waiting = hand.options(state, seat, shown.picked, shown.armed, shown.swapping).role is hand.Role.WAIT
    for row in rows or []:
        for button in row:
            press = decode(button["callback_data"])
            if press is not None and press.verb in CARD_VERBS and press.arg in hand_cards:
                label = button["text"]
                mark = ("picked" if label.startswith(SELECTED) else "dim" if label.startswith(UNPLAYABLE)
                        else "idle" if waiting else "pick" if press.verb is Verb.PICK else "play")
                picture["hand"].append({"card": press.arg, "mark": mark,
                                        "press": button["callback_data"]})  # a dim card's tap says why, as in the chat
            else:
                picture["buttons"].append({"text": button["text"], "press": button["callback_data"]})
    if not picture["hand"]:  # no buttons (he left the game): his cards, none playable
        picture["hand"] = [{"card": c, "mark": "dim", "press": None} for c in in_hand_order(state, seat)]
    picture["prompt"] = text.rsplit("\n\n", 1)[-1]
    return picture


def _lobby(tr: Translator, game: Game, ui: GameUI, seat: int | None, base: dict[str, Any]) -> dict[str, Any]:
    """The lobby as its message shows it, with the same buttons (join, computers, settings, start): a press on
    the page is the press on the message."""
    text, markup = slots.lobby_message(tr, game, ui, list_players=False)
    buttons = [{"text": b.text, "press": b.callback_data, "row": i} for i, row in enumerate(markup.inline_keyboard)
               for b in row if isinstance(b.callback_data, str)]
    seats = [{"name": render.name_of(game, s.seat), "cards": None, "you": s.seat == seat, "acting": False,
              "computer": is_computer(s.user), "away": False, "passed": False,
              "role": tr.gettext("creator") if s.user.id == game.creator_id else ""} for s in game.seats]
    return {**base, "status": "lobby", "seats": seats, "table": [], "hand": [], "buttons": buttons,
            "prompt": text, "moves": [], "result": []}


def in_hand_order(state: State, seat: int) -> list[str]:
    """A hand's cards as the chat's keyboard orders them: by suit, trumps last, each suit rising."""
    order = {suit: i for i, suit in enumerate(hand.suits_in_order(trump_of(state, seat)))}
    return [card_code(c) for c in sorted(state.hands[seat], key=lambda c: (order[c & 3], c))]


def _role(tr: Translator, game: Game, seat: int, places: dict[int, int]) -> str:
    state = game.state
    assert state is not None
    if seat in state.losers:
        return tr.gettext("durak")
    if seat in state.out:
        return (tr.gettext("place {place}").format(place=places[seat]) if seat in places
                else tr.gettext("out of the game"))
    if game.seats[seat].away is not Away.PLAYING:
        return tr.gettext("not here")
    if seat == state.defender:
        return tr.gettext("takes") if state.taking else tr.gettext("defends")
    if seat == state.attacker:
        return tr.gettext("attacks")
    return tr.gettext("throws in") if state.attacks else ""


def _public_result(tr: Translator, game: Game) -> list[str]:
    state = game.state
    assert state is not None
    if state.draw:
        return [tr.gettext("🤝 A draw: nobody is the durak.")]
    names = ", ".join(render.name_of(game, p) for p in state.losers)
    return [tr.gettext("🏁 Game over!"), tr.gettext("🃏 Durak: {names}").format(names=names)]
