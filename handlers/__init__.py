"""python-telegram-bot handlers: parse an update, call the game service, answer. No rules, no SQL."""

from __future__ import annotations

from telegram.ext import Application, CallbackQueryHandler, ChatMemberHandler, CommandHandler, MessageHandler, filters

from handlers import buttons, chat_events, commands, puzzles, seasons, series, stats, tournaments


def register(app: Application) -> None:  # type: ignore[type-arg]
    """Every command, button and chat event of the bot, to its handler."""
    app.add_handler(CommandHandler("newgame", commands.newgame))
    app.add_handler(CommandHandler("start", commands.start))
    app.add_handler(CommandHandler("help", commands.help_command))
    app.add_handler(CommandHandler("rules", commands.rules))
    app.add_handler(CommandHandler("variants", commands.variants_command))
    app.add_handler(CommandHandler("cancel", commands.cancel))
    app.add_handler(CommandHandler("language", commands.language))
    app.add_handler(CommandHandler("letters", commands.letters))
    app.add_handler(CommandHandler("stop", commands.stop))
    app.add_handler(CommandHandler("leave", commands.leave))
    app.add_handler(CommandHandler("kick", commands.kick))
    app.add_handler(CommandHandler("hand", commands.hand))
    app.add_handler(CommandHandler("notify", commands.notify))
    app.add_handler(CommandHandler("stats", stats.stats))
    app.add_handler(CommandHandler("top", stats.top))
    app.add_handler(CommandHandler("history", stats.history))
    app.add_handler(CommandHandler("puzzle", puzzles.puzzle))
    app.add_handler(CommandHandler("privacy", stats.privacy))
    app.add_handler(CommandHandler("scoring", stats.scoring))
    app.add_handler(CommandHandler("series", series.series))
    app.add_handler(CommandHandler("season", seasons.season))
    app.add_handler(CommandHandler("seasons", seasons.seasons))
    app.add_handler(CommandHandler("badges", stats.badges))
    app.add_handler(CommandHandler("picture", stats.picture))
    app.add_handler(CommandHandler("tournament", tournaments.tournament))
    app.add_handler(CallbackQueryHandler(buttons.on_button))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chat_events.migrated))
    app.add_handler(ChatMemberHandler(chat_events.my_member, ChatMemberHandler.MY_CHAT_MEMBER))
