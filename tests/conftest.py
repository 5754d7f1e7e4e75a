"""What every test shares: a failed test must be reported, not hang the run."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator

import aiosqlite
import pytest

from tests.places import place, postgres_url  # noqa: F401 - fixtures every test may take

# Where PYTHONDONTWRITEBYTECODE is set (as on this project's machines), each of the six workers would compile our
# sources and rewrite the test modules again, and so would every bot process a test starts: half a worker's start.
# The suite keeps its bytecode, for itself and for the processes it starts.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# A finished game's review costs seconds of CPU in a process of its own: every bot a test starts, in this process or
# as a program, makes none unless the test asks for it (review_deals=…; the reviews' own tests do).
os.environ["REVIEW_DEALS"] = "0"
# Six workers on two cores leave no CPU idle: a computer's thinking or a review in the idle class would wait seconds
# for each slice (a solo game against computers took a minute instead of a second). The bots the tests start keep
# them at their own priority; test_computers and test_reviews check the idle class itself.
os.environ["THINK_ON_IDLE_CPU"] = "false"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    if outcome.get_result().failed:
        item.stash[_FAILED] = True


_FAILED = pytest.StashKey[bool]()


@pytest.fixture(autouse=True)
def _stop_databases_a_failed_test_left_open(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that fails before it closes its database leaves aiosqlite's thread running, and that thread is
    no daemon: the run would wait for it at exit instead of reporting the failure. Stop what it left open
    (only after a failure: finding the connections walks every object)."""
    yield
    if not request.node.stash.get(_FAILED, False):
        return
    for obj in gc.get_objects():
        if isinstance(obj, aiosqlite.Connection) and obj._running:
            obj.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The end-to-end tests (the real Application, the fake Bot API, a browser) are marked ``e2e``: ``pytest -m
    "not e2e"`` is the quick edit-test loop."""
    for item in items:
        if "tests/e2e/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Why tests were skipped (no browser, no PostgreSQL), said at the end of every run, not only with -rs."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reasons[reason.removeprefix("Skipped: ")] = reasons.get(reason.removeprefix("Skipped: "), 0) + 1
    for reason, count in sorted(reasons.items()):
        terminalreporter.write_line(f"skipped {count}: {reason}", yellow=True)
