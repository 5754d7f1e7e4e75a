"""The house's rules, kept by import-linter (.importlinter): durak imports nothing of ours, storage only durak,
handlers no SQL and no transport, only the app factory wires the handlers in, and no import circle: not among
the bot's rooms, not among the modules of any room."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_import_contract_is_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout and done.stdout.count("KEPT") == 5, done.stdout
