"""Where the bot keeps its games, as the settings say."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings
from tests.fake_telegram import TOKEN


def test_the_sqlite_file_unless_a_postgresql_url_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert load_settings(bot_token=TOKEN, database_path=Path("games.sqlite3")).database == Path("games.sqlite3")
    url = "postgresql://durak@db:5432/durak"
    assert load_settings(bot_token=TOKEN, database_url=url).database == url
    assert load_settings(bot_token=TOKEN, database_url="").database == Path("durak.sqlite3"), "empty: not set"


def test_a_database_url_of_another_kind_is_refused_with_its_name() -> None:
    with pytest.raises(SettingsError, match="DATABASE_URL must be a postgresql:// URL"):
        load_settings(bot_token=TOKEN, database_url="sqlite:///durak.sqlite3")
