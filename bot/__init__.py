"""The bot: Telegram in and out (transport), the game service (game), what players read and press (ui), the
score (stats), the Mini App (webapp) and running it (ops); settings and the app factory at the top."""
