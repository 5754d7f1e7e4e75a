"""``durak-bot`` / ``python -m bot``: start the bot (long polling, or a webhook if WEBHOOK_URL is set)."""

from __future__ import annotations

import logging
import sys

from bot.app import allowed_updates, build_application
from bot.settings import SettingsError, load_settings


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as e:
        print(f"durak-bot cannot start:\n{e}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    app = build_application(settings)
    if settings.webhook_url:
        app.run_webhook(listen=settings.webhook_listen, port=settings.webhook_port, webhook_url=settings.webhook_url,
                        secret_token=settings.webhook_secret.get_secret_value() if settings.webhook_secret else None,
                        allowed_updates=allowed_updates())
    else:
        app.run_polling(allowed_updates=allowed_updates(), timeout=int(settings.poll_timeout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
