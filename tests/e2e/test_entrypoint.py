"""``durak-bot`` as a program: settings from the environment, long polling, a clean stop."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

import psycopg
import pytest

from storage.partitions import PARTITION_LOCK, PARTITIONS
from storage.postgres import OWNER_LOCK
from tests.e2e.conftest import GROUP
from tests.fake_telegram import TOKEN, FakeTelegram
from tests.places import Place, postgres_schema, url_schema


def env(**values: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if k not in (
        "BOT_TOKEN", "DATABASE_PATH", "DATABASE_URL", "TELEGRAM_API_URL", "WEBHOOK_URL", "WEBHOOK_SECRET",
        "STARTUP_RETRIES")}
    return {**clean, **values}


async def run(cwd: Path, **values: str) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=cwd, env=env(**values),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    return proc.returncode or 0, err.decode()


async def test_a_missing_token_says_how_to_get_one(tmp_path: Path) -> None:
    code, err = await run(tmp_path)
    assert code == 2
    assert "BOT_TOKEN is missing" in err and "@BotFather" in err


async def test_a_malformed_token_is_refused(tmp_path: Path) -> None:
    code, err = await run(tmp_path, BOT_TOKEN="not-a-token")
    assert code == 2
    assert "BOT_TOKEN is malformed" in err


async def test_the_bot_runs_from_its_env_file_and_stops_cleanly(fake: FakeTelegram, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"BOT_TOKEN={TOKEN}\nTELEGRAM_API_URL={fake.url}\nPOLL_TIMEOUT=1\n"
                                   "DEFAULT_LANGUAGE=en\n")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env(),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await fake.wait_for(lambda: "ru" in fake.commands, 20)
        await fake.send_text(101, GROUP, "/newgame")
        await fake.wait_for(lambda: any("Players (1/" in m.text for m in fake.chat_messages(GROUP)), 20)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()[-2000:]
    assert (tmp_path / "durak.sqlite3").exists(), "the database is created on first start"


@pytest.mark.sqlite_only
async def test_a_corrupt_database_ends_the_start_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "durak.sqlite3").write_bytes(b"SQLite format 3\x00" + b"\x13" * 4000)
    code, err = await run(tmp_path, BOT_TOKEN=TOKEN, TELEGRAM_API_URL="http://127.0.0.1:9")
    assert code == 3, err
    assert "cannot start: the database" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


async def test_a_postgresql_server_that_does_not_answer_ends_the_start_with_one_line(tmp_path: Path) -> None:
    code, err = await run(tmp_path, BOT_TOKEN=TOKEN, TELEGRAM_API_URL="http://127.0.0.1:9",
                          DATABASE_URL="postgresql://durak:secret@127.0.0.1:9/durak")
    assert code == 3, err
    assert err.startswith("durak-bot cannot start: the database postgresql://durak@127.0.0.1:9/durak cannot be "
                          "reached"), err
    assert "secret" not in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


async def test_a_database_url_that_is_not_postgresql_is_refused_with_one_line(tmp_path: Path) -> None:
    code, err = await run(tmp_path, BOT_TOKEN=TOKEN, DATABASE_URL="mysql://127.0.0.1/durak")
    assert code != 0 and "DATABASE_URL must be a postgresql:// URL" in err and "Traceback" not in err, err


@pytest.mark.sqlite_only
async def test_a_read_only_database_ends_the_start_with_one_line(tmp_path: Path) -> None:
    database = tmp_path / "durak.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE t (x)")
    database.chmod(0o444)
    # as root the file mode alone would not stop a write: drop the capability that overrides it
    prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search",
              "--inh-caps=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
    proc = await asyncio.create_subprocess_exec(*prefix, sys.executable, "-m", "bot", cwd=tmp_path,
                                                env=env(BOT_TOKEN=TOKEN, TELEGRAM_API_URL="http://127.0.0.1:9"),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, raw = await asyncio.wait_for(proc.communicate(), 30)
    err = raw.decode()
    assert proc.returncode == 3, err
    assert "read-only" in err and len(err.strip().splitlines()) == 1, err


async def test_no_network_at_start_is_retried_then_ends_with_one_line(tmp_path: Path) -> None:
    code, err = await run(tmp_path, BOT_TOKEN=TOKEN, TELEGRAM_API_URL="http://127.0.0.1:9", STARTUP_RETRIES="1",
                          LOG_LEVEL="ERROR")
    assert code == 4, err
    assert "could not be reached after 1 retries" in err
    assert "network" in err and "proxy" in err and "TELEGRAM_API_URL" in err, "what to check"
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 3, err


async def test_webhook_mode_refuses_to_start_without_its_secret(tmp_path: Path) -> None:
    code, err = await run(tmp_path, BOT_TOKEN=TOKEN, WEBHOOK_URL="https://example.org/hook")
    assert code == 2
    assert "WEBHOOK_SECRET is required" in err


async def test_the_placeholder_token_of_the_example_file_says_how_to_get_one(tmp_path: Path) -> None:
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    (tmp_path / ".env").write_text(example)
    code, err = await run(tmp_path)
    assert code == 2
    assert "BOT_TOKEN is still the example's placeholder" in err and "@BotFather" in err


async def test_a_token_telegram_refuses_ends_with_one_line(fake: FakeTelegram, tmp_path: Path) -> None:
    code, err = await run(tmp_path, BOT_TOKEN="123456789:AAEwrongwrongwrongwrongwrongwrongwro",
                          TELEGRAM_API_URL=fake.url, LOG_LEVEL="ERROR")
    assert code == 2, err
    assert "Telegram refused BOT_TOKEN" in err
    assert "Unclosed" not in err and "Traceback" not in err and len(err.strip().splitlines()) <= 2, err


async def test_a_webhook_secret_telegram_would_refuse_stops_the_start(tmp_path: Path) -> None:
    code, err = await run(tmp_path, BOT_TOKEN=TOKEN, WEBHOOK_URL="https://example.org/hook",
                          WEBHOOK_SECRET="a-long-random-string   (required with WEBHOOK_URL)")
    assert code == 2
    assert "WEBHOOK_SECRET may hold only the characters" in err


async def bot_saying(fake: FakeTelegram, cwd: Path, url: str, said: bytes, **values: str
                     ) -> asyncio.subprocess.Process:
    """``python -m bot`` on ``url`` with long polling, once it has said ``said``; its stderr is piped."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        env=env(BOT_TOKEN=TOKEN, TELEGRAM_API_URL=fake.url, DATABASE_URL=url, POLL_TIMEOUT="1",
                DEFAULT_LANGUAGE="en", **values))
    await says(proc, said)
    return proc


async def says(proc: asyncio.subprocess.Process, said: bytes) -> None:
    assert proc.stderr is not None
    line = b""
    while said not in line:
        line = await asyncio.wait_for(proc.stderr.readline(), 30)
        assert line, "the process ended"


async def ended(*procs: asyncio.subprocess.Process) -> None:
    for proc in procs:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


POLLS, STANDS_BY = b"this process polls Telegram", b"stands by to poll"


@pytest.mark.long(14)
async def test_a_second_bot_process_on_the_same_postgresql_database_shares_the_games_and_takes_the_polling_over(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """With long polling, one process polls and stores each update for the process that leads its game; a second
    one says it stands by to poll and leads its share of the games meanwhile; when the first goes, the second polls
    and decides every game, the first one's open lobby included."""
    for url in postgres_schema("two"):
        place = Place("postgresql", url)
        first = await bot_saying(fake, tmp_path, url, POLLS)
        second = await bot_saying(fake, tmp_path, url, STANDS_BY)
        try:
            await fake.wait_for(lambda: len(place.sql(  # noqa: B023
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid >= ? AND classid < ? AND granted "
                "AND objid = hashtext(current_schema())::oid GROUP BY pid",  # this schema's, not another test's
                (PARTITION_LOCK, PARTITION_LOCK + PARTITIONS))) == 2, 20)
            await fake.send_text(101, GROUP, "/newgame")
            await fake.wait_for(lambda: any("Players (1/" in m.text for m in fake.chat_messages(GROUP)), 20)
            first.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(first.wait(), 30) == 0
            await says(second, POLLS)
            lobby = next(m for m in fake.chat_messages(GROUP) if "Players (1/" in m.text)
            game_id = place.sql("SELECT id FROM games")[0][0]
            await fake.send_text(102, 102, f"/start join_{game_id}")
            shown = (GROUP, lobby.message_id)
            await fake.wait_for(lambda: "Players (2/" in fake.messages[shown].text, 20)  # noqa: B023
        finally:
            await ended(first, second)


async def test_a_leader_whose_connection_was_lost_while_another_took_the_lead_stops_at_once(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """A poller cut off from the database cannot know whether another process polls now: the moment it finds the
    poller's lock taken, it ends (code 75) with one line, and its process manager starts it again."""
    for url in postgres_schema("lost"):
        name = f"{url_schema(url)}-a"
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE, env=env(BOT_TOKEN=TOKEN, TELEGRAM_API_URL=fake.url,
                                                    DATABASE_URL=f"{url}&application_name={name}", POLL_TIMEOUT="1"))
        try:
            assert bot.stderr is not None
            said = ""
            while "this process polls Telegram" not in said:  # the poller at work, not one still starting
                said = (await asyncio.wait_for(bot.stderr.readline(), 30)).decode()
                assert said, "the bot ended before it started"
            with psycopg.connect(url, autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_stat_activity a ON "
                              "a.pid = l.pid WHERE l.locktype = 'advisory' AND l.classid = %s AND "
                              "a.application_name = %s", (OWNER_LOCK, name))
                for _ in range(100):  # the other process takes the lead before the bot connects again
                    taken = other.execute("SELECT pg_try_advisory_lock(%s, hashtext(current_schema()))",
                                          (OWNER_LOCK,)).fetchone()
                    if taken and taken[0]:
                        break
                    await asyncio.sleep(0.01)
                else:
                    raise AssertionError("the bot's lead was never let go")
                code = await asyncio.wait_for(bot.wait(), 20)
            said = (await bot.stderr.read()).decode()
            assert code == 75, said
            assert "another durak-bot process took the polling while this one's connection was lost" in said, said
        finally:
            if bot.returncode is None:
                bot.kill()
            await bot.wait()


async def test_a_process_standing_by_stops_cleanly_on_sigterm(fake: FakeTelegram, tmp_path: Path) -> None:
    """A deploy stops a process that does not poll: it hands its games over and ends with code 0, and the poller
    goes on, deciding them."""
    for url in postgres_schema("standby"):
        first = await bot_saying(fake, tmp_path, url, POLLS)
        second = await bot_saying(fake, tmp_path, url, STANDS_BY)
        try:
            second.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(second.wait(), 15) == 0
            assert second.stderr is not None
            rest = (await second.stderr.read()).decode()
            assert "Traceback" not in rest and "ERROR" not in rest, rest
            await fake.send_text(101, GROUP, "/newgame")
            await fake.wait_for(lambda: any("Players (1/" in m.text for m in fake.chat_messages(GROUP)), 20)
        finally:
            await ended(first, second)
