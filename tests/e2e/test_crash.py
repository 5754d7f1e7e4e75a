"""``kill -9`` at each point where a message is owed, then a restart: every message arrives, exactly once.

The bot runs as its own process (``python -m bot``) against the fake Bot API server; the server
kills it the moment a chosen call arrives (after the database commit, before Telegram has seen the
call), or the test kills it once the send has been recorded. Updates the dead process never
confirmed are delivered again, as Telegram does.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from durak import State, apply
from durak.actions import action_from_json
from storage.partitions import PARTITIONS
from tests.e2e.conftest import GROUP
from tests.e2e.harness import Table
from tests.fake_telegram import TOKEN, FakeTelegram, Message
from tests.places import place_of

SECRET = "webhook-secret_0123456789"


class BotProgram:
    """``python -m bot`` in its own process, from its ``.env``."""

    def __init__(self, fake: FakeTelegram, folder: Path, webhook_port: int | None = None, **settings: object) -> None:
        """``webhook_port``: in webhook mode, listening there (``WEBHOOK_SECRET`` is :data:`SECRET`); ``settings``:
        more of its ``.env`` (``review_deals=…``)."""
        self.fake = fake
        self.folder = folder
        self.proc: asyncio.subprocess.Process | None = None
        hook = "" if webhook_port is None else (f"WEBHOOK_URL=http://127.0.0.1:{webhook_port}/hook\n"
                                                f"WEBHOOK_LISTEN=127.0.0.1\nWEBHOOK_PORT={webhook_port}\n"
                                                f"WEBHOOK_SECRET={SECRET}\n")
        (folder / ".env").write_text(f"BOT_TOKEN={TOKEN}\nTELEGRAM_API_URL={fake.url}\nPOLL_TIMEOUT=1\n"
                                     "DEFAULT_LANGUAGE=en\nGROUP_EDITS_PER_MINUTE=6000\nSENDS_PER_SECOND=1000\n"
                                     "PRIVATE_SENDS_PER_SECOND=1000\n"
                                     + hook + "".join(f"{k.upper()}={v}\n" for k, v in settings.items()))
        self.settings = {k.upper() for k in settings}  # over the tests' own environment (tests/conftest.py)
        self.place = place_of(folder / "durak.sqlite3")
        self.log = (folder / "log").open("ab")  # every start's, one after the other

    def logged(self) -> str:
        self.log.flush()
        return (self.folder / "log").read_text()

    async def start(self, up: bool = True) -> None:
        """``up``: wait until the process has started (resumed its games) and polls, or has set its webhook, and
        on PostgreSQL leads every partition (it says so in its log: those of a process killed before are taken
        once PostgreSQL sees it gone, and led a moment later); else only until it is starting (sets its
        commands)."""
        env = {k: v for k, v in os.environ.items() if k not in (
            "BOT_TOKEN", "DATABASE_PATH", "DATABASE_URL", "TELEGRAM_API_URL", "WEBHOOK_URL", "WEBHOOK_LISTEN",
            "WEBHOOK_PORT", "WEBHOOK_SECRET", *self.settings)} | self.place.environment
        self.fake.commands.clear()  # this process's own start is waited for, not the one before
        since, said = len(self.fake.calls), len(self.logged())
        self.proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=self.folder, env=env,
                                                         stdout=asyncio.subprocess.DEVNULL,
                                                         stderr=self.log)
        await self.fake.wait_for(lambda: len(self.fake.commands) >= 2, 30)
        if up:
            await self.fake.wait_for(lambda: any(method in ("getUpdates", "setWebhook")
                                                 for method, _ in self.fake.calls[since:]), 30)
        if up and self.place.engine == "postgresql":
            await self.fake.wait_for(lambda: f"leading {PARTITIONS} partitions" in self.logged()[said:], 30)

    def kill(self) -> None:
        """kill -9: no clean-up of any kind."""
        assert self.proc is not None
        self.proc.kill()

    async def dead(self) -> None:
        assert self.proc is not None
        await asyncio.wait_for(self.proc.wait(), 10)

    async def stop_when_idle(self) -> None:
        """The barrier of a test that shows something did *not* happen: once Telegram holds no update for the bot
        (each fetched and confirmed, or posted and answered) and the database none unhandled (the updates stored
        on PostgreSQL), the process is stopped cleanly (SIGTERM). It finishes every update it took and delivers
        what it owes before it exits: whatever it would still have done, it has done by then."""
        await self.fake.wait_for(lambda: not self.fake.holds_updates(), 30)
        await self.fake.wait_for(lambda: self.query("SELECT COUNT(*) FROM updates WHERE done = 0") == [(0,)], 30)
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(self.proc.wait(), 60) == 0, "stopped cleanly"
        assert self.query("SELECT COUNT(*) FROM outbox WHERE delivered < wanted") == [(0,)], "with nothing owed"

    async def restart_after_kill(self) -> None:
        await self.dead()
        await self.start()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        self.log.close()

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        return self.place.sql(sql, params)


@pytest.fixture
async def program(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProgram]:
    bot = BotProgram(fake, tmp_path)
    await bot.start()
    yield bot
    await bot.stop()


def kill_on(fake: FakeTelegram, bot: BotProgram, method: str, when: Callable[[dict[str, Any]], bool],
            served: bool = False) -> None:
    """Kill the bot the moment it makes this call: the commit is done, Telegram never sees the call (``served``:
    Telegram makes it, and the bot dies before it reads the answer)."""
    fake.trap = lambda m, p: m == method and when(p)
    fake.trap_served = served
    fake.on_trap = bot.kill


def table_points(table: Table) -> int:
    """All a finished tournament table of n gives its players: 2 × (n − rank) each, n × (n − 1) in all."""
    return len(table.players) * (len(table.players) - 1)


def lobbies(table: Table) -> list[Message]:
    return [m for m in table.group_messages() if any(
        b.get("callback_data", "").startswith("v1:j:") for b in m.buttons())]


async def test_killed_before_the_lobby_message_is_sent(fake: FakeTelegram, program: BotProgram) -> None:
    table = Table(fake, GROUP, [101, 102])
    kill_on(fake, program, "sendMessage", lambda p: int(p["chat_id"]) == GROUP)
    await fake.send_text(101, GROUP, "/newgame")
    await program.restart_after_kill()
    await fake.wait_for(lambda: len(lobbies(table)) == 1, 20)
    await table.join(102)  # the lobby works
    await program.stop_when_idle()
    assert len(lobbies(table)) == 1, "posted once"
    assert program.query("SELECT COUNT(*) FROM games")[0][0] == 1


async def test_killed_after_the_lobby_message_was_sent(fake: FakeTelegram, program: BotProgram) -> None:
    table = Table(fake, GROUP, [101, 102])
    await fake.send_text(101, GROUP, "/newgame")
    await fake.wait_for(lambda: bool(program.query(
        "SELECT 1 FROM outbox WHERE slot = 'table' AND message_id IS NOT NULL AND delivered = wanted")), 20)
    program.kill()
    await program.restart_after_kill()
    await table.join(102)
    await program.stop_when_idle()
    assert len(lobbies(table)) == 1, "not posted again"


async def test_killed_while_dealing_the_hands(fake: FakeTelegram, program: BotProgram) -> None:
    table = Table(fake, GROUP, [101, 102, 103])
    await table.seat_everyone()
    kill_on(fake, program, "sendMessage", lambda p: int(p["chat_id"]) in table.players)
    await table.fake.press(101, GROUP, table.lobby().message_id, table.button(table.lobby(), "Start"))
    await program.dead()
    # requests the dead bot had already sent are still served, as Telegram would: until its connections close
    await fake.wait_for(lambda: fake.open_connections() == 0)
    # hands Telegram posted for the dead bot: their answers never reached it
    served = {int(p["chat_id"]) for m, p in fake.calls
              if m == "sendMessage" and str(p.get("text", "")).startswith("🃏 Durak · ")}
    await program.start()
    await fake.wait_for(lambda: all(table.hand_message(p) is not None for p in table.players), 20)
    await program.stop_when_idle()
    assert len(served) < len(table.players), "the kill came before a hand was posted"
    for player in table.players:
        hands = [m for m in fake.chat_messages(player) if m.text.startswith("🃏 Durak · ")]
        # the one window Telegram leaves open (no idempotency key): a message posted just before the kill,
        # whose answer the dead bot never recorded, is posted again; no other hand is ever doubled
        assert len(hands) == 1 or (player in served and len(hands) == 2), f"player {player}: {len(hands)} hands"
    assert program.query("SELECT status FROM games")[0][0] == "playing"
    await program.start()
    await table.play(until=lambda: State.from_json(json.loads(
        program.query("SELECT state FROM games")[0][0])).moves >= 3, timeout=60)


async def test_a_hand_posted_as_the_bot_died_is_deleted_when_its_player_presses_it(fake: FakeTelegram,
                                                                                    program: BotProgram) -> None:
    """Telegram posted Anna's hand and the bot died before it wrote the message's id: the next process posts it
    again (the window Telegram leaves open: no idempotency key). The first copy still has buttons and shows an
    older position as the game goes on; a press on it is refused with its toast and the copy deleted, so that one
    hand with live buttons is left."""
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone()
    kill_on(fake, program, "sendMessage", lambda p: int(p["chat_id"]) == 101
            and str(p.get("text", "")).startswith("🃏 Durak · "), served=True)
    await table.fake.press(101, GROUP, table.lobby().message_id, table.button(table.lobby(), "Start"))
    await program.restart_after_kill()

    def hands() -> list[Message]:
        return [m for m in fake.chat_messages(101) if m.text.startswith("🃏 Durak · ")]

    await fake.wait_for(lambda: len(hands()) == 2, 20)
    old, new = hands()
    assert old.message_id < new.message_id and old.buttons(), "the first copy is there, with its buttons"
    data = str(old.buttons()[0]["callback_data"])
    # the same press forged on the group's table: refused, and nothing there is deleted
    table_message = table.group_messages()[0]
    query = await fake.press(101, GROUP, table_message.message_id, data)
    assert (await fake.answer(query))["text"] == "This button is not valid any more."
    # Telegram failing the delete: the copy stays, and the next press on it deletes it
    fake.failures["deleteMessage"].append((502, "Bad Gateway"))
    query = await fake.press(101, 101, old.message_id, data)
    assert (await fake.answer(query))["text"] == "This button is not valid any more."
    await fake.wait_for(lambda: ("deleteMessage", 502, "Bad Gateway") in fake.errors, 10)
    assert old.message_id in [m.message_id for m in hands()]
    query = await fake.press(101, 101, old.message_id, data)
    assert (await fake.answer(query))["text"] == "This button is not valid any more."
    await fake.wait_for(lambda: [m.message_id for m in hands()] == [new.message_id], 10)
    assert table_message in table.group_messages() and not any(
        m == "deleteMessage" and int(p["chat_id"]) == GROUP for m, p in fake.calls), "nothing in the group deleted"
    # the hand the bot keeps is untouched and plays
    await table.play(until=lambda: State.from_json(json.loads(
        program.query("SELECT state FROM games")[0][0])).moves >= 2, timeout=60)
    assert [m.message_id for m in hands()] == [new.message_id]


async def test_killed_before_the_result_is_posted(fake: FakeTelegram, program: BotProgram) -> None:
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone()
    await table.start(101)
    kill_on(fake, program, "sendMessage", lambda p: str(p.get("text", "")).startswith("🏁"))
    for user in table.players:  # both leave: the computer plays the game to its end
        await fake.send_text(user, GROUP, "/leave")
    await program.dead()
    assert program.query("SELECT status FROM games")[0][0] == "finished", "the end was committed"
    [(deal, end)] = program.query("SELECT deal, state FROM games")
    replayed = State.from_json(json.loads(deal))
    for seat, action in program.query("SELECT seat, action FROM game_moves ORDER BY n"):
        replayed, _ = apply(replayed, seat, action_from_json(json.loads(action)))
    assert replayed.to_json() == json.loads(end), "the game's record, committed with it, replays to its end"
    assert table.result() is None
    await program.start()
    await fake.wait_for(lambda: table.result() is not None, 20)
    await program.stop_when_idle()
    assert len([m for m in table.group_messages() if m.text.startswith("🏁")]) == 1
    assert "Waiting for" not in table.group_messages()[0].text


async def test_killed_between_a_move_and_its_answer(fake: FakeTelegram, program: BotProgram) -> None:
    """The press is redelivered after the restart; the move it made is not made twice."""
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone()
    await table.start(101)
    state = State.from_json(json.loads(program.query("SELECT state FROM games")[0][0]))
    attacker = table.players[state.attacker or 0]
    hand = table.hand_message(attacker)
    assert hand is not None
    card = await table.one_card_lead(attacker, hand)
    kill_on(fake, program, "answerCallbackQuery", lambda p: True)
    await fake.press(attacker, hand.chat_id, hand.message_id, card)
    await program.restart_after_kill()
    await program.stop_when_idle()  # the press delivered again is handled by then
    after = State.from_json(json.loads(program.query("SELECT state FROM games")[0][0]))
    assert after.moves == 1, "applied once"
    assert program.query("SELECT n, seat FROM game_moves") == [(0, state.attacker)], "and recorded once"


async def test_killed_right_after_the_result_was_sent(fake: FakeTelegram, program: BotProgram) -> None:
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone()
    await table.start(101)
    for user in table.players:
        await fake.send_text(user, GROUP, "/leave")
    await fake.wait_for(lambda: bool(program.query(
        "SELECT 1 FROM outbox WHERE slot = 'result' AND message_id IS NOT NULL AND delivered = wanted")), 20)
    program.kill()
    await program.restart_after_kill()
    await program.stop_when_idle()
    assert len([m for m in table.group_messages() if m.text.startswith("🏁")]) == 1, "not posted again"
    hands = [m for p in table.players for m in fake.chat_messages(p) if m.text.startswith("🃏 Durak · ")]
    assert len(hands) == 2, "one hand each, never re-posted"


async def test_a_stop_signal_while_the_bot_starts_ends_the_start_cleanly(fake: FakeTelegram,
                                                                       program: BotProgram) -> None:
    """A deploy that stops the bot a moment after it started (SIGTERM while it resumes its games): the start is
    abandoned in order, the process ends at once with nothing in its log but the stop, and the next start
    delivers what the game owes and plays on."""
    table = Table(fake, GROUP, [101, 102])
    await table.seat_everyone()
    await table.start(101)
    await program.stop_when_idle()
    program.log.write(b"-- the start that is stopped\n")
    program.log.flush()
    fake.trap = lambda method, p: method == "setMyCommands" and p.get("language_code") == "de"  # its last
    fake.trap_served = True
    fake.on_trap = lambda: program.proc.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
    await program.start(up=False)
    assert await asyncio.wait_for(program.proc.wait(), 30) == 0  # type: ignore[union-attr]
    stopped = program.logged().split("-- the start that is stopped")[1]
    assert "Traceback" not in stopped and " ERROR " not in stopped and " WARNING " not in stopped, stopped
    await program.start()
    await table.play(until=lambda: State.from_json(json.loads(
        program.query("SELECT state FROM games")[0][0])).moves >= 2, timeout=60)


async def test_a_tournament_killed_at_its_tables_deal_and_at_their_result(fake: FakeTelegram,
                                                                          program: BotProgram) -> None:
    """Six players, two tables at once: a kill as the tables are dealt, and again as a table's result is posted,
    loses nothing and doubles nothing (the tournament, its players and their points are rows like a game's)."""
    from tests.e2e.test_tournaments import PLAYERS, Seated, points, standings, tables_now

    for user in PLAYERS:
        await fake.send_text(user, user, "/start")
    await fake.send_text(101, GROUP, "/tournament 10")
    await fake.wait_for(lambda: any(m.text.startswith("🏆 Tournament") for m in fake.chat_messages(GROUP)), 20)
    message = standings(fake)
    kill_on(fake, program, "sendMessage", lambda p: int(p["chat_id"]) > 0 and str(p.get("text", "")).startswith(
        "🃏 Durak · you are"))  # a hand of a first table
    for user in PLAYERS:
        await fake.answer(await fake.press(user, GROUP, message.message_id, Table.button(message, "Join")))
    await program.dead()  # five seconds after they joined, as the first hand was sent
    dealt = program.query("SELECT COUNT(*) FROM games WHERE tournament IS NOT NULL AND status = 'playing'")[0][0]
    assert dealt >= 1, "a table's deal committed"
    await program.start()
    await fake.wait_for(lambda: len(tables_now(fake)) == 2, 30)  # the other table too, seated after the restart
    tables = [Seated(fake, GROUP, seated, seed=n) for n, seated in enumerate(tables_now(fake))]
    for table in tables:
        table.since = message.message_id
        await fake.wait_for(lambda t=table: all(t.hand_message(p) is not None for p in t.players), 20)
    kill_on(fake, program, "sendMessage", lambda p: str(p.get("text", "")).startswith("🏁"))

    async def until_killed(table: Seated) -> None:
        with contextlib.suppress(TimeoutError):  # a press the dead process never answers
            await table.play(lambda: program.proc is not None and program.proc.returncode is not None, 120)

    await asyncio.gather(*(until_killed(t) for t in tables))
    await program.dead()
    [(won, played)] = program.query("SELECT SUM(points), SUM(games) FROM tournament_players")
    # who was free five seconds first decides the tables (3 + 3, or 2 + 4 on a slow machine): a table of n gives
    # its n players n × (n − 1) points in all (2 × (n − rank) each)
    finished = {(sum(len(t.players) for t in done), sum(table_points(t) for t in done))
                for k in (1, 2) for done in itertools.combinations(tables, k)}
    assert (played, won) in finished, ("each finished table's points, written with its result", finished)
    await program.start()
    await fake.send_text(101, GROUP, "/tournament stop")  # no new table: those seated finish, then it is over
    await fake.wait_for(lambda: "time is up" in standings(fake).text, 20)
    await asyncio.gather(*(t.play_to_the_end(timeout=120) for t in tables))
    first = sum(table_points(t) for t in tables)
    await fake.wait_for(lambda: sum(points(fake).values()) >= first, 20)  # the standings after both tables
    more = [Seated(fake, GROUP, seated, seed=9) for seated in tables_now(fake)]  # seated before the stop came
    for table in more:
        table.since = max(m.message_id for m in fake.chat_messages(GROUP))
    await asyncio.gather(*(t.play_to_the_end(timeout=120) for t in more))
    await fake.wait_for(lambda: any(m.text.startswith("🏆 The tournament is over!") for m in fake.chat_messages(GROUP)),
                        20)
    total = first + sum(table_points(t) for t in more)
    assert sum(points(fake).values()) == total
    await program.stop_when_idle()
    assert len([m for m in fake.chat_messages(GROUP) if m.text.startswith("🏁")]) == 2 + len(more), "each once"
    assert len([m for m in fake.chat_messages(GROUP) if m.text.startswith("🏆 Tournament")]) == 1
    games = sum(len(t.players) for t in [*tables, *more])
    assert program.query("SELECT SUM(points), SUM(games) FROM tournament_players") == [(total, games)]
