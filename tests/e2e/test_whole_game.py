"""Friends play whole games in a group by pressing only the buttons they see."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.ops.review import main as review
from bot.ui.labels import card_text
from durak import State, apply
from durak.actions import action_from_json
from durak.cards import parse_card
from durak.review import label_of
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.fake_telegram import FakeTelegram

CARD = re.compile("(10|[2-9JQKA])(♠️|♣️|♦\ufe0f|♥\ufe0f)")


def stored_game(bot: BotProcess) -> dict[str, Any]:
    [row] = bot.place.dicts("SELECT * FROM games ORDER BY id DESC LIMIT 1")
    return row


def check_finished(fake: FakeTelegram, bot: BotProcess, table: Table, players: int) -> None:
    row = stored_game(bot)
    assert row["status"] == "finished"
    results = bot.place.sql("SELECT seat, place, loser FROM game_results WHERE game_id = ?", (row["id"],))
    assert len(results) == players
    table_message = next(m for m in table.group_messages() if m.message_id == row["message_id"])
    assert "Waiting for" not in table_message.text, "the table shows the final state"
    # no group message ever showed a card before it was public
    state = State.from_json(json.loads(row["state"]))
    log = [json.loads(e) for (e,) in bot.place.sql("SELECT event FROM game_events WHERE game_id = ? ORDER BY n",
                                                    (row["id"],))]
    assert log and json.loads(row["log"]) == [], "the log is appended as events, not rewritten in the games row"
    # the whole game is kept for its review: the deal and every move replay to the end as it was stored
    replayed = State.from_json(json.loads(row["deal"]))
    for seat, action in bot.place.sql("SELECT seat, action FROM game_moves WHERE game_id = ? ORDER BY n",
                                      (row["id"],)):
        replayed, _ = apply(replayed, seat, action_from_json(json.loads(action)))
    assert replayed.over and replayed.to_json() == state.to_json()
    shown = {card_text(parse_card(c)) for event in log for c in event.get("c", [])}
    # the face-up card is public: "(under the stock: K♦️)", without the closing bracket
    face_up = {m.group(1) for text in table_message.history for m in re.finditer(r"under the stock: ([^\s)]+)", text)}
    public = shown | face_up
    never_public = {card_text(c) for hand in state.hands for c in hand} - public
    for message in table.group_messages():
        for text in message.history:
            leaked = {m.group(0) for m in CARD.finditer(text)} & never_public
            assert not leaked, f"the group saw {leaked} from a hand: {text}"


GAMES = [
    pytest.param("podkidnoy", 2, {}, id="podkidnoy-2"),
    pytest.param("perevodnoy", 3, {}, id="perevodnoy-3"),
    pytest.param("simple", 4, {"deck": "24"}, id="simple-4-deck24"),
    pytest.param("do_zavala", 5, {"deck": "52"}, id="do_zavala-5-deck52"),
    pytest.param("podkidnoy", 6, {"throw_in": "neighbours"}, id="podkidnoy-6-neighbours"),
    pytest.param("podkidnoy", 4, {"teams": "2x2"}, id="teams-2x2"),
    pytest.param("perevodnoy", 6, {"teams": "3x3"}, id="teams-3x3"),
    pytest.param("podkidnoy", 3, {"cheating": "on", "draw": "off"}, id="cheating-3"),
]


@pytest.mark.parametrize(("preset", "players", "options"), GAMES)
async def test_a_whole_game(fake: FakeTelegram, bot: BotProcess, preset: str, players: int,
                            options: dict[str, str]) -> None:
    table = Table(fake, GROUP, list(range(101, 101 + players)), seed=players)
    await table.seat_everyone(preset, **options)
    lobby_text = table.lobby().text
    assert f"Players ({players}/" in lobby_text
    await table.start(101)
    await fake.wait_for(lambda: stored_game(bot)["status"] == "playing")
    # each player sees exactly his own hand as buttons
    state = State.from_json(json.loads(stored_game(bot)["state"]))
    for seat, user in enumerate(table.players):
        message = table.hand_message(user)
        assert message is not None
        shown = {m.group(0) for b in message.buttons() if b["callback_data"].startswith(("v1:c:", "v1:f:", "v1:d:"))
                 for m in CARD.finditer(b["text"])}
        assert shown == {card_text(c) for c in state.hands[seat]}
    result = await table.play_to_the_end(timeout=240)
    assert "Game over" in result.text
    assert ("Durak:" in result.text) or ("losing team" in result.text) or ("draw" in result.text)
    await bot.service.outbox.drain()
    check_finished(fake, bot, table, players)


# What a Russian player must never read: the English of a missing translation, «(а)», «ты»-forms,
# a digit where a rank is named, «кон» for a bout, «прикуп» for the stock.
NOT_RUSSIAN = re.compile(r"\b(the|you|and|press|cards?|game|wait|takes?|leads?|covers?)\b|\((а|ла)\)|\bты\b|"
                         r"все \d|нет \d|\bкон(а|е|у)?\b|прикуп", re.IGNORECASE)


@pytest.mark.parametrize(("preset", "players", "options"), [
    pytest.param("perevodnoy", 3, {}, id="perevodnoy-3"),
    pytest.param("podkidnoy", 4, {"teams": "2x2"}, id="teams-2x2"),
])
async def test_a_whole_game_in_russian_reads_as_russian(fake: FakeTelegram, bot: BotProcess, preset: str,
                                                       players: int, options: dict[str, str]) -> None:
    """Everyone reads Russian: every text the group and each player saw, every version of it, is Russian."""
    users = list(range(101, 101 + players))
    for user in users:
        fake.users[user].language_code = "ru"
    table = Table(fake, GROUP, users, seed=players, language="ru")
    await table.seat_everyone(preset, **options)
    assert "Игроки (" in table.lobby().text
    await table.start(101)
    result = await table.play_to_the_end(timeout=240)
    assert "Игра окончена" in result.text
    await bot.service.outbox.drain()
    seen = [text for chat in (GROUP, *users) for m in fake.chat_messages(chat) for text in m.history]
    seen += [b["text"] for chat in (GROUP, *users) for m in fake.chat_messages(chat) for b in m.buttons()]
    names = {fake.users[u].first_name for u in users}
    english = [t for t in seen if NOT_RUSSIAN.search(" ".join(w for w in t.split() if w.strip(":,.") not in names))]
    assert not english, english[:5]


async def test_a_finished_game_is_reviewed_from_the_bots_database(
        fake: FakeTelegram, bot: BotProcess, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``durak-review --game ID`` reads the bot's database as the bot does and reviews each seat (its own event loop:
    in a thread)."""
    table = Table(fake, GROUP, [101, 102], seed=2)
    await table.seat_everyone("podkidnoy", deck="24")
    await table.start(101)
    await table.play_to_the_end(timeout=240)
    game_id = stored_game(bot)["id"]
    monkeypatch.chdir(tmp_path)  # no .env here: the environment says where the database is
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_URL" if bot.place.engine == "postgresql" else "DATABASE_PATH", str(bot.place.target))
    assert await asyncio.to_thread(review, ["--game", str(game_id), "--deals", "32", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(s["seat"], s["level"]) for s in out["seats"]] == [(0, None), (1, None)], "two persons"
    assert out["moves"] and all(m["label"] == label_of(m["cost"]) for m in out["moves"])
    assert sum(s["moves"] for s in out["seats"]) == len(out["moves"])
    assert await asyncio.to_thread(review, ["--game", "999", "--deals", "32"]) == 1
    assert "no game 999" in capsys.readouterr().err
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "elsewhere.sqlite3"))
    assert await asyncio.to_thread(review, ["--game", str(game_id)]) == 1
    assert "no database at" in capsys.readouterr().err and not (tmp_path / "elsewhere.sqlite3").exists()
