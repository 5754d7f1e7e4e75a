"""Longer texts: /help and the command list, in the reader's language."""

from __future__ import annotations

from bot.ui.i18n import Translator, local_letters
from bot.ui.labels import cards_text, lettered
from durak.cards import parse_card


def commands(tr: Translator) -> list[tuple[str, str]]:
    return [
        ("newgame", tr.gettext("open a new game: /newgame japanese, or any game of /variants")),
        ("series", tr.gettext("the evening's score; /series 5 plays until someone is the durak 5 times")),
        ("variants", tr.gettext("every game this bot plays, one line each")),
        ("rules", tr.gettext("the rules of this table")),
        ("cancel", tr.gettext("cancel the open game (creator or admin)")),
        ("stop", tr.gettext("stop the running game (creator or admin at once, players by vote)")),
        ("leave", tr.gettext("leave your game: the computer plays your cards, it counts as a loss")),
        ("kick", tr.gettext("reply to a player's message to remove them from the lobby")),
        ("hand", tr.gettext("in private: post your cards again at the bottom of the chat")),
        ("notify", tr.gettext("turn pings: /notify on or /notify off")),
        ("letters", tr.gettext("face cards in your language's letters: /letters on or /letters off")),
        ("stats", tr.gettext("your stats (reply to someone, or /stats @name, for theirs)")),
        ("top", tr.gettext("the chat's leaderboard; /top global for everyone")),
        ("season", tr.gettext("this season's table and the days left; /seasons, the past ones")),
        ("tournament", tr.gettext("the group's tournament; admins open one: /tournament 60 (minutes)")),
        ("seasons", tr.gettext("the past seasons' winners")),
        ("badges", tr.gettext("every badge, and which you have")),
        ("history", tr.gettext("the last ten games; in private, yours with their reviews")),
        ("puzzle", tr.gettext("in private: a puzzle from your own reviewed games")),
        ("privacy", tr.gettext("in private: hide me from leaderboards, or show me again")),
        ("scoring", tr.gettext("how this chat ranks players (admins)")),
        ("picture", tr.gettext("a picture of each result in this group: /picture on or off (admins)")),
        ("language", tr.gettext("choose the language: /language ru, uk, de or en")),
        ("help", tr.gettext("how to play with this bot")),
    ]


GROUP_COMMANDS = ("newgame", "variants", "rules", "stop", "leave", "stats", "top", "help")


def group_help(tr: Translator, details_url: str) -> str:
    """/help in a group: the few commands a table needs, and where the details are."""
    described = dict(commands(tr))
    lines = [tr.gettext("🃏 Durak: /newgame opens a game; your cards come to your private chat with me."), ""]
    lines += [f"/{name} — {described[name]}" for name in GROUP_COMMANDS]  # a dash: the text may hold a colon
    lines += ["", tr.gettext("How to play, and every command: {url}").format(url=details_url)]
    return "\n".join(lines)


def help_text(tr: Translator) -> str:
    lines = [
        tr.gettext("🃏 Durak with friends."),
        "",
        tr.gettext("In a group: /newgame opens a lobby (add a preset: /newgame perevodnoy). "
                   "Players press Join; the creator may change Settings and presses Start."),
        tr.gettext("Computers: the creator adds them to a lobby (🤖+ easy, normal or hard). Here in private, "
                   "/newgame opens a table for you and the computers you add. Games with a computer don't "
                   "change ratings."),
        tr.gettext("The group sees one table message that follows the game. Your cards come to your private "
                   "chat with me, one row per suit, trumps (★) last: press a card to lead, cover or throw in. "
                   "✖ marks a card you can't play now. Take, Pass and Done appear when you may use them."),
        tr.gettext("One press plays one card; cards of the same rank follow with a press each (when all you "
                   "could throw in is one rank, Throw in all does it at once). Where a lead is several cards "
                   "(pairs, threes), press them (✅ marks them), then Lead. To cover when your card fits several "
                   "open cards, press it, then the card it covers."),
        tr.gettext("When it is your move to lead or to defend and you have not moved within a few seconds, I "
                   "send you a short message, and delete it once you have moved; /notify off stops these."),
        tr.gettext("Each move has a time limit (a lobby setting, 60 seconds by default). When it runs out the "
                   "defender takes, attackers pass, and a leader's lowest card is played. Miss two turns in a "
                   "row and the computer plays for you until you press I'm back."),
        tr.gettext("Every finished game counts: /stats, /top and /history show who wins, who is the durak most "
                   "often and who climbs."),
        tr.gettext("After each game I send you its review: how accurately you played, your costliest move and the "
                   "better one, and the whole game to step through in the table's app (📊)."),
        "",
    ]
    lines += [f"/{name} — {what}" for name, what in commands(tr)]
    return "\n".join(lines)


def letters_text(tr: Translator) -> str:
    """How the reader's cards are written now, shown on cards, and how to change it."""
    sample = lettered(cards_text(parse_card(c) for c in ("JS", "QH", "KD", "AC")), tr)
    if not local_letters(tr):
        return tr.gettext("Cards show as {cards}. /letters on writes them in your language's letters.").format(
            cards=sample)
    return tr.gettext("Cards show as {cards}. /letters off brings back J Q K A.").format(cards=sample)
