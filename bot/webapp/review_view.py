"""What the Mini App's review of a finished game shows its player: every position of the game from his seat (the
table as everyone saw it, his own hand, the last moves; every hand if he asks: the game is over), his judged moves
with the better move, each move weighed at a marked one with the table it leaves (Retry, and the moves he may try
before the answer shows), and his chance over the game. Pure: no I/O.

The game is over, so the page may show what it likes of it; it still shows the position as the player saw it, so
that he judges his moves on what he knew. Every figure is the kept review's (``bot.game.reviews``): opening it
again judges nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.game.play import events_json
from bot.game.store import GameUI
from bot.ui import review_text
from bot.ui.i18n import Translator
from bot.webapp.view import frame, in_hand_order
from durak import Illegal, State, apply, card_code
from durak.actions import Action, action_from_json
from durak.view import view
from storage.models import Game, Status

# no "prompt": the live "Waiting for …" line belongs to a game in play, not to a step of its review
STEP_KEYS = ("seats", "table", "stock", "discard", "trump_card", "trump_text", "moves", "result", "left")


def review_frame(tr: Translator, game: Game, review: dict[str, Any], seat: int, token: str) -> dict[str, Any]:
    """The review page's one frame: ``steps[k]`` is the position before the game's move k + 1 (the last one, the
    end); ``marks`` his judged moves by their number; ``graph`` his chance after each judged move."""
    assert game.deal is not None
    state: State = game.deal
    log: list[dict[str, Any]] = []
    steps, befores = [], []
    for k in range(len(game.moves) + 1):
        picture = frame(tr, replace(game, state=state, status=Status.PLAYING if not state.over else Status.FINISHED,
                                    log=tuple(log), deadline=None), GameUI(), None, 0.0, token)
        step = {key: picture.get(key) for key in STEP_KEYS}
        step["seats"] = [{**s, "you": n == seat} for n, s in enumerate(picture["seats"])]
        step["hand"] = in_hand_order(state, seat)
        step["hands"] = [in_hand_order(state, p) for p in range(state.players)]  # the game is over: shown on request
        steps.append(step)
        befores.append(state)
        if k < len(game.moves):
            mover, action = game.moves[k]
            taking = state.taking
            state, events = apply(state, mover, action)
            log += events_json(events, None, taking)
    mine = [m for m in review["moves"] if m["seat"] == seat]
    marks = {}
    for m in mine:
        before = befores[m["n"] - 1]
        options = [_option(tr, game, before, seat, action_from_json(a), value, m) for a, value in m["values"]]
        played = action_from_json(m["played"])
        marks[str(m["n"])] = {
            "n": m["n"], "label": m["label"], "cost": m["cost"], "chance": m["values"][0][1],
            "value": next((value for a, value in m["values"] if action_from_json(a) == played), None),
            "played": review_text.judged_words(tr, game, m, "played"),
            "best": review_text.judged_words(tr, game, m, "best"),
            "played_cards": _cards(played), "best_cards": _cards(action_from_json(m["best"])),
            "options": options}
    figures = review["seats"].get(str(seat))
    said = review_text.figures(tr, figures) if figures and figures["moves"] else ""
    return {"type": "review", "game": token, "you": seat, "rules": frame(tr, game, GameUI(), None, 0.0, token)["rules"],
            "summary": said[:1].upper() + said[1:], "steps": steps, "marks": marks,
            "graph": [{"n": m["n"], "value": marks[str(m["n"])]["value"], "label": m["label"]} for m in mine]}


def _cards(action: Action) -> list[str]:
    return [card_code(c) for c in action.cards]


def _option(tr: Translator, game: Game, before: State, seat: int, action: Action, value: float,
            move: dict[str, Any]) -> dict[str, Any]:
    """One move weighed at a marked decision: its words, its value, and the table it leaves."""
    try:
        after, _ = apply(before, seat, action)
        table = [[card_code(a), None if c is None else card_code(c)] for a, c in view(after, None).table]
    except Illegal:  # a cheat judged beside the honest moves, which the true deal's rules catch
        table = None
    return {"words": review_text.move_words(tr, game, action, move["leading"], move["taking"]),
            "value": value, "cards": _cards(action), "table": table}


def puzzle_frame(review: dict[str, Any], puzzle: dict[str, Any]) -> dict[str, Any]:
    """The review frame cut to a puzzle (``Puzzles.page``): its one position and the moves it offers, none of the
    review's marks, values or graph, which would tell the answer."""
    step = {**review["steps"][puzzle["n"] - 1], "hands": None}  # the position as he saw it: no other hand
    return {**review, "steps": [step], "marks": {}, "graph": [], "summary": "", "puzzle": puzzle}
