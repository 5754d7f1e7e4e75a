"""What runs in the bot's thinking and reviewing processes (``bot.game.computers``, ``bot.game.reviews``).

They are spawned, not forked, and import this module and the engine alone: a reviewing process that imported
``bot.game.reviews`` took the bot's rendering, storage and Telegram with it, at each start, for nothing it
uses (the figures: docs/performance.md, "Reviews").
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable

from durak.actions import Action
from durak.ai import hard
from durak.record import Knowledge
from durak.review import Decision, Verdict, decisions_of, judge
from durak.review.game import judge_ending, seed_of
from durak.review.judge import DEALS_MAX, PLAYON
from durak.state import State

WORKER_NICENESS = 19  # where the idle class is not offered: the lowest priority a process can take
PAUSE_STEP = 0.0005  # seconds a process sleeps at a time while the bot handles a press
PAUSE_MOST = 0.05    # the longest it waits at once: a count left high by a failure cannot stop it
PR_SET_PDEATHSIG = 1  # linux/prctl.h: the signal the kernel sends a process when its parent ends
PARENT_POLL = 1.0     # seconds between two looks at the parent where the kernel offers no such signal

_pressing: ctypes.c_int | None = None  # the presses the bot is handling now (shared memory)
_thinking: ctypes.c_int | None = None  # the hard moves the bot has asked for and not had yet (reviews only)


def yield_cpu(idle: bool) -> None:
    """The process runs only on CPU the bot leaves idle (Linux's SCHED_IDLE; elsewhere the lowest niceness): its
    search is bounded by time, not by work, so on a busy machine a computer thinks less deeply for a move. Without
    ``idle`` (THINK_ON_IDLE_CPU=false) it keeps the bot's priority: on a host whose CPU is never idle, an
    idle-class process waits seconds for each slice of it."""
    if not idle:
        return
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(WORKER_NICENESS)


def die_with(parent: int) -> None:
    """End this process when the bot (``parent``) ends, however it ends: a ``kill -9`` or the OOM killer left the
    workers running for good, and a crash loop piled them up. On Linux the kernel kills it (``PR_SET_PDEATHSIG``);
    elsewhere a thread looks at the parent every second. A bot that died before this line is seen at once."""
    if not (sys.platform == "linux" and _kernel_kills_with_parent()):
        threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()
    if os.getppid() != parent:
        os._exit(0)


def _kernel_kills_with_parent() -> bool:
    try:
        return int(ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(0)


def _wait(*counts: ctypes.c_int | None) -> bool:
    """Wait while any count is above zero, at most ``PAUSE_MOST``; whether it waited."""
    if not any(c is not None and c.value > 0 for c in counts):
        return False
    end = time.monotonic() + PAUSE_MOST
    while any(c is not None and c.value > 0 for c in counts) and time.monotonic() < end:
        time.sleep(PAUSE_STEP)
    return True


# ------------------------------------------------------------ a computer's thinking


def start_thinker(parent: int, pressing: ctypes.c_int, idle: bool) -> None:
    global _pressing
    die_with(parent)
    _pressing = pressing
    yield_cpu(idle)


def _step_aside_for_presses() -> bool:
    """The search's pause between two iterations: it waits while the bot handles a press. Idle CPU alone was not
    enough: a search running beside the bot on a two-core machine still made the answers to presses slower at
    p99 (2.6x), sharing caches and memory with it (docs/computers.md, "Computers and presses")."""
    return _wait(_pressing)


def think(k: Knowledge, seed: int, budget_ms: float) -> hard.Thought:
    """Hard's move: its search steps aside while the bot handles a press."""
    return hard.think(k, seed, budget_ms, _step_aside_for_presses)


# ------------------------------------------------------------ a game's review


def start_reviewer(parent: int, pressing: ctypes.c_int, thinking: ctypes.c_int, idle: bool) -> None:
    global _pressing, _thinking
    die_with(parent)
    _pressing, _thinking = pressing, thinking
    yield_cpu(idle)


def step_aside() -> None:
    """Between two deals: wait while the bot handles a press or a computer thinks."""
    _wait(_pressing, _thinking)


def to_judge(deal: State, moves: list[tuple[int, Action]], auto: frozenset[int],
             people: frozenset[int], lowest_leads: bool = False) -> list[Decision]:
    """People's own decisions in a game (a move made for a seat is not his), each with what he knew."""
    return [d for d in decisions_of(deal, moves, lowest_leads) if d.seat in people and d.n - 1 not in auto]


def judge_one(decision: Decision, deals_max: int, seed: int,
              between: Callable[[], object] | None = step_aside, playon: str = PLAYON) -> Verdict | None:
    return judge(decision.knowledge, decision.played, seed_of(seed, decision), deals_max, between, playon)


def judge_endgame(decisions: list[Decision], deals_max: int = DEALS_MAX, seed: int = 0,
                  between: Callable[[], object] | None = step_aside) -> list[Verdict | None]:
    """A game's endgame where every card is known, in one process and in order (``durak.review.game``)."""
    return judge_ending(decisions, seed, deals_max, between=between)
