"""What importing the bot costs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_bot_starts_without_loading_matplotlib() -> None:
    """matplotlib costs a second and ~50 MB: it is loaded only when the first chart is drawn."""
    code = "import sys, bot.app, handlers.stats; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
