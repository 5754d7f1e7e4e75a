"""A heartbeat file for container health checks: ``durak-health`` says whether the bot is alive.

The timers' sweep, which runs every second while the bot works, rewrites the file every few
seconds. A bot whose event loop hangs or that has died stops rewriting it, and the check fails
once the file is older than a minute; Docker then marks the container unhealthy.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

BEAT_SECONDS = 10.0
STALE_SECONDS = 60.0


class Heartbeat:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._last = 0.0

    def beat(self) -> None:
        """Rewrite the file if the last beat is BEAT_SECONDS old; never raise (a full disk is not death)."""
        now = time.time()
        if self.path is None or now - self._last < BEAT_SECONDS:
            return
        self._last = now
        with contextlib.suppress(OSError):
            self.path.write_text(f"{now:.0f}\n")


def check(path: Path, now: float | None = None) -> str | None:
    """None if the bot beat within STALE_SECONDS, else why not."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except OSError:
        return f"no heartbeat file {path}: the bot has not started"
    return None if age <= STALE_SECONDS else f"the last heartbeat is {age:.0f} s old"


def main() -> None:
    path = os.environ.get("HEALTH_FILE")
    if not path:
        print("HEALTH_FILE is not set: there is no heartbeat to check", file=sys.stderr)
        sys.exit(2)
    problem = check(Path(path))
    if problem:
        print(problem, file=sys.stderr)
        sys.exit(1)
    print("alive")
