"""Seasons through the real Application: the table so far, its end when the month rolls over (a clock the test
sets), the past seasons, a player's medals, the length admins choose; a season is closed once, also after a restart."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from tests.e2e.clock import ManualClock
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_stats import reply_to
from tests.fake_telegram import FakeTelegram

LATE_NOVEMBER = dt.datetime(2026, 11, 30, 23, 40, tzinfo=dt.UTC).timestamp()


def season_ends(fake: FakeTelegram) -> list[str]:
    return [m.text for m in fake.chat_messages(GROUP) if m.text.startswith("🏆 Season")]


async def test_a_month_rolls_over_into_the_seasons_final_table(fake: FakeTelegram, tmp_path: Path) -> None:
    clock = ManualClock(LATE_NOVEMBER)
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, clock=clock)
    await bot.start()
    try:
        assert (await reply_to(fake, 102, GROUP, "/season")).endswith("No games among people yet this season.")
        table = Table(fake, GROUP, [101, 102], seed=2)
        await table.seat_everyone(deck="24")
        await table.start(101)
        result = await table.play_to_the_end()
        now = await reply_to(fake, 102, GROUP, "/season")
        assert now.startswith("📅 Season «November 2026»: 1 day left"), now
        assert "1. " in now and "Anna" in now and "Boris" in now and "(1 game)" in now
        await clock.advance(25 * 60)  # into December: the sweep closes November
        await bot.idle()
        ends = season_ends(fake)
        assert len(ends) == 1 and ends[0].startswith("🏆 Season «November 2026» is over!"), ends
        durak = next(line for line in result.text.splitlines() if line.startswith("🃏 Durak: "))[len("🃏 Durak: "):]
        winner = "Anna" if durak == "Boris" else "Boris"
        assert f"👑 First place: {winner} (1 point)" in ends[0], "a chat ranked by rating counts the places' points"
        assert f"🃏 The durak of the season: {durak} (1 time)" in ends[0]
        assert (await reply_to(fake, 101, GROUP, "/season")).startswith("📅 Season «December 2026»: 31 days left")
        assert (await reply_to(fake, 101, GROUP, "/seasons")) == f"🏆 Past seasons:\n«November 2026»: 🥇 {winner} · " \
                                                                f"🥈 {durak}"
        user = 101 if winner == "Anna" else 102
        assert "🏅 Seasons: 🥇 1 · 🥈 0 · 🥉 0; the best: «November 2026», place 1" in \
            await reply_to(fake, user, GROUP, "/stats")
    finally:
        await bot.stop()
    again = BotProcess(fake, database, clock=clock)  # a restart: the season is closed already
    await again.start()
    try:
        await clock.advance(120)
        await again.idle()
        assert len(season_ends(fake)) == 1
    finally:
        await again.stop()


async def test_admins_choose_the_seasons_length(fake: FakeTelegram, tmp_path: Path) -> None:
    clock = ManualClock(dt.datetime(2026, 12, 9, 12, tzinfo=dt.UTC).timestamp())  # a Wednesday
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", clock=clock)
    await bot.start()
    try:
        assert await reply_to(fake, 102, GROUP, "/season week") == "Only an admin can change how long seasons last."
        assert (await reply_to(fake, 101, GROUP, "/season fortnight")).startswith(
            "Seasons here last a month. Admins choose one of:\n/season week — a week")
        assert await reply_to(fake, 101, GROUP, "/season week") == \
            "Seasons here now last a week; this one is «week 50, 2026»."
        assert (await reply_to(fake, 102, GROUP, "/season")).startswith("📅 Season «week 50, 2026»: 5 days left")
        assert await reply_to(fake, 102, 102, "/season") == "Seasons are a group's: send /season in the group."
    finally:
        await bot.stop()
