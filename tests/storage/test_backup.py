"""durak-backup: a consistent copy of the live database, and a clear line when it cannot make one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from durak import Rules
from storage.backup import main
from storage.models import NewLobby, User
from storage.repo import Repo
from storage.sqlite import SqliteDatabase


async def test_a_backup_taken_while_the_bot_holds_the_database_open_has_every_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    live = tmp_path / "durak.sqlite3"
    repo = Repo(await SqliteDatabase.open(live))  # open, in WAL mode, as a running bot keeps it
    await repo.save_user(User(1, "Anna"))
    game = await repo.create_lobby(NewLobby(-5, 0, User(1, "Anna"), Rules(), 6))
    dest = tmp_path / "backup.sqlite3"
    assert main([str(dest), "--database", str(live)]) == 0
    assert "backed up" in capsys.readouterr().out
    with sqlite3.connect(dest) as copy:
        assert copy.execute("SELECT id, status FROM games").fetchall() == [(game.id, "lobby")]
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert not (tmp_path / "backup.sqlite3.part").exists()
    await repo.db.close()


def test_a_missing_database_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "b.sqlite3"), "--database", str(tmp_path / "nothing.sqlite3")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("durak-backup: no database at") and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "b.sqlite3").exists()


def test_the_source_is_database_path_from_the_env_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    live = tmp_path / "games.sqlite3"
    with sqlite3.connect(live) as db:
        db.execute("CREATE TABLE t (x)")
    (tmp_path / ".env").write_text(f"BOT_TOKEN=x\nDATABASE_PATH={live}\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    assert main([str(tmp_path / "copy.sqlite3")]) == 0
    assert f"backed up {live}" in capsys.readouterr().out
