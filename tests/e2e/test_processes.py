"""Several bot processes, one bot: three ``python -m bot`` on one PostgreSQL schema behind a round-robin webhook
forwarder, while one process after another is killed (``kill -9``) or stopped (SIGTERM) and started again.

Whatever process an update reaches, and whichever dies, every game ends once, its result and ratings are
recorded once, every message is sent once and shows its last content, every update is handled, lobbies expire
once, and Telegram never sees the bot over its budgets (the fake server answers 429 to a call over them).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from durak import State
from storage.partitions import PARTITION_LOCK, PARTITIONS, partition_of
from tests.e2e.conftest import GROUP
from tests.e2e.harness import Table
from tests.e2e.test_crash import SECRET
from tests.e2e.webapp_client import PageSocket, free_port, hello
from tests.fake_telegram import TOKEN, FakeTelegram, Message
from tests.forwarder import Forwarder
from tests.places import Place, postgres_schema, url_schema

GROUP_EDITS_PER_MINUTE = 60   # the bot's budget per group, and what the fake server allows
SENDS_PER_SECOND = 60         # the bot's overall budget, and what the fake server allows
LOBBY_TIMEOUT = 25            # seconds: the lobbies nobody starts expire while processes come and go
HAND_MARK = "🃏 Durak · you are"


class Member:
    """One bot process of the three; its database connections carry its name (``application_name``)."""

    def __init__(self, fake: FakeTelegram, folder: Path, name: str, url: str, hook: str, ports: list[int],
                 route: str) -> None:
        self.name = name
        self.port = free_port()
        self.webapp_port, self.route = free_port(), route  # its Mini App, at its own path behind a proxy
        self.ports = ports  # the forwarder's: this member's port is in it
        self.folder = folder / name
        self.folder.mkdir()
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "DATABASE_", "WEBHOOK_"))} | {
            "BOT_TOKEN": TOKEN, "TELEGRAM_API_URL": fake.url, "DEFAULT_LANGUAGE": "en",
            "DATABASE_URL": f"{url}&application_name={name}", "WEBHOOK_URL": hook, "WEBHOOK_LISTEN": "127.0.0.1",
            "WEBHOOK_PORT": str(self.port), "WEBHOOK_SECRET": SECRET, "LOBBY_TIMEOUT": str(LOBBY_TIMEOUT),
            "GROUP_EDITS_PER_MINUTE": str(GROUP_EDITS_PER_MINUTE), "SENDS_PER_SECOND": str(SENDS_PER_SECOND),
            "PRIVATE_SENDS_PER_SECOND": "1000", "COMPUTER_PAUSE": "0.2", "WEBAPP_PORT": str(self.webapp_port),
            "WEBAPP_URL": "https://durak.example.org/app/", "WEBAPP_ROUTE": route}
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        self.starts += 1
        for _ in range(3):
            if await self._listening():
                return
            # while it was down a port of its went to another connection or another test's process of this machine
            # (an outgoing connection may take any free port as its own): it comes back on others, the forwarder
            # following its webhook
            new = free_port()
            self.ports[self.ports.index(self.port)] = new
            self.port, self.env["WEBHOOK_PORT"] = new, str(new)
            self.webapp_port = free_port()
            self.env["WEBAPP_PORT"] = str(self.webapp_port)
        raise AssertionError(f"{self.name} found no free port")

    async def _listening(self) -> bool:
        """Start the process and wait until it says it started (its webhook and its Mini App listen then); False
        if it could not listen on a port because the port was taken. A connection to its port is no proof: another
        test's process may hold that port, and this one would die of it a moment later."""
        log = self.folder / "log"
        before = log.stat().st_size if log.exists() else 0
        with log.open("ab") as out:
            self.proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=self.folder,
                                                             env=self.env, stdout=out, stderr=out)
        for _ in range(300):
            said = log.read_bytes()[before:].decode(errors="replace")
            if "Application started" in said and self.proc.returncode is None:
                return True
            if self.proc.returncode is not None:
                if "address already in use" in said.strip().splitlines()[-1]:
                    return False
                raise AssertionError(said[-3000:])
            await asyncio.sleep(0.1)
        raise AssertionError(f"{self.name} never started")

    async def end(self, how: signal.Signals) -> int:
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.send_signal(how)
        try:
            return await asyncio.wait_for(self.proc.wait(), 60)
        except TimeoutError:
            self.proc.send_signal(signal.SIGUSR1)  # its threads' stacks into its log
            with contextlib.suppress(TimeoutError):  # written at once, but by another process: look until it is
                async with asyncio.timeout(5):
                    while "most recent call first" not in (self.folder / "log").read_text():
                        await asyncio.sleep(0.05)
            raise AssertionError(f"{self.name} did not end: {(self.folder / 'log').read_text()[-6000:]}") from None


class Patient(Table):
    """Players who, when the process that took their press dies before answering it, look at their hand again
    (Telegram's spinner stops by itself)."""

    async def press(self, user: int, message: Any, label_or_data: str) -> dict[str, Any]:
        try:
            return await super().press(user, message, label_or_data)
        except TimeoutError:
            return {}


def leading(place: Place, members: list[Member]) -> dict[str, int]:
    """The members that lead partitions now, with how many each (the other tests' processes lead on schemas of
    their own)."""
    rows = place.sql("SELECT a.application_name, COUNT(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                     "WHERE l.locktype = 'advisory' AND l.classid >= ? AND l.classid < ? AND l.granted "
                     "GROUP BY a.application_name", (PARTITION_LOCK, PARTITION_LOCK + PARTITIONS))
    names = {m.name for m in members}
    return {str(name): int(n) for name, n in rows if name in names}


def evenly_shared(shares: dict[str, int], members: int) -> bool:
    """Every partition led, by every live member, none with more than its share."""
    return (len(shares) == members and sum(shares.values()) == PARTITIONS
            and max(shares.values()) <= -(-PARTITIONS // members))


@pytest.fixture
async def fleet(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[tuple[Place, list[Member], Forwarder]]:
    for url in postgres_schema("fleet"):
        fake.group_budget, fake.group_window = GROUP_EDITS_PER_MINUTE, 60.0
        fake.overall_rate, fake.overall_burst = float(SENDS_PER_SECOND), SENDS_PER_SECOND
        ports: list[int] = []
        forwarder = Forwarder(ports)
        members = [Member(fake, tmp_path, f"{url_schema(url)}-{n}", url, f"http://127.0.0.1:{forwarder.port}/hook",
                          ports, f"bot{n}") for n in (1, 2, 3)]
        ports.extend(m.port for m in members)
        await forwarder.start()
        try:
            for member in members:
                await member.start()
            await fake.wait_for(lambda: fake.webhook is not None and len(fake.commands) >= 2, 30)
            place = Place("postgresql", url)
            await fake.wait_for(lambda: evenly_shared(leading(place, members), len(members)), 30)  # noqa: B023
            yield place, members, forwarder
        finally:
            for member in members:
                if member.proc is not None and member.proc.returncode is None:
                    member.proc.kill()
                    await member.proc.wait()
            await forwarder.stop()


async def churn(place: Place, members: list[Member], how: signal.Signals, every: float,
                done: asyncio.Event, leaders_ended: list[float]) -> None:
    """One process after another is ended and started again, every ``every`` seconds, until ``done``; when each
    leader was ended (time.monotonic()) goes into ``leaders_ended``."""
    turn = 0
    while not done.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), every)
        if done.is_set():
            break
        member = members[turn % len(members)]
        turn += 1
        led = member.name in leading(place, members)
        code = await member.end(how)
        if led:
            leaders_ended.append(time.monotonic())
        if how is signal.SIGTERM:
            assert code == 0, (member.folder / "log").read_text()[-3000:]
        await member.start()


class Watcher:
    """A player's Mini App page kept open while processes die: opened each time at a live process that does not
    lead its game (a proxy may send a page anywhere), it follows the 4307 to the one that does, and when that
    one dies or hands the game over it opens again, as the page's script does, until the game is over."""

    def __init__(self, place: Place, members: list[Member], group: int, greeting: dict[str, Any]) -> None:
        self.place, self.members, self.group, self.greeting = place, members, group, greeting
        self.frames: list[dict[str, Any]] = []  # every state frame it was sent, over all its connections
        self.opened = self.sent_on = 0

    def over(self) -> bool:
        return bool(self.frames) and self.frames[-1]["status"] == "over"

    async def watch(self) -> None:
        while not self.over():
            lead = owner(self.place, self.members, self.group)
            alive = [m for m in self.members if m.proc is not None and m.proc.returncode is None]
            elsewhere = [m for m in alive if m.name != lead] or alive
            page = PageSocket(elsewhere[self.opened % len(elsewhere)].webapp_port)
            self.opened += 1
            while True:
                try:
                    frame = await page.open(self.greeting)
                    if frame["type"] == "error":  # what the close that follows is for
                        frame = await page.next()
                except (aiohttp.ClientError, OSError):  # that process died meanwhile
                    frame = {"type": "closed", "code": None}
                while frame["type"] == "state":
                    self.frames.append(frame)
                    if self.over():
                        break
                    frame = await page.next(timeout=600)
                await page.close()
                if frame["type"] != "closed" or frame["code"] != 4307:
                    break
                self.sent_on += 1
                port = next((m.webapp_port for m in self.members if m.route == frame["reason"]), None)
                assert port is not None, frame
                page = PageSocket(port, str(frame["reason"]))
            if not self.over():
                await asyncio.sleep(0.2)  # a page waits a moment before it comes back (app.js)

    def made(self) -> list[int]:
        """The number of moves made, as each frame showed it."""
        return [int(f["moves_made"]) for f in self.frames if "moves_made" in f]


def posted_twice_at_a_kill(fake: FakeTelegram, messages: list[Message], leaders_killed: list[float]) -> bool:
    """Whether the copies of one message (all but the newest) were each posted just before the leader was killed:
    the one moment a message may be posted twice (Telegram has no idempotency key for a new message: the
    leader killed between Telegram's answer and the write of its id cannot know it was posted;
    bot/transport/outbox.py)."""
    def posted_at(message: Message) -> list[float]:
        return [at for (method, p), at in zip(fake.calls, fake.call_times, strict=True) if method == "sendMessage"
                and int(p["chat_id"]) == message.chat_id and p["text"] == message.history[0]]

    return all(any(at <= killed <= at + 1.0 for at in posted_at(copy) for killed in leaders_killed)
               for copy in messages[:-1])


@pytest.mark.sqlite_only  # on PostgreSQL whatever TEST_ENGINE says: run once
@pytest.mark.parametrize(("how", "games", "every"), [pytest.param(signal.SIGKILL, 20, 3.0, marks=pytest.mark.long(65)),
                                                    pytest.param(signal.SIGTERM, 6, 4.0, marks=pytest.mark.long(30))])
async def test_games_played_to_the_end_while_processes_die_end_once_with_every_message_sent_once(
        fake: FakeTelegram, fleet: tuple[Place, list[Member], Forwarder], how: signal.Signals, games: int,
        every: float) -> None:
    place, members, _ = fleet
    tables = []
    for n in range(games):
        group, players = -5000 - n, [1000 + 2 * n, 1001 + 2 * n]
        for user in players:
            fake.add_user(user, f"P{user}")
        fake.add_group(group, f"Table {n}", admins=players[:1])
        tables.append(Patient(fake, group, players, seed=n))
    idle = [-6000, -6001]  # lobbies nobody starts: their timers close them
    for n, group in enumerate(idle):
        fake.add_user(1900 + n, f"Idle{n}")
        fake.add_group(group, f"Idle {n}", admins=[1900 + n])
    await asyncio.gather(*(fake.send_text(1900 + n, group, "/newgame") for n, group in enumerate(idle)))
    await asyncio.gather(*(t.seat_everyone() for t in tables))
    computers = tables[::4]  # a computer sits at every fourth table: its moves are the leader's timers' work
    for table in computers:
        lobby = table.lobby()
        seen = len(lobby.history)
        await table.press(table.players[0], lobby, "🤖+ normal")
        await fake.wait_for(lambda m=lobby, n=seen: len(m.history) > n)
    await asyncio.gather(*(t.start(t.players[0]) for t in tables))
    pages = []  # one player of each game also looks at it in the Mini App
    for table in tables:
        player = table.players[0]
        await fake.wait_for(lambda t=table, p=player: t.hand_message(p) is not None)
        hand = table.hand_message(player)
        assert hand is not None
        pages.append(Watcher(place, members, table.group, hello(player, f"P{player}", hand)))
    watching = [asyncio.ensure_future(page.watch()) for page in pages]

    done = asyncio.Event()
    leaders_ended: list[float] = []
    churning = asyncio.ensure_future(churn(place, members, how, every, done, leaders_ended))
    try:
        await asyncio.gather(*(t.play_to_the_end(timeout=400) for t in tables))
        async with asyncio.timeout(60):
            await asyncio.gather(*watching)
        await fake.wait_for(lambda: place.sql("SELECT COUNT(*) FROM games WHERE status = 'cancelled'") == [(2,)],
                            LOBBY_TIMEOUT + 40)
        async with asyncio.timeout(120):  # the games may end before the churn reached the leader twice: churn on
            while len(leaders_ended) < 2:  # (each start on PostgreSQL waits out the fence's grace)
                await asyncio.sleep(0.2)
    finally:
        done.set()
        await churning
        for task in watching:
            task.cancel()
    for member in members:  # a clean stop: what is owed is delivered, the marks of it written
        assert await member.end(signal.SIGTERM) == 0, (member.folder / "log").read_text()[-3000:]

    assert len(leaders_ended) >= 2, f"the leader was ended only {len(leaders_ended)} times"
    killed = leaders_ended if how is signal.SIGKILL else []
    assert place.sql("SELECT status, COUNT(*) FROM games GROUP BY status ORDER BY status") == [
        ("cancelled", 2), ("finished", games)]
    assert place.sql("SELECT COUNT(*), COUNT(DISTINCT game_id) FROM game_results") == [
        (2 * games + len(computers), games)]
    rated = place.sql("SELECT user_id, scope, COUNT(*) FROM rating_history GROUP BY user_id, scope")
    humans = {user for table in tables if table not in computers for user in table.players}  # with one: unrated
    assert {user for user, _, _ in rated} == humans
    assert all(n == 1 for _, _, n in rated), "each player's one game rated once per scope"
    assert place.sql("SELECT COUNT(*) FROM updates WHERE done = 0") == [(0,)], "every update handled"
    assert place.sql("SELECT COUNT(*) FROM outbox WHERE delivered < wanted") == [(0,)], "nothing owed"

    twice = 0
    for table in tables:
        results = [m for m in table.group_messages() if m.text.startswith("🏁")]
        tables_shown = [m for m in table.group_messages() if not m.text.startswith("🏁")]
        hands = [[m for m in fake.chat_messages(user) if m.text.startswith(HAND_MARK)] for user in table.players]
        for one in (results, tables_shown, *hands):  # each message once, but at a kill in the one window
            assert len(one) == 1 or posted_twice_at_a_kill(fake, one, killed), [m.history[0][:60] for m in one]
            twice += len(one) - 1
    assert twice <= 2, f"{twice} messages posted twice"
    for group in idle:
        lobby, = fake.bot_messages_in(group)
        assert sum("The lobby expired" in text for text in lobby.history) == 1, (lobby.history, place.sql(
            "SELECT slot, text, wanted, delivered, message_id FROM outbox WHERE chat_id = ?", (group,)))
    for chat_id, message_id, text in place.sql("SELECT chat_id, message_id, text FROM outbox WHERE "
                                               "message_id IS NOT NULL AND text IS NOT NULL AND deleted = 0"):
        assert fake.messages[(chat_id, message_id)].text == text, "each message shows its last content"
    assert [e for e in fake.errors if e[1] == 429] == [], "Telegram's budgets held across the processes"
    # every page saw its game to the end, each move once and in order: the moves made never went back (a move
    # shown, then lost at a kill, or an older picture after a newer one) and the last frame shows the game's end
    final = {chat: State.from_json(json.loads(state)).moves
             for chat, state in place.sql("SELECT chat_id, state FROM games WHERE status = 'finished'")}
    for page in pages:
        made = page.made()
        assert made == sorted(made), made
        assert page.over() and made[-1] == final[page.group], (made[-5:], final[page.group])
    assert sum(page.sent_on for page in pages) >= games, "the pages were opened where their games are not led"
    assert sum(page.opened for page in pages) > games, "pages came back after their process died or let go"


@pytest.mark.sqlite_only
@pytest.mark.long(12)
async def test_a_press_posted_again_to_every_process_after_it_was_handled_is_not_handled_again(
        fake: FakeTelegram, fleet: tuple[Place, list[Member], Forwarder]) -> None:
    """Telegram posts an update again when its answer was lost (the process died after its work): whichever
    process gets it, the leader (handling its own posts without storing them) or one standing by (storing it
    for the leader), it finds the update handled: the move is not made twice, and the press keeps its first
    answer (one standing by answers it again, in case nobody had: Telegram refuses that)."""
    place, members, forwarder = fleet
    table = Patient(fake, GROUP, [101, 102], seed=3)
    await table.seat_everyone()
    await table.start(101)

    def moves() -> int:
        return sum(State.from_json(json.loads(state)).moves
                   for state, in place.sql("SELECT state FROM games WHERE state IS NOT NULL"))

    player = next(p for p in table.players if "Your lead" in (table.hand_message(p) or Message(0, 0, "")).text)
    hand = table.hand_message(player)
    assert hand is not None
    answer = await table.press(player, hand, await table.one_card_lead(player, hand))
    assert not answer.get("text") and moves() == 1
    pressed, answered = forwarder.posts[-1], len(fake.answers)
    async with aiohttp.ClientSession() as session:
        for member in members:
            async with session.post(f"http://127.0.0.1:{member.port}/hook", data=pressed, headers={
                    "X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}) as response:
                assert response.status == 200
    # each answered 200 once it handled the post or stored it: the stored ones wait for the leader, and once
    # none is left unhandled every copy has had its chance to move the game or answer the press again
    await fake.wait_for(lambda: place.sql("SELECT COUNT(*) FROM updates WHERE done = 0") == [(0,)], 20)
    assert moves() == 1
    assert len(fake.answers) == answered, "no press answered anew"


@pytest.mark.sqlite_only
@pytest.mark.long(26)
async def test_the_processes_share_the_games_and_a_stopped_ones_go_on_at_the_others(
        fake: FakeTelegram, fleet: tuple[Place, list[Member], Forwarder]) -> None:
    """Each process leads a third of the partitions and decides their games; one stopped (a deploy) hands its
    partitions over first: the others share them within seconds and its games go on there, no move lost. One
    cut off from the database ends, and the last takes every partition."""
    place, members, _ = fleet
    tables = []
    for n in range(6):
        group, players = -7000 - n, [3000 + 2 * n, 3001 + 2 * n]
        for user in players:
            fake.add_user(user, f"P{user}")
        fake.add_group(group, f"Table {n}", admins=players[:1])
        tables.append(Patient(fake, group, players, seed=n))
    await asyncio.gather(*(t.seat_everyone() for t in tables))
    await asyncio.gather(*(t.start(t.players[0]) for t in tables))
    assert evenly_shared(leading(place, members), 3)
    owners = {table.group: owner(place, members, table.group) for table in tables}
    assert len(set(owners.values())) >= 2, f"the games are decided by more than one process: {owners}"

    stopped = members[0]
    assert await stopped.end(signal.SIGTERM) == 0, (stopped.folder / "log").read_text()[-3000:]
    said = (stopped.folder / "log").read_text()
    assert "handed " in said and "partitions over" in said, said[-2000:]
    await fake.wait_for(lambda: evenly_shared(leading(place, members[1:]), 2), 20)
    # one whose leases' connection is cut cannot know whether another leads its games now: it ends at once (75),
    # and its process manager starts it again
    cut = members[1]
    place.sql("SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
              "WHERE l.locktype = 'advisory' AND l.classid >= ? AND l.classid < ? AND a.application_name = ?",
              (PARTITION_LOCK, PARTITION_LOCK + PARTITIONS, cut.name))
    assert cut.proc is not None
    assert await asyncio.wait_for(cut.proc.wait(), 20) == 75
    assert "lost its partitions' leases" in (cut.folder / "log").read_text()
    await fake.wait_for(lambda: leading(place, members) == {members[2].name: PARTITIONS}, 20)
    await asyncio.gather(*(t.play_to_the_end(timeout=200) for t in tables))
    assert place.sql("SELECT status, COUNT(*) FROM games GROUP BY status") == [("finished", 6)]
    assert place.sql("SELECT COUNT(*) FROM updates WHERE done = 0") == [(0,)], "every update handled"

    def owed() -> list[Any]:
        return place.sql("SELECT chat_id, slot, wanted, delivered FROM outbox WHERE delivered < wanted")

    # the result reaches the group while the hands' last edits may still wait for their private chats' pace
    # (a slow machine once asserted in between): wait for the running process to deliver them
    with contextlib.suppress(TimeoutError):
        await fake.wait_for(lambda: not owed(), 30)
    assert owed() == [], "nothing owed"
    for table in tables:  # each game's table and result once, though its process changed mid-game for some
        assert len([m for m in table.group_messages() if m.text.startswith("🏁")]) == 1
        assert len([m for m in table.group_messages() if not m.text.startswith("🏁")]) == 1


def owner(place: Place, members: list[Member], chat_id: int) -> str | None:
    """The member that leads the chat's partition now."""
    rows = place.sql("SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                     "WHERE l.locktype = 'advisory' AND l.classid = ? AND l.granted",
                     (PARTITION_LOCK + partition_of(chat_id),))
    names = {m.name for m in members}
    return next((str(name) for name, in rows if name in names), None)


@pytest.mark.sqlite_only
async def test_a_page_opened_at_a_process_that_does_not_lead_its_game_is_sent_to_the_one_that_does(
        fake: FakeTelegram, fleet: tuple[Place, list[Member], Forwarder]) -> None:
    """A proxy sends a page to any process: one that does not decide its game sends it on to the one that does
    (4307 with that process's route), where it plays; when that process stops, the page is closed as at a
    restart, and opened again anywhere it is sent to the game's new process."""
    place, members, _ = fleet
    table = Patient(fake, GROUP, [101, 102], seed=5)
    await table.seat_everyone()
    await table.start(101)
    by_name = {m.name: m for m in members}
    lead = by_name[str(owner(place, members, GROUP))]
    other = next(m for m in members if m is not lead)
    player = next(p for p in table.players if "Your lead" in (table.hand_message(p) or Message(0, 0, "")).text)
    hand = table.hand_message(player)
    assert hand is not None

    elsewhere = PageSocket(other.webapp_port)
    await elsewhere.open(hello(player, f"P{player}", hand))
    closed = await elsewhere.next()
    await elsewhere.close()
    assert (closed["type"], closed["code"], closed["reason"]) == ("closed", 4307, lead.route)

    page = PageSocket(lead.webapp_port, lead.route)
    state = await page.open(hello(player, f"P{player}", hand))
    assert state["type"] == "state" and state["status"] == "playing"
    card = next(h for h in state["hand"] if h["mark"] == "play")
    answer = await page.press(card["press"])
    assert not answer.get("refused"), answer
    assert place.sql("SELECT COUNT(*) FROM game_moves") == [(1,)], "decided where the game is led, once"

    assert await lead.end(signal.SIGTERM) == 0
    code, _ = await page.closed()
    await page.close()
    assert code == 1012, "closed as at a restart: it reconnects by itself"
    # opened again (the page does it by itself) at a process that is up: sent on to the game's new process
    # (or asked to come back a moment later while that one loads its games), where it plays on
    alive = [m for m in members if m is not lead]
    first, served = await open_where_sent(alive[0].webapp_port, hello(player, f"P{player}", hand),
                                          {m.route: m.webapp_port for m in alive})
    assert first["type"] == "state" and first["status"] == "playing"
    assert served == by_name[str(owner(place, members, GROUP))].webapp_port


async def open_where_sent(port: int, greeting: dict[str, Any], ports: dict[str, int]
                          ) -> tuple[dict[str, Any], int]:
    """Open a page as the Mini App's script does: follow a 4307 to the route it names, come back after a 1013 (or
    a route that is down); its first state frame and the port of the process that served it."""
    route = ""
    async with asyncio.timeout(20):
        while True:
            if route not in ports:  # a process that is down: the page's connection fails, and it starts over
                route = ""
            at = ports[route] if route else port
            page = PageSocket(at, route)
            try:
                frame = await page.open(greeting)
                if frame["type"] == "state":
                    return frame, at
                closed = await page.next()
            finally:
                await page.close()
            assert closed["type"] == "closed" and closed["code"] in (4307, 1013), closed
            if closed["code"] == 4307:
                route = str(closed["reason"])
            else:
                route = ""
                await asyncio.sleep(0.2)


@pytest.mark.sqlite_only
@pytest.mark.long(17)
async def test_a_group_that_becomes_a_supergroup_another_process_leads_plays_on_there(
        fake: FakeTelegram, fleet: tuple[Place, list[Member], Forwarder]) -> None:
    """A group becomes a supergroup mid-game, and the new id's partition is another process's: the game goes
    there with it (its table posted anew in the supergroup) and is played to its end, decided there."""
    place, members, _ = fleet
    table = Patient(fake, GROUP, [101, 102], seed=9)
    await table.seat_everyone()
    await table.start(101)
    await table.play(until=lambda: table.accepted >= 3)
    old_lead = owner(place, members, GROUP)
    new_id = next(chat for chat in range(-1001000000001, -1001000000200, -1)
                  if owner(place, members, chat) not in (None, old_lead))
    await fake.migrate_group(GROUP, new_id)
    await fake.wait_for(lambda: len(fake.chat_messages(new_id)) == 1, 20)  # the table, posted anew there
    table.group, table.since = new_id, 0
    result = await table.play_to_the_end(timeout=120)
    assert result.chat_id == new_id
    assert place.sql("SELECT chat_id, status FROM games") == [(new_id, "finished")]
    assert place.sql("SELECT COUNT(*) FROM updates WHERE done = 0") == [(0,)], "every update handled"
    new_lead = next(m for m in members if m.name == owner(place, members, new_id))
    assert "are decided here now" in (new_lead.folder / "log").read_text()


@pytest.mark.sqlite_only
@pytest.mark.long(10)
async def test_a_creator_who_opened_his_private_chat_at_another_process_can_start_his_game(
        fake: FakeTelegram, fleet: tuple[Place, list[Member], Forwarder]) -> None:
    """Alice opens a game in the group before she ever wrote to the bot (the group's process learns it cannot
    write to her) and cancels it; she opens her private chat with /start, which the process leading that chat
    records, and opens a game again: the group's process starts it, it does not refuse "I can't write to
    Alice" from what it had learnt before. Bob, sent to his private chat by his first Join, opens it with /start
    there and presses Join again: he is seated at once, not sent to his private chat again."""
    place, members, _ = fleet
    group = -8000
    lead = owner(place, members, group)
    alice, bob = [user for user in range(2000, 2400) if owner(place, members, user) not in (None, lead)][:2]
    fake.add_user(alice, "Alice")
    fake.add_user(bob, "Bob")
    fake.add_group(group, "Friends", admins=[alice])
    table = Patient(fake, group, [alice, bob], seed=4)
    first = await table.newgame(alice)
    seen = len(first.history)
    await table.press(alice, first, "Cancel")
    await fake.wait_for(lambda: len(first.history) > seen, 15)
    await fake.send_text(alice, alice, "/start")
    await fake.wait_for(lambda: place.sql("SELECT private_chat FROM users WHERE id = ?", (alice,)) == [(1,)], 15)
    await table.newgame(alice)
    first = await table.press(bob, table.lobby(), "Join")
    assert first.get("url"), first
    await fake.send_text(bob, bob, "/start")
    await fake.wait_for(lambda: place.sql("SELECT private_chat FROM users WHERE id = ?", (bob,)) == [(1,)], 15)
    again = await table.press(bob, table.lobby(), "Join")
    assert again.get("text") == "You joined the game." and not again.get("url"), again
    await fake.wait_for(lambda: "Bob" in table.lobby().text, 15)
    answer = await table.press(alice, table.lobby(), "Start")
    assert not answer.get("text"), answer
    await fake.wait_for(lambda: all(table.hand_message(p) is not None for p in (alice, bob))
                        or "I can't write to" in table.lobby().text, 15)
    assert "I can't write to" not in table.lobby().text


@pytest.mark.sqlite_only
@pytest.mark.long(10)
async def test_a_press_whose_move_was_written_when_its_process_died_is_answered_where_telegram_posts_it_again(
        fake: FakeTelegram, fleet: tuple[Place, list[Member], Forwarder]) -> None:
    """The process leading a game writes a press's move and dies (kill -9) before it answers the press: Telegram
    posts the press again, to another process, which answers it (the button stops spinning); the move stays
    made once. Posted yet again to the process that leads the game now, it is known there too: answered
    without a toast, not decided anew (which would refuse the card, played already, with its reason)."""
    place, members, forwarder = fleet
    table = Patient(fake, GROUP, [101, 102], seed=3)
    await table.seat_everyone()
    await table.start(101)
    player = next(p for p in table.players if "Your lead" in (table.hand_message(p) or Message(0, 0, "")).text)
    hand = table.hand_message(player)
    assert hand is not None
    data = await table.one_card_lead(player, hand)
    lead = next(m for m in members if m.name == owner(place, members, GROUP))
    assert lead.proc is not None
    said = {m.name: len((m.folder / "log").read_text()) for m in members}
    fake.trap, fake.on_trap = (lambda method, _: method == "answerCallbackQuery"), lead.proc.kill
    forwarder.turn = forwarder.ports.index(lead.port)  # Telegram posts the press to the game's lead
    query = await fake.press(player, hand.chat_id, hand.message_id, data)
    answer = await fake.answer(query, timeout=20)
    assert not answer.get("text"), answer
    # killed at its answer (the trap); the event loop may reap it a moment after another process has answered
    assert await asyncio.wait_for(lead.proc.wait(), 20) == -9, "the lead died before it answered"
    pressed = forwarder.posts[-1]

    def moves() -> int:
        return sum(State.from_json(json.loads(state)).moves
                   for state, in place.sql("SELECT state FROM games WHERE state IS NOT NULL"))

    assert moves() == 1
    await fake.wait_for(lambda: owner(place, members, GROUP) not in (None, lead.name), 20)
    now = next(m for m in members if m.name == owner(place, members, GROUP))
    await fake.wait_for(lambda: "partitions (took" in (now.folder / "log").read_text()[said[now.name]:], 20)
    calls = len(fake.calls)
    async with aiohttp.ClientSession() as session, session.post(
            f"http://127.0.0.1:{now.port}/hook", data=pressed,
            headers={"X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}) as response:
        assert response.status == 200
    again = [p for m, p in fake.calls[calls:] if m == "answerCallbackQuery"]
    assert again and not any(p.get("text") for p in again), again
    assert moves() == 1


@pytest.mark.sqlite_only
@pytest.mark.long(12)
async def test_a_process_back_after_a_crash_gets_idle_partitions_back_and_a_game_is_not_moved_twice(
        fake: FakeTelegram, fleet: tuple[Place, list[Member], Forwarder]) -> None:
    """The process leading a group with an open lobby is killed; another takes the group's partition. When the
    killed one is back, the others hand it its share from their partitions with no game at once, and the
    group stays where it went (each move pauses its messages: the fence, and the group's pace anew)."""
    place, members, _ = fleet
    group = next(chat for chat in range(-9000, -9999, -1) if partition_of(chat) == PARTITIONS - 1)
    fake.add_user(4000, "Anna")
    fake.add_group(group, "Late", admins=[4000])
    table = Patient(fake, group, [4000], seed=1)
    await table.newgame(4000)  # the highest partition: the first a process handed its surplus over by number
    crashed = next(m for m in members if m.name == owner(place, members, group))
    assert crashed.proc is not None
    crashed.proc.kill()
    await crashed.proc.wait()
    await fake.wait_for(lambda: sum(leading(place, members).values()) == PARTITIONS, 20)
    taker = owner(place, members, group)
    assert taker not in (None, crashed.name)
    await crashed.start()
    share = PARTITIONS // len(members) - 2  # each survivor hands its surplus over but the group's partition
    await fake.wait_for(lambda: leading(place, members).get(crashed.name, 0) >= share, 20)
    assert owner(place, members, group) == taker, "the group moved again at once"
    lobby = table.lobby()
    seen = len(lobby.history)
    await table.press(4000, lobby, "🤖+ normal")
    await fake.wait_for(lambda: len(lobby.history) > seen, 10)
