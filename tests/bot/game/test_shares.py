"""Where an update is decided when the processes share the games (bot/game/shares.py): its group's partition, or in a
private chat the partition of the game it is about."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from telegram import Bot, Update

from bot.game.shares import partition
from bot.ui.callbacks import Verb, encode
from durak import Rules
from storage.database import open_database
from storage.models import NewLobby, User
from storage.partitions import partition_of
from storage.repo import Repo
from tests.fake_telegram import TOKEN

GROUP, ANNA, BORIS = -1001234, 501, 502


def update(**body: Any) -> Update:
    parsed = Update.de_json({"update_id": 1, **body}, Bot(TOKEN))
    assert parsed is not None
    return parsed


def chat(chat_id: int) -> dict[str, Any]:
    return {"id": chat_id, "type": "private" if chat_id > 0 else "supergroup"}


def message(chat_id: int, user: int, text: str) -> dict[str, Any]:
    return {"message_id": 7, "date": 0, "chat": chat(chat_id), "from": {"id": user, "is_bot": False,
                                                                         "first_name": "P"}, "text": text}


def press(chat_id: int, user: int, data: str) -> dict[str, Any]:
    return {"callback_query": {"id": "q", "chat_instance": "c", "data": data,
                               "from": {"id": user, "is_bot": False, "first_name": "P"},
                               "message": message(chat_id, 0, "🃏")}}


async def test_an_update_goes_to_the_partition_of_the_game_it_is_about(tmp_path: Path) -> None:
    repo = Repo(await open_database(tmp_path / "db.sqlite3"))
    try:
        for user in (ANNA, BORIS):
            await repo.save_user(User(user, "P"))
        game = await repo.create_lobby(NewLobby(GROUP, 0, User(ANNA, "P"), Rules(), 2,
                                                players=[User(ANNA, "P"), User(BORIS, "P")]))
        group, anna, carl = partition_of(GROUP), partition_of(ANNA), partition_of(503)
        assert len({group, anna, carl}) == 3, "the test needs three partitions apart"
        assert await partition(update(message=message(GROUP, ANNA, "/newgame")), repo) == group
        assert await partition(update(**press(GROUP, ANNA, encode(Verb.JOIN, game.id, 0))), repo) == group
        # a hand's button in Anna's private chat names its game: decided where the group's games are
        assert await partition(update(**press(ANNA, ANNA, encode(Verb.TAKE, game.id, 0))), repo) == group
        assert await partition(update(**press(ANNA, ANNA, encode(Verb.TAKE, game.id, 0))), repo,
                               {game.id: game}) == group, "the same from the games open here, with no query"
        # a join link names it too; a private command goes where the game its sender sits in is
        assert await partition(update(message=message(503, 503, f"/start join_{game.id}")), repo) == group
        assert await partition(update(message=message(BORIS, BORIS, "/hand")), repo) == group
        # nobody's game: his own chat's
        assert await partition(update(message=message(503, 503, "/stats")), repo) == carl
        assert await partition(update(**press(503, 503, encode(Verb.TAKE, 999_999, 0))), repo) == carl
    finally:
        await repo.db.close()
