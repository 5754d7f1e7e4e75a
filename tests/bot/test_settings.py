"""Where the bot keeps its games, as the settings say."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from bot.settings import Settings, SettingsError, load_settings
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


def test_the_compose_file_sets_only_settings_that_exist_and_caddy_reaches_the_ports_they_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A misspelled name in compose.yaml would be ignored without a word (and the bot would poll, or listen
    where Caddy does not forward): every name is a setting, the whole loads, and the Caddyfile proxies the
    paths and ports they give to the three processes, and each process's own Mini App route to it alone."""
    root = Path(__file__).resolve().parents[2]
    compose = yaml.safe_load((root / "compose.yaml").read_text())
    bots = {name: s for name, s in compose["services"].items() if s.get("build") == "."}
    assert sorted(bots) == ["bot1", "bot2", "bot3"]
    caddy = (root / "deploy" / "Caddyfile").read_text()
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    for name, bot in bots.items():
        environment = {k: str(v).replace("${DOMAIN:?set DOMAIN to the bot's public host name}", "durak.example.org")
                       .replace("${DOMAIN}", "durak.example.org") for k, v in bot["environment"].items()}
        assert {k: v for k, v in bot["environment"].items() if k != "WEBAPP_ROUTE"} == {
            k: v for k, v in bots["bot1"]["environment"].items() if k != "WEBAPP_ROUTE"}
        unknown = [k for k in environment if k.lower() not in Settings.model_fields]
        assert unknown == []
        settings = load_settings(bot_token=TOKEN, webhook_secret="s3cret",
                                 **{k.lower(): v for k, v in environment.items()})
        assert settings.database == "postgresql://durak:durak@postgres:5432/durak"
        assert settings.webapp_route == name
        hook, app = urlsplit(settings.webhook_url or ""), urlsplit(settings.webapp_url or "")
        assert f"handle {hook.path} {{" in caddy and f"handle {app.path}* {{" in caddy
        assert f"handle {app.path}ws/{name} {{\n\t\treverse_proxy {name}:{settings.webapp_port}\n" in caddy
        ports = (settings.webhook_port, settings.webapp_port)
        assert all(" ".join(f"{b}:{port}" for b in sorted(bots)) in caddy for port in ports)
    assert compose["services"]["caddy"]["volumes"][0].startswith("./deploy/Caddyfile:")
