"""Friends play whole games in a group by pressing the buttons they see."""

from __future__ import annotations

from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram


async def test_two_players_play_a_whole_game(fake: FakeTelegram, bot: BotProcess) -> None:
    table = Table(fake, GROUP, [101, 102], seed=1)
    fake.users[101].started = True
    await table.newgame(101)
    await table.join(101)
    await table.join(102)
    await table.start(101)
    result = await table.play_to_the_end()
    assert "Game over" in result.text
    assert "Durak:" in result.text or "draw" in result.text
