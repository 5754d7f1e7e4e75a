"""The Mini App page's weight and how soon it shows the table, in headless Chromium.

    python scripts/webapp_bench.py [--runs 5]

Starts the fake Bot API server and the bot (with its Mini App server) in this process, deals a
two-player game, and opens a player's page ``--runs`` times in a fresh browser context: prints the
bytes of the page's own files as the bot serves them (plain and gzipped), the time from navigation
to the first drawn table (``performance.mark("table")``), and from the socket's opening to it
(``performance.mark("open")``), each on a normal CPU and on a 4x throttled one (DevTools CPU
throttling, a slow phone), median and worst. Then a whole game in a second group, Anna playing from her page on
the 4x throttled CPU and Boris in the chat, while the page times every frame (``requestAnimationFrame``): its
frames, the longest and how many took over 32 ms, as its cards fly in and its bouts leave the table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.browser import chromium, open_page
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_webapp_browser import play_from_the_page
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
        times: dict[str, list[float]] = {key: [] for key in ("shown", "after_open", "shown_4x", "after_open_4x")}
        async with chromium() as browser:
            for _ in range(runs):
                for rate, suffix in ((1, ""), (4, "_4x")):
                    page = await open_page(browser, "about:blank", 101, "Anna")
                    cdp = await page.context.new_cdp_session(page)
                    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                    await page.goto(hand_link(hand))
                    await page.wait_for_selector("#hand .card")
                    shown, opened = await page.evaluate("['table', 'open'].map(n => "
                                                        "performance.getEntriesByName(n)[0].startTime)")
                    times["shown" + suffix].append(shown)
                    times["after_open" + suffix].append(shown - opened)
                    await page.context.close()
        motion = await frames_of_a_game(fake, bot)
        assert bot.app is not None
        files = {name: (asset.body, asset.gzipped) for name, asset in bot.app.bot_data.webapp.assets.items()}
    finally:
        await bot.stop()
        await fake.stop()
    return {
        "files": {name: {"bytes": len(body), "gzip": len(zipped)} for name, (body, zipped) in files.items()},
        "page_bytes": sum(len(body) for body, _ in files.values()),
        "page_gzip_bytes": sum(len(zipped) for _, zipped in files.values()),
        **{f"table_{key}_ms": {"median": round(statistics.median(t), 1), "max": round(max(t), 1), "runs": runs}
           for key, t in times.items()},
        "game_on_4x_cpu": motion,
    }


FRAMES = """() => { window.benchFrames = []; let last = performance.now();
  const tick = (now) => { window.benchFrames.push(now - last); last = now; requestAnimationFrame(tick); };
  requestAnimationFrame(tick); }"""


async def frames_of_a_game(fake: FakeTelegram, bot: BotProcess) -> dict[str, object]:
    """A whole game with Anna on her page on a 4x slower CPU: the page's frames while its cards move."""
    fake.add_group(-1002, "Evening", admins=[101])
    table = Table(fake, -1002, [101, 102], seed=3)
    await table.seat_everyone()
    await table.start(101)
    hand = table.hand_message(101)
    assert hand is not None
    async with chromium() as browser:
        page = await open_page(browser, "about:blank", 101, "Anna")
        cdp = await page.context.new_cdp_session(page)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        await page.goto(hand_link(hand))
        await page.wait_for_selector("#hand .card")
        await page.evaluate(FRAMES)
        taps, _ = await asyncio.gather(play_from_the_page(page, table), table.play(lambda: False, 240, players=[102]))
        frames: list[float] = await page.evaluate("window.benchFrames.slice(1)")
        await page.context.close()
    return {"taps": taps, "frames": len(frames), "longest_ms": round(max(frames, default=0.0), 1),
            "over_32_ms": sum(1 for f in frames if f > 32), "p99_ms": round(sorted(frames)[int(len(frames) * .99)], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    print(json.dumps(asyncio.run(run(parser.parse_args().runs)), indent=1))


if __name__ == "__main__":
    main()
