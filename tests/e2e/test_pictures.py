"""Result cards through the real Application: admins turn them on, each result gets its picture (and an evening at
its goal its own), drawn from the stored game when sent, again after a failed send; the picture holds the players'
names where it draws them and still reads at 320 px."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from bot.stats.card import FELT, GOLD, MARGIN, WIDTH, _font
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_evenings import next_game
from tests.e2e.test_stats import reply_to
from tests.fake_telegram import FakeTelegram, Message

ROWS_TOP = MARGIN + 60 + 44 + 24  # where the card's first row of places is drawn (bot/stats/card.py)


def pictures(fake: FakeTelegram) -> list[Message]:
    return [m for m in fake.chat_messages(GROUP) if m.photo]


def drawn_at(card: Image.Image, name: str, row: int, colour: tuple[int, int, int]) -> bool:
    """Whether ``name`` is drawn in the card's row ``row`` as the card draws a name: the same pixels."""
    font = _font(38)
    x, y = MARGIN + 70, ROWS_TOP + 58 * row
    expected = Image.new("RGB", card.size, FELT)
    ImageDraw.Draw(expected).text((x, y), name, font=font, fill=colour)
    box = ImageDraw.Draw(expected).textbbox((x, y), name, font=font)
    return ImageChops.difference(card.crop(box), expected.crop(box)).getbbox() is None


async def test_admins_turn_result_pictures_on_and_each_result_gets_one(fake: FakeTelegram, bot: BotProcess) -> None:
    assert await reply_to(fake, 102, GROUP, "/picture on") == "Only an admin can turn the result pictures on or off."
    assert (await reply_to(fake, 101, GROUP, "/picture")).startswith("No picture under the results here.")
    assert (await reply_to(fake, 101, GROUP, "/picture on")).startswith("A picture of the result is posted")
    fake.fail("sendPhoto", times=1)  # Telegram fails once: the picture is drawn again and sent
    table = Table(fake, GROUP, [101, 102], seed=3)
    await table.seat_everyone(deck="24")
    await table.start(101)
    result = await table.play_to_the_end()
    await fake.wait_for(lambda: len(pictures(fake)) == 1)
    photo = pictures(fake)[0]
    assert photo.message_id > result.message_id and photo.text.startswith("Podkidnoy · Friends")
    card = Image.open(io.BytesIO(photo.photo))
    assert card.format == "PNG" and card.width == WIDTH and 400 < card.height < 1000
    durak = next(line for line in result.text.splitlines() if line.startswith("🃏 Durak: "))[len("🃏 Durak: "):]
    winner = "Anna" if durak == "Boris" else "Boris"
    assert drawn_at(card, winner, 0, GOLD), "the winner's name, in gold, in the first row"
    assert not drawn_at(card, durak, 0, GOLD)
    small = card.resize((320, round(card.height * 320 / WIDTH)))  # as a phone shows it
    assert small.getbbox() is not None and small.height > 180
    second = await next_game(fake, result, 4)
    await fake.wait_for(lambda: len(pictures(fake)) == 2)
    assert "🌙 The evening: 2 games" in second.text
    evening = Image.open(io.BytesIO(pictures(fake)[1].photo))
    # taller than any two-player card without a table (three rows and the durak's cards), whoever lost the second
    # game: bot.stats.card.draw's title, subtitle and footer, 58 px a row, 110 px of cards, and the evening's
    # table of two players (its heading, its columns' names and a row each, 44 px each, after 20)
    bare = 2 * MARGIN + 60 + 44 + 24 + 60
    assert bare + 3 * 58 + 110 < bare + 2 * 58 + 20 + 4 * 44 <= evening.height, \
        "the second game's card adds the evening's table"
    assert (await reply_to(fake, 101, GROUP, "/picture off")).startswith("No picture under the results here.")
    third = await next_game(fake, second, 5)
    await bot.idle()
    assert len(pictures(fake)) == 2 and third.message_id > pictures(fake)[1].message_id, "off: no picture"


async def test_a_picture_owed_at_a_restart_is_drawn_from_the_stored_game(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database)
    await bot.start()
    try:
        await reply_to(fake, 101, GROUP, "/picture on")
        fake.fail("sendPhoto", times=1000, code=500)  # Telegram will not take it before the bot stops
        table = Table(fake, GROUP, [101, 102], seed=3)
        await table.seat_everyone(deck="24")
        await table.start(101)
        await table.play_to_the_end()
    finally:
        await bot.stop()
    fake.failures.pop("sendPhoto", None)
    assert pictures(fake) == []
    again = BotProcess(fake, database)
    await again.start()
    try:
        await fake.wait_for(lambda: len(pictures(fake)) == 1)
        assert Image.open(io.BytesIO(pictures(fake)[0].photo)).width == WIDTH
    finally:
        await again.stop()
