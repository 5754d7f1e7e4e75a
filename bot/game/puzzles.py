"""/puzzle: positions from a player's own reviewed games where one move was clearly the best
(``durak.review.puzzle``), shown as his hand showed them, answered with one tap; his streak of solved ones.

Everything comes from what is stored: the kept reviews mark their puzzles, and each answer is a row (the first
tap on a puzzle counts; another, from here or another process, changes nothing). A press names its game, move
and answer, so it needs no state of its own: a forged one is refused on what it names.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

import orjson

from bot.game.core import PageLinks
from bot.ui import fit, render
from bot.ui.callbacks import Verb, encode
from bot.ui.i18n import Translator
from bot.ui.labels import lettered
from bot.ui.review_text import judged_words
from durak import apply, card_code
from durak.actions import action_from_json
from durak.review import puzzle
from storage.models import Game, Status
from storage.repo import CorruptRow, Repo

PUZZLE_GAMES = 50  # his last games a puzzle is looked for in
SHOWN = 6          # the moves a puzzle offers: the best and the next ones, in an order that says nothing
Markup = list[list[dict[str, Any]]]


@dataclass(frozen=True)
class Puzzle:
    game: Game       # at the position before the move
    move: dict[str, Any]  # the kept review's move
    title: str


@dataclass(frozen=True)
class Verdict:
    """His answer judged: the lines under the position (the verdict, each offered move's chance, his streak)."""

    lines: list[str]
    best: bool


class Puzzles:
    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self.links: PageLinks | None = None  # where a puzzle opens in the Mini App, when it is configured

    async def next(self, tr: Translator, user_id: int) -> tuple[str, Markup | None]:
        """His next unanswered puzzle, newest game first; or why there is none."""
        answered = await self.repo.puzzle_answers(user_id)
        reviewed = False
        for entry in await self.repo.history(user_id, PUZZLE_GAMES):
            if entry.review is None:
                continue
            reviewed = True
            for move in _moves(entry.review):
                if (move.get("puzzle") and move.get("seat") == entry.seat
                        and (entry.game_id, move.get("n")) not in answered):
                    found = await self._puzzle(entry.game_id, int(move["n"]), entry.title)
                    if found is not None:
                        return _asked(tr, found), _options(tr, found) + self._in_app(tr, found)
        return (tr.gettext("No puzzle waits for you now: they come from your reviewed games, where one move was "
                           "clearly the best. Play on, and ask again after your next game.") if reviewed else
                tr.gettext("Puzzles come from your own reviewed games: play a game with the bot first.")), None

    async def answer(self, tr: Translator, user_id: int, game_id: int, n: int,
                     arg: str) -> tuple[str | None, Markup | None, str | None]:
        """His answer to the puzzle at move ``n`` of ``game_id``: the verdict's text and buttons, and a toast (a
        refusal, with no text to show; or that the verdict shown is his first answer's)."""
        found, verdict, toast = await self.judge(tr, user_id, game_id, n, arg)
        if found is None or verdict is None:
            return None, None, toast
        return lettered("\n".join([_heading(tr, found), "", render.position(tr, found.game, found.move["seat"]), "",
                                    *verdict.lines]), tr), [[next_button(tr)]], toast

    async def judge(self, tr: Translator, user_id: int, game_id: int, n: int,
                    arg: str) -> tuple[Puzzle | None, Verdict | None, str | None]:
        """His answer (``arg``: the index of a move offered) recorded and judged, from the chat or the Mini App:
        the first answer counts, and a later one gets the first one's verdict with a toast saying so; a move not
        offered, another player's puzzle or none there: no verdict, a toast."""
        found = await self._puzzle(game_id, n, "")
        try:
            chosen = int(arg)
        except ValueError:
            chosen = -1
        if found is None or found.game.seat_of(user_id) != found.move["seat"] or not 0 <= chosen < len(
                found.move["values"]) or chosen not in _shown(found):
            return None, None, tr.gettext("This button is not valid any more.")
        values = [(a, v) for a, v in found.move["values"]]
        toast = None
        if not await self.repo.answer_puzzle(user_id, game_id, n, chosen, puzzle.graded(values, chosen) == "best"):
            # answered before: his first answer's verdict again (Telegram may have lost it when it was given)
            chosen = await self.repo.puzzle_answer(user_id, game_id, n) or 0
            toast = tr.gettext("You have answered this puzzle already.")
        run, best = await self.repo.puzzle_streak(user_id)
        grade = puzzle.graded(values, chosen)
        return found, Verdict(_solved(tr, found, chosen, grade, run, best), grade == "best"), toast

    async def page(self, tr: Translator, user_id: int, game_id: int, n: int) -> dict[str, Any] | None:
        """The Mini App's puzzle at move ``n`` of ``game_id`` for its player: what it asks and the moves it offers
        (their words and cards, in the chat's order; their values come with the verdict). None: no puzzle of his
        there."""
        found = await self._puzzle(game_id, n, "")
        if found is None or found.game.seat_of(user_id) != found.move["seat"]:
            return None
        offered = [{"i": i, "words": _words(tr, found, i),
                    "cards": [card_code(c) for c in action_from_json(found.move["values"][i][0]).cards]}
                   for i in _shown(found)]
        return {"n": n, "heading": _heading(tr, found),
                "question": tr.gettext("Which move is best? One is clearly better than the others."),
                "options": offered}

    def _in_app(self, tr: Translator, found: Puzzle) -> Markup:
        """The puzzle in the Mini App, drawn with real cards (a ``web_app`` button: the private chat allows it)."""
        if self.links is None:
            return []
        url = f"{self.links.hand(found.game.id)}&review=1&puzzle={found.move['n']}"
        return [[{"text": tr.gettext("🃏 Solve it in the app"), "web_app": {"url": url}}]]

    async def _puzzle(self, game_id: int, n: int, title: str) -> Puzzle | None:
        """The puzzle at move ``n`` of ``game_id``, as his hand showed that position; None if the kept review has
        none there (a forged press, or a game gone)."""
        try:
            game = await self.repo.game(game_id)
        except CorruptRow:
            return None
        if game is None or game.deal is None or game.status is not Status.FINISHED or not 1 <= n <= len(game.moves):
            return None
        kept = await self.repo.review(game_id)
        move = next((m for m in _moves(kept) if m.get("n") == n and m.get("puzzle")), None) if kept else None
        if move is None:
            return None
        state = game.deal
        for mover, action in game.moves[:n - 1]:
            state, _ = apply(state, mover, action)
        return Puzzle(replace(game, state=state, status=Status.PLAYING, log=()), move, title or game.title)


def _moves(review: str) -> list[dict[str, Any]]:
    try:
        moves = orjson.loads(review).get("moves", [])
    except (orjson.JSONDecodeError, AttributeError):
        return []
    return [m for m in moves if isinstance(m, dict)] if isinstance(moves, list) else []


def _shown(found: Puzzle) -> list[int]:
    """The moves offered (indices into the kept values): the best few, in an order fixed by the puzzle alone."""
    key = f"{found.game.id}:{found.move['n']}"
    return sorted(range(min(SHOWN, len(found.move["values"]))),
                  key=lambda i: hashlib.sha256(f"{key}:{i}".encode()).digest())


def _words(tr: Translator, found: Puzzle, i: int) -> str:
    move = {**found.move, "option": found.move["values"][i][0]}
    return judged_words(tr, found.game, move, "option")


def _heading(tr: Translator, found: Puzzle) -> str:
    n = found.move["n"]
    return (tr.gettext("🧩 A puzzle from your game in «{group}», move {n}").format(group=found.title, n=n)
            if found.title else tr.gettext("🧩 A puzzle from your game, move {n}").format(n=n))


def _asked(tr: Translator, found: Puzzle) -> str:
    return lettered("\n".join([_heading(tr, found), "", render.position(tr, found.game, found.move["seat"]), "",
                               tr.gettext("Which move is best? One is clearly better than the others.")]), tr)


def _options(tr: Translator, found: Puzzle) -> Markup:
    buttons = [_button(lettered(_words(tr, found, i), tr), found.game.id, found.move["n"], str(i))
               for i in _shown(found)]
    return fit.rows(buttons, lambda b: str(b["text"]), most=2)


def _solved(tr: Translator, found: Puzzle, chosen: int, grade: str, run: int, best: int) -> list[str]:
    values = found.move["values"]
    mine, top = _words(tr, found, chosen), _words(tr, found, 0)
    verdict = (tr.gettext("✔ Right: {move} is the best move.").format(move=mine) if grade == "best" else
               tr.gettext("✘ {move} is {points} % behind the best move, {best}.").format(
                   move=mine, points=max(1, round((values[0][1] - values[chosen][1]) * 100)), best=top))
    weighed = [tr.gettext("• {move}: {value} %").format(move=_words(tr, found, i), value=round(values[i][1] * 100))
               for i in sorted(_shown(found))]
    return [verdict, tr.gettext("Your chance not to be the durak with each move:"), *weighed, "",
            tr.gettext("🔥 Streak: {run} (best {best})").format(run=run, best=best)]


def next_button(tr: Translator) -> dict[str, Any]:
    return _button(tr.gettext("🧩 Next puzzle"), 0, 0, "next")


def _button(text: str, game_id: int, n: int, arg: str) -> dict[str, Any]:
    return {"text": text, "callback_data": encode(Verb.PUZZLE, game_id, n, arg)}


def puzzle_count(review: dict[str, Any], seat: int) -> int:
    """The puzzles a kept review holds for ``seat``."""
    return sum(1 for m in review.get("moves", []) if m.get("puzzle") and m.get("seat") == seat)
