"""A tournament through the real Application: six players join by its button, two tables run at once in the group,
the points follow each table's end, a restart mid-way loses nothing, the next round mixes the players, and at its
end the podium; what is refused is refused with a clear answer and changes nothing."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

from PIL import Image

from bot.stats.card import GOLD
from tests.e2e.clock import ManualClock
from tests.e2e.conftest import GROUP, NAMES
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_pictures import drawn_at
from tests.e2e.test_stats import reply_to
from tests.fake_telegram import FakeTelegram, Message

PLAYERS = list(range(101, 107))


class Seated(Table):
    """One table of the tournament: its players play until its own result is posted (another table's does not
    stop them)."""

    def result(self) -> Message | None:
        names = [NAMES[p - 101] for p in self.players]
        return next((m for m in self.group_messages() if m.text.startswith("🏁") and all(n in m.text for n in names)),
                    None)


def standings(fake: FakeTelegram, chat: int = GROUP) -> Message:
    return next(m for m in fake.chat_messages(chat) if m.text.startswith("🏆 Tournament"))


def points(fake: FakeTelegram) -> dict[str, int]:
    return {name: int(n) for name, n in re.findall(r"^\S+ (\w+) — (\d+)", standings(fake).text, re.MULTILINE)}


def tables_now(fake: FakeTelegram, since: int = 0, chat: int = GROUP) -> list[list[int]]:
    """Who sits at each table now, as the tournament's message says («🎲 At the tables: Anna, Boris · Vera, …»)."""
    line = next((x for x in standings(fake, chat).text.splitlines() if x.startswith("🎲 At the tables: ")), "")
    return [[PLAYERS[NAMES.index(name)] for name in table.split(", ")]
            for table in line.removeprefix("🎲 At the tables: ").split(" · ") if line]


async def play_round(fake: FakeTelegram, since: int, chat: int = GROUP, players: list[int] = PLAYERS
                     ) -> list[Message]:
    seats = tables_now(fake, since, chat)
    assert sorted(p for table in seats for p in table) == players, seats
    tables = [Seated(fake, chat, table, seed=n) for n, table in enumerate(seats)]
    for table in tables:
        table.since = since
    await asyncio.gather(*(table.play_to_the_end(timeout=180) for table in tables))
    return [table.result() for table in tables]  # type: ignore[misc]


async def test_a_six_player_tournament_with_two_tables_and_a_restart(fake: FakeTelegram, tmp_path: Path) -> None:
    clock = ManualClock()
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, clock=clock)
    await bot.start()
    for user in PLAYERS:  # each can be written to in private (Join asks the others to /start first)
        await fake.send_text(user, user, "/start")
    assert (await reply_to(fake, 101, GROUP, "/picture on")).startswith("A picture of the result is posted")
    assert await reply_to(fake, 102, GROUP, "/tournament 30") == (
        "Only an admin can open a tournament here. An admin may let everyone open one: /tournament anyone.")
    for wrong in ("/tournament 0", "/tournament 100000", "/tournament abc", "/tournament 30 cats"):
        assert (await reply_to(fake, 101, GROUP, wrong)).startswith("Send /tournament 60 for a tournament")
    await bot.idle()
    assert not any(m.text.startswith("🏆") for m in fake.chat_messages(GROUP)), "nothing was opened"
    await fake.send_text(101, GROUP, "/tournament 30")
    await fake.wait_for(lambda: any(m.text.startswith("🏆 Tournament") for m in fake.chat_messages(GROUP)))
    assert await reply_to(fake, 101, GROUP, "/tournament 20") == "A tournament is already on here."
    message = standings(fake)
    join = Table.button(message, "Join")
    other = fake.chat_messages(GROUP)[-1]
    forged = await fake.answer(await fake.press(103, GROUP, other.message_id, join))  # Join on another message
    assert forged["text"] == "This button is not valid any more."
    for user in PLAYERS:
        answer = await fake.answer(await fake.press(user, GROUP, message.message_id, join))
        assert answer["text"] == "You are in: I seat you at a table as soon as someone is free.", answer
    again = await fake.answer(await fake.press(101, GROUP, message.message_id, join))
    assert again["text"] == "You are in the tournament already."
    assert (await reply_to(fake, 106, 106, "/language ru")).startswith("Готово")  # his toasts in Russian, not the group
    leave = Table.button(message, "Leave")
    gone = await fake.answer(await fake.press(106, GROUP, message.message_id, leave))
    assert gone["text"].startswith("Вы вышли из турнира")
    await fake.wait_for(lambda: "Egor — 0 (0 games) (left)" in standings(fake).text)
    back = await fake.answer(await fake.press(106, GROUP, message.message_id, join))
    assert back["text"].startswith("Вы в турнире")
    await fake.wait_for(lambda: "(left)" not in standings(fake).text)
    assert standings(fake).text.startswith("🏆 Tournament")
    assert (await reply_to(fake, 106, 106, "/language en")).startswith("Done")  # hands the scripted players read
    await fake.wait_for(lambda: all(name in standings(fake).text for name in NAMES))
    since = max(m.message_id for m in fake.chat_messages(GROUP))
    await clock.advance(6)  # free for five seconds: seated
    await fake.wait_for(lambda: len(tables_now(fake, since)) == 2, 20)
    first_round = tables_now(fake, since)
    assert sorted(len(t) for t in first_round) == [3, 3], "six players: two tables of three"
    results = await play_round(fake, since)
    assert all(r is not None and not r.buttons() for r in results), "no Play again at a tournament's table"
    await fake.wait_for(lambda: sum(points(fake).values()) == 2 * (4 + 2), 20)  # each table: 4 + 2 + 0
    before = points(fake)

    await bot.stop()  # a restart between rounds: everything is in the database
    bot = BotProcess(fake, database, clock=clock)
    await bot.start()
    since = max(m.message_id for m in fake.chat_messages(GROUP))
    await clock.advance(6)
    await fake.wait_for(lambda: len(tables_now(fake, since)) == 2, 20)
    second_round = tables_now(fake, since)
    assert all(set(a) != set(b) for a in second_round for b in first_round), "the next round mixes the players"
    assert points(fake) == before
    assert await reply_to(fake, 102, GROUP, "/tournament stop") == (
        "Only an admin or the one who opened the tournament can end it.")
    await fake.send_text(101, GROUP, "/tournament stop")  # no new tables: these finish, then it is over
    await fake.wait_for(lambda: "time is up" in standings(fake).text, 20)
    assert not standings(fake).buttons(), "no Join once it is closing"
    await play_round(fake, since)
    await clock.advance(3)
    await fake.wait_for(lambda: any(m.text.startswith("🏆 The tournament is over!") for m in fake.chat_messages(GROUP)),
                        20)
    final = next(m for m in fake.chat_messages(GROUP) if m.text.startswith("🏆 The tournament is over!"))
    lines = final.text.splitlines()
    assert lines[1].startswith("🥇 ") and lines[2].startswith("🥈 ") and lines[3].startswith("🥉 ")
    assert len(lines) == 7 and sum(points(fake).values()) == 4 * (4 + 2)
    winner = lines[1].split(" ")[1]
    await fake.wait_for(lambda: any(m.photo and m.message_id > final.message_id for m in fake.chat_messages(GROUP)), 20)
    podium = Image.open(io.BytesIO(next(m.photo for m in fake.chat_messages(GROUP) if m.message_id > final.message_id
                                        and m.photo)))
    assert drawn_at(podium, winner, 0, GOLD), "the tournament's picture: its winner first, in gold"
    stats = await reply_to(fake, PLAYERS[NAMES.index(winner)], PLAYERS[NAMES.index(winner)], "/badges")
    assert "✅ 🏆 Tournament gold" in stats
    await bot.idle()
    results_so_far = len([m for m in fake.chat_messages(GROUP) if m.text.startswith("🏁")])
    await clock.advance(60)
    await bot.idle()
    assert len([m for m in fake.chat_messages(GROUP) if m.text.startswith("🏁")]) == results_so_far, "no new table"
    assert not [m for m in fake.chat_messages(GROUP) if m.text.startswith("🃏") and "Trump" in m.text], \
        "a tournament's tables have no table message in the group: its own message follows them"
    await bot.stop()


async def test_a_tournament_ends_when_its_time_is_up(fake: FakeTelegram, tmp_path: Path) -> None:
    clock = ManualClock()
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", clock=clock)
    await bot.start()
    try:
        await fake.send_text(101, GROUP, "/tournament 5")
        await fake.wait_for(lambda: any(m.text.startswith("🏆 Tournament") for m in fake.chat_messages(GROUP)))
        message = standings(fake)
        assert "until 00:05 UTC" in message.text or " UTC" in message.text
        await fake.send_text(102, 102, "/start")
        answer = await fake.answer(await fake.press(103, GROUP, message.message_id, Table.button(message, "Join")))
        assert answer["text"] == "Open a private chat with me first (/start there), then press Join again."
        await clock.advance(6)  # one player alone, no computers allowed: nobody is seated
        await bot.idle()
        assert tables_now(fake) == []
        await clock.advance(5 * 60)
        await fake.wait_for(lambda: any(m.text == "🏆 The tournament is over!\nNobody played a table."
                                        for m in fake.chat_messages(GROUP)), 20)
        assert "over" in standings(fake).text
        opened = await reply_to(fake, 101, GROUP, "/tournament 10")  # one at a time: the next may open now
        assert opened.startswith("🏆 Tournament"), opened
    finally:
        await bot.stop()


async def test_anyone_may_open_a_tournament_once_the_admins_give_leave(fake: FakeTelegram, tmp_path: Path) -> None:
    bot = BotProcess(fake, tmp_path / "durak.sqlite3")
    await bot.start()
    try:
        refused = "Only an admin can open a tournament here. An admin may let everyone open one: /tournament anyone."
        assert await reply_to(fake, 102, GROUP, "/tournament 30") == refused
        assert await reply_to(fake, 102, GROUP, "/tournament anyone") == (
            "Only an admin can say who may open a tournament.")
        assert await reply_to(fake, 102, GROUP, "/tournament 30") == refused, "a player cannot give himself leave"
        assert await reply_to(fake, 101, GROUP, "/tournament anyone") == (
            "Anyone here may now open a tournament. /tournament admins takes it back.")
        opened = await reply_to(fake, 102, GROUP, "/tournament 30")
        assert opened.startswith("🏆 Tournament"), opened
        assert await reply_to(fake, 103, GROUP, "/tournament stop") == (
            "Only an admin or the one who opened the tournament can end it.")
        assert "time is up" not in standings(fake).text, "a third player's stop changed nothing"
        await fake.send_text(102, GROUP, "/tournament stop")  # its opener may end it
        await fake.wait_for(lambda: any(m.text == "🏆 The tournament is over!\nNobody played a table."
                                        for m in fake.chat_messages(GROUP)), 20)
        await bot.idle()
        assert await reply_to(fake, 101, GROUP, "/tournament admins") == "Only admins may open a tournament here now."
        assert await reply_to(fake, 102, GROUP, "/tournament 30") == refused
        await bot.stop()
        bot = BotProcess(fake, tmp_path / "durak.sqlite3")  # the leave is the group's setting, kept
        await bot.start()
        assert await reply_to(fake, 102, GROUP, "/tournament 30") == refused
    finally:
        await bot.stop()


FORUM = -1002


async def open_in_forum(fake: FakeTelegram, clock: ManualClock, players: list[int]) -> int:
    """A tournament opened in the forum's topic 7, ``players`` joined and seated at two tables: the first message
    after."""
    fake.add_group(FORUM, "Forum", admins=[101], type_="supergroup", forum=True)
    for user in players:
        await fake.send_text(user, user, "/start")
    await fake.send_text(101, FORUM, "/tournament 30", thread_id=7)
    await fake.wait_for(lambda: any(m.text.startswith("🏆 Tournament") for m in fake.chat_messages(FORUM)))
    message = standings(fake, FORUM)
    for user in players:
        await fake.answer(await fake.press(user, FORUM, message.message_id, Table.button(message, "Join")))
    since = max(m.message_id for m in fake.chat_messages(FORUM))
    await clock.advance(6)
    await fake.wait_for(lambda: len(tables_now(fake, since, FORUM)) == 2, 20)
    return since


async def test_in_a_forum_each_table_plays_in_a_topic_of_its_own(fake: FakeTelegram, tmp_path: Path) -> None:
    clock = ManualClock()
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", clock=clock)
    await bot.start()
    try:
        players = PLAYERS
        since = await open_in_forum(fake, clock, players)
        topics = fake.topics[FORUM]
        assert sorted(t["name"] for t in topics.values()) == ["🏆 Table 1", "🏆 Table 2"]
        assert standings(fake, FORUM).thread_id == 7, "its standings stay where it was opened"
        results = await play_round(fake, since, FORUM, players)
        assert sorted(r.thread_id for r in results) == sorted(topics), "each table's result in its own topic"
        since = max(m.message_id for m in fake.chat_messages(FORUM))
        await clock.advance(6)  # the next round: the same two topics again, none more
        await fake.wait_for(lambda: len(tables_now(fake, since, FORUM)) == 2, 20)
        await fake.send_text(101, FORUM, "/tournament stop", thread_id=7)
        results = await play_round(fake, since, FORUM, players)
        assert sorted(r.thread_id for r in results) == sorted(topics) and len(topics) == 2
        await clock.advance(3)
        await fake.wait_for(lambda: all(t["closed"] for t in topics.values()), 20)  # closed at its end
        await fake.wait_for(lambda: any(m.text.startswith("🏆 The tournament is over!")
                                        for m in fake.chat_messages(FORUM)), 20)
        final = next(m for m in fake.chat_messages(FORUM) if m.text.startswith("🏆 The tournament is over!"))
        assert final.thread_id == 7
    finally:
        await bot.stop()


async def test_where_the_bot_may_not_make_topics_the_tables_play_where_it_was_opened(
        fake: FakeTelegram, tmp_path: Path) -> None:
    clock = ManualClock()
    fake.failures["createForumTopic"] = [(400, "Bad Request: not enough rights to create a topic")]
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", clock=clock)
    await bot.start()
    try:
        since = await open_in_forum(fake, clock, PLAYERS)
        await bot.idle()
        assert [m for m, _ in fake.calls].count("createForumTopic") == 1, "asked once, not at every table"
        assert FORUM not in fake.topics
        results = await play_round(fake, since, FORUM, PLAYERS)
        assert [r.thread_id for r in results] == [7, 7]
    finally:
        await bot.stop()


async def test_a_topic_telegram_fails_to_open_once_is_opened_for_the_next_tables(fake: FakeTelegram,
                                                                                tmp_path: Path) -> None:
    clock = ManualClock()
    fake.failures["createForumTopic"] = [(500, "Internal Server Error")]  # Telegram busy, not a lack of rights
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", clock=clock)
    await bot.start()
    try:
        since = await open_in_forum(fake, clock, PLAYERS)
        results = await play_round(fake, since, FORUM, PLAYERS)
        assert sorted(r.thread_id for r in results) == [7, 1000], "one table where it opened, one in its topic"
        since = max(m.message_id for m in fake.chat_messages(FORUM))
        await clock.advance(6)
        await fake.wait_for(lambda: len(tables_now(fake, since, FORUM)) == 2, 20)
        await bot.idle()
        assert len(fake.topics[FORUM]) == 2, "topics are still made for its tables"
    finally:
        await bot.stop()


async def test_computers_fill_a_lone_players_table_only_where_allowed(fake: FakeTelegram, tmp_path: Path) -> None:
    clock = ManualClock()
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", clock=clock, computer_pause=0)
    await bot.start()
    try:
        await fake.send_text(101, 101, "/start")
        await fake.send_text(101, GROUP, "/tournament 10 computers")
        await fake.wait_for(lambda: any(m.text.startswith("🏆 Tournament") for m in fake.chat_messages(GROUP)))
        message = standings(fake)
        await fake.answer(await fake.press(101, GROUP, message.message_id, Table.button(message, "Join")))
        await clock.advance(10)
        await bot.idle()
        assert tables_now(fake) == [], "it waits for another player"
        await clock.advance(25)  # half a minute alone: a computer sits down with her
        await fake.wait_for(lambda: "🎲 At the tables: Anna, 🤖" in standings(fake).text, 20)
        table = Seated(fake, GROUP, [101], seed=1)
        table.since = message.message_id

        async def tick() -> None:  # the computer's moves wait on the clock
            while table.result() is None:
                await clock.advance(0.2)
                await asyncio.sleep(0.02)

        ticking = asyncio.create_task(tick())
        result = await table.play_to_the_end()
        await ticking
        assert "Anna" in result.text
        await fake.wait_for(lambda: "(1 game)" in standings(fake).text, 20)
        assert "Boris" not in standings(fake).text and len(points(fake)) == 1, "the computer has no standing"
    finally:
        await bot.stop()
