"""A finished game's review as players meet it in the chat: each person's summary in private, with its button to
the Mini App's review; kept once; made at the next start when the bot stopped first; /history lists it."""

from __future__ import annotations

import json
import logging
import math
import os
from pathlib import Path

import pytest

from durak.review import label_of
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_computers import add_computer
from tests.fake_telegram import FakeTelegram, Message
from tests.places import place_of

DEALS = 64  # the review's deals per move: enough for the test, quick on a 24-card deck
URL = "https://durak.example/app/"


def half_up(share: float) -> int:
    """A whole percent as the chat and the page show it: a half rounded up (68.5 reads 69)."""
    return math.floor(share + 0.5)


def summaries(fake: FakeTelegram, user: int) -> list[Message]:
    return [m for m in fake.chat_messages(user) if m.text.startswith("📊 Review of your game")]


def kept(database: Path) -> list[tuple[int, dict[str, object]]]:
    return [(int(game_id), json.loads(str(review)))
            for game_id, review in place_of(database).sql("SELECT game_id, review FROM game_reviews")]


async def played_group_game(fake: FakeTelegram, seed: int = 2) -> Table:
    table = Table(fake, GROUP, [101, 102], seed=seed)
    await table.seat_everyone("podkidnoy", deck="24")
    await table.start(101)
    await table.play_to_the_end(timeout=240)
    return table


async def test_each_person_gets_his_review_in_private_once_with_a_button_to_it(fake: FakeTelegram,
                                                                               tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, review_deals=DEALS, webapp_url=URL)
    await bot.start()
    await played_group_game(fake)
    await fake.wait_for(lambda: summaries(fake, 101) and summaries(fake, 102), 120)
    await bot.service.reviewer.idle.wait()
    await bot.idle()
    [(game_id, review)] = kept(database)
    seats = review["seats"]
    assert isinstance(seats, dict) and set(seats) == {"0", "1"}, "both persons' seats, each once"
    moves = review["moves"]
    assert isinstance(moves, list) and moves, "judged moves"
    assert all(m["label"] == label_of(m["cost"]) for m in moves)
    for user, seat in ((101, "0"), (102, "1")):
        [summary] = summaries(fake, user)
        assert summary.text.startswith("📊 Review of your game in «Friends»"), summary.text
        figures = seats[seat]
        assert f"Accuracy {half_up(figures['accuracy'])} %" in summary.text, summary.text
        for count, word in ((figures["blunders"], "blunder"), (figures["mistakes"], "mistake")):
            assert (f"{count} {word}" in summary.text) == bool(count), summary.text
        labelled = [m for m in moves if m["seat"] == int(seat) and m["label"]]
        if labelled:
            worst = max(labelled, key=lambda m: m["cost"])
            assert f"Costliest move — move {worst['n']}: you chose to" in summary.text, summary.text
        [button], *more = summary.markup["inline_keyboard"]
        assert button["text"] == "📊 Open the review" and button["web_app"]["url"].startswith(URL)
        assert button["web_app"]["url"].endswith("&review=1")
        has_puzzle = any(m.get("puzzle") and m["seat"] == int(seat) for m in moves)
        assert more == ([[{"text": "🧩 Solve a puzzle from this game", "callback_data": "v1:Z:0:0:next"}]]
                        if has_puzzle else []), "a puzzle's button where his game holds one"
    # a restart finds the review kept: nothing is judged or sent again
    await bot.stop()
    bot = BotProcess(fake, database, review_deals=DEALS, webapp_url=URL)
    await bot.start()
    await bot.service.reviewer.idle.wait()
    await bot.idle()
    assert len(summaries(fake, 101)) == 1 and len(kept(database)) == 1 and bot.service.reviewer.made == 0
    # /history in private lists the game with its figures and a button to its review
    await fake.send_text(101, 101, "/history")
    await fake.wait_for(lambda: any(m.text.startswith("🗂 Your last games:") for m in fake.chat_messages(101)))
    history = next(m for m in fake.chat_messages(101) if m.text.startswith("🗂 Your last games:"))
    assert f"#{game_id} · " in history.text and "«Friends»" in history.text, history.text
    assert f"accuracy {half_up(seats['0']['accuracy'])} %" in history.text, history.text
    assert [b["text"] for b in history.buttons()] == [f"📊 #{game_id}"]
    await bot.stop()


async def test_a_game_that_ended_while_no_review_was_made_is_reviewed_at_the_next_start(fake: FakeTelegram,
                                                                                        tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, review_deals=0)  # reviews off: as a bot stopped before the review was kept
    await bot.start()
    await played_group_game(fake, seed=5)
    await bot.idle()
    assert not summaries(fake, 101) and kept(database) == []
    await fake.send_text(101, 101, "/history")
    await fake.wait_for(lambda: any(m.text.startswith("🗂 Your last games:") for m in fake.chat_messages(101)))
    assert "· no review" in fake.chat_messages(101)[-1].text, "this bot makes no reviews: none is promised"
    await bot.stop()
    bot = BotProcess(fake, database, review_deals=DEALS)
    await bot.start()
    await fake.wait_for(lambda: summaries(fake, 101) and summaries(fake, 102), 120)
    assert len(kept(database)) == 1
    assert not [b for b in summaries(fake, 101)[0].buttons() if "web_app" in b], "no Mini App configured: no button"
    await bot.stop()


def classes(pids: list[int]) -> list[int]:
    try:
        return [os.sched_getscheduler(pid) for pid in pids]
    except ProcessLookupError:  # a process replaced meanwhile
        return []


@pytest.mark.parametrize("idle", [True, False])
async def test_reviews_are_made_on_cpu_the_bot_leaves_idle_unless_told_otherwise(fake: FakeTelegram, tmp_path: Path,
                                                                               idle: bool) -> None:
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", review_deals=DEALS, think_on_idle_cpu=idle)
    await bot.start()
    await played_group_game(fake)
    reviewer = bot.service.reviewer
    if idle:  # a busy machine may keep the review itself waiting long for idle CPU: its processes' class says it
        await fake.wait_for(lambda: (found := classes(reviewer.workers())) != []
                            and found == [os.SCHED_IDLE] * len(found), 60)
    else:
        await fake.wait_for(lambda: summaries(fake, 101) and summaries(fake, 102), 120)
        found = classes(reviewer.workers())
        assert found and found == [os.sched_getscheduler(0)] * len(found) and os.SCHED_IDLE not in found
    await bot.stop()


async def test_against_computers_only_the_person_is_reviewed_and_only_his_own_choices(fake: FakeTelegram,
                                                                                     tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, computer_pause=0, computer_budget_ms=5, review_deals=DEALS)
    await bot.start()
    table = Table(fake, 101, [101], seed=3)  # Anna's private chat: a table of her own
    await table.newgame(101)
    await add_computer(table, 101, "🤖+ easy")
    await table.start(101)
    await table.play_to_the_end(timeout=240)
    await fake.wait_for(lambda: summaries(fake, 101), 120)
    [summary] = summaries(fake, 101)
    assert summary.text.startswith("📊 Review of your game\n"), "no group to name"
    [(game_id, review)] = kept(database)
    assert set(review["seats"]) == {"0"}, "the computer's seat is not reviewed"  # type: ignore[arg-type]
    moves = review["moves"]
    assert isinstance(moves, list) and moves and {m["seat"] for m in moves} == {0}
    game = await bot.service.repo.game(game_id)
    assert game is not None
    assert not {m["n"] - 1 for m in moves} & game.auto, "a move made for her is never judged"
    await bot.stop()


@pytest.mark.long(12)
async def test_a_game_whose_record_cannot_be_read_is_left_with_a_log_line_and_the_next_is_reviewed(
        fake: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, review_deals=0)
    await bot.start()
    await played_group_game(fake, seed=5)
    await played_group_game(fake, seed=6)
    await bot.idle()
    await bot.stop()
    first, second = (int(g) for (g,) in place_of(database).sql("SELECT id FROM games ORDER BY id"))
    place_of(database).sql(f"UPDATE game_moves SET action = '{{\"forged\": 1}}' WHERE game_id = {first} AND n = 0")
    bot = BotProcess(fake, database, review_deals=DEALS)
    with caplog.at_level(logging.ERROR):
        await bot.start()
        await fake.wait_for(lambda: summaries(fake, 101), 120)
        await bot.service.reviewer.idle.wait()
    assert [game_id for game_id, _ in kept(database)] == [second], "the readable game is reviewed"
    assert len(summaries(fake, 101)) == 1
    assert any(f"game {first}" in r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR), \
        [r.getMessage() for r in caplog.records]
    await bot.stop()


@pytest.mark.sqlite_only  # hands its group over as bot.game.shares does on PostgreSQL, where its own rounds would too
@pytest.mark.long(10)
async def test_a_review_judged_while_its_chat_was_handed_over_is_announced_by_the_next_lead_alone(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """A process lets the group go (to another process) while it judges the group's finished game: it keeps no
    review and tells nobody; the process that leads the group next reviews the game and tells each player once."""
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", review_deals=0)
    await bot.start()
    await played_group_game(fake, seed=5)
    await bot.idle()
    service, reviewer = bot.service, bot.service.reviewer
    reviewer.deals_max = DEALS
    service.thinker.pressing.value += 1  # as while a press is handled: the judging waits after its first deal
    reviewer.soon()
    await fake.wait_for(lambda: reviewer.workers() != [], 30)
    service.repo.owns = lambda chat_id: chat_id != GROUP  # what the hand-over does (bot.game.shares)
    await service.let_go(lambda chat_id: chat_id == GROUP)
    service.thinker.pressing.value -= 1
    await reviewer.idle.wait()
    await bot.idle()
    assert kept(tmp_path / "durak.sqlite3") == [] and not summaries(fake, 101) and not summaries(fake, 102)

    service.repo.owns = lambda chat_id: True  # the group is led here again: the game is reviewed here, once
    await service.adopt(lambda chat_id: chat_id == GROUP)
    await fake.wait_for(lambda: summaries(fake, 101) and summaries(fake, 102), 120)
    await reviewer.idle.wait()
    await bot.idle()
    assert len(kept(tmp_path / "durak.sqlite3")) == 1
    assert len(summaries(fake, 101)) == len(summaries(fake, 102)) == 1
    await bot.stop()
