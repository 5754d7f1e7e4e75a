"""An evening: the running score under each result while the same people play on, /series and its goal."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.clock import ManualClock
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram, Message

NAMES = {101: "Anna", 102: "Boris"}


def durak_of(result: Message) -> str | None:
    match = re.search(r"^🃏 Durak: (\w+)$", result.text, re.MULTILINE)
    return match[1] if match else None


def score(result: Message, label: str) -> dict[str, int]:
    """A row of the evening's score under a result («🃏 Durak (times): Anna 1 · Boris 2»)."""
    match = re.search(rf"^{re.escape(label)}: (.+)$", result.text, re.MULTILINE)
    assert match, result.text
    return {name: int(n) for name, n in (part.rsplit(" ", 1) for part in match[1].split(" · "))}


def last_text(fake: FakeTelegram) -> str:
    messages = fake.chat_messages(GROUP)
    return messages[-1].text if messages else ""


async def next_game(fake: FakeTelegram, result: Message, seed: int) -> Message:
    """Boris presses Play again under ``result``, starts the new lobby, and they play it out."""
    table = Table(fake, GROUP, [101, 102], seed=seed)
    answer = await table.press(102, result, "🔁 Play again")
    assert not answer.get("text"), answer
    await fake.wait_for(lambda: any("Players (2/" in m.text for m in table.group_messages()))
    await table.start(102)
    return await table.play_to_the_end()


async def first_game(fake: FakeTelegram, seed: int = 1) -> Message:
    table = Table(fake, GROUP, [101, 102], seed=seed)
    await table.seat_everyone(deck="24")
    await table.start(101)
    return await table.play_to_the_end()


async def test_an_evening_of_three_games_keeps_a_running_score(fake: FakeTelegram, bot: BotProcess) -> None:
    first = await first_game(fake)
    assert "🌙" not in first.text, "one game is no evening yet"
    results = [first]
    for seed in (2, 3):
        results.append(await next_game(fake, results[-1], seed))
    duraks = [durak_of(r) for r in results]
    for n, result in enumerate(results[1:], 2):
        assert f"🌙 The evening: {n} games" in result.text
        so_far = duraks[:n]
        assert score(result, "🃏 Durak (times)") == {name: so_far.count(name) for name in NAMES.values()}
        firsts = score(result, "🥇 First places")
        assert sum(firsts.values()) == sum(d is not None for d in so_far), "a draw has no first place"
        assert "⭐" not in result.text, "a chat ranked by rating counts no points"


async def test_a_new_evening_after_a_night_or_with_other_people(fake: FakeTelegram, tmp_path: Path) -> None:
    clock = ManualClock()
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", clock=clock)
    await bot.start()
    try:
        first = await first_game(fake)
        await clock.advance(4 * 3600)
        second = await next_game(fake, first, 2)
        assert "🌙" not in second.text, "four hours later the evening is over"
        third = await next_game(fake, second, 3)
        assert "🌙 The evening: 2 games" in third.text
        table = Table(fake, GROUP, [101, 102, 103], seed=4)  # Vera sits down: another evening
        await table.seat_everyone(deck="24")
        await table.start(101)
        fourth = await table.play_to_the_end()
        assert "🌙" not in fourth.text
    finally:
        await bot.stop()


async def test_series_to_two_games_ends_with_its_own_result(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102], seed=5)
    await fake.send_text(101, GROUP, "/series 2 games")
    await fake.wait_for(lambda: any("🌙 The evening is played to: 2 games" in m.text for m in table.group_messages()))
    for user in (101, 102):
        await table.join(user)
    await table.configure(101, deck="24")
    await table.start(101)
    first = await table.play_to_the_end()
    assert "🌙 The evening: game 1 of 2" in first.text, "with a goal the score shows from the first game"
    second = await next_game(fake, first, 6)
    assert "🌙 The evening: game 2 of 2" in second.text
    await bot.idle()
    ended = [m for m in fake.chat_messages(GROUP) if m.text.startswith("🏆 The evening is over: 2 games")]
    assert len(ended) == 1 and ended[0].message_id > second.message_id
    duraks = [durak_of(first), durak_of(second)]
    counts = {name: duraks.count(name) for name in NAMES.values()}
    if counts["Anna"] == counts["Boris"]:
        assert "🤝 The evening ends in a draw." in ended[0].text or "The durak of the evening: Anna, Boris" in \
            ended[0].text, "a shared evening names nobody alone"
    else:
        worst = max(counts, key=lambda name: counts[name])
        assert f"🃏 The durak of the evening: {worst} ({counts[worst]} time" in ended[0].text
    assert "The next game starts a new evening." in ended[0].text
    third = await next_game(fake, second, 7)
    assert "🌙" not in third.text, "the evening met its goal: the next game opens a new one"
    await bot.idle()
    assert len([m for m in fake.chat_messages(GROUP) if m.text.startswith("🏆")]) == 1


async def test_series_answers_a_bad_goal_and_a_stranger_and_changes_nothing(fake: FakeTelegram,
                                                                            bot: BotProcess) -> None:
    usage = "Send /series 5 for an evening until someone is the durak 5 times"
    for wrong in ("/series abc", "/series 0", "/series 51", "/series 5 cats", "/series 1 2 3"):
        await fake.send_text(101, GROUP, wrong)
        await fake.wait_for(lambda: last_text(fake).startswith(usage))
    await bot.idle()
    assert not any("Players (" in m.text for m in fake.chat_messages(GROUP)), "no lobby was opened"
    await fake.send_text(101, GROUP, "/series")
    await fake.wait_for(lambda: last_text(fake).startswith("No evening is on at this table."))
    table = Table(fake, GROUP, [101, 102])
    await fake.send_text(101, GROUP, "/series 3")
    await fake.wait_for(lambda: any("until someone is the durak 3 times" in m.text for m in table.group_messages()))
    lobby = table.lobby()
    await fake.send_text(102, GROUP, "/series 7")
    await fake.wait_for(lambda: last_text(fake) == "Only the creator can do that.")
    await bot.idle()
    assert "durak 3 times" in table.lobby().text and table.lobby().message_id == lobby.message_id
    await fake.send_text(101, GROUP, "/series 4 games")
    await fake.wait_for(lambda: "🌙 The evening is played to: 4 games" in table.lobby().text)


async def test_the_evening_outlives_a_restart(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database)
    await bot.start()
    first = await first_game(fake)
    await bot.stop()
    bot = BotProcess(fake, database)
    await bot.start()
    try:
        second = await next_game(fake, first, 2)
        assert "🌙 The evening: 2 games" in second.text
        await fake.send_text(102, GROUP, "/series")
        await fake.wait_for(lambda: last_text(fake).startswith("🌙 The evening: 2 games"))
    finally:
        await bot.stop()


async def test_series_until_someone_is_the_durak_twice(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102], seed=8)
    await fake.send_text(101, GROUP, "/series 2")
    await fake.wait_for(lambda: any("🌙 The evening is played to: until someone is the durak 2 times" in m.text
                                    for m in table.group_messages()))
    for user in (101, 102):
        await table.join(user)
    await table.configure(101, deck="24")
    await table.start(101)
    results = [await table.play_to_the_end()]
    while True:
        duraks = [durak_of(r) for r in results]
        if max(duraks.count(name) for name in NAMES.values()) == 2:
            break
        assert f"until someone is the durak 2 times: game {len(results)}" in results[-1].text
        results.append(await next_game(fake, results[-1], 10 + len(results)))
    await bot.idle()
    ended = [m for m in fake.chat_messages(GROUP) if m.text.startswith("🏆 The evening is over")]
    worst = max(NAMES.values(), key=duraks.count)
    assert len(ended) == 1 and f"🃏 The durak of the evening: {worst} (2 times)" in ended[0].text
    assert ended[0].text.startswith(f"🏆 The evening is over: {len(results)} games")
