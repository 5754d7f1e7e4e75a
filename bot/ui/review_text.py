"""The words of a game's review: each person's summary after the game, his /history lines, and a move in the
words card players use ("cover 7♥ with 10♥", "take the cards"), in his language. Pure: no I/O."""

from __future__ import annotations

import datetime
import math
from typing import Any

import orjson

from bot.ui.i18n import Translator
from bot.ui.labels import card_text, cards_text
from bot.ui.render import name_of
from durak.actions import Act, Action, action_from_json
from storage.models import Game, HistoryEntry

Review = dict[str, Any]  # as bot.game.reviews keeps it


def move_words(tr: Translator, game: Game, action: Action, leading: bool, taking: bool) -> str:
    """A move as a player would name it, an infinitive phrase: "take the cards", "cover 7♥ with 10♥"."""
    cards, act = action.cards, action.act
    if act is Act.TAKE:
        return tr.gettext("take the cards")
    if act is Act.PASS:
        return tr.gettext("throw in nothing more") if taking else tr.gettext("say Done")
    if act is Act.DEFEND and action.target is not None:
        return tr.gettext("cover {target} with {card}").format(target=card_text(action.target),
                                                               card=card_text(cards[0]))
    if act is Act.ATTACK and leading:
        return tr.gettext("lead {cards}").format(cards=cards_text(cards))
    if act in (Act.ATTACK, Act.THROW_SELF):
        return tr.gettext("throw in {cards}").format(cards=cards_text(cards))
    if act is Act.TRANSFER:
        return tr.ngettext("transfer with {cards}", "transfer with {cards}", len(cards)).format(
            cards=cards_text(cards))
    if act is Act.SHOW:
        return tr.gettext("show {card} to transfer").format(card=card_text(cards[0]))
    if act is Act.COUNTER and action.target is not None:
        return tr.gettext("cover {target} with {card} and strike back with {cards}").format(
            target=card_text(action.target), card=card_text(cards[0]), cards=cards_text(cards[1:]))
    if act is Act.ACCUSE and action.suspect is not None:
        return tr.gettext("accuse {name} of cheating").format(name=name_of(game, action.suspect))
    if act is Act.SWAP:
        return tr.gettext("swap {cards}").format(cards=cards_text(cards))
    if act is Act.STOCK_LEAD:
        return tr.gettext("lead the top card of the stock")
    if act is Act.DRAW_CARD:
        return tr.gettext("draw a card from the stock")
    return act.value


def judged_words(tr: Translator, game: Game, move: dict[str, Any], key: str) -> str:
    """The words of a kept move's ``played`` or ``best`` (or any action JSON under ``key``)."""
    return move_words(tr, game, action_from_json(move[key]), move["leading"], move["taking"])


def half_up(value: float) -> int:
    """A whole number, a half rounded up as the Mini App's page rounds it (Python's ``round`` rounds a half to
    even: 12.5 % read 12 in the chat and 13 on the page)."""
    return math.floor(value + 0.5)


def percent(share: float) -> int:
    """A share (0–1) in whole percent, as the page shows it."""
    return half_up(share * 100)


def figures(tr: Translator, seat: dict[str, Any]) -> str:
    """"accuracy 84 %, 1 blunder, 2 mistakes" (or "no mistakes")."""
    parts = [tr.gettext("accuracy {accuracy} %").format(accuracy=half_up(seat["accuracy"]))]
    counted = [(seat["blunders"], tr.ngettext("{n} blunder", "{n} blunders", seat["blunders"])),
               (seat["mistakes"], tr.ngettext("{n} mistake", "{n} mistakes", seat["mistakes"])),
               (seat["inaccuracies"], tr.ngettext("{n} inaccuracy", "{n} inaccuracies", seat["inaccuracies"]))]
    labelled = [text.format(n=n) for n, text in counted if n]
    return ", ".join([*parts, *labelled] if labelled else [*parts, tr.gettext("no mistakes")])


def costliest(review: Review, seat: int) -> dict[str, Any] | None:
    """The seat's costliest labelled move, if any."""
    mine = [m for m in review["moves"] if m["seat"] == seat and m["label"]]
    return max(mine, key=lambda m: (m["cost"], -m["n"])) if mine else None


def summary(tr: Translator, game: Game, review: Review, seat: int) -> str:
    """The private message after a game: the figures, and the costliest move in a line."""
    head = (tr.gettext("📊 Review of your game in «{group}»").format(group=game.title) if game.chat_id < 0 and
            game.title else tr.gettext("📊 Review of your game"))
    mine = review["seats"].get(str(seat))
    if mine is None or not mine["moves"]:
        return "\n".join([head, tr.gettext("You had no move with a real choice in this game: nothing to judge.")])
    said = figures(tr, mine)
    lines = [head, said[:1].upper() + said[1:]]
    worst = costliest(review, seat)
    if worst is not None:
        lines.append(tr.gettext("Costliest move — move {n}: you chose to {played}, but it was better to {best}. "
                                "It cost {points} % of your chance not to be the durak.").format(
            n=worst["n"], played=judged_words(tr, game, worst, "played"), best=judged_words(tr, game, worst, "best"),
            points=max(1, percent(worst["cost"]))))
    return "\n".join(lines)


def history(tr: Translator, entries: list[HistoryEntry], reviewing: bool = True) -> str:
    """/history in a private chat: the player's last games, each with its review's figures (``reviewing`` False:
    this bot makes no reviews, so none is said to be coming)."""
    if not entries:
        return tr.gettext("You have not finished a game yet.")
    lines = [tr.gettext("🗂 Your last games:")]
    for e in entries:
        day = datetime.datetime.fromtimestamp(e.finished_at, datetime.UTC).strftime("%d.%m")
        where = f"«{e.title}»" if e.chat_id < 0 and e.title else tr.gettext("against the computer")
        outcome = (tr.gettext("a draw") if e.draw else tr.gettext("you were the durak") if e.loser
                   else tr.gettext("you were not the durak"))
        if e.review is not None:
            mine = orjson.loads(e.review)["seats"].get(str(e.seat))
            said = figures(tr, mine) if mine and mine["moves"] else tr.gettext("no move to judge")
        elif e.recorded and reviewing:
            said = tr.gettext("the review is being made…")
        elif e.recorded:
            said = tr.gettext("no review")
        else:
            said = tr.gettext("played before reviews: no review")
        lines.append(f"#{e.game_id} · {day} · {where} · {outcome} · {said}")
    return "\n".join(lines)
