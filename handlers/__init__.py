"""python-telegram-bot handlers: parse an update, call the game service, answer. No rules, no SQL."""
