"""Placeholder until the bot issue: see ../shared/DESIGN.md."""
