"""Longer texts: /help and the command list, in the reader's language."""

from __future__ import annotations

from bot.i18n import Translator


def commands(tr: Translator) -> list[tuple[str, str]]:
    return [
        ("newgame", tr.gettext("open a new game (podkidnoy, perevodnoy, simple, do_zavala)")),
        ("rules", tr.gettext("the rules of this table")),
        ("cancel", tr.gettext("cancel the open game (creator or admin)")),
        ("language", tr.gettext("language: /language ru or /language en")),
        ("help", tr.gettext("how to play with this bot")),
    ]


def help_text(tr: Translator) -> str:
    lines = [
        tr.gettext("🃏 Durak with friends."),
        "",
        tr.gettext("In a group: /newgame opens a lobby (add a preset: /newgame perevodnoy). "
                   "Players press Join; the creator may change Settings and presses Start."),
        tr.gettext("The group sees one table message that follows the game. Your cards come to your private "
                   "chat with me: press a card to lead, cover or throw in; Take and Done appear when you may "
                   "use them."),
        tr.gettext("To cover when several cards are open, press your card, then the card it covers."),
        "",
    ]
    lines += [f"/{name}: {what}" for name, what in commands(tr)]
    return "\n".join(lines)
