"""Badges through the real Application: announced under the result that earned them, once; /stats and /badges list
them; ``durak-badges`` gives past games theirs, and a second run gives nothing."""

from __future__ import annotations

from pathlib import Path

from bot.stats.backfill import backfill
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess
from tests.e2e.test_evenings import first_game, next_game
from tests.e2e.test_stats import reply_to
from tests.fake_telegram import FakeTelegram
from tests.places import place_of


def badge_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.startswith("🏅 New badges: ")), "")


async def test_badges_are_announced_once_listed_and_backfilled(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database)
    await bot.start()
    try:
        first = await first_game(fake)
        line = badge_line(first.text)
        assert "Anna: 🎴 First game" in line and "Boris: 🎴 First game" in line, first.text
        assert line.count("🎉 First win") == (0 if "⚖️ Nobody's durak" in line else 1), "one came first, but in a draw"
        second = await next_game(fake, first, 2)
        assert "🎴 First game" not in second.text, "a badge is earned once"
        stats = await reply_to(fake, 101, GROUP, "/stats")
        assert "🏅 Badges (" in stats and "🎴 First game" in stats
        every = await reply_to(fake, 101, 101, "/badges")
        assert every.splitlines()[0].startswith("🏅 Badges: ") and "✅ 🎴 First game — Finish a first game." in every
        assert "▫️ 💯 A hundred games — Play a hundred games." in every
    finally:
        await bot.stop()
    place = place_of(database)
    kept = sorted(place.sql("SELECT user_id, badge, game_id FROM badges"))
    place.sql("DELETE FROM badges WHERE badge != 'first_game'")  # as if those badges came after the games
    games, awarded, players = await backfill(place.target)
    assert games == 2 and awarded == len(kept) - 2 and players >= 1
    assert sorted(place.sql("SELECT user_id, badge, game_id FROM badges")) == kept
    assert (await backfill(place.target))[1] == 0, "a second run gives nothing: each badge once"
