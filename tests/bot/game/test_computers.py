"""Computer seats: their ids, their knowledge rebuilt from the stored log, and thinking that never holds a game up."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.game.computers import Thinker, next_computer, record_of
from bot.game.play import events_json
from bot.game.turns import computer_action
from durak import PASS, TAKE, Act, Action, Rules, apply, is_legal, new_game
from durak.ai import LEVELS, choose, greedy
from durak.ai.play import fallback, next_seat
from durak.record import Record, knowledge
from durak.soak import tables
from storage.computers import computer_id, is_computer, level_of
from storage.models import Game, Seat, Status, User


def test_computer_ids_name_their_level_and_never_a_person() -> None:
    for level in LEVELS:
        for k in range(1, 6):
            assert level_of(computer_id(level, k)) == level
    assert not is_computer(101) and not is_computer(-1001) and not is_computer(-1016)
    game = Game(1, -5, 0, Status.LOBBY, 101, Rules(), 6, None, 0, None,
                tuple(Seat(i, User(computer_id("hard", i + 1), "🤖")) for i in range(5)))
    assert next_computer(game, "hard") is None and next_computer(game, "easy") == computer_id("easy", 1)


@pytest.mark.parametrize(("preset", "players"), tables())
def test_the_bot_and_the_arena_give_a_seat_the_same_knowledge(preset: str, players: int) -> None:
    assert not _paths_differ(preset, players, 5)


# The thinking processes here keep the test's own priority (idle_cpu=False) but in the test of the idle class itself:
# under the suite's six workers on two cores no CPU is idle, and an idle-class process waits seconds for each slice
# (two of these tests failed so on the old code in a loaded run).


def _hard_game() -> tuple[Game, int]:
    """A fresh two-player game waiting for the lead of its hard computer, and the computer's seat."""
    rules = Rules.from_dict({"preset": "podkidnoy"})
    state = new_game(rules, 2, 11)
    leader = state.attacker
    assert leader is not None
    seats = tuple(Seat(p, User(computer_id("hard", 1), "🤖") if p == leader else User(101, "Аня")) for p in range(2))
    return Game(7, -5, 0, Status.PLAYING, 101, rules, 6, state, 0, None, seats), leader


def _normal_move(game: Game, seat: int) -> Action | None:
    assert game.state is not None
    return choose("normal", knowledge(game.state, seat, record_of(game)), game.id * 1_000_003 + game.state.moves)


async def _wait_for_worker(thinker: Thinker) -> list[int]:
    for _ in range(400):
        if pids := thinker.workers():
            return pids
        await asyncio.sleep(0.01)
    raise AssertionError("the thinking process never started")


@pytest.mark.slow
async def test_a_thinking_process_killed_mid_move_gives_the_normal_move_at_once_and_is_replaced() -> None:
    game, seat = _hard_game()
    thinker = Thinker(budget_ms=5000, idle_cpu=False)
    try:
        thinking = asyncio.create_task(thinker.move(game, seat, "hard"))
        for pid in await _wait_for_worker(thinker):
            os.kill(pid, signal.SIGKILL)
        assert await asyncio.wait_for(thinking, 5) == _normal_move(game, seat)
        assert thinker.failures == 1
        thinker.budget_ms = 0  # the next move thinks in a new process
        action = await asyncio.wait_for(thinker.move(game, seat, "hard"), 30)
        assert action is not None and thinker.failures == 1
    finally:
        thinker.close()


@pytest.mark.slow
async def test_a_thinking_process_that_never_answers_is_given_up_after_its_limit() -> None:
    game, seat = _hard_game()
    thinker = Thinker(budget_ms=200, limit_s=30, idle_cpu=False)  # a busy machine may take seconds to start it
    try:
        await asyncio.wait_for(thinker.move(game, seat, "hard"), 30)  # the process is up
        assert thinker.failures == 0
        thinker.budget_ms = 5000  # the move to hang cannot end before the stop reaches it, however slow the machine
        thinker.limit_s = 1.5
        thinking = asyncio.create_task(thinker.move(game, seat, "hard"))
        frozen = thinker.workers()
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)  # a worker that hangs
        assert await asyncio.wait_for(thinking, 10) == _normal_move(game, seat)
        assert thinker.failures == 1 and not set(frozen) & set(thinker.workers())
    finally:
        thinker.close()


def test_a_computer_whose_choice_cannot_be_played_makes_the_careful_move() -> None:
    game, _ = _hard_game()
    state = game.state
    assert state is not None
    leader = state.attacker
    assert leader is not None
    lead = computer_action(state, leader, None)  # no choice: the leader still leads
    assert lead.act is Act.ATTACK and is_legal(state, leader, lead)
    assert computer_action(state, leader, PASS) == lead  # a pass with nothing on the table is not a move
    after, _ = apply(state, leader, lead)
    defender = after.defender
    assert defender is not None
    assert computer_action(after, defender, None) == TAKE


def _paths_differ(preset: str, players: int, seed: int) -> list[str]:
    """Play a game; at every move compare each seat's knowledge along the bot's path (rebuilt from the stored
    log) and along the arena's (kept event by event); return where they differ."""
    rules = Rules.from_dict({"preset": preset})
    state = new_game(rules, players, seed)
    record = Record.start(state, lowest_leads=True)  # a first game: its lowest trump leads
    log: list[dict[str, object]] = []
    differ = []
    while not state.over and state.moves < 3000:
        game = Game(1, -5, 0, Status.PLAYING, 101, rules, 6, state, 0, None, log=tuple(log))
        rebuilt = record_of(game)
        for p in range(players):
            if knowledge(state, p, rebuilt) != knowledge(state, p, record):
                differ.append(f"{preset} {players} seats, seed {seed}, move {state.moves}, seat {p}")
        seat = next_seat(state)
        assert seat is not None
        taking = state.taking
        state, events = apply(state, seat, greedy.choose(state, seat) or fallback(state, seat))
        record = record.after(events)
        log += events_json(events, None, taking)
    return differ


def test_the_invisible_face_up_card_drawn_unseen_is_placed_by_neither_path() -> None:
    # невидимый with 3+ seats: a draw that took the hidden face-up card with others showed it to nobody; the
    # bot's path (rebuilt from the log) gave it to its real holder: hard's move changed with the hidden card
    for players in (3, 4, 5):
        for seed in range(4):
            assert not _paths_differ("invisible", players, seed)


@pytest.mark.slow
async def test_moves_queued_behind_a_worker_that_hangs_get_the_normal_move_too() -> None:
    game, seat = _hard_game()
    others = [replace(game, id=8 + i) for i in range(3)]
    thinker = Thinker(budget_ms=200, limit_s=30, idle_cpu=False)
    try:
        # the process is up (on a busy machine it may take seconds to start)
        await asyncio.wait_for(thinker.move(game, seat, "hard"), 60)
        assert thinker.failures == 0
        thinker.limit_s = 1.5
        thinker.budget_ms = 5000  # the move to hang cannot end before the stop reaches it, however slow the machine
        first = asyncio.create_task(thinker.move(game, seat, "hard"))
        while thinker.waiting == 0:  # until the first move is handed to the worker
            await asyncio.sleep(0.01)
        for pid in await _wait_for_worker(thinker):
            os.kill(pid, signal.SIGSTOP)  # a worker that hangs on the first game's move
        # three more wait behind it in the one worker: handed to it already, or still in the pool's queue
        queued = [asyncio.create_task(thinker.move(other, seat, "hard")) for other in others]
        assert await asyncio.wait_for(first, 10) == _normal_move(game, seat)
        # the first move's failure replaced the worker: the queued moves are not lost with it, nor left waiting
        for other, move in zip(others, queued, strict=True):
            assert await asyncio.wait_for(move, 10) == _normal_move(other, seat)
        assert thinker.failures == 4
    finally:
        thinker.close()


@pytest.mark.slow
async def test_hard_moves_asked_for_at_once_share_the_budget_and_none_falls_back() -> None:
    """Six hard tables wait for their computers at once: the one worker thinks of one move at a time, so each
    move gets a share of the budget (the whole, a half, a third … of it: 2.45 budgets in all, not six), and none
    falls back to the normal move. Checked on the budgets given, not on the clock: a busy machine may keep the
    thinking process waiting any time (at the bot's priority here: the idle class has a test of its own)."""
    game, seat = _hard_game()
    others = [replace(game, id=20 + i) for i in range(6)]
    thinker = Thinker(budget_ms=600, limit_s=120, idle_cpu=False)
    try:
        await asyncio.wait_for(thinker.move(replace(game, id=19), seat, "hard"), 60)  # the process is up
        thinker.record = []
        moves = await asyncio.gather(*(thinker.move(other, seat, "hard") for other in others))
        assert thinker.failures == 0
        assert thinker.waiting == 0
        assert all(move is not None and move.act is Act.ATTACK for move in moves)
        budgets = sorted(budget for budget, _ in thinker.record)
        assert budgets == [100.0, 120.0, 150.0, 200.0, 300.0, 600.0], budgets
    finally:
        thinker.close()


@pytest.mark.slow
@pytest.mark.parametrize("idle", [True, False])
async def test_the_thinking_process_runs_only_on_cpu_the_bot_leaves_idle_unless_told_otherwise(idle: bool) -> None:
    game, seat = _hard_game()
    thinker = Thinker(budget_ms=300, limit_s=120, idle_cpu=idle)
    thinking = asyncio.create_task(thinker.move(game, seat, "hard"))
    try:
        if idle:  # a busy machine may keep the move itself waiting long for idle CPU: its process's class says it
            pids = await _wait_for_worker(thinker)
            for _ in range(3000):  # its initializer runs as it starts
                if _classes(pids) == [os.SCHED_IDLE] * len(pids):
                    break
                await asyncio.sleep(0.01)
            assert _classes(pids) == [os.SCHED_IDLE] * len(pids)
        else:
            action = await asyncio.wait_for(thinking, 60)  # its process started and thought
            assert action is not None and thinker.failures == 0
            pids = thinker.workers()
            assert pids and _classes(pids) == [os.sched_getscheduler(0)] * len(pids) != [os.SCHED_IDLE] * len(pids)
        assert os.sched_getscheduler(0) != os.SCHED_IDLE, "the bot itself keeps its priority"
    finally:
        thinking.cancel()
        thinker.close()


def _classes(pids: list[int]) -> list[int]:
    return [os.sched_getscheduler(pid) for pid in pids]


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


@pytest.mark.slow
async def test_the_search_steps_aside_while_a_press_is_handled() -> None:
    """Idle CPU was not enough: a search beside the bot slowed its answers (caches and memory are shared). While
    a press is handled the thinking process waits; its move still comes in time, thought out less."""
    game, seat = _hard_game()
    thinker = Thinker(budget_ms=1500, limit_s=30, idle_cpu=False)  # the bot's priority: a busy machine gives it CPU
    try:
        await asyncio.wait_for(thinker.move(replace(game, id=30), seat, "hard"), 60)  # the process is up
        (pid,) = thinker.workers()
        before = _cpu_seconds(pid)
        free = await asyncio.wait_for(thinker.move(replace(game, id=31), seat, "hard"), 10)
        alone = _cpu_seconds(pid) - before
        with thinker.press():
            before = _cpu_seconds(pid)
            held = await asyncio.wait_for(thinker.move(replace(game, id=32), seat, "hard"), 10)
            aside = _cpu_seconds(pid) - before
        assert free is not None and held is not None and thinker.failures == 0
        # a quiet machine gives the search about 1.5 s of CPU alone; one too busy to give it any proves nothing
        assert aside < max(0.2, alone / 3), (aside, alone)
        assert thinker.pressing.value == 0
    finally:
        thinker.close()


@pytest.mark.slow
async def test_the_load_test_learns_each_hard_moves_budget_and_iterations() -> None:
    game, seat = _hard_game()
    thinker = Thinker(budget_ms=100, idle_cpu=False)
    thinker.record = []
    try:
        action = await asyncio.wait_for(thinker.move(game, seat, "hard"), 30)
        assert action is not None
        assert await asyncio.wait_for(thinker.move(game, seat, "normal"), 30) is not None  # no search: not recorded
        [(budget, iterations)] = thinker.record
        assert budget == 100.0 and iterations >= 1
    finally:
        thinker.close()


def test_the_thinking_and_reviewing_processes_import_the_engine_alone() -> None:
    """They are spawned and import what their work names (bot.game.thinking): not the bot's Telegram, storage or
    rendering, which made each reviewing process 54 MB instead of 18."""
    code = ("import sys, bot.game.thinking; "
            "print(' '.join(m for m in sys.modules if m.split('.')[0] in ('telegram', 'aiohttp', 'storage', 'handlers')"
            " or m.startswith(('bot.ui', 'bot.transport', 'bot.game.')) and m != 'bot.game.thinking'))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert loaded == []
