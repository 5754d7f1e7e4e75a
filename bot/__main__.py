"""``durak-bot`` / ``python -m bot``: start the bot (long polling, or a webhook if WEBHOOK_URL is set).

Whatever stops the start (settings, an unusable database, no network after the retries) ends
it quickly with one clear line and a non-zero exit code.
"""

from __future__ import annotations

import sys

from bot.settings import SettingsError, load_settings


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as e:
        print(f"durak-bot cannot start:\n{e}", file=sys.stderr)
        return 2
    # the bot itself is imported only once its settings are good: a refused start says why in a tenth of the time
    from bot.run.start import run

    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
