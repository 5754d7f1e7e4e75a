"""What a result card shows (bot.stats.card draws it): a finished game's places, its durak and the cards he was
left with, and the evening's score; or an evening's own table at its end."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from babel.dates import format_date

from bot.stats.card import Card, Row, Table, plain
from bot.stats.evening import Evening
from bot.stats.evening_text import score_lines
from bot.stats.tournament_text import ranked
from bot.ui import hand
from bot.ui.i18n import Translator, language_of
from bot.ui.places import places_of
from bot.ui.render import name_of
from bot.ui.variants import game_name
from durak import card_code
from durak.engine import trump_of
from storage.models import Entrant, Game, Tournament


def _date(tr: Translator, when: float) -> str:
    return format_date(dt.datetime.fromtimestamp(when, dt.UTC).date(), "long", locale=language_of(tr))


def game_card(tr: Translator, game: Game, evening: Evening | None, when: float) -> Card:
    state = game.state
    assert state is not None
    places = places_of(game)
    rows = [Row(str(places[p]), name_of(game, p)) for p in state.out if p in places]
    rows += [Row(tr.gettext("Durak"), name_of(game, p), loser=True) for p in state.losers]
    if state.draw:
        rows.append(Row("=", plain(tr.gettext("🤝 A draw: nobody is the durak."))))
    left: list[str] = []
    for p in state.losers:
        order = {suit: i for i, suit in enumerate(hand.suits_in_order(trump_of(state, p)))}
        left += [card_code(c) for c in sorted(state.hands[p], key=lambda c: (order[c & 3], c))]
    names = {s.user.id: name_of(game, s.seat) for s in game.seats}
    table = None
    if (evening is not None and evening.games >= 2) or (evening is not None and evening.goal is not None):
        table = evening_table(tr, evening, names, plain(score_lines(tr, evening, names)[1]))
    return Card(game_name(tr, game.rules), game.title or tr.gettext("Durak"), rows, left, table, _date(tr, when))


def evening_table(tr: Translator, evening: Evening, names: dict[int, str], heading: str) -> Table:
    columns = [tr.pgettext("evening table", "durak"), tr.pgettext("evening table", "first")]
    if evening.points:
        columns.append(tr.pgettext("evening table", "points"))
    rows = [(names.get(line.user_id, "?"), [line.duraks, line.firsts, *([line.points] if evening.points else [])])
            for line in evening.lines]
    return Table(heading, columns, rows)


def evening_card(tr: Translator, game: Game, evening: Evening, when: float) -> Card:
    """An evening at its goal: its table, best first, its durak marked."""
    names = {s.user.id: name_of(game, s.seat) for s in game.seats}
    title = plain(tr.ngettext("🏆 The evening is over: {n} game", "🏆 The evening is over: {n} games",
                              evening.games).format(n=evening.games))
    ordered = evening.ordered()
    rows = []
    if not evening.even():
        if best := evening.best():
            rows.append(Row("1", ", ".join(names.get(line.user_id, "?") for line in best)))
        if worst := evening.duraks():
            rows.append(Row(tr.gettext("Durak"), ", ".join(names.get(line.user_id, "?") for line in worst),
                            loser=True))
    table = evening_table(tr, Evening(evening.series, evening.games, tuple(ordered), evening.goal, evening.scoring),
                          names, game_name(tr, game.rules))
    return Card(title, game.title or tr.gettext("Durak"), rows, table=table, footer=_date(tr, when))


def tournament_card(tr: Translator, tournament: Tournament, entrants: Sequence[Entrant], when: float) -> Card:
    """A tournament at its end: its podium and everyone's points."""
    played = ranked([e for e in entrants if e.games])
    rows = [Row(str(place), e.user.name, tr.ngettext("{n} point", "{n} points", e.points).format(n=e.points))
            for place, e in enumerate(played[:10], 1)]
    return Card(plain(tr.gettext("🏆 The tournament is over!")), tournament.title or game_name(tr, tournament.rules),
                rows, footer=_date(tr, when))
