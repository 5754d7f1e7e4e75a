"""/letters: a player writes the face cards in his language's letters (В Д К Т, B D K A) in his own messages,
a group's admins choose for its table; the buttons' presses stay what they were."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_commands import reply_to
from tests.e2e.test_hand import buttons, stored_position
from tests.fake_telegram import FakeTelegram


async def test_a_player_and_a_group_write_the_cards_in_their_own_letters(fake: FakeTelegram, tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    await stored_position(fake, database, [["QS", "7C", "KD"], ["AH", "8S", "6D", "JS"]], ["QS"])
    bot = BotProcess(fake, database)
    await bot.start()
    table = Table(fake, GROUP, [101, 102])
    anna, boris, group = fake.messages[(101, 1)], fake.messages[(102, 1)], fake.messages[(GROUP, 1)]
    await fake.wait_for(lambda: "Defend" in boris.text)
    assert await reply_to(fake, 102, 102, "/language ru") == "Готово: с вами я буду говорить по-русски."
    assert await reply_to(fake, 102, 102, "/letters") == (
        "Карты пишутся так: J♠️ Q♥️ K♦️ A♣️. Писать русскими буквами (В Д К Т): /letters on.")
    assert await reply_to(fake, 102, 102, "/letters on") == (
        "Карты пишутся так: В♠️ Д♥️ К♦️ Т♣️. Вернуть J Q K A: /letters off.")
    await fake.wait_for(lambda: "Т♥️★" in buttons(boris))
    assert buttons(boris) == ["✖8♠️", "✖В♠️", "✖6♦️", "Т♥️★", "Беру", "🚪 Выйти из игры"]
    assert "Д♠️→?" in boris.text and "Q" not in boris.text.replace("Q♠️", "")
    answer = await table.press(102, boris, "✖В♠️")  # a refusal names his cards in his letters too
    assert "В♠️" in answer["text"] and "Д♠️" in answer["text"], answer
    assert "Q♠️→?" in anna.text and "Q♠️" in group.text, "the others keep J Q K A"

    assert await reply_to(fake, 102, GROUP, "/letters on") == (
        "Only an admin can change how the group's cards are written.")
    assert await reply_to(fake, 101, GROUP, "/language de") == "Erledigt: Hier spreche ich jetzt Deutsch."
    assert await reply_to(fake, 101, GROUP, "/letters on") == (
        "Die Karten sehen so aus: B♠️ D♥️ K♦️ A♣️. Zurück zu J Q K A: /letters off.")
    await fake.wait_for(lambda: "D♠️" in group.text)
    assert "Q♠️→?" in anna.text, "Anna's own messages follow her choice, not the group's"

    await table.press(102, boris, "Т♥️★")  # the button's press is the card's: he covers the queen with the ace
    await fake.wait_for(lambda: "Д♠️→Т♥️" in boris.text)
    await fake.wait_for(lambda: "D♠️→A♥️" in group.text and "Q♠️→A♥️" in anna.text)
    assert await reply_to(fake, 102, 102, "/letters off") == (
        "Карты пишутся так: J♠️ Q♥️ K♦️ A♣️. Писать русскими буквами (В Д К Т): /letters on.")
    await fake.wait_for(lambda: "Q♠️→A♥️" in boris.text)
    await bot.stop()
