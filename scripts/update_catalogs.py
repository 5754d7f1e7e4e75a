"""Re-extract the messages (Babel) and merge them into every language's catalog.

    python scripts/update_catalogs.py

New messages arrive untranslated; tests/bot/ui/test_i18n.py fails until each has a translation.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "bot" / "ui" / "locales"


def main() -> int:
    pot = LOCALES / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "--no-location", "--sort-output",
                    "--project", "durak-bot", "-k", "NP_:1c,2",  # labels.NP_: a message with its context
                    "-o", str(pot), "bot", "handlers"], check=True, cwd=ROOT)
    for po in sorted(LOCALES.glob("*/LC_MESSAGES/messages.po")):
        subprocess.run([sys.executable, "-m", "babel.messages.frontend", "update", "--no-fuzzy-matching",
                        "-i", str(pot), "-o", str(po), "-l", po.parent.parent.name], check=True, cwd=ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
