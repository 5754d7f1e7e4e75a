"""The Mini App's socket, through the real Application and the fake Bot API: who may open a game's page,
what each page is sent, and presses from a page going the way of chat buttons."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image

from bot.ui.i18n import translator
from bot.webapp.auth import game_token
from durak import card_code
from storage.partitions import partition_of
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.webapp_client import PageSocket, free_port, game_param, hand_link, hello, init_data
from tests.fake_telegram import BOT_USERNAME, TOKEN, FakeTelegram

ANNA, BORIS, VERA = 101, 102, 103


def page_settings(port: int) -> dict[str, Any]:
    return {"webapp_port": port, "webapp_url": f"http://127.0.0.1:{port}/app/", "webapp_short_name": "table"}


@pytest.fixture
async def port() -> int:
    return free_port()


@pytest.fixture
async def served(fake: FakeTelegram, tmp_path: Path, port: int) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, tmp_path / "durak.sqlite3", **page_settings(port))
    await process.start()
    yield process
    await process.stop()


async def started(fake: FakeTelegram, players: list[int]) -> Table:
    table = Table(fake, GROUP, players)
    await table.seat_everyone()
    await table.start(players[0])
    return table


def hand_codes(bot: BotProcess, seat: int) -> set[str]:
    game = next(iter(bot.service.store.games.values()))
    assert game.state is not None
    return {card_code(c) for c in game.state.hands[seat]}


async def test_links_open_the_page_from_a_hand_and_from_the_group(fake: FakeTelegram, served: BotProcess) -> None:
    table = await started(fake, [ANNA, BORIS])
    anna = table.hand_message(ANNA)
    assert anna is not None
    assert hand_link(anna).startswith(f"http://127.0.0.1:{served.settings.webapp_port}/app/?g=")
    await fake.wait_for(lambda: any("url" in b for m in table.group_messages() if "Trump" in m.text
                                    for b in m.buttons()))
    group_table = next(m for m in table.group_messages() if "Trump" in m.text)
    url = next(b["url"] for b in group_table.buttons() if "url" in b)
    assert url.startswith(f"https://t.me/{BOT_USERNAME}/table?startapp=")
    assert game_param(url) == game_param(hand_link(anna)), "one token names the game everywhere"
    assert str(next(iter(served.service.store.games))) != game_param(url), "never the bare game id"
    assert not fake.rejected, "web_app buttons went to private chats only"


async def test_no_mini_app_button_without_its_address(fake: FakeTelegram, bot: BotProcess) -> None:
    table = await started(fake, [ANNA, BORIS])
    anna = table.hand_message(ANNA)
    assert anna is not None and not any("web_app" in b or "url" in b for b in anna.buttons())
    assert not any("url" in b for m in table.group_messages() for b in m.buttons())


async def test_a_page_shows_its_seat_and_plays_like_a_button(fake: FakeTelegram, served: BotProcess,
                                                             port: int) -> None:
    table = await started(fake, [ANNA, BORIS])
    anna, boris = table.hand_message(ANNA), table.hand_message(BORIS)
    assert anna is not None and boris is not None
    token = game_param(hand_link(anna))
    page, other = PageSocket(port), PageSocket(port)
    try:
        photo = "https://t.me/i/userpic/320/anna.svg"
        first = await page.open({"type": "hello", "init_data": init_data(ANNA, "Anna", photo=photo), "game": token})
        assert first["type"] == "state" and first["you"] == 0 and first["status"] == "playing"
        assert {h["card"] for h in first["hand"]} == hand_codes(served, 0)
        assert [s["cards"] for s in first["seats"]] == [len(hand_codes(served, 0)), len(hand_codes(served, 1))]
        assert not any(f'"{code}"' in page.raw[0] for code in hand_codes(served, 1)), "no card of Boris's hand"
        chat_cards = [b["callback_data"] for b in anna.buttons() if b.get("callback_data", "")[:5] in
                      ("v1:c:", "v1:d:", "v1:f:") and not b["text"].startswith("✖")]
        assert sorted(h["press"] for h in first["hand"] if h["press"]) == sorted(chat_cards), "the chat's own buttons"
        boris_first = await other.open({"type": "hello", "init_data": init_data(
            BORIS, "Boris", start_param=token, photo="javascript:alert(1)")})
        assert [s.get("photo") for s in boris_first["seats"]] == [photo, None], \
            "her photo on her seat for everyone at the table; only https addresses"
        game = next(iter(served.service.store.games.values()))
        assert game.state is not None
        leader = game.state.attacker
        leading = page if leader == 0 else other
        lead_frame = leading.frames[0]
        card = next(h for h in lead_frame["hand"] if h["press"])
        seen = {u: len(m.history) for u, m in ((ANNA, anna), (BORIS, boris))}
        answer = await leading.press(card["press"])
        assert answer == {"type": "answer", "id": 1, "text": None, "refused": False}
        for watcher in (page, other):
            after = await watcher.state_where(lambda f: bool(f["table"]))
            assert after["table"] == [[card["card"], None]]
        await fake.wait_for(lambda: len(anna.history) > seen[ANNA] and len(boris.history) > seen[BORIS])
        defender = boris if leader == 0 else anna
        assert "→?" in defender.text and " leads " in defender.text, "the chat moved with the page's move"
        again = await leading.press(card["press"])
        assert again["text"] and again["refused"], "a stale press from a page is refused with the chat's toast"
    finally:
        await page.close()
        await other.close()


async def test_someone_not_seated_sees_the_public_table_only(fake: FakeTelegram, served: BotProcess,
                                                            port: int) -> None:
    table = await started(fake, [ANNA, BORIS])
    anna = table.hand_message(ANNA)
    assert anna is not None
    page = PageSocket(port)
    try:
        frame = await page.open(hello(VERA, "Vera", anna))
        assert frame["you"] is None and frame["hand"] == [] and frame["buttons"] == []
        assert frame["prompt"].startswith("⏳ Waiting for: "), "what the group's table says"
        hidden = hand_codes(served, 0) | hand_codes(served, 1)
        assert not any(f'"{code}"' in page.raw[0] for code in hidden)
        lead = next(b["callback_data"] for b in anna.buttons() if b.get("callback_data", "").startswith("v1:c:"))
        answer = await page.press(lead)
        assert answer["text"] == "You are not in this game."
    finally:
        await page.close()


async def refused(port: int, case: dict[str, Any] | str) -> tuple[int | None, str]:
    page = PageSocket(port)
    try:
        frame = await page.open(case)
        code, _ = await page.closed()
        return code, frame.get("reason", "")
    finally:
        await page.close()


async def test_every_hello_that_proves_nothing_is_refused(fake: FakeTelegram, served: BotProcess, port: int,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    table = await started(fake, [ANNA, BORIS])
    anna = table.hand_message(ANNA)
    assert anna is not None
    token = game_param(hand_link(anna))
    game_id = next(iter(served.service.store.games))
    good = init_data(ANNA, "Anna")
    forged_user = good.replace("%22id%22%3A101", "%22id%22%3A102")
    assert forged_user != good
    cases: list[tuple[dict[str, Any] | str, int, str]] = [
        ({"type": "hello", "game": token}, 4401, "no initData"),
        ({"type": "hello", "init_data": good.split("&hash=")[0], "game": token}, 4401, "signature"),
        ({"type": "hello", "init_data": forged_user, "game": token}, 4401, "signature"),
        ({"type": "hello", "init_data": init_data(ANNA, "Anna", token="1:" + "x" * 35), "game": token}, 4401,
         "signature"),
        ({"type": "hello", "init_data": init_data(ANNA, "Anna", age=2 * 86400), "game": token}, 4401, "too old"),
        ({"type": "hello", "session": "AAAA" + token, "game": token}, 4401, "session"),
        ({"type": "hello", "init_data": good, "game": str(game_id)}, 4403, "no such game"),
        ({"type": "hello", "init_data": good, "game": game_token(game_id + 1, TOKEN)}, 4403, "no such game"),
        ({"type": "hello", "init_data": init_data(ANNA, "Anna", start_param=game_token(game_id + 1, TOKEN)),
          "game": token}, 4403, "another game"),
        ("{not json", 4400, "bad JSON"),
        ({"type": "press", "data": "v1:c:1:0:AS"}, 4400, "hello"),
        # its user nested deeper than any parser goes: refused all the same, the log spared a traceback
        ({"type": "hello", "init_data": "user=" + "[" * 3500 + "&hash=00", "game": token}, 4401, "signature"),
        ({"type": "hello", "init_data": "user=" + "%5B" * 1200 + "&hash=00", "game": token}, 4401, "signature"),
    ]
    before = served.service.store.games[game_id]
    for case, code, reason in cases:
        got, why = await refused(port, case)
        assert (got, reason in why) == (code, True), (case, got, why)
    assert served.service.store.games[game_id] == before, "the game is as it was"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == [], "nothing an operator must read"
    # the player reads why in his language (what the page's initData names), the tools read the reason
    for language, text in (("en", "This table link is no longer valid: open the table again from the chat."),
                           ("ru", "Ссылка на стол устарела: откройте стол заново из чата.")):
        page = PageSocket(port)
        try:
            frame = await page.open({"type": "hello", "game": token,
                                     "init_data": init_data(ANNA, "Anna", age=2 * 86400, language=language)})
            assert frame == {"type": "error", "reason": "initData is too old: open the table again", "text": text}
        finally:
            await page.close()
    leader = ANNA if before.state is not None and before.state.attacker == 0 else BORIS
    message = table.hand_message(leader)
    assert message is not None
    answer = await table.press(leader, message, await table.one_card_lead(leader, message))
    assert answer.get("text") is None, "and the chat still plays"


async def test_floods_and_huge_frames_close_the_page_alone(fake: FakeTelegram, served: BotProcess, port: int) -> None:
    table = await started(fake, [ANNA, BORIS])
    anna = table.hand_message(ANNA)
    assert anna is not None
    first = hello(ANNA, "Anna", anna)
    page = PageSocket(port)
    try:
        await page.open(first)
        assert page.ws is not None
        await page.ws.send_str(json.dumps({"type": "sync", "pad": "x" * 10_000}))
        code, _ = await page.closed()
        assert code == 1009, "a frame over WEBAPP_MAX_FRAME"
    finally:
        await page.close()
    page = PageSocket(port)
    try:
        await page.open(first)
        assert page.ws is not None
        for _ in range(60):
            await page.ws.send_str('{"type": "sync"}')
        code, frames = await page.closed()
        assert code == 4429 and frames[-1] == {"type": "error", "reason": "too many frames",
                                               "text": "The table lost its connection: open it again from the chat."}
    finally:
        await page.close()
    forged = PageSocket(port)
    try:
        await forged.open(first)
        other_game = "v1:c:999:0:AS"
        assert (await forged.press(other_game))["text"] == "Unknown button."
        lobby_verb = f"v1:g:{next(iter(served.service.store.games))}:0:"
        assert (await forged.press(lobby_verb))["text"] == "Unknown button.", "a page presses its hand's buttons only"
    finally:
        await forged.close()
    with_cards = table.hand_message(ANNA)
    assert with_cards is not None and "Trump" in with_cards.text, "the bot goes on"


async def test_a_page_comes_back_after_a_restart(fake: FakeTelegram, tmp_path: Path, port: int) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, **page_settings(port))
    await bot.start()
    table = await started(fake, [ANNA, BORIS])
    anna = table.hand_message(ANNA)
    assert anna is not None
    page = PageSocket(port)
    try:
        first = await page.open(hello(ANNA, "Anna", anna))
        session = first["session"]
        closing = asyncio.create_task(page.closed())  # a page reads its socket all the time
        await bot.stop()
        code, _ = await closing
        assert code == 1012, "the page is told the bot restarts"
        bot = BotProcess(fake, database, **page_settings(port))
        await bot.start()
        await page.close()
        page = PageSocket(port)
        again = await page.open({"type": "hello", "session": session})
        assert again["you"] == 0 and again["hand"] == first["hand"] and again["table"] == first["table"]
    finally:
        await page.close()
        await bot.stop()


async def test_two_pages_of_one_player_both_follow(fake: FakeTelegram, served: BotProcess, port: int) -> None:
    table = await started(fake, [ANNA, BORIS])
    anna, boris = table.hand_message(ANNA), table.hand_message(BORIS)
    assert anna is not None and boris is not None
    first = hello(ANNA, "Anna", anna)
    pages = [PageSocket(port), PageSocket(port)]
    try:
        for page in pages:
            await page.open(first)
        game = next(iter(served.service.store.games.values()))
        assert game.state is not None
        leader, message = (ANNA, anna) if game.state.attacker == 0 else (BORIS, boris)
        await table.press(leader, message, await table.one_card_lead(leader, message))
        frames = await asyncio.gather(*(p.state_where(lambda f: bool(f["table"])) for p in pages))
        assert frames[0]["table"] == frames[1]["table"] != []
    finally:
        for page in pages:
            await page.close()


async def test_a_page_is_never_sent_an_older_picture_after_a_newer_one(fake: FakeTelegram, served: BotProcess,
                                                                       port: int) -> None:
    """A frame built from the game as it stood before a move can be held up in its awaits (a database read) until
    the move's own frame went: sent then, it would show the page the move undone (the kill test's pages saw 51
    moves, then 50). The service's hook is handed such a stale game after the page saw the newer one."""
    table = await started(fake, [ANNA, BORIS])
    anna, boris = table.hand_message(ANNA), table.hand_message(BORIS)
    assert anna is not None and boris is not None
    page = PageSocket(port)
    try:
        await page.open(hello(ANNA, "Anna", anna))
        before = next(iter(served.service.store.games.values()))
        assert before.state is not None
        (leader, lead), (defender, defence) = sorted(((ANNA, anna), (BORIS, boris)),
                                                     key=lambda p: p[0] != (ANNA, BORIS)[before.state.attacker])
        await table.press(leader, lead, await table.one_card_lead(leader, lead))
        led = await page.state_where(lambda f: bool(f["table"]))
        served.service.on_change(before)  # late: the older picture's frame
        await fake.wait_for(lambda: "Take" in [b["text"] for b in defence.buttons()])
        await table.press(defender, defence, "Take")
        after = await page.next()
        assert after["moves_made"] > led["moves_made"] > 0, "the next frame the page sees is the newer move"
    finally:
        await page.close()


@pytest.mark.sqlite_only  # on PostgreSQL whatever TEST_ENGINE says: run once
async def test_a_page_waits_while_its_games_partition_is_being_loaded_here(fake: FakeTelegram, tmp_path: Path,
                                                                          postgres_url: str, port: int) -> None:
    """Taking a partition over (a start, a hand-over), a process leads it a moment before its games are loaded
    (``bot.game.shares``: led, then taking). A page let in then was shown the game read from the database, and its tap
    was answered "This game is over." (CI: a tap held through a restart). Now the page is asked to come back, and
    served once the game is loaded."""
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", database_url=postgres_url, webapp_route="b",
                     **page_settings(port))
    await bot.start()
    try:
        table = await started(fake, [ANNA, BORIS])
        game = next(iter(bot.service.store.games.values()))
        assert game.state is not None
        leader = (ANNA, BORIS)[game.state.attacker]
        hand = table.hand_message(leader)
        assert hand is not None
        shares = bot.app.bot_data.shares  # type: ignore[union-attr]
        assert shares is not None
        loaded = shares.taking
        shares.taking = loaded - {partition_of(GROUP)}  # the moment between its lease and its games' load
        page = PageSocket(port)
        try:
            refused = await page.open(hello(leader, "Leader", hand))
            assert refused["type"] == "error", "no picture of a game not loaded here yet"
            assert (await page.next())["code"] == 1013, "come back soon"
        finally:
            await page.close()
        shares.taking = loaded
        page = PageSocket(port)
        try:
            first = await page.open(hello(leader, "Leader", hand))
            assert first["type"] == "state"
            card = next(h for h in first["hand"] if h["press"])  # his lead is taken, not answered "over"
            answer = await page.press(card["press"])
            assert answer["text"] is None and not answer["refused"], answer
        finally:
            await page.close()
    finally:
        await bot.stop()


async def test_play_again_from_the_page_of_a_finished_game(fake: FakeTelegram, served: BotProcess, port: int) -> None:
    table = await started(fake, [ANNA, BORIS])
    anna = table.hand_message(ANNA)
    assert anna is not None
    link = hand_link(anna)
    await table.play_to_the_end()
    spectator, page = PageSocket(port), PageSocket(port)
    try:
        token = game_param(link)  # the hand's button is gone with the game's end: its link was kept
        watching = await spectator.open({"type": "hello", "init_data": init_data(VERA, "Vera"), "game": token})
        assert watching["status"] == "over" and watching["buttons"] == [], "only players may play again"
        over = await page.open({"type": "hello", "init_data": init_data(ANNA, "Anna"), "game": token})
        assert over["status"] == "over" and over["result"][0] == "🏁 Game over!"
        assert over["result"][-1].startswith("📊 In this chat: 1 game · first out "), "his record here, this game in it"
        assert not any(line.startswith("📊") for line in watching["result"]), "a spectator has no record to show"
        assert [b["text"] for b in over["buttons"]] == ["🔁 Play again"]
        lobbies = len(table.group_messages())
        answer = await page.press(over["buttons"][0]["press"])
        assert answer["text"] is None and not answer["refused"]
        lobby = await page.state_where(lambda f: f["status"] == "lobby")  # the page goes on to the new lobby
        assert lobby["game"] != token and lobby["session"] and [s["name"] for s in lobby["seats"]] == ["Anna", "Boris"]
        await fake.wait_for(lambda: len(table.group_messages()) > lobbies)
        assert "Join" in [b["text"] for b in table.group_messages()[-1].buttons()]
        assert "Join" in [b["text"] for b in lobby["buttons"]], "the lobby's own buttons"
        again = await spectator.press(over["buttons"][0]["press"])  # not his game: he may not start one
        assert again["refused"]
        other = PageSocket(port)  # Boris, on the finished game's page, is taken to the lobby Anna opened
        try:
            await other.open({"type": "hello", "init_data": init_data(BORIS, "Boris"), "game": token})
            answer = await other.press(over["buttons"][0]["press"])
            assert answer["text"] is None
            assert (await other.state_where(lambda f: f["status"] == "lobby"))["game"] == lobby["game"]
        finally:
            await other.close()
    finally:
        await page.close()
        await spectator.close()


async def test_the_page_of_an_evenings_game_shows_its_running_score(fake: FakeTelegram, served: BotProcess,
                                                                     port: int) -> None:
    table = await started(fake, [ANNA, BORIS])
    result = await table.play_to_the_end()
    again = Table(fake, GROUP, [ANNA, BORIS], seed=1)
    await again.press(BORIS, result, "🔁 Play again")
    await fake.wait_for(lambda: any("Players (2/" in m.text for m in again.group_messages()))
    await again.start(BORIS)
    anna = again.hand_message(ANNA)
    assert anna is not None
    token = game_param(hand_link(anna))
    second = await again.play_to_the_end()
    in_group = [line for line in second.text.splitlines() if line.startswith(("🌙", "🃏 Durak (", "🥇 First"))]
    assert in_group[0] == "🌙 The evening: 2 games", second.text
    for user, name in ((ANNA, "Anna"), (VERA, "Vera")):  # a player, and someone watching
        page = PageSocket(port)
        try:
            over = await page.open({"type": "hello", "init_data": init_data(user, name), "game": token})
            assert over["status"] == "over"
            assert [line for line in over["result"] if line.startswith(("🌙", "🃏 Durak (", "🥇 First"))] == in_group
        finally:
            await page.close()


async def test_a_player_shares_the_result_card_of_a_finished_game(fake: FakeTelegram, served: BotProcess,
                                                                    port: int) -> None:
    table = await started(fake, [ANNA, BORIS])
    anna = table.hand_message(ANNA)
    assert anna is not None
    token = game_param(hand_link(anna))
    page = PageSocket(port)
    try:
        playing = await page.open({"type": "hello", "init_data": init_data(ANNA, "Anna"), "game": token})
        assert not playing.get("share")
        early = await page.ask("share")
        assert early["id"] is None and early["text"] == "There is no result to share."
    finally:
        await page.close()
    await table.play_to_the_end()
    page, watcher = PageSocket(port), PageSocket(port)
    try:
        over = await page.open({"type": "hello", "init_data": init_data(ANNA, "Anna"), "game": token})
        assert over["status"] == "over" and over["share"] is True
        watching = await watcher.open({"type": "hello", "init_data": init_data(VERA, "Vera"), "game": token})
        assert not watching.get("share") and (await watcher.ask("share"))["id"] is None, "a watcher has no result"
        shared = await page.ask("share")
        prepared = fake.prepared[-1]
        assert shared["id"] == f"prepared-{len(fake.prepared)}" and int(prepared["user_id"]) == ANNA
        assert prepared["result"]["type"] == "photo"
        url = prepared["result"]["photo_url"]
        assert url.startswith(f"http://127.0.0.1:{port}/app/card/") and url.endswith(".png")
        async with aiohttp.ClientSession() as session:  # as Telegram fetches it
            async with session.get(url) as answer:
                assert answer.status == 200 and answer.content_type == "image/png"
                assert Image.open(io.BytesIO(await answer.read())).width == 720
            forged = url.replace("/card/", "/card/x")
            async with session.get(forged) as answer:
                assert answer.status == 404
    finally:
        await page.close()
        await watcher.close()


async def test_the_menu_button_speaks_each_players_language(fake: FakeTelegram, served: BotProcess) -> None:
    """The bot's own menu button speaks the default language; a player who reads another gets his chat's own."""
    await fake.send_text(ANNA, ANNA, "/start")
    await fake.send_text(BORIS, BORIS, "/language ru")
    await fake.wait_for(lambda: BORIS in fake.menu_buttons)
    assert fake.menu_buttons[BORIS] == {"type": "web_app", "text": "🃏 Стол",
                                        "web_app": {"url": served.settings.webapp_url}}
    await fake.send_text(BORIS, BORIS, "/language de")
    await fake.wait_for(lambda: fake.menu_buttons[BORIS]["text"] != "🃏 Стол")
    assert fake.menu_buttons[BORIS]["text"] == translator("de").gettext("🃏 Table")
    await fake.send_text(BORIS, BORIS, "/language en")
    await fake.wait_for(lambda: fake.menu_buttons[BORIS]["text"] == "🃏 Table")
    await served.idle()
    assert ANNA not in fake.menu_buttons, "English, as the bot's own: nothing to set"


async def test_a_solo_game_in_private_opens_the_page_the_same_way(fake: FakeTelegram, tmp_path: Path,
                                                                  port: int) -> None:
    from tests.e2e.test_computers import add_computer

    bot = BotProcess(fake, tmp_path / "durak.sqlite3", computer_pause=0, computer_budget_ms=5, **page_settings(port))
    await bot.start()
    page = PageSocket(port)
    try:
        table = Table(fake, ANNA, [ANNA], seed=3)  # the "table" is Anna's private chat
        await table.newgame(ANNA)
        await add_computer(table, ANNA, "🤖+ normal")
        await table.start(ANNA)
        anna = table.hand_message(ANNA)
        assert anna is not None
        frame = await page.open(hello(ANNA, "Anna", anna))
        assert frame["you"] == 0 and frame["seats"][1]["computer"] and frame["hand"]
        assert not fake.rejected
    finally:
        await page.close()
        await bot.stop()


async def until(condition: Any, timeout: float = 5) -> None:
    """Wait for a change in the bot's memory that no Telegram call follows (the fake's wait_for wakes on calls)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the condition did not come true in time"
        await asyncio.sleep(0.01)


async def test_a_live_page_spares_its_hand_message_the_edits(fake: FakeTelegram, tmp_path: Path, port: int) -> None:
    """While the defender's page acknowledges its frames, his hand message is not edited (the page shows the
    move); a frame it leaves unacknowledged makes it away, and his hand catches up; so does a closed page."""
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", webapp_ack_seconds=2, **page_settings(port))
    await bot.start()
    page = PageSocket(port)
    try:
        table = await started(fake, [ANNA, BORIS])
        game = next(iter(bot.service.store.games.values()))
        assert game.state is not None
        ui = bot.service.store.ui_of(game.id)
        attacker, defender = [ANNA, BORIS][game.state.attacker], [ANNA, BORIS][1 - game.state.attacker]
        hand, lead = table.hand_message(defender), table.hand_message(attacker)
        assert hand is not None and lead is not None
        first = await page.open(hello(defender, "Defender", hand))
        assert page.ws is not None
        await page.ws.send_str(json.dumps({"type": "ack", "n": first["n"]}))
        await until(lambda: ui.watched == {1 - game.state.attacker})  # type: ignore[union-attr]
        edits = len(hand.history)
        await table.press(attacker, lead, await table.one_card_lead(attacker, lead))
        moved = await page.state_where(lambda f: bool(f["table"]))  # the page shows the lead
        await page.ws.send_str(json.dumps({"type": "ack", "n": moved["n"]}))
        # the press was answered once its write was committed: whatever it owes any chat is delivered by now
        await fake.wait_for(lambda: not any(bot.service.outbox.owes(chat) for chat in (GROUP, attacker, defender)))

        def takes() -> bool:  # the lead reached his hand: Take (his prompt depends on the deal)
            return any(b.get("text") == "Take" for b in hand.buttons())

        assert len(hand.history) == edits and not takes(), "the hand waited"
        await page.ws.send_str(json.dumps({"type": "sync"}))  # a frame it will not acknowledge
        await fake.wait_for(takes)
        assert not ui.watched
        # live again, then closed: his hand is brought up to date as soon as the page is gone
        count = len(page.frames)
        await page.ws.send_str(json.dumps({"type": "sync"}))
        newest = await page.state_where(lambda f: page.frames.index(f) >= count)
        await page.ws.send_str(json.dumps({"type": "ack", "n": newest["n"]}))
        await until(lambda: bool(ui.watched))
        await page.close()
        await until(lambda: not ui.watched)
        # his page open and read, he presses his (held, old) hand in the chat all the same: it catches up at once
        # and is kept up to date from then on, whatever the page does
        second = PageSocket(port)
        try:
            frame = await second.open(hello(defender, "Defender", hand))
            assert second.ws is not None
            await second.ws.send_str(json.dumps({"type": "ack", "n": frame["n"]}))
            await until(lambda: bool(ui.watched))
            taken = len(hand.history)
            answer = await table.press(defender, hand, "Take")
            assert not answer.get("text"), answer
            await fake.wait_for(lambda: len(hand.history) > taken)
            assert not ui.watched and ui.chatting == {1 - game.state.attacker}  # type: ignore[union-attr]
        finally:
            await second.close()
        forged = PageSocket(port)  # an acknowledgement of a frame never sent closes the socket
        try:
            frame = await forged.open(hello(defender, "Defender", hand))
            assert forged.ws is not None
            await forged.ws.send_str(json.dumps({"type": "ack", "n": frame["n"] + 5}))
            code, _ = await forged.closed()
            assert code == 4400 and not ui.watched
        finally:
            await forged.close()
    finally:
        await page.close()
        await bot.stop()


async def test_the_menu_button_opens_his_game_or_a_table_of_his_own(fake: FakeTelegram, served: BotProcess,
                                                                   port: int) -> None:
    """The private chat's menu button opens the page with no game named: a table of his own against computers
    (its lobby shown in his chat too), and once he plays in a group, that game."""
    assert fake.menu_buttons[None] == {"type": "web_app", "text": "🃏 Table",
                                       "web_app": {"url": served.settings.webapp_url}}
    fake.users[ANNA].started = True  # the menu button is in the chat she opened with the bot
    page, again = PageSocket(port), PageSocket(port)
    try:
        frame = await page.open({"type": "hello", "init_data": init_data(ANNA, "Anna")})
        assert frame["status"] == "lobby" and [s["name"] for s in frame["seats"]] == ["Anna"] and frame["you"] == 0
        assert {"🤖+ easy", "Start"} <= {b["text"] for b in frame["buttons"]}
        await fake.wait_for(lambda: any(m.text.startswith("🃏 Durak: a new game") for m in fake.chat_messages(ANNA)))
        answer = await page.press(next(b["press"] for b in frame["buttons"] if b["text"] == "🤖+ easy"))
        assert not answer["refused"]
        assert len((await page.state_where(lambda f: len(f["seats"]) == 2))["seats"]) == 2
        table = await started(fake, [ANNA, BORIS])
        assert table.hand_message(ANNA) is not None
        frame = await again.open({"type": "hello", "init_data": init_data(ANNA, "Anna")})
        assert frame["status"] == "playing" and frame["you"] is not None and frame["hand"], "the game he plays"
    finally:
        await page.close()
        await again.close()
