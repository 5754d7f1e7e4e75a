"""A tournament's words: its message (the standings, who sits at which table, Join and Leave), its end."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.stats.tournament_rules import STREAK
from bot.ui.callbacks import Verb, encode
from bot.ui.i18n import Translator
from bot.ui.variants import game_name
from storage.models import Entrant, Tournament, TournamentStatus

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
SHOWN = 30


def ranked(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Best first: points, then first places, then the fewer games (the same points in fewer tables)."""
    return sorted(entrants, key=lambda e: (-e.points, -e.firsts, e.games, e.joined_at))


def _line(tr: Translator, place: int, e: Entrant) -> str:
    fire = " 🔥" if e.streak >= STREAK else ""
    games = tr.ngettext("{n} game", "{n} games", e.games).format(n=e.games)
    gone = " " + tr.gettext("(left)") if e.left else ""
    return f"{MEDALS.get(place, f'{place}.')} {e.user.name} — {e.points}{fire} ({games}){gone}"


def message(tr: Translator, t: Tournament, entrants: Sequence[Entrant], seated: Sequence[Sequence[str]]
            ) -> tuple[str, InlineKeyboardMarkup | None]:
    """Its message: how it stands, who plays now, and (while open) Join and Leave."""
    ends = dt.datetime.fromtimestamp(t.ends_at, dt.UTC).strftime("%H:%M")
    head = {TournamentStatus.OPEN: tr.gettext("🏆 Tournament · {game} · until {time} UTC"),
            TournamentStatus.CLOSING: tr.gettext("🏆 Tournament · {game} · time is up: the last tables finish"),
            TournamentStatus.OVER: tr.gettext("🏆 Tournament · {game} · over")}[t.status]
    lines = [head.format(game=game_name(tr, t.rules), time=ends),
             tr.gettext("Points by place: the durak 0, first most; first twice in a row: double points 🔥"), ""]
    if entrants:
        lines += [_line(tr, place, e) for place, e in enumerate(ranked(entrants)[:SHOWN], 1)]
    else:
        lines.append(tr.gettext("Nobody has joined yet."))
    if seated and t.status is not TournamentStatus.OVER:
        lines += ["", tr.gettext("🎲 At the tables: {tables}").format(tables=" · ".join(", ".join(t) for t in seated))]
    if t.status is not TournamentStatus.OPEN:
        return "\n".join(lines), None
    lines += ["", tr.gettext("Press Join to play: whenever two or more of you are free, I seat you at a table.")]
    buttons = [[InlineKeyboardButton(tr.gettext("Join"), callback_data=encode(Verb.TOURNAMENT, t.id, 0, "j")),
                InlineKeyboardButton(tr.gettext("Leave"), callback_data=encode(Verb.TOURNAMENT, t.id, 0, "l"))]]
    return "\n".join(lines), InlineKeyboardMarkup(buttons)


def final(tr: Translator, entrants: Sequence[Entrant]) -> str:
    """The message at its end: the podium and everyone's points."""
    lines = [tr.gettext("🏆 The tournament is over!")]
    if not any(e.games for e in entrants):
        return "\n".join([*lines, tr.gettext("Nobody played a table.")])
    lines += [_line(tr, place, e) for place, e in enumerate(ranked([e for e in entrants if e.games])[:SHOWN], 1)]
    return "\n".join(lines)
