"""The bot: settings, the game service, rendering, the callback codec, i18n, and the app factory."""
