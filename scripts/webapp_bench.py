"""The Mini App page's weight and how soon it shows the table, in headless Chromium.

    python scripts/webapp_bench.py [--runs 5]

Starts the fake Bot API server and the bot (with its Mini App server) in this process, deals a
two-player game, and opens a player's page ``--runs`` times in a fresh browser context: prints the
bytes of the page's own files as the bot serves them (plain and gzipped), the time from navigation
to the first drawn table (``performance.mark("table")``), and from the socket's opening to it
(``performance.mark("open")``), each on a normal CPU and on a 4x throttled one (DevTools CPU
throttling, a slow phone), median and worst. Then a whole game in another group, Dasha playing from her page on
the 4x throttled CPU and Egor in the chat, while the page times every frame (``requestAnimationFrame``): its
frames, the longest and how many took over 32 ms, as its cards fly in and its bouts leave the table (and the
browser's own long animation frames, over 50 ms); and the time its script took over each frame the bot sent
(reading it and drawing it), median, 90th percentile, longest; and, the game over, its frames drawn again on the
same page one by one, each one's script and the whole animation frame it lands in (figures that hold still from
run to run, where a frame's time moves with the machine's other work).
That game twice: both players moving the moment they can (a new frame every few dozen ms, each redrawn while
the last one's cards still fly), and at a quick player's pace (``PACE`` s before each move).
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
        at_once = await frames_of_a_game(fake, bot, -1002, 0.0)
        paced = await frames_of_a_game(fake, bot, -1003, PACE)
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
        "game_on_4x_cpu": at_once,
        "game_on_4x_cpu_paced": paced,
    }


# How long the page's script takes over each frame the bot sends (drawing it included), timed around the socket's
# message handler: the part of a frame's cost that is the page's own script, whatever else the machine is doing.
HANDLER = """window.benchDraws = []; window.benchMessages = [];
const handler = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
Object.defineProperty(WebSocket.prototype, 'onmessage', {
  set(f) {
    window.benchHandler = f;
    handler.set.call(this, (e) => {
      const t = performance.now(); f(e); benchDraws.push(performance.now() - t); benchMessages.push(e.data); });
  },
  get() { return handler.get.call(this); } });"""

PACE = 0.6  # seconds a quick player looks before each move: each move's motion then plays out alone

# Every frame's time (requestAnimationFrame), and the browser's own long animation frames (the Performance API's
# "long-animation-frame" entries: a frame whose work took over 50 ms, its duration as the browser counts it).
FRAMES = """() => { window.benchFrames = []; let last = performance.now();
  const tick = (now) => { window.benchFrames.push(now - last); last = now; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  window.benchLong = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) benchLong.push(e.duration); })
    .observe({type: "long-animation-frame"}); }"""


# The game's frames drawn again, one by one, on the same throttled page (the last one's cards still on their way):
# each one's script, and the whole animation frame it lands in (script, style, layout, paint), from that frame's
# start to the next's. The bot and the other player are idle by then, so these figures hold still from run to run
# where the frame times above move with whatever else the machine does.
REPLAY = """async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const script = [], whole = [];
  for (const data of benchMessages) {
    await frame();
    const start = await frame();
    const t = performance.now();
    benchHandler({ data });
    script.push(performance.now() - t);
    whole.push(await frame() - start);
  }
  return { script, whole }; }"""


def spread(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {"median": round(statistics.median(times), 1), "p90": round(times[int(len(times) * .9)], 1),
            "longest": round(times[-1], 1)}


async def frames_of_a_game(fake: FakeTelegram, bot: BotProcess, group: int, think: float) -> dict[str, object]:
    """A whole game with Dasha on her page on a 4x slower CPU and Egor in the chat, each thinking ``think``
    seconds before a move: the page's frames while its cards move, and its script's time over each frame."""
    dasha, egor = -group * 10 + 1, -group * 10 + 2  # players of their own: the first group's game still runs
    fake.add_user(dasha, "Dasha")
    fake.add_user(egor, "Egor")
    fake.add_group(group, "Evening", admins=[dasha])
    table = Table(fake, group, [dasha, egor], seed=3)
    await table.seat_everyone()
    await table.start(dasha)
    hand = table.hand_message(dasha)
    assert hand is not None
    async with chromium() as browser:
        page = await open_page(browser, "about:blank", dasha, "Dasha")
        await page.add_init_script(HANDLER)
        cdp = await page.context.new_cdp_session(page)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        await page.goto(hand_link(hand))
        await page.wait_for_selector("#hand .card")
        await page.evaluate(FRAMES)
        taps, _ = await asyncio.gather(play_from_the_page(page, table, force=True, think=think),
                                       table.play(lambda: False, 600, players=[egor], think=think))
        frames: list[float] = await page.evaluate("window.benchFrames.slice(1)")
        draws: list[float] = sorted(await page.evaluate("window.benchDraws"))
        long_frames: list[float] = await page.evaluate("window.benchLong")
        replayed: dict[str, list[float]] = await page.evaluate(REPLAY)
        await page.context.close()
    return {"think_s": think, "taps": taps, "frames": len(frames), "longest_ms": round(max(frames, default=0.0), 1),
            "over_32_ms": sum(1 for f in frames if f > 32), "p99_ms": round(sorted(frames)[int(len(frames) * .99)], 1),
            "long_animation_frames": len(long_frames), "long_animation_frame_longest_ms": round(max(long_frames,
                                                                                                 default=0.0), 1),
            "frames_received": len(draws), "drawing_median_ms": round(statistics.median(draws), 1),
            "drawing_p90_ms": round(draws[int(len(draws) * .9)], 1), "drawing_longest_ms": round(draws[-1], 1),
            "replayed_script_ms": spread(replayed["script"]),
            "replayed_frame_ms": spread(replayed["whole"]),
            "replayed_frames_over_32_ms": sum(1 for f in replayed["whole"] if f > 32)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    print(json.dumps(asyncio.run(run(parser.parse_args().runs)), indent=1))


if __name__ == "__main__":
    main()
