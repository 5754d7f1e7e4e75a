"""Stats, leaderboards and history through the fake Bot API, after real games."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import matplotlib.image

from durak import Rules
from storage.database import open_database
from storage.models import NewLobby, RatingUpdate, ResultRow, Status, User
from storage.repo import Repo
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram
from tests.places import place_of

PNG = b"\x89PNG\r\n\x1a\n"


async def reply_to(fake: FakeTelegram, user: int, chat: int, text: str, **kw: int) -> str:
    before = len(fake.chat_messages(chat))
    await fake.send_text(user, chat, text, **kw)
    await fake.wait_for(lambda: len(fake.chat_messages(chat)) > before)
    return fake.chat_messages(chat)[-1].text


async def play_games(fake: FakeTelegram, bot: BotProcess, count: int) -> None:
    for n in range(count):
        table = Table(fake, GROUP, [101, 102], seed=n)
        await table.seat_everyone(**({"deck": "24"} if n == 0 else {}))
        await table.start(table.players[0])
        await table.play_to_the_end()
        await bot.service.outbox.drain()


async def test_stats_top_and_history_after_real_games(fake: FakeTelegram, bot: BotProcess) -> None:
    await play_games(fake, bot, 2)
    text = await reply_to(fake, 101, GROUP, "/stats")
    assert text.startswith("📊 Anna in this chat") and "2 games played" in text and "🃏 Durak " in text
    assert re.search(r"Rating: \d{3,4} \(provisional: 2 of 5 games\)", text), text
    chart = fake.chat_messages(GROUP)[-1]
    assert chart.photo.startswith(PNG), "a chart of the rating comes with the stats"
    pixels = matplotlib.image.imread(io.BytesIO(chart.photo), format="png")
    assert pixels.shape[0] > 100 and pixels.shape[1] > 200, "a decodable image"
    theirs = await reply_to(fake, 101, GROUP, "/stats", reply_to_user=102)
    assert theirs.startswith("📊 Boris in this chat")
    assert (await reply_to(fake, 101, 101, "/stats")).startswith("📊 Anna overall")
    top = await reply_to(fake, 101, GROUP, "/top")
    assert top.startswith("🏆 Top players of this chat · by rating")
    assert "Provisional (fewer than five games):" in top and "Anna" in top and "Boris" in top
    assert all(int(line.rsplit("· ", 1)[1]) > 0 for line in top.splitlines() if line.startswith("· "))
    assert (await reply_to(fake, 101, GROUP, "/top global")).startswith("🏆 Top players everywhere")
    history = await reply_to(fake, 101, GROUP, "/history")
    games, mine = history.split("\n\n")
    lines = games.splitlines()
    assert lines[0] == "🗂 The last games here:" and len(lines) == 3
    assert all("Anna, Boris" in line for line in lines[1:])
    assert mine == "📊 Your own games and their reviews: /history in a private chat with me."


async def test_privacy_hides_a_player_from_leaderboards(fake: FakeTelegram, bot: BotProcess) -> None:
    await play_games(fake, bot, 1)
    assert "hidden from leaderboards" in await reply_to(fake, 102, 102, "/privacy")
    top = await reply_to(fake, 101, GROUP, "/top")
    assert "Anna" in top and "Boris" not in top
    assert "shown on leaderboards again" in await reply_to(fake, 102, 102, "/privacy")
    assert "Boris" in await reply_to(fake, 101, GROUP, "/top")


async def test_scoring_is_chosen_by_admins(fake: FakeTelegram, bot: BotProcess) -> None:
    await play_games(fake, bot, 1)
    assert await reply_to(fake, 102, GROUP, "/scoring basic") == "Only an admin can change how this chat is ranked."
    assert await reply_to(fake, 101, GROUP, "/scoring penalty") == (
        "This chat's leaderboard now ranks by penalty points (fewest lead).")
    assert "by penalty points" in await reply_to(fake, 101, GROUP, "/top")
    assert "ranks by penalty points" in await reply_to(fake, 101, GROUP, "/scoring")


async def test_the_leaderboard_has_pages_of_ten(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    repo = Repo(await open_database(place_of(database).target))
    users = [User(1000 + i, f"Player{i:02d}") for i in range(13)]
    for user in users:
        await repo.save_user(user)
    held: dict[int, tuple[float, float]] = {}  # the ratings as stored: each write moves them from there
    for _round in range(5):  # everyone plays five games: ranked
        for i in range(0, 13, 2):
            a, b = users[i], users[(i + 1) % 13]
            game = await repo.create_lobby(NewLobby(GROUP, 0, a, Rules(), 2, players=[a, b]))
            rows = [ResultRow(0, a.id, 1, 1, False, False, False, False, False, 0, None),
                    ResultRow(1, b.id, None, 2, True, False, False, False, False, 20, None)]
            game = await repo.save_game(game, replace(game, status=Status.PLAYING))
            await repo.save_game(game, replace(game, status=Status.FINISHED), results=rows,
                                 ratings=[RatingUpdate(GROUP, a.id, 30 - i, 2, 24 - i, held.get(a.id)),
                                          RatingUpdate(GROUP, b.id, 25 - i, 2, 19 - i, held.get(b.id))])
            held |= await repo.ratings(GROUP, [a.id, b.id])
    await repo.db.close()
    bot = BotProcess(fake, database)
    await bot.start()
    await fake.send_text(101, GROUP, "/top")
    await fake.wait_for(lambda: any(m.text.startswith("🏆") for m in fake.chat_messages(GROUP)))
    page = next(m for m in fake.chat_messages(GROUP) if m.text.startswith("🏆"))
    assert "Page 1 of 2" in page.text and page.text.count("\n1") >= 1
    assert [b["text"] for b in page.buttons()] == ["Next »"]
    query = await fake.press(101, GROUP, page.message_id, page.buttons()[0]["callback_data"])
    await fake.answer(query)
    await fake.wait_for(lambda: "Page 2 of 2" in page.text)
    assert page.text.splitlines()[1].startswith("11. ")
    assert [b["text"] for b in page.buttons()] == ["« Prev"]
    await bot.stop()
