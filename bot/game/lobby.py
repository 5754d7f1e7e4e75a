"""The lobby: what a press on its message means, and the lobby it makes. Pure: no I/O."""

from __future__ import annotations

import difflib
import re
from dataclasses import replace

from bot.game.computers import next_computer
from bot.game.decisions import Decision, Intent, Kind
from bot.game.lobby_options import OPTIONS_ORDER, cycle, table_max, with_preset
from bot.game.turns import TIMEOUTS
from bot.ui.callbacks import Press, Verb
from bot.ui.i18n import LANGUAGES, Translator, translator
from bot.ui.render import preset_name
from durak import RulesError, new_game
from durak.ai import LEVELS
from durak.rules import CLASSIC_PRESETS, PRESETS
from storage.computers import is_computer
from storage.models import GOAL_MAX, Aim, Game, Goal, Seat, Status, User

ADMIN_VERBS = (Verb.KICK, Verb.SETTINGS, Verb.BACK, Verb.CANCEL)


def decide(tr: Translator, game: Game, press: Press, user: User, admin: bool, deep_link: str) -> Decision:
    """A press on the lobby message by ``user`` (``admin``: he administers the group)."""
    verb = press.verb
    seated = game.seat_of(user.id) is not None
    creator = user.id == game.creator_id
    if verb is Verb.JOIN:
        if seated:
            return Decision(tr.gettext("You have already joined.")) if user.private_chat else Decision(url=deep_link)
        if len(game.seats) >= game.max_players:
            return Decision(tr.gettext("The table is full."))
        if not user.private_chat:
            return Decision(url=deep_link)  # the deep link opens the private chat; its /start seats the user
        return Decision(tr.gettext("You joined the game."), intent=Intent(Kind.JOIN))
    if verb is Verb.LEAVE:
        if not seated:
            return Decision(tr.gettext("You are not in this game."))
        return Decision(tr.gettext("You left the game."), intent=Intent(Kind.LEAVE))
    if verb is Verb.CANCEL:
        if creator or admin:
            return Decision(intent=Intent(Kind.CANCEL))
        return Decision(tr.gettext("Only the creator or an admin can cancel."))
    if not creator and not (verb in ADMIN_VERBS and admin):
        return Decision(tr.gettext("Only the creator can do that."))
    if press.seq != game.version and verb in (Verb.OPTION, Verb.VARIANT):
        return Decision(tr.gettext("The lobby has changed: look again."))
    if verb is Verb.SETTINGS:
        return Decision(intent=Intent(Kind.SETTINGS))
    if verb is Verb.BACK:
        return Decision(intent=Intent(Kind.BACK))
    if verb is Verb.KICK:
        kicked = next((s for s in game.seats if str(s.user.id) == press.arg), None)
        if kicked is None or kicked.user.id == game.creator_id:
            return Decision(tr.gettext("That player is not in the lobby."))
        return Decision(tr.gettext("{name} was removed.").format(name=kicked.user.name),
                        intent=Intent(Kind.KICK, arg=press.arg))
    if verb is Verb.OPTION and press.arg == "timer":
        return Decision(intent=Intent(Kind.TIMER))
    if verb is Verb.OPTION:
        if press.arg not in OPTIONS_ORDER:
            return Decision(tr.gettext("Unknown button."))
        try:
            cycle(press.arg, game.rules, game.max_players, len(game.seats))
        except RulesError:
            return Decision(tr.gettext("That does not fit the seated players."))
        return Decision(intent=Intent(Kind.OPTION, arg=press.arg))
    if verb is Verb.VARIANTS:
        return Decision(intent=Intent(Kind.PICKER, arg=press.arg if press.arg.isdigit() else "0"))
    if verb is Verb.VARIANT:
        if press.arg not in PRESETS:
            return Decision(tr.gettext("Unknown button."))
        try:
            with_preset(game.rules, press.arg, game.max_players, len(game.seats))
        except RulesError:
            return Decision(tr.gettext("That does not fit the seated players."))
        return Decision(tr.gettext("Game: {name}").format(name=preset_name(tr, press.arg)),
                        intent=Intent(Kind.VARIANT, arg=press.arg))
    if verb is Verb.START:
        return decide_start(tr, game)
    if verb is Verb.COMPUTER:
        return decide_computer(tr, game, press.arg)
    return Decision(tr.gettext("Unknown button."))


def decide_computer(tr: Translator, game: Game, level: str) -> Decision:
    if level not in LEVELS:
        return Decision(tr.gettext("Unknown button."))
    if len(game.seats) >= game.max_players:
        return Decision(tr.gettext("The table is full."))
    if next_computer(game, level) is None:
        return Decision(tr.gettext("No more computers of that level fit."))
    return Decision(tr.gettext("A computer joined the game."), intent=Intent(Kind.ADD_COMPUTER, arg=level))


def decide_start(tr: Translator, game: Game) -> Decision:
    n = len(game.seats)
    if n < 2:
        return Decision(tr.gettext("At least two players are needed."))
    try:
        game.rules.check_players(n)
    except RulesError:
        return Decision(tr.ngettext("These rules need {n} player.", "These rules need {n} players.",
                                                table_max(game.rules)).format(n=table_max(game.rules)))
    return Decision(intent=Intent(Kind.START))


def reseat(game: Game, users: list[User], creator_id: int | None = None) -> Game:
    seats = tuple(Seat(i, u) for i, u in enumerate(users))
    return replace(game, seats=seats, creator_id=game.creator_id if creator_id is None else creator_id)


def joined(game: Game, user: User) -> Game:
    return reseat(game, [*(s.user for s in game.seats), user])


def without(game: Game, user_id: int) -> Game | None:
    """The lobby without this player; None when nobody is left."""
    rest = [s.user for s in game.seats if s.user.id != user_id]
    people = [u for u in rest if not is_computer(u)]
    if not people:  # computers do not play on their own
        return None
    creator = game.creator_id if game.creator_id != user_id else people[0].id
    return reseat(game, rest, creator)


def with_option(game: Game, option: str) -> Game:
    rules, max_players = cycle(option, game.rules, game.max_players, len(game.seats))
    return replace(game, rules=rules, max_players=max_players)


def with_variant(game: Game, preset: str) -> Game:
    rules, max_players = with_preset(game.rules, preset, game.max_players, len(game.seats))
    return replace(game, rules=rules, max_players=max_players)


def with_next_timer(game: Game) -> Game:
    later = [t for t in TIMEOUTS if t > game.turn_timeout]
    return replace(game, turn_timeout=(later or list(TIMEOUTS))[0])


def started(game: Game, seed: int) -> Game:
    state = new_game(game.rules, len(game.seats), seed, game.previous)
    return replace(game, status=Status.PLAYING, state=state, log=(), deal=state, moves=())


def _folded(name: str) -> str:
    return "".join(ch for ch in name.lower().replace("ё", "е") if ch.isalnum())


def unknown_game(tr: Translator, name: str) -> str:
    """The answer to a game's name we do not know: the games whose names come closest (difflib, in any of our
    languages), and the four main ones, in the reader's words."""
    wanted = _folded(name)
    names = {n: preset for preset in PRESETS for n in _names(preset)}
    close = dict.fromkeys(names[n] for n in difflib.get_close_matches(wanted, names, n=6, cutoff=0.6))
    main = ", ".join(preset_name(tr, p) for p in CLASSIC_PRESETS)
    if close:
        return tr.gettext("I don't know the game «{name}». Did you mean {close}? The main games: {main}; "
                          "/variants lists every game.").format(
            name=name[:40], close=", ".join(preset_name(tr, p) for p in list(close)[:3]), main=main)
    return tr.gettext("I don't know the game «{name}». The main games: {main}; /variants lists every game.").format(
        name=name[:40], main=main)


def _names(preset: str) -> set[str]:
    """A preset's id and names in every language of ours, folded; a name with a second one in brackets
    («Schieben (Perewodnoj)») answers to each of the two as well."""
    names = {preset, *(preset_name(translator(language), preset) for language in LANGUAGES)}
    return {_folded(part) for n in names for part in (n, *n.replace(")", "(").split("(")) if _folded(part)}


def find_preset(name: str) -> str | None:
    """A preset by its id or its name in any of our languages (``переводной``, ``Do zavala``, ``перевідний``,
    ``schieben``); None if unknown."""
    wanted = _folded(name)
    return next((preset for preset in PRESETS if wanted in _names(preset)), None)




# the word after /series N that makes it N games, not N times the durak, in any of our languages
GAMES_WORDS = frozenset({"games", "game", "игр", "игры", "игра", "партий", "партии", "ігор", "гри", "гра", "партій",
                         "spiele", "spiel"})


def parse_goal(args: list[str]) -> Goal | None:
    """``/series 5`` (until someone is the durak five times) or ``/series 5 games``; None for anything else."""
    if not 1 <= len(args) <= 2 or re.fullmatch(r"[0-9]{1,3}", args[0]) is None:
        return None
    n = int(args[0])
    if not 1 <= n <= GOAL_MAX or (len(args) == 2 and args[1].lower() not in GAMES_WORDS):
        return None
    return Goal(Aim.GAMES if len(args) == 2 else Aim.DURAK, n)
