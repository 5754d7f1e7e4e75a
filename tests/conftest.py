"""What every test shares: a failed test must be reported, not hang the run."""

from __future__ import annotations

import gc
import itertools
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The end-to-end tests (the real Application, the fake Bot API, a browser) are marked ``e2e``: ``pytest -m
    "not e2e"`` is the quick edit-test loop. Under xdist the ``long`` tests are dealt first (below)."""
    for item in items:
        if "tests/e2e/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)
    workers = getattr(config, "workerinput", {}).get("workercount")
    if workers:
        items[:] = deal_long_tests_first(items, int(workers))


def deal_long_tests_first(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The run's order, so that each worker starts with its share of the ``long(seconds)`` tests, longest first.

    ``--dist worksteal`` gives each worker one contiguous run of the collection at the start and lets a worker
    that runs out steal the tail of another's. In the collection's own order the multi-process tests (a minute
    for the kill test) came last and ran alone at the end, with the machine half idle for a minute. Each long
    test goes to the head of the run whose long tests add up to least (the longest first), the rest fill the
    runs in their order. Every worker collects the same order (xdist checks that)."""
    seconds = {item: float(marker.args[0]) for item in items if (marker := item.get_closest_marker("long"))}
    sizes, left = [], len(items)  # the runs worksteal deals: each node its share of what is left, in turn
    for k in range(workers):
        sizes.append(left // (workers - k))
        left -= sizes[-1]
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for item in sorted(seconds, key=lambda i: -seconds[i]):
        k = min((k for k in range(workers) if len(heads[k]) < sizes[k]), key=lambda k: load[k], default=None)
        if k is None:
            return items
        heads[k].append(item)
        load[k] += seconds[item]
    rest = iter([item for item in items if item not in seconds])
    return [item for k in range(workers) for item in [*heads[k], *itertools.islice(rest, sizes[k] - len(heads[k]))]]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Why tests were skipped (no browser, no PostgreSQL), said at the end of every run, not only with -rs."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reasons[reason.removeprefix("Skipped: ")] = reasons.get(reason.removeprefix("Skipped: "), 0) + 1
    for reason, count in sorted(reasons.items()):
        terminalreporter.write_line(f"skipped {count}: {reason}", yellow=True)
