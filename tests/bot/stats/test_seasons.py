"""Seasons: their calendar periods, their table by the chat's scoring system, and their words in four languages."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.stats import season_text
from bot.stats.seasons import Length, period, previous, season_durak, table
from bot.ui.i18n import LANGUAGES, translator
from durak.scoring import Scoring
from storage.computers import computer_id
from storage.models import SeasonPlace
from tests.bot.stats.test_evening import ANNA, BORIS, NAMES, VERA, game


def at(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC).timestamp()


@pytest.mark.parametrize(("length", "moment", "key", "start", "before"), [
    (Length.MONTH, "2026-12-31T23:59:59", "2026-12", "2026-12-01", "2026-11"),
    (Length.MONTH, "2027-01-01T00:00", "2027-01", "2027-01-01", "2026-12"),
    (Length.WEEK, "2027-01-01T12:00", "2026-W53", "2026-12-28", "2026-W52"),
    (Length.QUARTER, "2026-03-31T23:00", "2026-Q1", "2026-01-01", "2025-Q4"),
])
def test_seasons_are_calendar_periods_in_utc(length: Length, moment: str, key: str, start: str, before: str) -> None:
    season = period(length, at(moment))
    assert season.key == key and season.start == at(start) and season.start <= at(moment) < season.end
    assert previous(length, at(moment)).key == before and previous(length, at(moment)).end == season.start


def test_a_season_ranks_by_points_then_first_places_then_fewer_duraks() -> None:
    rows = [*game(1, [ANNA, BORIS, VERA]), *game(2, [BORIS, ANNA, VERA]), *game(3, [VERA, ANNA, BORIS])]
    ranked = table(Scoring.RATING, rows)  # a chat ranked by rating: the places' points
    assert [(s.user_id, s.points, s.firsts, s.duraks) for s in ranked] == [
        (ANNA, 4, 1, 0), (BORIS, 3, 1, 1), (VERA, 2, 1, 2)]
    assert season_durak(ranked).user_id == VERA  # type: ignore[union-attr]
    wins = table(Scoring.BASIC, rows)
    assert [s.user_id for s in wins] == [ANNA, BORIS, VERA], "one win each: the fewer times the durak first"
    with_computer = game(4, [ANNA, computer_id("hard", 1)])
    assert table(Scoring.RATING, with_computer) == [], "games with computers do not count"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_seasons_words_in_every_language(language: str) -> None:
    tr = translator(language)
    rows = table(Scoring.RATING, [*game(1, [ANNA, BORIS, VERA]), *game(2, [BORIS, ANNA, VERA])])
    season = period(Length.MONTH, at("2026-11-20T10:00"))
    texts = [season_text.standings(tr, season, rows, NAMES, at("2026-11-20T10:00")),
             season_text.final(tr, "2026-11", rows, NAMES),
             season_text.closed(tr, [SeasonPlace(-5, "2026-11", ANNA, 1, 2, 3, 1, 0)], NAMES),
             season_text.medals(tr, [SeasonPlace(-5, "2026-11", ANNA, 1, 2, 3, 1, 0)]) or ""]
    for text in texts:
        assert "{" not in text and ("Anna" in text or text is texts[-1]), text
    assert "11" in texts[0], "eleven days left"
    if language != "en":
        assert not any(word in " ".join(texts) for word in ("Season", "days left", "points")), texts
