"""The Mini App page's weight and how soon it shows the table, in headless Chromium.

    python scripts/webapp_bench.py [--runs 5]

Starts the fake Bot API server and the bot (with its Mini App server) in this process, deals a
two-player game, and opens a player's page ``--runs`` times in a fresh browser context: prints the
bytes of the page's own files (as served, and gzip-compressed as a reverse proxy sends them) and
the time from navigation to the first drawn table (``performance.mark("table")``), median and worst.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.webapp_server import STATIC
from tests.e2e.browser import chromium, open_page
from tests.e2e.harness import BotProcess, Table
from tests.e2e.webapp_client import free_port, hand_link
from tests.fake_telegram import FakeTelegram


async def run(runs: int) -> dict[str, object]:
    fake = FakeTelegram()
    await fake.start()
    for i, name in enumerate(("Anna", "Boris")):
        fake.add_user(101 + i, name)
    fake.add_group(-1001, "Friends", admins=[101])
    port = free_port()
    bot = BotProcess(fake, Path(tempfile.mkdtemp()) / "durak.sqlite3", webapp_port=port,
                     webapp_url=f"http://127.0.0.1:{port}/app/")
    await bot.start()
    try:
        table = Table(fake, -1001, [101, 102])
        await table.seat_everyone()
        await table.start(101)
        hand = table.hand_message(101)
        assert hand is not None
        times = []
        async with chromium() as browser:
            for _ in range(runs):
                page = await open_page(browser, hand_link(hand), 101, "Anna")
                await page.wait_for_selector("#hand .card")
                times.append(await page.evaluate("performance.getEntriesByName('table')[0].startTime"))
                await page.context.close()
    finally:
        await bot.stop()
        await fake.stop()
    files = {f.name: f.read_bytes() for f in sorted(STATIC.iterdir())}
    return {
        "files": {name: {"bytes": len(data), "gzip": len(gzip.compress(data, 9))} for name, data in files.items()},
        "page_bytes": sum(len(d) for d in files.values()),
        "page_gzip_bytes": sum(len(gzip.compress(d, 9)) for d in files.values()),
        "table_shown_ms": {"median": round(statistics.median(times), 1), "max": round(max(times), 1), "runs": runs},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    print(json.dumps(asyncio.run(run(parser.parse_args().runs)), indent=1))


if __name__ == "__main__":
    main()
