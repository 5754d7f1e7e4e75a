"""The container health check: alive while the bot sweeps, unhealthy when it stops."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.ops.health import STALE_SECONDS, check
from tests.e2e.harness import BotProcess
from tests.fake_telegram import FakeTelegram


def health(path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HEALTH_FILE": str(path)}
    return subprocess.run([sys.executable, "-c", "from bot.ops.health import main; main()"], env=env,
                          capture_output=True, text=True)


async def test_the_health_check_follows_the_running_bot(fake: FakeTelegram, tmp_path: Path) -> None:
    beat = tmp_path / "alive"
    assert health(beat).returncode == 1, "not started yet"
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", health_file=beat)
    await bot.start()
    await fake.wait_for(lambda: beat.exists(), 5)
    done = health(beat)
    assert done.returncode == 0 and done.stdout.strip() == "alive"
    await bot.stop()
    stopped_at = beat.stat().st_mtime
    assert check(beat, now=stopped_at + STALE_SECONDS + 1) is not None, "a bot that stopped beating is unhealthy"
