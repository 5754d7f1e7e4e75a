"""The bot keeps nothing for each player it meets: python-telegram-bot, without a persistence, notes every chat
and user an update came from in two sets that only grow (a few hundred bytes a new player, for ever);
``DurakApplication`` does not. Should a release of python-telegram-bot rename what it overrides, this fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from telegram import Update
from telegram.ext import Application, ApplicationBuilder, ContextTypes, MessageHandler, filters

from bot.app import DurakApplication
from tests.bot.transport.test_webhook import UPDATE
from tests.fake_telegram import TOKEN, FakeTelegram


async def noted_after_players(fake: FakeTelegram, cls: type[Application]) -> int:  # type: ignore[type-arg]
    app = ApplicationBuilder().application_class(cls).token(TOKEN).base_url(f"{fake.url}/bot").build()
    handled: list[int] = []

    async def on_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        handled.append(update.update_id)

    app.add_handler(MessageHandler(filters.TEXT, on_message))
    await app.initialize()
    for n in range(50):  # fifty players, each writing from his private chat
        user = {"id": 5000 + n, "is_bot": False, "first_name": "Player"}
        body = {**UPDATE, "update_id": n, "message": {**UPDATE["message"], "from": user,  # type: ignore[dict-item]
                                                     "chat": {**user, "type": "private"}}}
        await app.process_update(Update.de_json(body, app.bot))
    assert handled == list(range(50))
    await app.shutdown()
    return len(app._user_ids_to_be_updated_in_persistence) + len(app._chat_ids_to_be_updated_in_persistence)


async def test_the_bot_notes_nothing_for_the_players_it_meets() -> None:
    fake = FakeTelegram()
    await fake.start()
    try:
        assert await noted_after_players(fake, Application) == 100, "python-telegram-bot keeps each chat and user"
        assert await noted_after_players(fake, DurakApplication) == 0
    finally:
        await fake.stop()


def test_a_bot_on_sqlite_loads_no_postgresql_driver(tmp_path: Path) -> None:
    """What ``python -m bot`` imports, and its SQLite file opened: psycopg and libpq (12 MB and a quarter of the
    start's CPU, docs/performance.md) are loaded only for a ``postgresql://`` DATABASE_URL."""
    code = """
import asyncio, sys, bot.run.start
from storage.database import open_database
async def main():
    db = await open_database(sys.argv[1])
    await db.close()
    return db.engine
engine = asyncio.run(main())
print(engine, *(m for m in sys.modules if m.split(".")[0] in ("psycopg", "psycopg_binary") or m == "storage.postgres"))
"""
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "durak.db")], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    assert out == ["sqlite"]
