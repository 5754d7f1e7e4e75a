"""Texts and keyboards of /stats, /top and /history."""

from __future__ import annotations

import datetime

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.stats.standings import RANKED_AFTER, PlayerStats, Standing
from bot.ui.callbacks import Verb, encode
from bot.ui.i18n import Translator
from bot.ui.render import level_name, name_of, preset_name
from durak.scoring import Scoring
from storage.models import Game

PAGE = 10


def scoring_name(tr: Translator, system: Scoring) -> str:
    return {
        Scoring.RATING: tr.gettext("rating"),
        Scoring.BASIC: tr.gettext("wins"),
        Scoring.BASIC_PLUS: tr.gettext("wins minus losses"),
        Scoring.PLACES: tr.gettext("points for places"),
        Scoring.PENALTY: tr.gettext("penalty points (fewest lead)"),
    }[system]


def stats(tr: Translator, name: str, s: PlayerStats, where: str) -> str:
    if not s.games and not s.computers:
        return tr.gettext("{name} has not finished a game {where} yet.").format(name=name, where=where)
    if not s.games:  # only games with computers: no empty section of games with people above them
        return "\n".join([tr.gettext("📊 {name} {where}").format(name=name, where=where),
                          *computer_lines(tr, s, alone=True)])
    lines = [
        tr.gettext("📊 {name} {where}").format(name=name, where=where),
        tr.ngettext("{n} game played", "{n} games played", s.games).format(n=s.games),
        tr.ngettext("🃏 Durak {n} time ({rate:.0%} of games)", "🃏 Durak {n} times ({rate:.0%} of games)",
                    s.duraks).format(n=s.duraks, rate=s.durak_rate),
        tr.gettext("🥇 First out: {wins} · longest run {streak}").format(wins=s.wins, streak=s.best_streak),
        tr.gettext("🤝 Draws: {draws}").format(draws=s.draws),
        tr.gettext("🎖 Pogony: pinned on others {given}, worn {received}").format(
            given=s.pogony_given, received=s.pogony_received),
    ]
    if s.rating is not None:
        if s.provisional:
            lines.append(tr.ngettext("Rating: {rating} (provisional: {n} of {needed} game)",
                                     "Rating: {rating} (provisional: {n} of {needed} games)", RANKED_AFTER).format(
                rating=s.rating, n=s.games, needed=RANKED_AFTER))
        else:
            rank = "" if s.rank is None else " " + tr.gettext("(#{n})").format(n=s.rank)
            lines.append(tr.gettext("Rating: {rating}").format(rating=s.rating) + rank)
    return "\n".join(lines + computer_lines(tr, s))


def line(tr: Translator, s: PlayerStats) -> str:
    """One line of a player's record in a chat, under a game's result on his Mini App page."""
    games = tr.ngettext("{n} game", "{n} games", s.games).format(n=s.games)
    if s.rating is None:
        return tr.gettext("📊 In this chat: {games} · first out {wins} · durak {duraks}").format(
            games=games, wins=s.wins, duraks=s.duraks)
    return tr.gettext("📊 In this chat: {games} · first out {wins} · durak {duraks} · rating {rating}").format(
        games=games, wins=s.wins, duraks=s.duraks, rating=s.rating)


def computer_lines(tr: Translator, s: PlayerStats, alone: bool = False) -> list[str]:
    """Games against computers, apart: they count for no figure above nor for the rating. ``alone``: there
    are no games with people above them."""
    if not s.computers:
        return []
    lines = ([tr.gettext("🤖 Against the computer:")] if alone
             else ["", tr.gettext("🤖 Against the computer (not counted above):")])
    for level, games, wins in s.computers:
        lines.append(tr.ngettext("{level}: {n} game, first out {wins} ({rate:.0%})",
                                 "{level}: {n} games, first out {wins} ({rate:.0%})", games).format(
            level=level_name(tr, level), n=games, wins=wins, rate=wins / games))
    return lines


def top(tr: Translator, names: dict[int, str], ranked: list[Standing], newcomers: list[Standing], page: int,
        system: Scoring, scope: str, chat_wide: bool) -> tuple[str, InlineKeyboardMarkup | None]:
    title = tr.gettext("🏆 Top players {scope} · by {system}").format(scope=scope, system=scoring_name(tr, system))
    if not ranked and not newcomers:
        return title + "\n" + tr.gettext("No finished games yet."), None
    pages = max(1, -(-len(ranked) // PAGE))
    page = min(max(page, 0), pages - 1)
    lines = [title]
    names = _told_apart(names)
    for i, row in enumerate(ranked[page * PAGE:(page + 1) * PAGE], page * PAGE + 1):
        lines.append(f"{i}. {names.get(row.user_id, '?')} · {_score(row, system)} · " +
                     tr.ngettext("{n} game", "{n} games", row.games).format(n=row.games))
    if not ranked:
        lines.append(tr.gettext("Nobody has five games yet."))
    if newcomers and page == pages - 1:
        lines += ["", tr.gettext("Provisional (fewer than five games):")]
        lines += [f"· {names.get(row.user_id, '?')} · {_score(row, system)}" for row in newcomers[:PAGE]]
    buttons = []
    where = "c" if chat_wide else "g"
    if page > 0:
        buttons.append(InlineKeyboardButton(tr.gettext("« Prev"), callback_data=encode(Verb.TOP, 0, page - 1, where)))
    if page < pages - 1:
        buttons.append(InlineKeyboardButton(tr.gettext("Next »"), callback_data=encode(Verb.TOP, 0, page + 1, where)))
    if pages > 1:
        lines.append(tr.gettext("Page {page} of {pages}").format(page=page + 1, pages=pages))
    return "\n".join(lines), InlineKeyboardMarkup([buttons]) if buttons else None


def _told_apart(names: dict[int, str]) -> dict[int, str]:
    """Two Sashas on one leaderboard: each gets the end of his Telegram id, the same in every list."""
    seen: dict[str, int] = {}
    for name in names.values():
        seen[name] = seen.get(name, 0) + 1
    return {user: f"{name} (…{str(user)[-4:]})" if seen[name] > 1 else name for user, name in names.items()}


def _score(row: Standing, system: Scoring) -> str:
    return str(int(row.score))


def history(tr: Translator, games: list[tuple[Game, list[dict[str, object]]]]) -> str:
    if not games:
        return tr.gettext("No finished games here yet.")
    lines = [tr.gettext("🗂 The last games here:")]
    for game, rows in games:
        day = datetime.datetime.fromtimestamp(game.updated_at, datetime.UTC).strftime("%d.%m")
        players = ", ".join(name_of(game, int(str(r["seat"]))) for r in rows)
        durak = [name_of(game, int(str(r["seat"]))) for r in rows if r["loser"] and r["place"] is None]
        if rows and rows[0]["draw"]:
            outcome = tr.gettext("a draw")
        else:
            outcome = tr.gettext("durak: {names}").format(names=", ".join(durak) or "?")
        if rows and rows[0]["pogony"]:
            outcome += " 🎖"
        lines.append(f"#{game.id} · {day} · {preset_name(tr, game.rules.preset)} · {players} → {outcome}")
    return "\n".join(lines)
