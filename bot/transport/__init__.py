"""Talking to Telegram: Bot API requests (http), updates by long polling or webhook (serve, webhook, inbox),
and the owed messages sent within Telegram's limits (outbox, budget)."""
