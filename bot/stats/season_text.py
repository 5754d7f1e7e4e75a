"""The seasons' words: a season's name, its standings (/season), its final table, the closed ones (/seasons) and a
player's medals (/stats)."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence

from babel.dates import format_date

from bot.stats.seasons import Length, Period, Standing, season_durak
from bot.ui.i18n import Translator, language_of
from storage.models import SeasonPlace

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
SHOWN = 20  # lines of a table at most


def season_name(tr: Translator, key: str) -> str:
    """A season by its key, in the reader's words: «декабрь 2026», "week 49, 2026", «4-й квартал 2026»."""
    year, _, part = key.partition("-")
    if part.startswith("W"):
        return tr.gettext("week {n}, {year}").format(n=int(part[1:]), year=year)
    if part.startswith("Q"):
        first = dt.date(int(year), 3 * int(part[1:]) - 2, 1)
        return format_date(first, "QQQQ y", locale=language_of(tr))
    return format_date(dt.date(int(year), int(part), 1), "LLLL y", locale=language_of(tr))


def length_name(tr: Translator, length: Length) -> str:
    return {Length.WEEK: tr.gettext("a week"), Length.MONTH: tr.gettext("a month"),
            Length.QUARTER: tr.gettext("a quarter")}[length]


def _line(tr: Translator, place: int, name: str, s: Standing | SeasonPlace) -> str:
    games = tr.ngettext("{n} game", "{n} games", s.games).format(n=s.games)
    return f"{place}. {name} — ⭐ {s.points} · 🥇 {s.firsts} · 🃏 {s.duraks} ({games})"


def legend(tr: Translator) -> str:
    return tr.gettext("⭐ points · 🥇 first places · 🃏 times the durak")


def standings(tr: Translator, period: Period, rows: Sequence[Standing], names: dict[int, str], now: float) -> str:
    """/season: the season so far and the days left."""
    days = max(1, math.ceil((period.end - now) / 86400))
    head = tr.ngettext("📅 Season «{season}»: {n} day left", "📅 Season «{season}»: {n} days left", days).format(
        season=season_name(tr, period.key), n=days)
    if not rows:
        return "\n".join([head, "", tr.gettext("No games among people yet this season.")])
    lines = [head, legend(tr), ""]
    lines += [_line(tr, place, names.get(s.user_id, "?"), s) for place, s in enumerate(rows[:SHOWN], 1)]
    return "\n".join(lines)


def final(tr: Translator, key: str, rows: Sequence[Standing], names: dict[int, str]) -> str:
    """The message that closes a season: its winner, its durak, its table."""
    lines = [tr.gettext("🏆 Season «{season}» is over!").format(season=season_name(tr, key))]
    winner = rows[0]
    lines.append(tr.ngettext("👑 First place: {name} ({n} point)", "👑 First place: {name} ({n} points)",
                             winner.points).format(name=names.get(winner.user_id, "?"), n=winner.points))
    worst = season_durak(rows)
    if worst is not None and len(rows) > 1:
        lines.append(tr.ngettext("🃏 The durak of the season: {name} ({n} time)",
                                 "🃏 The durak of the season: {name} ({n} times)",
                                 worst.duraks).format(name=names.get(worst.user_id, "?"), n=worst.duraks))
    lines += [legend(tr), ""]
    lines += [_line(tr, place, names.get(s.user_id, "?"), s) for place, s in enumerate(rows[:SHOWN], 1)]
    lines += ["", tr.gettext("A new season has begun: /season shows its table.")]
    return "\n".join(lines)


def closed(tr: Translator, places: Sequence[SeasonPlace], names: dict[int, str]) -> str:
    """/seasons: each closed season's first three and its durak, newest first."""
    if not places:
        return tr.gettext("No season has ended here yet: /season shows the current one.")
    lines = [tr.gettext("🏆 Past seasons:")]
    seasons: dict[str, list[SeasonPlace]] = {}
    for p in places:
        seasons.setdefault(p.season, []).append(p)
    for key, rows in list(seasons.items())[:SHOWN]:
        podium = " · ".join(f"{MEDALS[p.place]} {names.get(p.user_id, '?')}" for p in rows if p.place in MEDALS)
        lines.append(tr.gettext("«{season}»: {podium}").format(season=season_name(tr, key), podium=podium))
    return "\n".join(lines)


def medals(tr: Translator, places: Sequence[SeasonPlace]) -> str | None:
    """His line in /stats: medals of closed seasons, and his best one."""
    if not places:
        return None
    counts = " · ".join(f"{mark} {sum(p.place == place for p in places)}" for place, mark in MEDALS.items())
    best = min(places, key=lambda p: (p.place, -p.points))
    return tr.gettext("🏅 Seasons: {medals}; the best: «{season}», place {place}").format(
        medals=counts, season=season_name(tr, best.season), place=best.place)
