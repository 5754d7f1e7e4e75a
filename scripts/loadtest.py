"""Load test: the bot in its own process, many games at once, players pressing what they see.

    python scripts/loadtest.py --games 20 --players 2 --think 0 --seconds 30 [--limited] [--json]

Starts the fake Bot API server (``tests/fake_telegram.py``, answering at once) in this process
and ``python -m bot`` as a child with the limiter raised, so the bot's own cost shows. Each of
``--games`` groups plays game after game with ``--players`` scripted players who press only
buttons they see, waiting up to twice ``--think`` seconds (uniformly) before each press (and each
group as long before its first ``/newgame``); a player whose hand changed while he thought decides
again, as a person looks again (``rethought`` counts those), and one who takes presses no card.
Prints presses per second, the press-to-answer time and the bot's handler time (p50/p95/p99; also the
part before the answer was sent, the rest being the wait for Telegram's reply to it),
the bot's CPU per press, SQL statements per press, Telegram calls per applied move (by method),
and the bot's memory over time. ``--limited`` keeps Telegram's real budgets (the fake server answers
429 past 20 calls a minute in a group, about one a second in a private chat after a burst of four,
and 30 a second in all; the bot paces itself by its settings), and prints, for the accepted presses
made after ``--warmup`` seconds, how long until a hand showed its player that the game awaits him (the
player who must act), until the group's table showed it, each hand, and all of them (everyone sees
the move); moves not shown to everyone within a minute after the players stop count as never shown;
and the turn timeouts the bot's own backlog caused. A press answered that his hand waits for the budget (✔) is
accepted, and its player waits for his hand twice as long (``confirmed``); ``unanswered`` counts the presses
whose hand did not change within 30 s (he then looks again), ``refused_after_unanswered`` the refusals of the
press that followed one.
``--computers N`` seats N computers of ``--level`` at each table (at every K-th: ``--computer-every K``)
besides the players (their moves are thought out in the bot's worker process, whose CPU is not counted
as the bot's); with ``hard``, how much they thought (``hard_moves``: each move's budget and its search's
iterations).
``--pages N`` opens the Mini App (the bot serves it on a local port) for the first N players of each
game, one WebSocket each beside their chat presses, and prints the time from each accepted press to
the first frame each page of its game got after it (p50/p95/p99). ``--python`` runs the bot with
another interpreter (a venv with the compiled build: ``DURAK_COMPILE=1 pip install .``).
``--page-players N``: the first N players of each game play from the Mini App's page instead of the chat (they
read its frames, acknowledge each as the page does, and press what it offers), so their hand messages wait
while the page is open; the lags above are then the chat players' (the table and their hands), and
``press_to_page_frame_ms`` the page players'.
``--database-url postgresql://…`` runs the bot on that PostgreSQL server (in a schema of its own, dropped at
the end) instead of a SQLite file, and prints the server's CPU per accepted press beside the bot's.
``--processes N`` runs N bot processes in webhook mode behind a round-robin forwarder (``tests/forwarder.py``),
as behind a load balancer (more than one needs ``--database-url``: they share the games, each with its Mini App
on a port of its own, each page connected to its game's process); the CPU, memory and SQL statements are all of
theirs together.
``--cpu-quota Q`` caps each bot process (and the processes it starts) at Q of one core, by a cgroup of its own
(cgroup v2's ``cpu.max``, or v1's ``cpu.cfs_quota_us``; run as root), so that several processes together use
less than the machine and the figures show what more processes add (the curve: docs/operating.md).
``--pages-elsewhere`` opens each page at a process that does not lead its game, which sends it on (4307) to the
one that does: ``page_open_ms`` (a page's socket opened to its first state frame) then includes that detour.
``--tournament N`` adds a group where N players play a tournament (its admin opens it, all join, its tables
run at once in the group) beside the ``--games`` groups, and prints its tables, its presses, and with
``--limited`` how soon its tables and hands showed each move (its group's edits share that group's budget).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ui.callbacks import Verb
from durak.ai.hard import ITERATIONS_MIN
from storage.partitions import PARTITION_LOCK, PARTITIONS, partition_of
from tests.e2e.harness import Table, playable, refused
from tests.e2e.test_crash import SECRET
from tests.e2e.webapp_client import PageSocket, free_port, game_param, hand_link, init_data
from tests.fake_telegram import TOKEN, FakeTelegram, Message
from tests.forwarder import Forwarder
from tests.places import Place, postgres_schema

MISSING = Message(0, 0, "", None)  # a hand not posted yet: no buttons
PATIENCE = 30.0  # seconds a player waits for his message to change after a press (or the lobby to show a step)
WATCH = 180.0  # seconds a move is watched for: not shown by then (or by the end of the run's tail) is never shown
TAIL = 60.0    # seconds after the players stop that the moves already made are still watched (--limited)
LOAD_NAME = "durak-load"  # the bot processes' application_name on PostgreSQL: durak-load-0, -1, …


def led_partitions(place: Place) -> dict[str, int]:
    """How many partitions each bot process of this run leads now."""
    return {str(name): int(n) for name, n in place.sql(
        "SELECT a.application_name, COUNT(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.classid >= ? AND l.classid < ? AND l.granted "
        "AND a.application_name LIKE ? GROUP BY a.application_name",
        (PARTITION_LOCK, PARTITION_LOCK + PARTITIONS, f"{LOAD_NAME}-%"))}


def shares(processes: int) -> list[int]:
    """The partitions each of ``processes`` leads once they are shared (each takes up to its share, in turn)."""
    share = -(-PARTITIONS // processes)
    counts = [min(share, PARTITIONS - share * n) for n in range(processes)]
    return sorted(c for c in counts if c > 0)


COUNTED = ("answerCallbackQuery", "editMessageText", "editMessageReplyMarkup", "sendMessage", "deleteMessage")


@dataclass
class Stats:
    latency: list[float] = field(default_factory=list)
    accepted: int = 0
    refused: int = 0
    reasons: Counter[str] = field(default_factory=Counter)  # refusal toasts: stale or illegal presses
    rethought: int = 0  # decisions dropped because the hand changed during the think (he looked again)
    confirmed: int = 0  # accepted presses answered that his hand waits for Telegram's budget
    unanswered: int = 0  # presses after which the hand did not change within PATIENCE (he then looks again)
    refused_after_unanswered: int = 0  # refusals of the press a player made next
    stalls: int = 0  # waits that timed out (lobby or game not moving): a sign of overload
    stall_steps: Counter[str] = field(default_factory=Counter)  # the lobby's step each stall happened at
    lag: list[float] = field(default_factory=list)  # an accepted press until the table and every hand showed it
    acting_lag: list[float] = field(default_factory=list)  # ... until a hand showed its player the game awaits him
    table_lag: list[float] = field(default_factory=list)   # ... until the group's table showed it
    hand_lag: list[float] = field(default_factory=list)    # ... until each hand showed it (one sample per hand)
    never_shown: int = 0  # accepted presses not shown to everyone before the watch ended
    watch_from: float = 0.0  # presses before this (time.monotonic) are not watched: the groups still arrive
    track_lag: bool = False
    watching: set[asyncio.Future[None]] = field(default_factory=set)  # the lag watchers still waiting
    page_lag: list[float] = field(default_factory=list)  # an accepted press to the next frame of each page
    page_frames: int = 0
    page_open: list[float] = field(default_factory=list)  # a page's socket opened to its first state frame
    page_redirects: int = 0  # pages sent on (4307) to their game's process


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds() -> float:
    """CPU of every PostgreSQL server process on this machine (its backends serve the bot's connection)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            text = stat.read_text()
            if text.split("(", 1)[1].startswith("postgres"):
                total += cpu_seconds(int(stat.parent.name))
    return total


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def wait_change(fake: FakeTelegram, table: Table, message: Message, seen: int, timeout: float = 2.0) -> bool:
    """Wait until the message changed or the game ended; False if ``timeout`` came first."""
    try:
        await fake.wait_for(lambda: len(message.history) > seen or table.over(), timeout,
                            on=(message.chat_id, table.group))
    except TimeoutError:
        return False
    return True


async def player(fake: FakeTelegram, table: Table, user: int, stop_at: float, think: float, stats: Stats,
                 rng: random.Random, pressed: list[float] | None = None, chat_users: list[int] | None = None) -> None:
    unanswered = False  # his last press left his hand as it was for PATIENCE seconds
    while not table.over() and time.monotonic() < stop_at:
        message = table.hand_message(user)
        if message is None:
            await asyncio.sleep(0.05)
            continue
        seen = len(message.history)
        options = playable(message)
        if not options:
            await wait_change(fake, table, message, seen)
            continue
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
            if len(message.history) > seen:  # as a person: his hand changed while he thought, he looks again
                stats.rethought += 1
                continue
        data = table.choose(options)
        started = time.monotonic()
        before = shown_now(table, chat_users)  # before the press: the bot may show the move before its answer
        try:
            answer = await table.press(user, message, data)
        except TimeoutError:
            stats.stalls += 1
            stats.stall_steps["press"] += 1
            continue
        stats.latency.append(time.monotonic() - started)
        if refused(answer):  # as a person does: read the toast, then wait for the message to change
            stats.refused += 1
            stats.reasons[f"{answer['text']} ({Verb(data.split(':')[1]).name})"] += 1  # the toast and what was pressed
            stats.refused_after_unanswered += unanswered
            unanswered = not await wait_change(fake, table, message, seen, PATIENCE)
            stats.unanswered += unanswered
            continue
        stats.accepted += 1
        if pressed is not None:
            pressed.append(started)
        unpicked = any(b.get("callback_data") == data and b["text"].startswith("✅") for b in message.buttons())
        if stats.track_lag and started >= stats.watch_from and not unpicked:  # taking back a pick moves nothing
            watcher = asyncio.ensure_future(lag(fake, before, message, started, stats))
            stats.watching.add(watcher)
            watcher.add_done_callback(stats.watching.discard)
        # as a person: his card must leave his hand; told it counted and the hand will follow (✔), he waits longer
        confirmed = bool(answer.get("text"))
        stats.confirmed += confirmed
        unanswered = not await wait_change(fake, table, message, seen, PATIENCE * (2 if confirmed else 1))
        stats.unanswered += unanswered


def awaits(hand: Message) -> bool:
    """The hand shows its player that the game waits for him: his lead, or a move only he can make (cover or
    Take, Done, Pass); not a throw-in he may make while the defender thinks."""
    return "Your lead" in hand.text or any(not b["callback_data"].startswith(("v1:c:", "v1:f:", "v1:d:"))
                                           for b in playable(hand))


def shown_now(table: Table, users: list[int] | None = None) -> tuple[list[tuple[Message, int]],
                                                                     list[tuple[Message, int]]]:
    """The game's table and hands (of ``users``: those who play in the chat), each with how many versions of it
    were shown so far."""
    hands = [m for m in (table.hand_message(u) for u in users or table.players) if m is not None]
    return [(m, len(m.history)) for m in table.group_messages()[-1:]], [(m, len(m.history)) for m in hands]


class NotAMove(Exception):
    """The press selected a card (its hand shows ✅ and the targets): nothing for the others to see."""


async def lag(fake: FakeTelegram, before: tuple[list[tuple[Message, int]], list[tuple[Message, int]]],
              own: Message | None, pressed: float, stats: Stats) -> None:
    """How long until the table and every hand of the game showed something newer than before the press; and
    the first hand to show its player that the game awaits him (the player who must act), the table, each hand.
    ``own``: the presser's hand (a press that only selected a card is no move, and not counted)."""
    tables, hands = before
    delays: dict[int, float] = {}
    firsts: list[float] = []

    async def shown(i: int, message: Message, n: int) -> None:
        await fake.wait_for(lambda: len(message.history) > n, WATCH, on=(message.chat_id,))
        if message is own and any(b["text"].startswith("✅") for b in message.buttons()):
            raise NotAMove
        delays[i] = time.monotonic() - pressed
        if i >= len(tables) and awaits(message):
            firsts.append(delays[i])

    watchers = [asyncio.ensure_future(shown(i, m, n)) for i, (m, n) in enumerate(tables + hands)]
    try:
        await asyncio.gather(*watchers)
    except NotAMove:
        return
    except (TimeoutError, asyncio.CancelledError):
        stats.never_shown += 1
        return
    finally:
        for watcher in watchers:
            watcher.cancel()
    stats.lag.append(max(delays.values(), default=0.0))
    stats.table_lag += [delays[i] for i in range(len(tables))]
    stats.hand_lag += [delays[i] for i in range(len(tables), len(delays))]
    if firsts:
        stats.acting_lag.append(min(firsts))


async def open_pages(table: Table, users: list[int], port: int, stats: Stats,
                     routes: dict[str, int]) -> list[tuple[PageSocket, list[float]]]:
    """A Mini App page for each of ``users``: its socket, and the times its state frames arrived. A page sent on
    to its game's process (4307 and the route) connects there, as the page's script does (``routes``: each
    process's Mini App port by its ``WEBAPP_ROUTE``)."""
    opened = []
    for user in users:
        # this game's hand (the last game's, over, has no button; under the budget the new one may come late)
        await table.fake.wait_for(lambda u=user: any("web_app" in b for b in
                                                     (table.hand_message(u) or MISSING).buttons()), PATIENCE)
        hand = table.hand_message(user)
        assert hand is not None
        hello = {"type": "hello", "init_data": init_data(user, f"P{user}"), "game": game_param(hand_link(hand))}
        began, at, route = time.monotonic(), port, ""
        while True:
            page = PageSocket(at, route)
            frame = await page.open(hello)
            if frame["type"] == "state":
                break
            if frame["type"] == "error":  # what the close that follows is for
                frame = await page.next()
            await page.close()
            if frame["type"] != "closed" or frame["code"] != 4307:
                raise TimeoutError(f"a page was refused: {frame}")  # counted as a stall
            stats.page_redirects += 1
            route = str(frame["reason"])
            at = routes[route]
        stats.page_open.append(time.monotonic() - began)
        opened.append((page, []))
    return opened


async def read_frames(page: PageSocket, arrivals: list[float]) -> None:
    assert page.ws is not None
    async for message in page.ws:
        if message.type is not aiohttp.WSMsgType.TEXT:
            break
        if message.data.startswith('{"type":"state"'):
            arrivals.append(time.monotonic())


class PageFeed:
    """A page that plays: its socket's state frames (each acknowledged at once, as the page does) and answers."""

    def __init__(self, page: PageSocket) -> None:
        self.page = page
        self.state: dict[str, Any] | None = None
        self.count = 0
        self.arrivals: list[float] = []
        self.answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.changed = asyncio.Event()

    async def read(self) -> None:
        assert self.page.ws is not None
        async for message in self.page.ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(message.data)
            if frame["type"] == "state":
                self.state, self.count = frame, self.count + 1
                self.arrivals.append(time.monotonic())
                await self.page.ws.send_str(json.dumps({"type": "ack", "n": frame["n"]}))
                self.changed.set()
                self.changed = asyncio.Event()
            elif frame["type"] == "answer":
                self.answers.put_nowait(frame)

    async def beyond(self, seen: int, timeout: float) -> bool:
        """Wait for a frame after the ``seen``-th; False if ``timeout`` came first."""
        deadline = time.monotonic() + timeout
        while self.count <= seen:
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                return False
        return True


async def page_player(fake: FakeTelegram, table: Table, feed: PageFeed, stop_at: float, think: float, stats: Stats,
                      rng: random.Random, pressed: list[float], chat_users: list[int]) -> None:
    """A player on the page: presses what its frame offers (cards to play or pick, the moves' buttons)."""
    assert feed.page.ws is not None
    while not table.over() and time.monotonic() < stop_at:
        st, seen = feed.state, feed.count
        options = [] if st is None or st["status"] != "playing" else [
            *({"text": h["card"], "callback_data": h["press"]} for h in st["hand"] if h["mark"] in ("play", "pick",
                                                                                                    "picked")),
            *({"text": b["text"], "callback_data": b["press"]} for b in st["buttons"]
              if not b["text"].startswith(("🚪", "🎭", "Accuse")))]
        if not options:
            await feed.beyond(seen, 2.0)
            continue
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
            if feed.count > seen:
                stats.rethought += 1
                continue
        data = table.choose(options)
        started = time.monotonic()
        before = shown_now(table, chat_users)
        await feed.page.ws.send_str(json.dumps({"type": "press", "data": data, "id": 1}))
        try:
            answer = await asyncio.wait_for(feed.answers.get(), PATIENCE)
        except TimeoutError:
            stats.stalls += 1
            stats.stall_steps["page press"] += 1
            continue
        stats.latency.append(time.monotonic() - started)
        if answer.get("refused"):
            stats.refused += 1
            stats.reasons[f"{answer['text']} ({Verb(data.split(':')[1]).name}, page)"] += 1
            await feed.beyond(seen, PATIENCE)
            continue
        stats.accepted += 1
        pressed.append(started)
        if stats.track_lag and started >= stats.watch_from and data.split(":")[1] != Verb.PICK:
            watcher = asyncio.ensure_future(lag(fake, before, None, started, stats))
            stats.watching.add(watcher)
            watcher.add_done_callback(stats.watching.discard)
        await feed.beyond(seen, PATIENCE)


def page_lags(pressed: list[float], arrivals: list[float]) -> list[float]:
    """For each press, the wait until the page's next frame (presses the page saw no frame after: none)."""
    lags, i = [], 0
    for t in sorted(pressed):
        while i < len(arrivals) and arrivals[i] < t:
            i += 1
        if i < len(arrivals):
            lags.append(arrivals[i] - t)
    return lags


async def group(fake: FakeTelegram, chat: int, users: list[int], stop_at: float, think: float,
                stats: Stats, delay: float = 0.0, computers: int = 0, level: str = "hard",
                pages: int = 0, port: Callable[[int], int] = lambda chat: 0, page_players: int = 0,
                routes: dict[str, int] | None = None) -> None:
    rng = random.Random(chat)
    await asyncio.sleep(delay)  # under the real budget groups arrive one after another, as in life
    while time.monotonic() < stop_at:
        table = Table(fake, chat, users, seed=rng.randrange(1 << 30), patience=PATIENCE)
        try:
            await table.seat_everyone()
            for _ in range(computers):  # the creator seats computers of ``level`` too
                lobby = table.lobby()
                seen = len(lobby.history)
                await table.press(users[0], lobby, f"🤖+ {level}")
                await fake.wait_for(lambda m=lobby, n=seen: len(m.history) > n, PATIENCE)
            await table.start(users[0])
        except (TimeoutError, AssertionError, RuntimeError) as e:  # RuntimeError: a StopIteration (no lobby yet)
            stats.stalls += 1
            frames = traceback.extract_tb(e.__traceback__)
            stats.stall_steps[frames[min(1, len(frames) - 1)].name] += 1  # the step group() was in
            await asyncio.sleep(5)
            continue
        try:
            opened = await open_pages(table, users[:pages], port(chat), stats, routes or {}) if pages else []
            feeds = [PageFeed(page) for page, _ in await open_pages(table, users[:page_players], port(chat), stats,
                                                                    routes or {})]
        except TimeoutError:  # this game's hands never came: the bot is overloaded
            stats.stalls += 1
            stats.stall_steps["open_pages"] += 1
            continue
        readers = [asyncio.ensure_future(read_frames(page, arrivals)) for page, arrivals in opened]
        feeders = [asyncio.ensure_future(feed.read()) for feed in feeds]
        pressed: list[float] = []
        chat_users = users[page_players:]
        await asyncio.gather(*(player(fake, table, u, stop_at, think, stats, rng, pressed, chat_users)
                               for u in chat_users),
                             *(page_player(fake, table, feed, stop_at, think, stats, rng, pressed, chat_users)
                               for feed in feeds))
        await asyncio.sleep(0.5)  # the last move's frames
        for feed, feeder in zip(feeds, feeders, strict=True):
            feeder.cancel()
            await feed.page.close()
            stats.page_lag += page_lags(pressed, feed.arrivals)
            stats.page_frames += len(feed.arrivals)
        for (page, arrivals), reader in zip(opened, readers, strict=True):
            reader.cancel()
            await page.close()
            stats.page_lag += page_lags(pressed, arrivals)
            stats.page_frames += len(arrivals)
        with contextlib.suppress(TimeoutError):  # the result comes last: the next lobby is not mistaken for it
            await fake.wait_for(lambda t=table: t.result() is not None, max(0.0, stop_at - time.monotonic()),
                                on=(table.group,))


class TournamentSeat(Table):
    """One tournament player's view: his newest hand, whichever table it is of, and that table's message."""

    def __init__(self, fake: FakeTelegram, chat: int, user: int, place: Place, seed: int) -> None:
        super().__init__(fake, chat, [user], seed=seed, patience=PATIENCE)
        self.place = place
        self.tables: dict[int, int | None] = {}  # game -> its table message

    def over(self) -> bool:  # his tables follow one another until the run stops
        return False

    def group_messages(self) -> list[Message]:
        hand = self.hand_message(self.players[0])
        ids = [int(b["callback_data"].split(":")[2]) for b in (hand.buttons() if hand else [])
               if b.get("callback_data", "").startswith("v1:")]
        if not ids:
            return []
        if self.tables.get(ids[0]) is None:
            rows = self.place.sql("SELECT message_id FROM outbox WHERE game_id = ? AND slot = 'table'", (ids[0],))
            self.tables[ids[0]] = rows[0][0] if rows and rows[0][0] is not None else None
        found = self.fake.messages.get((self.group, self.tables[ids[0]] or 0))
        return [found] if found is not None else []


async def tournament_group(fake: FakeTelegram, chat: int, users: list[int], stop_at: float, think: float,
                           stats: Stats, place: Place) -> None:
    """Its admin opens a tournament lasting past the run, everyone joins, and each plays every table he is dealt."""
    rng = random.Random(chat)
    for user in users:
        await fake.send_text(user, user, "/start")
    await fake.send_text(users[0], chat, f"/tournament {max(5, math.ceil((stop_at - time.monotonic()) / 60) + 2)}")
    await fake.wait_for(lambda: any(m.text.startswith("🏆") for m in fake.chat_messages(chat)), PATIENCE)
    message = next(m for m in fake.chat_messages(chat) if m.text.startswith("🏆"))
    join = Table.button(message, "Join")
    for user in users:
        await fake.answer(await fake.press(user, chat, message.message_id, join))
    seats = [TournamentSeat(fake, chat, user, place, rng.randrange(1 << 30)) for user in users]
    await asyncio.gather(*(player(fake, seat, seat.players[0], stop_at, think, stats, rng, None, seat.players)
                           for seat in seats))


def calls_by_kind(calls: list[tuple[str, dict[str, Any]]]) -> dict[str, int]:
    """The messages' calls by what they serve: the group's table (posts, edits, deletes), the hands in the
    private chats, and the turn pings (a ping is posted anew and its old one deleted)."""
    kinds = {"table": 0, "hands": 0, "pings": 0}
    for method, p in calls:
        if method not in ("editMessageText", "sendMessage", "deleteMessage"):
            continue
        if int(p["chat_id"]) < 0:
            kinds["table"] += 1
        elif method == "deleteMessage" or str(p.get("text", "")).startswith("🔔"):
            kinds["pings"] += 1
        else:
            kinds["hands"] += 1
    return kinds


def picks(inside: dict[str, Any]) -> int:
    return int(by_verb(inside, "handler_seconds").get("PICK", {}).get("n", 0))


def applied_moves(place: Place) -> tuple[int, int]:
    """Moves applied in all games, and those the turn timer made."""
    rows = place.sql("SELECT state FROM games WHERE state IS NOT NULL")
    timed_out = [r for (r,) in place.sql("SELECT event FROM game_events") if '"by":"timeout"' in r]
    return sum(int(json.loads(state).get("moves", 0)) for (state,) in rows), len(timed_out)


def by_verb(inside: dict[str, Any], key: str) -> dict[str, dict[str, float]]:
    """One of the handler's times (the bot's metrics file) by the button pressed, the most pressed first."""
    times: dict[str, list[float]] = {}
    for verb, seconds in zip(inside.get("verbs", []), inside.get(key, []), strict=False):
        times.setdefault(verb, []).append(seconds)
    return {verb: {"n": len(t), **percentiles(t)} for verb, t in sorted(times.items(), key=lambda i: -len(i[1]))}


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples) or [0.0]
    q = statistics.quantiles(ordered, n=100) if len(ordered) > 1 else ordered * 99
    return {"p50": round(q[49] * 1000, 1), "p95": round(q[94] * 1000, 1), "p99": round(q[98] * 1000, 1)}


async def run(games: int, players: int, think: float, seconds: float, limited: bool = False,
              computers: int = 0, level: str = "hard", pages: int = 0, python: str = sys.executable,
              warmup: float = 0.0, computer_every: int = 1, database_url: str | None = None,
              processes: int = 0, page_players: int = 0, cpu_quota: float | None = None,
              pages_elsewhere: bool = False, tournament: int = 0) -> dict[str, Any]:
    fake = FakeTelegram()
    if limited:  # Telegram's own budgets, enforced with 429s: a group's, a private chat's, the bot's
        fake.group_budget, fake.group_window = 20, 60.0
        fake.private_rate, fake.private_burst = 1.0, 4
        fake.overall_rate, fake.overall_burst = 30.0, 30
    await fake.start()
    folder = Path(tempfile.mkdtemp(prefix="durak-load-"))
    schemas = postgres_schema("load", database_url) if database_url else None  # a schema of its own on that server
    place = Place("postgresql", next(schemas)) if schemas else Place("sqlite", folder / "db.sqlite3")
    inherited = {k: v for k, v in os.environ.items() if k not in ("DATABASE_PATH", "DATABASE_URL")}
    env = {**inherited, "BOT_TOKEN": TOKEN, "TELEGRAM_API_URL": fake.url, **place.environment,
           "POLL_TIMEOUT": "1", "DEFAULT_LANGUAGE": "en", "LOG_LEVEL": "WARNING",
           "METRICS_FILE": str(folder / "metrics.json"),
           "GROUP_EDITS_PER_MINUTE": "20" if limited else "100000", "SENDS_PER_SECOND": "30" if limited else "100000",
           "PRIVATE_SENDS_PER_SECOND": "1" if limited else "100000",
           # players who press the moment a frame comes would pass a person's flood limit (5 frames a second)
           "WEBAPP_FRAMES_PER_SECOND": "5" if limited else "100000"}
    webapp_ports = [free_port() for _ in range(max(processes, 1))]  # each process serves the Mini App on its own
    if pages or page_players:  # the Mini App's server, on a local port
        env.update(WEBAPP_PORT=str(webapp_ports[0]), WEBAPP_URL=f"http://127.0.0.1:{webapp_ports[0]}/app/")

    routes = {f"p{n}": webapp_ports[n] for n in range(processes)} if processes > 1 else {}

    def port(chat: int) -> int:
        """The Mini App's port of the process that decides this chat's game (its partition's lead), where a page
        connects directly; with ``pages_elsewhere``, of the next process, which sends it on (4307)."""
        if processes <= 1:
            return webapp_ports[0]
        rows = place.sql("SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                         "WHERE l.locktype = 'advisory' AND l.classid = ? AND l.granted",
                         (PARTITION_LOCK + partition_of(chat),))
        names = [str(name) for name, in rows if str(name).startswith(f"{LOAD_NAME}-")]
        lead = int(names[0].rsplit("-", 1)[1]) if names else 0
        return webapp_ports[(lead + 1) % processes if pages_elsewhere else lead]

    chats = []
    for g in range(games):
        chat = -100_000 - g
        users = [1_000 + g * 10 + i for i in range(players)]
        for u in users:
            fake.add_user(u, f"P{u}")
        fake.add_group(chat, f"Group {g}", admins=[users[0]])
        chats.append((chat, users))
    contest = (-200_000, [5_000 + i for i in range(tournament)]) if tournament else None
    if contest is not None:
        for u in contest[1]:
            fake.add_user(u, f"T{u}")
        fake.add_group(contest[0], "Tournament", admins=[contest[1][0]])
    ports = [free_port() for _ in range(processes)]
    forwarder = Forwarder(ports)
    procs = []
    capped: list[CpuCap] = []
    if processes:
        await forwarder.start()
    for n in range(max(processes, 1)):
        own = dict(env)
        if processes:
            own.update(WEBHOOK_URL=f"http://127.0.0.1:{forwarder.port}/hook", WEBHOOK_LISTEN="127.0.0.1",
                       WEBHOOK_PORT=str(ports[n]), WEBHOOK_SECRET=SECRET, METRICS_FILE=str(folder / f"metrics{n}.json"))
            if pages or page_players:
                own.update(WEBAPP_PORT=str(webapp_ports[n]), WEBAPP_ROUTE=f"p{n}" if processes > 1 else "")
            if schemas:
                own.update(DATABASE_URL=f"{place.target}&application_name={LOAD_NAME}-{n}")
        procs.append(await asyncio.create_subprocess_exec(python, "-m", "bot", cwd=folder, env=own,
                                                          stdout=asyncio.subprocess.DEVNULL,
                                                          stderr=asyncio.subprocess.DEVNULL))
        if cpu_quota is not None:
            capped.append(CpuCap(f"durak-load-{procs[-1].pid}", cpu_quota, procs[-1].pid))
    try:
        await fake.wait_for(lambda: len(fake.commands) >= 2, 30)
        if processes > 1 and schemas:  # every partition led, shared evenly, before the players come
            await fake.wait_for(lambda: sorted(led_partitions(place).values()) == shares(processes), 60)
        stats = Stats(track_lag=limited)
        calls_before = len(fake.calls)
        cpu_before, postgres_before = sum(cpu_seconds(p.pid) for p in procs), postgres_cpu_seconds()
        started = time.monotonic()
        stop_at = started + seconds
        memory: list[float] = []

        async def sample_memory() -> None:
            while True:
                memory.append(round(sum(rss_mb(p.pid) for p in procs), 1))
                await asyncio.sleep(max(seconds / 6, 1))

        sampler = asyncio.ensure_future(sample_memory())
        # starting a game costs about a dozen calls (lobby, joins, table, hands, ping): under the real
        # budget of 30 calls a second, groups open their games spread over the first part of the run;
        # otherwise each group thinks before its /newgame as before any press (all at once with no think)
        arrivals = [i * 12 / 30 if limited else random.Random(chat).uniform(0, 2 * think)
                    for i, (chat, _) in enumerate(chats)]
        stats.watch_from = started + warmup
        contest_stats = Stats(track_lag=limited, watch_from=started + warmup)
        await asyncio.gather(*(group(fake, chat, users, stop_at, think, stats, arrivals[i],
                                     computers if i % computer_every == 0 else 0, level,
                                     pages, port, page_players, routes) for i, (chat, users) in enumerate(chats)),
                             *([tournament_group(fake, contest[0], contest[1], stop_at, think, contest_stats, place)]
                               if contest is not None else []))
        elapsed = time.monotonic() - started
        cpu = sum(cpu_seconds(p.pid) for p in procs) - cpu_before
        postgres_cpu = postgres_cpu_seconds() - postgres_before if schemas else 0.0
        for watched in (stats, contest_stats):  # the moves made before the players stopped: shown by the end of a
            if watched.watching:  # tail, or never
                await asyncio.wait(set(watched.watching), timeout=TAIL)
                for watcher in list(watched.watching):
                    watcher.cancel()
                await asyncio.gather(*watched.watching, return_exceptions=True)
        sampler.cancel()
        memory.append(round(sum(rss_mb(p.pid) for p in procs), 1))
        counted = [m for m, _ in fake.calls[calls_before:] if m in COUNTED]
        group_edits = sum(1 for m, p in fake.calls[calls_before:] if m == "editMessageText" and int(p["chat_id"]) < 0)
        hand_edits = sum(1 for m, p in fake.calls[calls_before:] if m == "editMessageText" and int(p["chat_id"]) > 0)
        kinds = calls_by_kind(fake.calls[calls_before:])
        for p in procs:
            p.terminate()  # a clean stop writes the bot's own figures (METRICS_FILE)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(p.wait() for p in procs)), 30)
    finally:
        for p in procs:
            if p.returncode is None:
                p.kill()
            await p.wait()
        await forwarder.stop()
        await fake.stop()
        for cap in capped:
            cap.remove()
    moves, timed_out = applied_moves(place)
    contest_tables = place.sql("SELECT COUNT(*) FROM games WHERE tournament IS NOT NULL")[0][0] if contest else 0
    if schemas:
        next(schemas, None)  # the schema is dropped
    inside = merged([json.loads(f.read_text()) for f in folder.glob("metrics*.json")])
    presses = len(stats.latency)
    result = {
        "games": games, "players": players, "computers": computers, "computer_every": computer_every,
        "think": think, "limited": limited,
        "watched_after_s": warmup,
        "seconds": round(elapsed, 1),
        "presses_per_s": round(presses / elapsed, 1), "accepted": stats.accepted,
        "refused": stats.refused, "rethought": stats.rethought, "stalls": stats.stalls,
        "confirmed": stats.confirmed, "unanswered": stats.unanswered,
        "refused_after_unanswered": stats.refused_after_unanswered,
        "stalled_at": dict(stats.stall_steps),
        "top_refusals": dict(stats.reasons.most_common(5)),
        "answer_ms": percentiles(stats.latency),
        "handler_ms": percentiles(inside.get("handler_seconds", [])),
        "handler_before_answer_ms": percentiles(inside.get("decide_seconds", [])),
        "handler_ms_by_press": by_verb(inside, "handler_seconds"),
        "handler_before_answer_ms_by_press": by_verb(inside, "decide_seconds"),
        "cpu_ms_per_accepted_press": round(cpu * 1000 / max(stats.accepted, 1), 2),
        "cpu_ms_per_press": round(cpu * 1000 / max(presses, 1), 2),
        "database": place.engine,
        "processes": processes or "1, long polling",
        "cpu_quota_per_process": cpu_quota,
        # PostgreSQL's own server processes, besides the bot's (0 with SQLite: it runs inside the bot)
        "postgres_cpu_ms_per_accepted_press": round(postgres_cpu * 1000 / max(stats.accepted, 1), 2),
        "sql_statements_per_press": round(inside.get("statements", 0) / max(presses, 1), 1),
        "sql_per_move_by_kind": {k: round(n / max(moves, 1), 1)
                                 for k, n in list(inside.get("statement_kinds", {}).items())[:8]},
        "applied_moves": moves,
        "taps_per_move": round(stats.accepted / max(moves, 1), 2),  # accepted presses (picks too) per move
        "calls_per_move": round(len(counted) / max(moves, 1), 2),
        "calls_per_move_by_method": {m: round(counted.count(m) / max(moves, 1), 2) for m in COUNTED},
        "table_edits_per_move": round(group_edits / max(moves, 1), 2),  # the rest of the edits are hands'
        "calls_per_move_by_kind": {
            "answers_to_moves": round((stats.accepted - picks(inside)) / max(moves, 1), 2),
            "answers_to_picks": round(picks(inside) / max(moves, 1), 2),
            "answers_to_refusals": round(stats.refused / max(moves, 1), 2),
            **{kind: round(n / max(moves, 1), 2) for kind, n in kinds.items()}},
        "answers_to_refused_presses_per_move": round(stats.refused / max(moves, 1), 2),
        # what issue 10's goal lists for a move: its answer, the table's edit and the hands' (a pick, a card
        # selected for a lead of several, edits its presser's hand: left out), without the refused presses'
        # answers, the picks' answers, the new games' messages and the pings (one answer per move: with
        # --computers the computers' moves have none, and this counts them one too many)
        "calls_of_the_move_itself": round(
            1 + (group_edits + max(hand_edits - by_verb(inside, "handler_seconds").get("PICK", {}).get("n", 0), 0))
            / max(moves, 1), 2),
        "bot_rss_mb_over_time": memory,
        "games_reviewed": inside.get("reviews", 0),  # REVIEW_DEALS=0 in the environment: none
    }
    if computers and level == "hard":
        result["hard_moves"] = hard_moves(inside.get("hard_moves", []))
    if page_players:
        result["page_players_per_game"] = page_players
    if pages or page_players:
        result["pages_per_game"] = pages
        result["page_frames"] = stats.page_frames
        result["press_to_page_frame_ms"] = percentiles(stats.page_lag)
        result["page_open_ms"] = percentiles(stats.page_open)  # its socket's connect to its first state frame
        result["pages_sent_on"] = stats.page_redirects
    if limited:
        owed: dict[str, list[float]] = {"acting": [], "table": [], "waiting": []}
        for kind, seconds in inside.get("outbox_calls", []):
            owed[("acting", "table", "waiting")[kind]].append(seconds)
        # inside the bot: how long each call's chat had been owed something when the call went, by its kind
        result["owed_when_called_s"] = {k: {"n": len(v), **seconds_percentiles(v, (50, 90, 99))}
                                        for k, v in owed.items()}
        result["turn_timeouts"] = timed_out
        result["everyone_sees_the_move_s"] = seconds_percentiles(stats.lag, (50, 90, 99))
        result["never_shown_to_everyone"] = stats.never_shown
        result["acting_player_sees_it_s"] = seconds_percentiles(stats.acting_lag, (50, 90, 99))
        result["table_shows_it_s"] = seconds_percentiles(stats.table_lag, (50, 90, 99, 100))
        result["each_hand_shows_it_s"] = seconds_percentiles(stats.hand_lag, (50, 90, 99, 100))
        result["429s"] = sum(1 for e in fake.errors if e[1] == 429)
        result["429s_by_budget"] = dict(fake.too_many)  # a group's 20 a minute, a private chat's, the overall 30/s
    if contest is not None:
        result["tournament"] = {
            "players": tournament, "tables": contest_tables, "accepted": contest_stats.accepted,
            "refused": contest_stats.refused, "answer_ms": percentiles(contest_stats.latency),
            "group_edits": sum(1 for m, p in fake.calls[calls_before:] if m == "editMessageText"
                               and int(p["chat_id"]) == contest[0]),
            **({"table_shows_it_s": seconds_percentiles(contest_stats.table_lag, (50, 90, 99, 100)),
                "his_hand_shows_it_s": seconds_percentiles(contest_stats.hand_lag, (50, 90, 99, 100)),
                "never_shown": contest_stats.never_shown} if limited else {})}
    return result


class CpuCap:
    """A cgroup of its own for one process, capped at ``share`` of one core (v2 where mounted, else v1's cpu)."""

    def __init__(self, name: str, share: float, pid: int) -> None:
        v2 = Path("/sys/fs/cgroup/cgroup.controllers").exists()
        self.folder = Path("/sys/fs/cgroup", name) if v2 else Path("/sys/fs/cgroup/cpu", name)
        self.folder.mkdir()
        period = 100_000
        if v2:
            (self.folder / "cpu.max").write_text(f"{round(share * period)} {period}")
        else:
            (self.folder / "cpu.cfs_period_us").write_text(str(period))
            (self.folder / "cpu.cfs_quota_us").write_text(str(round(share * period)))
        (self.folder / "cgroup.procs").write_text(str(pid))

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.folder.rmdir()  # once its processes have ended


def hard_moves(thoughts: list[list[float]]) -> dict[str, Any]:
    """How much the hard computers thought under this load: the budget each move got (the worker's budget
    shared by the moves waiting for it) and the iterations of its search (0: no search was needed), and how
    many searches made too few to tell the moves apart (``durak.ai.hard.ITERATIONS_MIN``: the normal move)."""
    searched = sorted(int(i) for _, i in thoughts if i > 0)
    budgets = sorted(b for b, _ in thoughts)
    at = (10, 50, 90)
    return {"moves": len(thoughts), "searched": len(searched),
            "budget_ms": {f"p{q}": budgets[len(budgets) * q // 100] for q in at} if budgets else {},
            "iterations": {f"p{q}": searched[len(searched) * q // 100] for q in at} if searched else {},
            "too_few": sum(1 for i in searched if i < ITERATIONS_MIN)}


def merged(figures: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of several processes' METRICS_FILEs as one: samples joined, counts added."""
    if len(figures) == 1:
        return figures[0]
    together: dict[str, Any] = {}
    for one in figures:
        for key, value in one.items():
            if isinstance(value, list):
                together.setdefault(key, []).extend(value)
            elif isinstance(value, dict):
                kinds = together.setdefault(key, Counter())
                kinds.update(value)
            else:
                together[key] = together.get(key, 0) + value
    return {k: dict(v.most_common()) if isinstance(v, Counter) else v for k, v in together.items()}


def seconds_percentiles(samples: list[float], at: tuple[int, ...]) -> dict[str, float]:
    """Percentiles in seconds (100: the largest)."""
    ordered = sorted(samples) or [0.0]
    return {f"p{q}" if q < 100 else "max": round(ordered[min(len(ordered) - 1, len(ordered) * q // 100)], 2)
            for q in at}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7))
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a player thinks before a press")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--limited", action="store_true", help="Telegram's real budget (enforced by the fake server)")
    parser.add_argument("--computers", type=int, default=0, help="computer seats the creator adds to each game")
    parser.add_argument("--computer-every", type=int, default=1, help="computers at every K-th table only")
    parser.add_argument("--level", choices=("easy", "normal", "hard"), default="hard")
    parser.add_argument("--pages", type=int, default=0, help="Mini App pages open per game (its first players')")
    parser.add_argument("--page-players", type=int, default=0,
                        help="players per game who play from the Mini App's page (its first players'), not the chat")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter that runs the bot: a venv with the compiled build, say")
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="with --limited: seconds before the moves are watched (the groups' arrivals: 0.4 s each)")
    parser.add_argument("--database-url", help="run the bot on this PostgreSQL server (a schema of its own) instead "
                        "of a SQLite file")
    parser.add_argument("--processes", type=int, default=0,
                        help="bot processes in webhook mode behind a forwarder (0: one, long polling)")
    parser.add_argument("--cpu-quota", type=float, help="cap each bot process at this share of one core (cgroup)")
    parser.add_argument("--pages-elsewhere", action="store_true",
                        help="with --processes: open each page at a process that does not lead its game (sent on)")
    parser.add_argument("--tournament", type=int, default=0,
                        help="players of a tournament in a group of its own, beside the --games groups")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args.games, args.players, args.think, args.seconds, args.limited, args.computers,
                             args.level, args.pages, args.python, args.warmup,
                             args.computer_every, args.database_url, args.processes, args.page_players,
                             args.cpu_quota, args.pages_elsewhere, args.tournament))
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
