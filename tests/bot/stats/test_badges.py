"""Badges: what earns each, read from a game's record played again, and their words in four languages."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.stats import badge_text
from bot.stats.badges import BADGES, Facts, Record, earned, facts
from bot.ui.i18n import LANGUAGES, translator
from durak import Rules, apply, new_game
from durak.ai import choose
from durak.ai.play import fallback, next_seat
from durak.record import Record as Public
from durak.record import knowledge
from storage.models import Game, PlayedGame, Seat, Status, User
from tests.bot.stats.test_evening import ANNA, BORIS, game


def keys(f: Facts | None, record: Record) -> set[str]:
    return {b.key for b in earned(f, record)}


def fact(rows: list[tuple[int, PlayedGame]], user: int, **kw: object) -> Facts:
    played = next(g for u, g in rows if u == user)
    return replace(Facts(played, "podkidnoy"), **kw)  # type: ignore[arg-type]


def test_a_first_game_and_a_first_win_then_never_again() -> None:
    rows = game(1, [ANNA, BORIS])
    assert keys(fact(rows, ANNA), Record()) == {"first_game", "first_win", "clean_hands"}
    assert keys(fact(rows, BORIS, takes=2, taken=7), Record()) == {"first_game"}
    had = Record(badges={"first_game", "first_win", "clean_hands"})
    assert keys(fact(rows, ANNA), had) == set(), "each badge once"


def test_badges_from_the_games_record() -> None:
    rows = game(1, [ANNA, BORIS])
    have = Record(badges={"first_game", "first_win"})
    assert keys(fact(rows, ANNA, takes=3, taken=21), have) == {"comeback"}
    assert keys(fact(rows, BORIS, takes=3, taken=21), have) == set(), "the durak did not come back"
    assert keys(fact(rows, ANNA, takes=1, wall=6, bounced=True, caught=True, beat_hard=True), have) == {
        "wall", "ping_pong", "sharp_eye", "machine"}


def test_badges_from_the_players_record() -> None:
    boris_lost = [g for u, g in game(2, [ANNA, BORIS]) if u == BORIS]
    boris_won = [g for u, g in game(1, [BORIS, ANNA]) if u == BORIS]
    now = fact(game(3, [ANNA, BORIS]), BORIS)
    assert "hat_trick" in keys(now, Record(boris_lost * 2, badges={"first_game"}))
    assert "hat_trick" not in keys(now, Record([*boris_won, *boris_lost], badges={"first_game"}))
    week = [replace(now.game, finished_at=now.game.finished_at - 3600 * h) for h in range(1, 10)]
    assert "week" in keys(now, Record(week, badges={"first_game"}))
    assert "week" not in keys(now, Record([replace(g, finished_at=g.finished_at - 8 * 86400) for g in week]))
    assert "explorer" in keys(now, Record(presets={"perevodnoy", "chukchi", "japanese", "royal"}))
    assert "clean_evening" in keys(fact(game(3, [ANNA, BORIS]), ANNA), Record(evening=(5, 0)))
    assert "clean_evening" not in keys(fact(game(3, [ANNA, BORIS]), ANNA), Record(evening=(4, 0)))
    assert keys(None, Record(season_first=True)) == {"season_gold"}


def test_the_facts_of_a_replayed_game_agree_with_its_moves() -> None:
    """A whole перевод game of two computers, stored as the bot stores it, read again from its deal and moves."""
    rules = Rules.from_dict({"preset": "perevodnoy"})
    state = deal = new_game(rules, 2, 4)
    public, moves, picked = Public.start(state, lowest_leads=True), [], {0: 0, 1: 0}
    while not state.over:
        seat = next_seat(state)
        assert seat is not None
        action = choose("normal", knowledge(state, seat, public), state.moves) or fallback(state, seat)
        moves.append((seat, action))
        state, events = apply(state, seat, action)
        public = public.after(events)
        for e in events:
            if e.kind.value == "picked_up" and e.seat is not None:
                picked[e.seat] += len(e.cards)
    stored = Game(1, -5, 0, Status.FINISHED, ANNA, rules, 2, state, 1, None,
                  (Seat(0, User(ANNA, "Anna")), Seat(1, User(BORIS, "Boris"))), deal=deal, moves=tuple(moves))
    durak = state.losers[0]
    rows = game(1, [[ANNA, BORIS][1 - durak], [ANNA, BORIS][durak]])
    found = facts(stored, rows)
    assert sum(picked.values()) > 0, "a game in which somebody picked up"
    assert (found[ANNA].taken, found[BORIS].taken) == (picked[0], picked[1])
    assert found[ANNA].preset == "perevodnoy"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_badge_has_its_words(language: str) -> None:
    tr = translator(language)
    text = badge_text.every(tr, ["first_game"])
    assert len(text.splitlines()) == len(BADGES) + 2 and "{" not in text
    for badge in BADGES:
        assert language == "en" or tr.gettext(badge.name) != badge.name or badge.name in ("Pogony",), badge.key
        assert language == "en" or tr.gettext(badge.about) != badge.about, badge.key
    line = badge_text.announce(tr, {ANNA: [BADGES[0], BADGES[1]]}, {ANNA: "Anna"})
    assert line[1].startswith("🏅") and "Anna" in line[1] and "🎴" in line[1] and "🎉" in line[1]
