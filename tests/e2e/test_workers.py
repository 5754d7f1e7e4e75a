"""The bot's worker processes (a hard computer's thinking, the reviews) as an operator meets them: a bot killed
(``kill -9``, the OOM killer) leaves none of them behind, and a clean stop while they work says nothing after it.

The bot runs as its own process (``python -m bot``); its processes are read from ``/proc`` (Linux, where the bot
runs: the kernel's parent-death signal is what ends the workers).
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.game.reviews import REVIEW_PROCESSES
from tests.e2e.conftest import GROUP
from tests.e2e.harness import Table
from tests.e2e.test_computers import add_computer
from tests.e2e.test_crash import BotProgram
from tests.fake_telegram import FakeTelegram

GONE_WITHIN = 5.0  # seconds after its bot died: what the issue asks
SLOW_REVIEW = 10_000_000  # deals per move: a review that is still being made when the test acts


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent; None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, ppid = text.rsplit(")", 1)[1].split()[:2]
    return state, int(ppid)


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def descendants(root: int) -> dict[int, str]:
    """Every living process under ``root``, with its command line."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None and stat[0] != "Z":
            parents[int(entry.name)] = stat[1]
    found: dict[int, str] = {}
    layer = {root}
    while layer:
        layer = {pid for pid, parent in parents.items() if parent in layer and pid not in found}
        found |= {pid: _command(pid) for pid in layer}
    return found


def alive(pids: set[int]) -> set[int]:
    """Those still running (a zombie has ended: only its exit status waits to be read)."""
    return {pid for pid in pids if (stat := _stat(pid)) is not None and stat[0] != "Z"}


async def until(predicate: Callable[[], bool], timeout: float, step: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(step)


def workers(bot: BotProgram) -> dict[int, str]:
    """The bot's worker processes (the pools' own, not their resource tracker)."""
    assert bot.proc is not None
    return {pid: c for pid, c in descendants(bot.proc.pid).items() if "resource_tracker" not in c}


@pytest.fixture
async def program(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProgram]:
    bot = BotProgram(fake, tmp_path, computer_budget_ms=5000, computer_pause=0, review_deals=SLOW_REVIEW)
    await bot.start()
    yield bot
    await bot.stop()


async def finished_group_game(fake: FakeTelegram) -> Table:
    table = Table(fake, GROUP, [101, 102], seed=2)
    await table.seat_everyone("podkidnoy", deck="24")
    await table.start(101)
    await table.play_to_the_end(timeout=240)
    return table


async def killed_leaves_nothing(bot: BotProgram) -> None:
    assert bot.proc is not None
    everything = set(descendants(bot.proc.pid))
    assert any("resource_tracker" in _command(pid) for pid in everything), "the pools' resource tracker is there"
    bot.kill()
    await bot.dead()
    await until(lambda: not alive(everything), GONE_WITHIN)


async def test_a_bot_killed_while_a_hard_computer_thinks_leaves_no_process_behind(fake: FakeTelegram,
                                                                                program: BotProgram) -> None:
    table = Table(fake, 101, [101], seed=3)  # Anna against the hard computer, in her private chat
    await table.newgame(101)
    await add_computer(table, 101, "🤖+ hard")
    await table.start(101)
    playing = asyncio.create_task(table.play(lambda: False, timeout=120))
    try:
        await until(lambda: bool(workers(program)), 60)  # its first move: the thinking process is spawned for it
    finally:
        playing.cancel()
    [command] = workers(program).values()
    assert "multiprocessing" in command
    await killed_leaves_nothing(program)


async def test_a_bot_killed_mid_review_leaves_no_process_behind(fake: FakeTelegram, program: BotProgram) -> None:
    await finished_group_game(fake)
    await until(lambda: len(workers(program)) >= 1, 60)  # the review is being made
    await killed_leaves_nothing(program)


async def test_a_bot_stopped_mid_review_exits_cleanly_and_says_nothing_after_the_stop(fake: FakeTelegram,
                                                                                    program: BotProgram) -> None:
    await finished_group_game(fake)
    # its moves judged side by side: the pool starts its second process once the first is busy
    await until(lambda: len(workers(program)) >= REVIEW_PROCESSES, 60)
    assert program.proc is not None
    everything = set(descendants(program.proc.pid))
    said = len(program.logged())
    program.proc.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(program.proc.wait(), 60) == 0, "stopped cleanly"
    await until(lambda: not alive(everything), GONE_WITHIN)
    logged = program.logged()[said:]
    assert "Traceback" not in logged and "Error" not in logged, logged
    assert logged.rstrip().endswith("Application.stop() complete"), logged
