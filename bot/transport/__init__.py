"""Talking to Telegram: Bot API requests (http, limiter), updates posted to the webhook and stored for the process
that leads their chat (webhook, inbox; ``bot.run.serve`` runs polling or the webhook), and the owed messages sent
within Telegram's limits (outbox, budget)."""
