"""The house's rules, kept by import-linter (.importlinter): durak imports nothing of ours, storage only durak,
handlers no SQL and no transport, only the app factory wires the handlers in, the bot's rooms in layers, and no
import circle: not among the bot's rooms, not among the modules of any room. And handlers stay thin: none reaches
into a service's repository."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_import_contract_is_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout and done.stdout.count("KEPT") == 6, done.stdout


def test_no_handler_reaches_into_a_repository() -> None:
    """A handler asks a service; the repository behind it is the service's (import-linter sees imports, not
    attribute chains like ``games.repo.…``)."""
    reaching = [f"{path.name}:{n}" for path in sorted((ROOT / "handlers").glob("*.py"))
                for n, line in enumerate(path.read_text().splitlines(), 1) if ".repo." in line or ".repo)" in line]
    assert reaching == [], reaching
