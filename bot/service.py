"""The game service: lobbies and games, one lock per game, decisions first and work after.

A button press is decided twice: at once, without waiting, against the in-memory snapshot
of the game (so the handler can answer the query with a toast right away), and again under
the game's lock against the game as it is then (so a stale or repeated press changes
nothing). Every write goes to SQLite before any message is touched; the snapshot is the
stored row as last written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, ReplyParameters
from telegram.error import Forbidden, TelegramError

from bot import ratings, render
from bot.callbacks import Press, Verb
from bot.clock import Clock
from bot.i18n import Translator, pick_language, translator
from bot.lobby_options import OPTIONS_ORDER, cycle, table_max
from bot.notifier import Content, Notifier
from bot.turns import TIMEOUTS, computer_move, timeout_action
from durak import (
    Act,
    Action,
    Illegal,
    Rules,
    RulesError,
    State,
    apply,
    card_code,
    is_legal,
    new_game,
    parse_card,
)
from durak.engine import awaited, check
from durak.events import Ev, Event
from durak.rules import PRESETS
from durak.scoring import penalty, ranks
from durak.setup import Previous
from storage.models import Away, Game, RatingUpdate, ResultRow, Status, User
from storage.repo import Conflict, Repo

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Intent:
    kind: str  # lobby: join leave settings back option timer kick start cancel replay; game: play select
    #          cheat refresh back_in leave_ask leave_game vote
    seat: int | None = None
    action: Action | None = None
    arg: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    toast: str | None = None
    url: str | None = None
    intent: Intent | None = None


VOTE_SECONDS = 60
WARN_SECONDS = 10  # the messages are refreshed this long before a turn times out


@dataclass
class Vote:
    """A /stop vote among the seated players."""

    message_id: int
    deadline: float
    voters: set[int]


class GameService:
    def __init__(self, repo: Repo, bot: Bot, notifier: Notifier, *, default_language: str,
                 lobby_timeout: float, clock: Clock) -> None:
        self.repo = repo
        self.bot = bot
        self.notifier = notifier
        self.default_language = default_language
        self.lobby_timeout = lobby_timeout
        self.clock = clock
        self.votes: dict[int, Vote] = {}
        self.leaving: set[tuple[int, int]] = set()      # (game, seat) asked to leave, to confirm
        self.games: dict[int, Game] = {}              # open games (lobby or playing), by id
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.chat_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.ratings_lock = asyncio.Lock()
        self.users: dict[int, User] = {}
        self.admins: dict[int, set[int]] = {}
        self.chat_languages: dict[int, str] = {}
        self.selected: dict[tuple[int, int], int] = {}  # (game, seat) -> card chosen to cover with
        self.armed: set[tuple[int, int]] = set()        # (game, seat) whose next card is a cheat
        self.settings_open: set[int] = set()
        self.lobby_notes: dict[int, str] = {}
        self.bot_username = ""

    # ------------------------------------------------------------ start-up

    async def resume(self) -> None:
        """Load every open game and user, re-render what may be stale, re-arm lobby timers."""
        me = await self.bot.get_me()
        self.bot_username = me.username or ""
        for user in await self.repo.users():
            self.users[user.id] = user
        games, corrupt = await self.repo.games_with_status(Status.LOBBY, Status.PLAYING)
        for game_id in corrupt:
            await self.repo.close_unreadable(game_id)
            log.error("game %s could not be read and was closed; its row is kept for inspection", game_id)
        for game in games:
            self.games[game.id] = game
            if game.status is Status.LOBBY:
                self._arm_lobby_timer(game)
            else:
                self._arm_turn_timer(game)
            await self.refresh(game)
        log.info("resumed %d open games", len(self.games))

    # ------------------------------------------------------------ languages

    def user_language(self, user_id: int, telegram_code: str | None = None) -> str:
        user = self.users.get(user_id)
        chosen = user.language if user else None
        code = telegram_code or (user.telegram_language if user else None)
        return pick_language(chosen, code, self.default_language)

    def user_tr(self, user_id: int, telegram_code: str | None = None) -> Translator:
        return translator(self.user_language(user_id, telegram_code))

    async def chat_tr(self, chat_id: int) -> Translator:
        if chat_id not in self.chat_languages:
            chat = await self.repo.chat(chat_id)
            self.chat_languages[chat_id] = chat.language or self.default_language
        return translator(self.chat_languages[chat_id])

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self.repo.set_chat_language(chat_id, language)
        self.chat_languages[chat_id] = language
        for game in list(self.games.values()):
            if game.chat_id == chat_id:
                await self.refresh(game)

    async def set_user_language(self, user_id: int, language: str) -> None:
        await self.repo.set_user_language(user_id, language)
        stored = await self.repo.user(user_id)
        if stored:
            self.users[user_id] = stored
        for game in list(self.games.values()):
            if game.seat_of(user_id) is not None:
                await self.refresh(game)

    async def see_user(self, user: User, private_chat: bool | None = None) -> User:
        """Record a user met in an update (name, Telegram language, private chat opened)."""
        known = self.users.get(user.id)
        if known and known.name == user.name and known.username == user.username and (
                private_chat is None or known.private_chat == private_chat) and (
                user.telegram_language in (None, known.telegram_language)):
            return known
        stored = await self.repo.save_user(user, private_chat)
        self.users[user.id] = stored
        return stored

    async def set_admins(self, chat_id: int, admins: set[int]) -> None:
        self.admins[chat_id] = admins

    # ------------------------------------------------------------ lobby

    async def open_lobby(self, chat_id: int, thread_id: int, creator: User, preset: str | None,
                         previous: Previous | None = None, players: tuple[User, ...] = ()) -> Game | None:
        """Open a lobby and post its message; None if the chat (topic) already has an open game."""
        if await self.repo.open_game(chat_id, thread_id) is not None:
            return None
        chat = await self.repo.chat(chat_id)
        rules = chat.rules or Rules()
        if preset in PRESETS:
            rules = Rules.from_dict({"preset": preset, "deck_size": rules.deck_size})
        top = table_max(rules)
        max_players = min(chat.max_players or top, top)
        timeout = chat.turn_timeout if chat.turn_timeout in TIMEOUTS else 60
        try:
            game = await self.repo.create_lobby(chat_id, thread_id, creator, rules, max_players, previous, players,
                                                timeout)
        except Conflict:
            return None
        async with self.locks[game.id]:
            self.games[game.id] = game  # known before its message exists: an early press waits for the lock
            tr = await self.chat_tr(chat_id)
            text, markup = render.lobby(tr, game)
            message = await self.bot.send_message(chat_id, text, reply_markup=markup,
                                                  message_thread_id=thread_id or None)
            self.notifier.remember(chat_id, message.message_id, Content(text, markup))
            game = await self._write(game, message_id=message.message_id)
            self._arm_lobby_timer(game)
            await self.refresh(game)
        return game

    def deep_link(self, game_id: int) -> str:
        return f"https://t.me/{self.bot_username}?start=join_{game_id}"

    # ------------------------------------------------------------ deciding a press

    def decide(self, press: Press, user_id: int, telegram_code: str | None = None,
               where: tuple[int, int] | None = None) -> Decision:
        """What a press means, judged against the snapshot alone: no waiting, no writing.
        ``where``: the (chat, topic) of the pressed message, when known."""
        tr = self.user_tr(user_id, telegram_code)
        game = self.games.get(press.game)
        if press.verb is Verb.REPLAY:
            if where is not None and self.open_game_in(*where) is not None:
                return Decision(tr.gettext("A game is already open here."))
            return Decision(intent=Intent("replay"))
        if game is None:
            return Decision(tr.gettext("This game is over."))
        if press.verb is Verb.VOTE:
            return self._decide_vote(tr, game, user_id)
        if game.status is Status.LOBBY:
            return self._decide_lobby(tr, game, press, user_id)
        return self._decide_play(tr, game, press, user_id)

    def _decide_lobby(self, tr: Translator, game: Game, press: Press, user_id: int) -> Decision:
        verb = press.verb
        seated = game.seat_of(user_id) is not None
        creator = user_id == game.creator_id
        if verb is Verb.JOIN:
            user = self.users.get(user_id)
            reachable = user is not None and user.private_chat
            if seated:
                return Decision(tr.gettext("You have already joined.")) if reachable else Decision(
                    url=self.deep_link(game.id))
            if len(game.seats) >= game.max_players:
                return Decision(tr.gettext("The table is full."))
            if not reachable:
                # the deep link opens the private chat; its /start seats the user
                return Decision(url=self.deep_link(game.id))
            return Decision(tr.gettext("You joined the game."), intent=Intent("join"))
        if verb is Verb.LEAVE:
            if not seated:
                return Decision(tr.gettext("You are not in this game."))
            return Decision(tr.gettext("You left the game."), intent=Intent("leave"))
        if verb is Verb.CANCEL:
            if creator or user_id in self.admins.get(game.chat_id, set()):
                return Decision(intent=Intent("cancel"))
            return Decision(tr.gettext("Only the creator or an admin can cancel."))
        admin = user_id in self.admins.get(game.chat_id, set())
        if not creator and not (verb in (Verb.KICK, Verb.SETTINGS, Verb.BACK) and admin):
            return Decision(tr.gettext("Only the creator can do that."))
        if press.seq != game.version and verb is Verb.OPTION:
            return Decision(tr.gettext("The lobby has changed: look again."))
        if verb is Verb.SETTINGS:
            return Decision(intent=Intent("settings"))
        if verb is Verb.BACK:
            return Decision(intent=Intent("back"))
        if verb is Verb.KICK:
            kicked = next((s for s in game.seats if str(s.seat) == press.arg), None)
            if kicked is None or kicked.user.id == game.creator_id:
                return Decision(tr.gettext("Unknown button."))
            return Decision(tr.gettext("{name} was removed.").format(name=kicked.user.name),
                            intent=Intent("kick", arg=str(kicked.user.id)))
        if verb is Verb.OPTION and press.arg == "timer":
            return Decision(intent=Intent("timer"))
        if verb is Verb.OPTION:
            if press.arg not in OPTIONS_ORDER:
                return Decision(tr.gettext("Unknown button."))
            try:
                cycle(press.arg, game.rules, game.max_players, len(game.seats))
            except RulesError:
                return Decision(tr.gettext("That does not fit the seated players."))
            return Decision(intent=Intent("option", arg=press.arg))
        if verb is Verb.START:
            return self._decide_start(tr, game)
        return Decision(tr.gettext("Unknown button."))

    def _decide_start(self, tr: Translator, game: Game) -> Decision:
        n = len(game.seats)
        if n < 2:
            return Decision(tr.gettext("At least two players are needed."))
        try:
            game.rules.check_players(n)
        except RulesError:
            return Decision(tr.gettext("These rules need {n} players.").format(n=table_max(game.rules)))
        return Decision(intent=Intent("start"))  # whether every seat can be reached is found out by trying

    def _decide_play(self, tr: Translator, game: Game, press: Press, user_id: int) -> Decision:
        state = game.state
        seat = game.seat_of(user_id)
        if state is None or seat is None:
            return Decision(tr.gettext("You are not in this game."))
        if press.verb is Verb.BACK_IN:
            away = game.seats[seat].away
            if away in (Away.AWAY, Away.UNREACHABLE):
                return Decision(tr.gettext("Welcome back!"), intent=Intent("back_in", seat))
            return Decision(tr.gettext("You are playing."))
        if press.verb is Verb.LEAVE:
            if game.seats[seat].away is Away.LEFT:
                return Decision(tr.gettext("You have left this game."))
            if (game.id, seat) not in self.leaving:
                return Decision(tr.gettext("Press again to leave: the computer will play for you, "
                                           "and it counts as a loss."), intent=Intent("leave_ask", seat))
            return Decision(tr.gettext("You left the game."), intent=Intent("leave_game", seat))
        if press.verb is Verb.CHEAT:
            return Decision(intent=Intent("cheat", seat)) if game.rules.cheating else Decision(
                tr.gettext("Cheating is off at this table."))
        if press.seq != state.moves:
            return Decision(tr.gettext("The table has changed: look again."), intent=Intent("refresh", seat))
        armed = (game.id, seat) in self.armed
        try:
            action = self._action_of(game, seat, press, armed)
        except ValueError:
            return Decision(tr.gettext("Unknown button."))
        if isinstance(action, Intent):
            return Decision(intent=action)
        try:
            check(state, seat, action)
        except Illegal as refused:
            return Decision(render.reason(tr, refused))
        return Decision(intent=Intent("play", seat, action))

    def _action_of(self, game: Game, seat: int, press: Press, armed: bool) -> Action | Intent:
        """The engine action a press asks for (or a selection); ValueError for a malformed button."""
        state = game.state
        assert state is not None
        verb, arg = press.verb, press.arg
        if verb is Verb.TAKE:
            return Action(Act.TAKE)
        if verb is Verb.PASS:
            return Action(Act.PASS)
        if verb is Verb.ACCUSE:
            return Action(Act.ACCUSE, suspect=int(arg))
        if verb is Verb.LEAD:
            return Action(Act.ATTACK, tuple(parse_card(c) for c in arg.split(".")), cheat=armed)
        if verb is Verb.TRANSFER:
            return Action(Act.TRANSFER, (parse_card(arg),), cheat=armed)
        if verb is Verb.SHOW:
            return Action(Act.SHOW, (parse_card(arg),), cheat=armed)
        if verb is Verb.TARGET:
            card, target = (parse_card(c) for c in arg.split("."))
            return Action(Act.DEFEND, (card,), target=target, cheat=armed)
        if verb is not Verb.CARD:
            raise ValueError(verb)
        card = parse_card(arg)
        if seat != state.defender or not state.attacks:
            return Action(Act.ATTACK, (card,), cheat=armed)
        if self.selected.get((game.id, seat)) == card:
            return Intent("select", seat)  # a second press puts the card back
        uncovered = [a for a, c in zip(state.attacks, state.covers, strict=True) if c is None]
        fits = [t for t in uncovered if is_legal(state, seat, Action(Act.DEFEND, (card,), target=t, cheat=armed))]
        if len(fits) > 1:
            return Intent("select", seat, arg=card_code(card))
        target = fits[0] if fits else (uncovered[0] if uncovered else state.attacks[0])
        return Action(Act.DEFEND, (card,), target=target, cheat=armed)

    # ------------------------------------------------------------ doing it

    async def execute(self, press: Press, user: User) -> None:
        """Carry out a press under the game's lock, after deciding it again on the stored game."""
        if press.verb is Verb.REPLAY:
            await self._replay(press.game, user)
            return
        async with self.locks[press.game]:
            game = self.games.get(press.game)
            if game is None:
                return
            decision = self.decide(press, user.id)
            intent = decision.intent
            if intent is None:
                return
            if intent.kind == "play":
                assert intent.seat is not None and intent.action is not None
                self.leaving.discard((game.id, intent.seat))
                await self._advance(game, [(intent.seat, intent.action, False)])
            elif intent.kind == "vote":
                await self._vote(game, user.id)
            elif intent.kind == "back_in":
                assert intent.seat is not None
                await self._advance(game, [], flags={intent.seat: (0, Away.PLAYING)})
            elif intent.kind == "leave_ask":
                assert intent.seat is not None
                self.leaving.add((game.id, intent.seat))
                await self.refresh(game)
            elif intent.kind == "leave_game":
                assert intent.seat is not None
                self.leaving.discard((game.id, intent.seat))
                await self._advance(game, [], flags={intent.seat: (0, Away.LEFT)})
            elif intent.kind in ("select", "cheat", "refresh"):
                self._toggle(game, intent)
                await self.refresh(game)
            else:
                await self._lobby_intent(game, intent, user)

    def _toggle(self, game: Game, intent: Intent) -> None:
        assert intent.seat is not None
        key = (game.id, intent.seat)
        if intent.kind == "select":
            if intent.arg:
                self.selected[key] = parse_card(intent.arg)
            else:
                self.selected.pop(key, None)
        elif intent.kind == "cheat":
            self.armed.symmetric_difference_update({key})

    async def join(self, game_id: int, user: User) -> str:
        """Seat ``user`` (from the deep link in private); the reply for the private chat."""
        tr = self.user_tr(user.id)
        async with self.locks[game_id]:
            game = self.games.get(game_id)
            if game is None or game.status is not Status.LOBBY:
                return tr.gettext("That game has already started or ended.")
            if game.seat_of(user.id) is not None:
                return tr.gettext("You are already in this game. Wait for the start here.")
            if len(game.seats) >= game.max_players:
                return tr.gettext("The table is full.")
            await self._lobby_intent(game, Intent("join"), user)
        return tr.gettext("You joined the game. Your cards will appear here when it starts.")

    async def _lobby_intent(self, game: Game, intent: Intent, user: User) -> None:
        kind = intent.kind
        ids = [s.user.id for s in game.seats]
        if kind == "join":
            game = await self._write(game, seats=[*ids, user.id])
        elif kind == "leave":
            rest = [i for i in ids if i != user.id]
            if not rest:
                await self._close(game, Status.CANCELLED, "lobby_empty")
                return
            creator = game.creator_id if game.creator_id != user.id else rest[0]
            game = await self._write(game, seats=rest, creator_id=creator)
        elif kind == "settings":
            self.settings_open.add(game.id)
        elif kind == "back":
            self.settings_open.discard(game.id)
        elif kind == "option":
            rules, max_players = cycle(intent.arg, game.rules, game.max_players, len(game.seats))
            game = await self._write(game, rules=rules, max_players=max_players)
            await self.repo.save_chat_defaults(game.chat_id, rules, max_players, game.turn_timeout)
        elif kind == "timer":
            later = [t for t in TIMEOUTS if t > game.turn_timeout]
            game = await self._write(game, turn_timeout=(later or list(TIMEOUTS))[0])
            await self.repo.save_chat_defaults(game.chat_id, game.rules, game.max_players, game.turn_timeout)
        elif kind == "kick":
            game = await self._write(game, seats=[i for i in ids if str(i) != intent.arg])
        elif kind == "cancel":
            await self._close(game, Status.CANCELLED, "cancelled", by=user)
            return
        elif kind == "start":
            await self._start(game)
            return
        self._arm_lobby_timer(game)
        await self.refresh(game)

    async def _write(self, game: Game, **fields: Any) -> Game:
        fresh = await self.repo.update_game(game, expected_version=game.version, **fields)
        self.games[fresh.id] = fresh
        return fresh

    async def _start(self, game: Game) -> None:
        state = new_game(game.rules, len(game.seats), secrets.randbits(64), game.previous)
        started = Game(**{**_fields(game), "state": state, "status": Status.PLAYING})
        sent: dict[int, int] = {}
        for seat in game.seats:
            tr = self.user_tr(seat.user.id)
            text, markup = render.private(tr, started, seat.seat)
            try:
                message = await self.bot.send_message(seat.user.id, text, reply_markup=markup)
            except Forbidden:
                await self._unreachable(game, seat.user, sent)
                return
            except TelegramError as e:
                log.warning("game %s: could not send the hand of seat %s: %s", game.id, seat.seat, e)
                await self._unreachable(game, seat.user, sent)
                return
            sent[seat.seat] = message.message_id
            self.notifier.remember(seat.user.id, message.message_id, Content(text, markup))
        self.settings_open.discard(game.id)
        self.lobby_notes.pop(game.id, None)
        game = await self._write(game, status=Status.PLAYING, state=state, seat_messages=sent, log_lines=[])
        await self._advance(game, [])

    async def _unreachable(self, game: Game, user: User, sent: dict[int, int]) -> None:
        """A seat the bot cannot write to: undo the start, tell the lobby who must open the bot."""
        for seat, message_id in sent.items():
            with contextlib.suppress(TelegramError):
                await self.bot.delete_message(game.seats[seat].user.id, message_id)
        await self.see_user(user, private_chat=False)
        game = await self.repo.update_game(game, expected_version=game.version)
        self.games[game.id] = game
        tr = await self.chat_tr(game.chat_id)
        self.lobby_notes[game.id] = tr.gettext("I can't write to {name}: open a private chat with me "
                                               "(press Join) and try again.").format(name=user.name)
        await self.refresh(game)

    async def _advance(self, game: Game, moves: list[tuple[int, Action, bool]],
                       flags: dict[int, tuple[int, Away]] | None = None) -> None:
        """Play ``moves`` (seat, action, timed out), let the computer move for absent seats, write it
        all in one transaction, arm the next deadline, and update the messages."""
        assert game.state is not None
        state = game.state
        log_lines = list(game.log)
        seats = {s.seat: (s.missed, s.away) for s in game.seats}
        seats.update(flags or {})
        for seat, action, timed_out in moves:
            if not is_legal(state, seat, action):
                continue
            state, events = apply(state, seat, action)
            log_lines += _events_json(events, "timeout" if timed_out else None)
            missed, away = seats[seat]
            if timed_out:
                missed += 1
                away = Away.AWAY if missed >= 2 and away is Away.PLAYING else away
            seats[seat] = (0 if not timed_out else missed, away)
            self.selected.pop((game.id, seat), None)
            self.armed.discard((game.id, seat))
        computer = {seat for seat, (_, away) in seats.items() if away is not Away.PLAYING}
        for _ in range(10_000):  # the computer finishes even a game of absent players
            move = None if state.over else computer_move(state, computer)
            if move is None:
                break
            state, events = apply(state, *move)
            log_lines += _events_json(events, "computer")
        deadline = None if state.over or not game.turn_timeout else self.clock.now() + game.turn_timeout
        before = {s.seat: (s.missed, s.away) for s in game.seats}
        changed = {seat: flag for seat, flag in seats.items() if flag != before[seat]}
        if state.over:
            results = _results(game, state, seats)
            async with self.ratings_lock:  # ratings are read, moved and written by one finishing game at a time
                new_ratings = await self._new_ratings(game, results)
                game = await self._write(game, state=state, log_lines=log_lines, status=Status.FINISHED,
                                         results=results, ratings=new_ratings, seat_flags=changed, deadline=None)
            await self._finish(game)
            return
        game = await self._write(game, state=state, log_lines=log_lines, seat_flags=changed, deadline=deadline)
        self._arm_turn_timer(game)
        await self.refresh(game)

    async def _new_ratings(self, game: Game, results: list[ResultRow]) -> list[RatingUpdate]:
        players = [(r.user_id, r.rank, r.team) for r in results]
        updates = []
        for scope in (game.chat_id, ratings.GLOBAL):
            current = await self.repo.ratings(scope, [r.user_id for r in results])
            for user_id, (mu, sigma) in ratings.rate(current, players).items():
                updates.append(RatingUpdate(scope, user_id, mu, sigma, ratings.ordinal(mu, sigma)))
        return updates

    def _arm_turn_timer(self, game: Game) -> None:
        if game.deadline is None or game.state is None:
            return
        moves = game.state.moves
        self.clock.call_at(game.deadline, lambda: self._turn_timeout(game.id, moves))
        warn = game.deadline - WARN_SECONDS
        if game.turn_timeout > 2 * WARN_SECONDS and warn > self.clock.now():
            self.clock.call_at(warn, lambda: self._refresh_if(game.id, moves))

    async def _refresh_if(self, game_id: int, moves: int) -> None:
        """Show the last seconds of a turn (messages are only edited when something changes)."""
        game = self.games.get(game_id)
        if game is not None and game.state is not None and game.state.moves == moves:
            await self.refresh(game)

    async def _turn_timeout(self, game_id: int, moves: int) -> None:
        """The awaited players' time ran out: each makes a careful move. A late or repeated timer does nothing."""
        async with self.locks[game_id]:
            game = self.games.get(game_id)
            if game is None or game.state is None or game.state.moves != moves or game.deadline is None:
                return
            if self.clock.now() < game.deadline - 0.001:
                return
            state = game.state
            forced = [(seat, action, True) for seat in awaited(state)
                      if (action := timeout_action(state, seat)) is not None]
            await self._advance(game, forced)

    def _forget(self, game_id: int) -> None:
        self.games.pop(game_id, None)
        self.settings_open.discard(game_id)
        self.lobby_notes.pop(game_id, None)
        for key in [k for k in self.selected if k[0] == game_id]:
            del self.selected[key]
        self.armed = {k for k in self.armed if k[0] != game_id}

    async def _finish(self, game: Game) -> None:
        self._forget(game.id)
        await self.refresh(game)
        tr = await self.chat_tr(game.chat_id)
        text, markup = render.result(tr, game)
        try:
            await self.bot.send_message(game.chat_id, text, reply_markup=markup,
                                        message_thread_id=game.thread_id or None)
        except TelegramError as e:
            log.warning("game %s: the result message failed: %s", game.id, e)

    async def _close(self, game: Game, status: Status, why: str, by: User | None = None) -> None:
        """End a lobby or a game without a result."""
        game = await self.repo.update_game(game, expected_version=game.version, status=status, deadline=None)
        self._forget(game.id)
        self.votes.pop(game.id, None)
        tr = await self.chat_tr(game.chat_id)
        texts = {
            "cancelled": tr.gettext("The game was cancelled by {name}.").format(name=by.name if by else "?"),
            "expired": tr.gettext("The lobby expired: nobody started the game."),
            "lobby_empty": tr.gettext("Everybody left: the lobby is closed."),
            "stopped": tr.gettext("The game was stopped by {name}. No result is recorded.").format(
                name=by.name if by else "?"),
            "voted": tr.gettext("The players voted to stop the game. No result is recorded."),
        }
        if game.message_id is not None:
            self.notifier.want(game.chat_id, game.message_id, Content(texts[why], None))
        for seat in game.seats:
            if seat.message_id is not None:
                utr = self.user_tr(seat.user.id)
                self.notifier.want(seat.user.id, seat.message_id,
                                   Content(utr.gettext("The game was cancelled."), None))

    async def cancel_command(self, chat_id: int, thread_id: int, user: User) -> str | None:
        """/cancel in a group: the reply, or None when the game was cancelled (its message says so)."""
        tr = await self.chat_tr(chat_id)
        game = next((g for g in self.games.values() if g.chat_id == chat_id and g.thread_id == thread_id), None)
        if game is None:
            return tr.gettext("There is no open game here.")
        if user.id != game.creator_id and user.id not in self.admins.get(chat_id, set()):
            return tr.gettext("Only the creator or an admin can cancel.")
        async with self.locks[game.id]:
            if game.id in self.games:
                await self._close(self.games[game.id], Status.CANCELLED, "cancelled", by=user)
        return None

    async def stop_command(self, chat_id: int, thread_id: int, user: User) -> str | None:
        """/stop: the creator or an admin ends the game at once; a seated player opens a vote."""
        tr = await self.chat_tr(chat_id)
        game = self.open_game_in(chat_id, thread_id)
        if game is None or game.status is not Status.PLAYING:
            return tr.gettext("There is no game to stop here.")
        if user.id == game.creator_id or user.id in self.admins.get(chat_id, set()):
            async with self.locks[game.id]:
                if game.id in self.games:
                    await self._close(self.games[game.id], Status.CANCELLED, "stopped", by=user)
            return None
        if game.seat_of(user.id) is None:
            return tr.gettext("Only the players, the creator or an admin can stop the game.")
        if game.id in self.votes:
            return tr.gettext("A vote is already running: press its button.")
        if self._votes_needed(game) <= 1:
            async with self.locks[game.id]:
                if game.id in self.games:
                    await self._close(self.games[game.id], Status.CANCELLED, "voted")
            return None
        vote = Vote(0, self.clock.now() + VOTE_SECONDS, {user.id})
        self.votes[game.id] = vote
        self.clock.call_at(vote.deadline, lambda: self._vote_expired(game.id, vote))
        text, markup = render.stop_vote(tr, game, 1, self._votes_needed(game))
        message = await self.bot.send_message(chat_id, text, reply_markup=markup, message_thread_id=thread_id or None)
        self.notifier.remember(chat_id, message.message_id, Content(text, markup))
        vote.message_id = message.message_id
        return None

    def _votes_needed(self, game: Game) -> int:
        voters = [s for s in game.seats if s.away is not Away.LEFT]
        return len(voters) // 2 + 1

    def _decide_vote(self, tr: Translator, game: Game, user_id: int) -> Decision:
        vote = self.votes.get(game.id)
        if vote is None:
            return Decision(tr.gettext("This vote is over."))
        if game.seat_of(user_id) is None:
            return Decision(tr.gettext("Only the seated players vote."))
        if user_id in vote.voters:
            return Decision(tr.gettext("You have already voted."))
        return Decision(tr.gettext("Your vote counts."), intent=Intent("vote"))

    async def _vote(self, game: Game, user_id: int) -> None:
        vote = self.votes.get(game.id)
        if vote is None:
            return
        vote.voters.add(user_id)
        tr = await self.chat_tr(game.chat_id)
        needed = self._votes_needed(game)
        if len(vote.voters) >= needed:
            del self.votes[game.id]
            self.notifier.want(game.chat_id, vote.message_id, Content(tr.gettext("The players voted to stop."), None))
            await self._close(game, Status.CANCELLED, "voted")
            return
        self.notifier.want(game.chat_id, vote.message_id, Content(*render.stop_vote(tr, game, len(vote.voters),
                                                                                    needed)))

    async def _vote_expired(self, game_id: int, vote: Vote) -> None:
        async with self.locks[game_id]:
            if self.votes.get(game_id) is not vote:
                return
            del self.votes[game_id]
            game = self.games.get(game_id)
            if game is not None:
                tr = await self.chat_tr(game.chat_id)
                self.notifier.want(game.chat_id, vote.message_id,
                                   Content(tr.gettext("The vote to stop failed: the game goes on."), None))

    async def leave_command(self, chat_id: int, thread_id: int, user: User, private: bool) -> str | None:
        """/leave: in a lobby, leave it; in a game, the computer plays the seat to the end."""
        tr = self.user_tr(user.id) if private else await self.chat_tr(chat_id)
        mine = [g for g in self.games.values() if g.seat_of(user.id) is not None
                and (private or (g.chat_id == chat_id and g.thread_id == thread_id))]
        if len(mine) != 1:
            return tr.gettext("You are not in a game here.") if not mine else tr.gettext(
                "You are in several games: use the Leave button of the one to leave.")
        game = mine[0]
        async with self.locks[game.id]:
            game = self.games.get(game.id, game)
            seat = game.seat_of(user.id)
            assert seat is not None
            if game.status is Status.LOBBY:
                await self._lobby_intent(game, Intent("leave"), user)
            elif game.seats[seat].away is not Away.LEFT:
                await self._advance(game, [], flags={seat: (0, Away.LEFT)})
        return tr.gettext("You left the game.")

    async def kick_command(self, chat_id: int, thread_id: int, user: User, target: int) -> str:
        """/kick as a reply: the creator or an admin removes a player from the lobby."""
        tr = await self.chat_tr(chat_id)
        game = self.open_game_in(chat_id, thread_id)
        if game is None or game.status is not Status.LOBBY:
            return tr.gettext("There is no lobby here.")
        if user.id != game.creator_id and user.id not in self.admins.get(chat_id, set()):
            return tr.gettext("Only the creator or an admin can remove players.")
        if game.seat_of(target) is None or target == game.creator_id:
            return tr.gettext("That player is not in the lobby.")
        async with self.locks[game.id]:
            game = self.games.get(game.id, game)
            await self._lobby_intent(game, Intent("kick", arg=str(target)), user)
        name = self.users[target].name if target in self.users else "?"
        return tr.gettext("{name} was removed.").format(name=name)

    async def _replay(self, game_id: int, user: User) -> None:
        old = await self.repo.game(game_id)
        if old is None or old.state is None or old.status is not Status.FINISHED:
            return
        loser = old.state.losers[-1] if old.state.losers else None
        winner = old.state.out[0] if old.state.out else None
        players = tuple(s.user for s in old.seats)
        previous = Previous(loser, winner)
        async with self.chat_locks[old.chat_id]:  # two Play again presses open one lobby
            await self.open_lobby(old.chat_id, old.thread_id, user, None, previous, players)

    async def table_rules(self, chat_id: int | None, thread_id: int) -> Rules:
        """The rules of the open game here, else the chat's defaults, else the canon's defaults."""
        if chat_id is None:
            return Rules()
        game = self.open_game_in(chat_id, thread_id)
        if game is not None:
            return game.rules
        return (await self.repo.chat(chat_id)).rules or Rules()

    def open_game_in(self, chat_id: int, thread_id: int) -> Game | None:
        return next((g for g in self.games.values() if g.chat_id == chat_id and g.thread_id == thread_id), None)

    # ------------------------------------------------------------ timers

    def _arm_lobby_timer(self, game: Game) -> None:
        self.clock.call_at(game.updated_at + self.lobby_timeout, lambda: self._expire_lobby(game.id))

    async def _expire_lobby(self, game_id: int) -> None:
        async with self.locks[game_id]:
            game = self.games.get(game_id)
            if game is None or game.status is not Status.LOBBY:
                return
            if self.clock.now() < game.updated_at + self.lobby_timeout - 0.001:
                return  # touched since: a later timer is armed
            await self._close(game, Status.CANCELLED, "expired")

    # ------------------------------------------------------------ messages

    async def refresh(self, game: Game) -> None:
        """Make the group's message and every private message show the game as it is."""
        tr = await self.chat_tr(game.chat_id)
        if game.message_id is not None:
            if game.status is Status.LOBBY:
                text, markup = (render.settings(tr, game) if game.id in self.settings_open
                                else render.lobby(tr, game))
                note = self.lobby_notes.get(game.id)
                content = Content(f"{text}\n\n{note}" if note else text, markup)
            else:
                content = Content(render.table(tr, game, self.clock.now()), None)
            self.notifier.want(game.chat_id, game.message_id, content)
        if game.state is None:
            return
        for seat in game.seats:
            if seat.message_id is None:
                continue
            key = (game.id, seat.seat)
            hand = render.private(self.user_tr(seat.user.id), game, seat.seat, self.selected.get(key),
                                  key in self.armed, self.clock.now(), key in self.leaving)
            self.notifier.want(seat.user.id, seat.message_id, Content(*hand))

    async def user_blocked(self, chat_id: int) -> None:
        """The bot can no longer write to this user: the computer takes his seats; each group is told once."""
        user = self.users.get(chat_id)
        if user is None:
            return
        await self.see_user(user, private_chat=False)
        for game_id, game in list(self.games.items()):
            seat = game.seat_of(user.id)
            if game.status is not Status.PLAYING or seat is None:
                continue
            async with self.locks[game_id]:
                game = self.games.get(game_id, game)
                if game.seats[seat].away is not Away.PLAYING:
                    continue
                await self._advance(game, [], flags={seat: (0, Away.UNREACHABLE)})
                tr = await self.chat_tr(game.chat_id)
                with contextlib.suppress(TelegramError):
                    await self.bot.send_message(
                        game.chat_id, tr.gettext("I can't reach {name} any more (the bot was blocked?): the "
                                                 "computer plays for them.").format(name=user.name),
                        message_thread_id=game.thread_id or None)

    async def chat_migrated(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: games follow it, and the table is posted again there."""
        await self.repo.migrate_chat(old_id, new_id)
        if old_id in self.chat_languages:
            self.chat_languages[new_id] = self.chat_languages.pop(old_id)
        for game_id, game in list(self.games.items()):
            if game.chat_id != old_id:
                continue
            async with self.locks[game_id]:
                fresh = await self.repo.game(game_id)
                if fresh is None:
                    continue
                tr = await self.chat_tr(new_id)
                markup: InlineKeyboardMarkup | None = None
                if fresh.status is Status.LOBBY:
                    text, markup = render.lobby(tr, fresh)
                else:
                    text = render.table(tr, fresh)
                try:
                    message = await self.bot.send_message(new_id, text, reply_markup=markup,
                                                          message_thread_id=fresh.thread_id or None)
                except TelegramError as e:
                    log.warning("game %s: could not post the table in the supergroup: %s", game_id, e)
                    continue
                self.games[game_id] = await self.repo.update_game(fresh, expected_version=fresh.version,
                                                                  message_id=message.message_id)

    async def point_to_table(self, chat_id: int, thread_id: int, game: Game) -> None:
        tr = await self.chat_tr(chat_id)
        text = tr.gettext("A game is already open here: see the message above.")
        reply = ReplyParameters(game.message_id, allow_sending_without_reply=True) if game.message_id else None
        await self.bot.send_message(chat_id, text, message_thread_id=thread_id or None, reply_parameters=reply)


def _fields(game: Game) -> dict[str, Any]:
    return {name: getattr(game, name) for name in Game.__dataclass_fields__}


def _events_json(events: list[Event], by: str | None) -> list[dict[str, Any]]:
    """Events as stored in the game's log; ``by`` marks moves made by the timer or the computer."""
    stored = []
    for event in events:
        if event.kind is Ev.DREW:
            continue
        data = _event_json(event)
        if by is not None and event.kind not in (Ev.BEATEN, Ev.PICKED_UP, Ev.OUT, Ev.GAME_OVER):
            data["by"] = by
        stored.append(data)
    return stored


def _event_json(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"k": event.kind.value}
    if event.seat is not None:
        data["s"] = event.seat
    if event.cards:
        data["c"] = [card_code(c) for c in event.cards]
    if event.other is not None:
        data["o"] = event.other
    if event.number:
        data["n"] = event.number
    return data


def _results(game: Game, state: State, seats: dict[int, tuple[int, Away]]) -> list[ResultRow]:
    """One row per seat. A player who left counts as a loser (ranked last in free-for-all games)
    whatever the computer made of his seat."""
    rank_of = ranks(state)
    worst = max(rank_of)
    team = game.rules.team_of
    rows = []
    for seat in game.seats:
        number = seat.seat
        place = state.out.index(number) + 1 if number in state.out else None
        away = seats[number][1]
        left = away is Away.LEFT
        rank = worst if left and team(number) is None else rank_of[number]
        rows.append(ResultRow(number, seat.user.id, place, rank, number in state.losers or left, state.draw,
                              state.pogony, left, away is not Away.PLAYING, penalty(state, number), team(number)))
    return rows
