"""``durak-db copy``: an installation moves from its SQLite file to PostgreSQL whole, games in progress included."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from durak import Rules, apply, legal_actions, new_game
from storage.copy import main
from storage.database import open_database
from storage.models import NewLobby, Owed, RatingUpdate, ResultRow, Status, User
from storage.repo import Repo
from storage.slots import TABLE, hand_slot
from tests.places import Place

ANNA, BORIS = User(1, "Anna", "anna"), User(2, "Boris")


async def an_installation(path: Path) -> tuple[int, int]:
    """A file with a finished, rated game and a game in progress with owed messages: (finished, playing)."""
    repo = Repo(await open_database(path))
    for user in (ANNA, BORIS):
        await repo.save_user(user, private_chat=True)
    done = await repo.create_lobby(NewLobby(-5, 0, ANNA, Rules(), 6, players=[ANNA, BORIS]))
    done = await repo.save_game(done, replace(done, status=Status.PLAYING, state=new_game(Rules(), 2, seed=3)))
    await repo.save_game(done, replace(done, status=Status.FINISHED), results=[
        ResultRow(0, 1, 1, 1, False, False, False, False, False, 0, None),
        ResultRow(1, 2, None, 2, True, False, False, False, False, 0, None)],
        ratings=[RatingUpdate(0, 1, 27.1, 7.9, 3.4), RatingUpdate(0, 2, 22.9, 7.9, -0.8)])
    playing = await repo.create_lobby(NewLobby(-5, 0, BORIS, Rules(), 6, players=[BORIS, ANNA]),
                                      owed=lambda g: [Owed(-5, TABLE, "lobby")])
    state = new_game(Rules(), 2, seed=4)
    seat = state.attacker
    assert seat is not None
    state, _ = apply(state, seat, legal_actions(state, seat)[0])
    await repo.save_game(playing, replace(playing, status=Status.PLAYING, state=state, deadline=1e9,
                                          log=({"k": "lead", "s": seat},)),
                         owed=[Owed(2, hand_slot(0), "your cards"), Owed(-5, TABLE, "the table")])
    await repo.db.close()
    return done.id, playing.id


async def test_a_copy_keeps_every_game_rating_and_owed_message(tmp_path: Path, postgres_url: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "durak.sqlite3"
    done, playing = await an_installation(file)
    assert await asyncio.to_thread(main, ["copy", str(file), postgres_url]) == 0
    out = capsys.readouterr().out
    assert "checked" in out and "2 games" in out and "secret" not in out
    before, after = Repo(await open_database(file)), Repo(await open_database(postgres_url))
    try:
        for game_id in (done, playing):
            assert await after.game(game_id) == await before.game(game_id)
        assert await after.all_ratings(0) == await before.all_ratings(0)
        assert await after.played(chat_id=-5) == await before.played(chat_id=-5)
        owed = await before.owed()
        assert await after.owed() == owed and len(owed) == 2  # the table and a hand
        # the game in progress goes on there, and a new game gets a new id
        game = await after.game(playing)
        assert game is not None and game.state is not None
        moved = await after.save_game(game, replace(game, max_players=4))
        assert moved.version == game.version + 1
        await after.save_game(moved, replace(moved, status=Status.FINISHED))
        assert (await after.create_lobby(NewLobby(-5, 0, ANNA, Rules(), 6))).id > playing
    finally:
        await before.db.close()
        await after.db.close()


async def test_a_copy_into_a_database_that_holds_games_copies_nothing(tmp_path: Path, postgres_url: str,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "durak.sqlite3"
    await an_installation(file)
    assert await asyncio.to_thread(main, ["copy", str(file), postgres_url]) == 0
    assert await asyncio.to_thread(main, ["copy", str(file), postgres_url]) == 1
    err = capsys.readouterr().err
    assert err.startswith("durak-db: nothing copied:") and "already holds games or players" in err
    assert len(err.strip().splitlines()) == 1
    assert Place("postgresql", postgres_url).sql("SELECT count(*) FROM games") == [(2,)]


def test_a_missing_file_copies_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["copy", str(tmp_path / "none.sqlite3"), "postgresql://127.0.0.1:9/none"]) == 1
    assert capsys.readouterr().err.startswith("durak-db: nothing copied: no database at")
    assert not (tmp_path / "none.sqlite3").exists()
