"""The game service: routes presses and commands to the lobby, play and vote logic, under the game's lock.

Every decision that changes a game is made under that game's lock, against the game as last
written (``GameStore.locked``); the new game and every message it owes are written in one
transaction (``GameStore.save`` and the outbox table), and the outbox delivers them. A write
that lost a race reloads the game and decides again. Deadlines are found by the sweep of
``bot.game.timers``; /stop votes, typed commands and chat events live in ``votes``, ``table_commands`` and
``chats``, which reach the service only through ``bot.game.core.Core``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from bot.game import computers, lobby, play, slots
from bot.game.chats import Chats
from bot.game.clock import Clock
from bot.game.core import PageLinks
from bot.game.decisions import Closing, Decision, Intent, Kind
from bot.game.directory import Directory
from bot.game.lobbies import SETTLE_SECONDS, Lobbies
from bot.game.puzzles import Puzzles
from bot.game.results import evening_of, new_badges, new_ratings, result_rows
from bot.game.reviews import Reviewer
from bot.game.seasons import SeasonCloser
from bot.game.slots import evening_end
from bot.game.store import GameStore, GameUI
from bot.game.table_commands import Commands
from bot.game.timers import Timers
from bot.game.tournaments import Tournaments
from bot.game.votes import Votes
from bot.stats.card import draw
from bot.stats.result_card import evening_card, game_card, tournament_card
from bot.transport.outbox import Outbox
from bot.ui.callbacks import Press, Verb, unpack
from bot.ui.i18n import Translator
from bot.ui.variants import game_name
from durak import Rules, parse_card
from durak.ai import hard
from durak.review.judge import DEALS_MAX
from storage.models import Away, Game, OutboxRow, Owed, Status, User
from storage.repo import Conflict, Repo
from storage.slots import TABLE, Slot, hand_seat, hand_slot, picture_slot

log = logging.getLogger(__name__)
T = TypeVar("T")
RACE_RETRIES = 3  # a decision lost to another process's write is made again on the new game, this often

GAME_VERBS = {Verb.CARD, Verb.PICK, Verb.COVER, Verb.TARGET, Verb.LEAD, Verb.TRANSFER, Verb.SHOW, Verb.TAKE,
              Verb.PASS, Verb.ACCUSE, Verb.CHEAT, Verb.BACK_IN, Verb.LEAVE_YES, Verb.STAY, Verb.STOCK_LEAD,
              Verb.DRAW, Verb.SWAP, Verb.COUNTER}


async def _nothing_moved(game_ids: list[int]) -> None:
    pass


@dataclass(frozen=True)
class Pacing:
    """How the games are paced and thought over (the operator's settings, bot.settings)."""

    lobby_timeout: float                          # seconds a lobby nobody starts stays open
    ping_delay: float = slots.PING_DELAY          # seconds before a player who must act is pinged
    computer_pause: float = computers.PAUSE       # seconds a computer waits before its move
    computer_budget_ms: float = hard.BUDGET_MS    # the hard computer's thinking time a move
    review_deals: int = DEALS_MAX                 # deals a reviewed decision is weighed on (0: no reviews)
    think_on_idle_cpu: bool = True                # the thinking and the reviews only on CPU the bot leaves idle


class GameService:
    def __init__(self, repo: Repo, directory: Directory, outbox: Outbox, clock: Clock, pacing: Pacing) -> None:
        self.repo = repo
        self.directory = directory
        self.outbox = outbox
        self.store = GameStore(repo)
        self.lobby_timeout = pacing.lobby_timeout
        self.ping_delay = pacing.ping_delay
        self.computer_pause = pacing.computer_pause
        self.thinker = computers.Thinker(pacing.computer_budget_ms, idle_cpu=pacing.think_on_idle_cpu)
        self.reviewer = Reviewer(repo, directory, outbox, self.thinker.pressing, self.thinker.thinking,
                                 pacing.review_deals, idle_cpu=pacing.think_on_idle_cpu)
        self.puzzles = Puzzles(repo)
        self.clock = clock
        self.bot_username = ""
        self.ratings_lock = asyncio.Lock()
        self.timers = Timers(self)
        self.votes = Votes(self)
        self.commands = Commands(self)
        self.chats = Chats(self)
        self.lobbies = Lobbies(self)
        self.seasons = SeasonCloser(self, repo)
        self.tournaments = Tournaments(self, repo, self.lobbies)
        outbox.listen(OutboxEvents(self))
        self.on_change: Callable[[Game], None] = lambda game: None  # the Mini App's pages (bot.webapp.server)
        self.on_moved: Callable[[list[int]], Awaitable[None]] = _nothing_moved  # games another process leads now
        self.links: PageLinks | None = None  # where a game's Mini App page opens, when it is configured

    async def chores(self, now: float) -> None:
        await self.seasons.close_due(now)
        await self.tournaments.look(now)

    async def picture(self, chat_id: int, about: str) -> bytes | None:
        """A result card, drawn from the stored game it names ("result:12", or "evening:12" for the evening that
        game ended); None for a game that is not there or not finished."""
        kind, _, number = about.partition(":")
        if kind == "tournament":
            tournament = await self.repo.tournament(int(number)) if number.isdigit() else None
            if tournament is None:
                return None
            tr = await self.directory.chat_tr(chat_id)
            entrants = await self.repo.entrants(tournament.id)
            return await asyncio.to_thread(draw, tournament_card(tr, tournament, entrants, tournament.ends_at))
        game = await self.repo.game(int(number)) if number.isdigit() else None
        if game is None or game.status is not Status.FINISHED or game.state is None:
            return None
        tr = await self.directory.chat_tr(chat_id)
        evening = await self.seasons.stats.evening(game)
        when = game.updated_at
        if kind == "evening":
            if evening is None:
                return None
            card = evening_card(tr, game, evening, when)
        else:
            card = game_card(tr, game, evening, when)
        return await asyncio.to_thread(draw, card)  # some 50 ms of Pillow: not on the loop the presses wait on

    # ------------------------------------------------------------ start-up

    async def resume(self, bot_username: str) -> None:
        """Load every open game this process leads (all of them, but with partitions: ``repo.owns``), owe what
        its messages should show, deliver what is owed, start the sweep."""
        self.bot_username = bot_username
        count = await self.adopt()
        self.timers.start()
        log.info("resumed %d open games", count)

    async def adopt(self, new: Callable[[int], bool] | None = None) -> int:
        """Load the open games of the chats this process has just come to lead (``new``; at the start every one
        it leads, ``repo.owns``), and deliver what they owe; the number of games loaded. Only those: a game of a
        chat led here before is in the store, or was closed meanwhile, and a copy read before it closed must not
        come back (its messages would show it open again)."""
        games, corrupt = await self.repo.games_with_status(Status.LOBBY, Status.PLAYING)
        for game_id in corrupt:
            await self.repo.close_unreadable(game_id)
            log.error("game %s could not be read and was closed; its row is kept for inspection", game_id)
        loading = new or self.repo.owns
        mine = [game for game in games if loading(game.chat_id) and game.id not in self.store.games]
        for game in mine:  # known before what they owe is delivered: a refused lobby's post closes its lobby
            self.store.add(game, await self.repo.slot_messages(game.id))
            # each seat's ping waits from when his position was written, as before the restart or takeover
            slots.track_turns(game, self.store.ui_of(game.id), game.updated_at, frozenset())
        # what they owe from before, before the refreshes: read after them, the rows those are delivering would be
        # read as owed still, and sent twice
        await self.outbox.resume()
        for game in mine:  # as stored now, under its lock: the sweep may have closed it meanwhile (an expired lobby),
            await self.with_game(game.id, self.refresh)  # and the copy read above would show it open again
        if self.reviewer.deals_max:  # the games a stop (or another process) left unreviewed
            self.reviewer.soon()
        return len(mine)

    async def let_go(self, leaving: Callable[[int], bool]) -> None:
        """Forget the games of the chats ``leaving`` names (another process leads them next; ``repo.owns`` says
        no to them already): each once its decision in hand is written, and their messages once none is on its
        way to Telegram."""
        gone = await self.forget_games(leaving)
        await self.reviewer.settle()  # a review of theirs is announced by their next lead, never by both
        await self.repo.owed()  # their owed rows are not this process's to deliver any more
        await self.outbox.quiet(leaving)
        await self.on_moved(gone)

    async def forget_games(self, leaving: Callable[[int], bool]) -> list[int]:
        """Forget the games of the chats ``leaving`` names, each once its decision in hand is written; their ids."""
        gone = []
        for game_id in [g.id for g in self.store.games.values() if leaving(g.chat_id)]:
            async with self.store.locked(game_id) as game:
                if game is not None:
                    self.store.forget(game_id)
                    gone.append(game_id)
        return gone

    def on_shown(self, row: OutboxRow, message_id: int) -> None:
        """Telegram shows a slot's content now: presses on its message are valid, and a hand's turn timer
        counts from the first time its owner could see the move (see ``Timers.turn_deadline``)."""
        ui = self.store.ui.get(row.game_id) if row.game_id is not None else None
        if ui is None:
            return
        ui.messages[row.slot] = (row.chat_id, message_id)
        if (seat := hand_seat(row.slot)) is not None and seat in ui.unseen:
            ui.unseen.discard(seat)
            ui.shown_at[seat] = self.clock.now()

    # ------------------------------------------------------------ writing

    async def save(self, old: Game, new: Game, closing: str | None = None, extra: Sequence[Owed] = (),
                   finished: bool = False, movers: frozenset[int] | None = None) -> Game:
        """Write the game and the messages it owes (with its results and ratings when ``finished``); deliver them.
        ``movers``: the seats whose moves these are (see ``slots.owed``: the others' hands may wait)."""
        tr = await self.directory.chat_tr(old.chat_id)
        now = self.clock.now()
        chats: set[int] = set()
        urgent: set[int] = set()

        written: list[Owed] = []
        steady = slots.awaited_seats(old)

        def render(game: Game, ui: GameUI) -> list[Owed]:
            slots.track_turns(game, ui, now, movers)
            write = slots.Write(tr, self.directory.default_language, now, closing, movers, self.ping_delay,
                                self.page_links(game), self.outbox.budget.short, steady)
            every = [*slots.owed(game, ui, write), *extra]
            urgent.update(o.chat_id for o in every if not o.lazy)
            owed = slots.unwritten(ui, every)
            chats.update(o.chat_id for o in owed)
            written[:] = owed
            return owed

        if finished:
            results = result_rows(new)
            evening = None
            if new.tournament is None:  # a tournament's table is no evening's
                new, evening = await evening_of(self.repo, new, results, now)
            scored, standings = await self.tournaments.scored(new, results)
            earned = await new_badges(self.repo, new, results, evening, now)
            ending = self.store.ui_of(old.id)
            ending.evening, ending.badges = evening, earned
            pictures = (await self.repo.chat(new.chat_id)).pictures
            caption = " · ".join(part for part in (game_name(tr, new.rules), new.title) if part)
            if pictures:  # the result card, drawn when it is sent (OutboxEvents.picture)
                extra = [*extra, Owed(new.chat_id, picture_slot("result", new.id), caption, None, new.thread_id)]
            if evening is not None and evening.over:  # its goal is met: the evening's own result, under the game's
                extra = [*extra, evening_end(tr, new, evening)]
                if pictures:
                    extra.append(Owed(new.chat_id, picture_slot("evening", new.id), caption, None, new.thread_id))
            async with self.ratings_lock:  # ratings are read, moved and written by one finishing game at a time
                ratings, changes = await new_ratings(self.repo, new, results)
                ending.changes = changes
                saved = await self.store.save(old, new, render, results=results, ratings=ratings,
                                              badges=[(u, b.key) for u, found in earned.items() for b in found],
                                              scored=scored, standings=standings)
            if new.tournament is not None:
                await self.tournaments.table_ended(new.tournament)
        else:
            saved = await self.store.save(old, new, render)
        ui = self.store.ui.get(old.id)  # None once the game is closed (and forgotten)
        if ui is not None:
            slots.note_written(ui, written)
            ui.shown_at.clear()  # the new position is shown to nobody yet (a hand it left unchanged showed it)
            ui.unseen = {seat for o in written if (seat := hand_seat(o.slot)) is not None and o.text is not None}
        self.outbox.kick(*chats, lazy=chats - urgent)
        self.outbox.hurry(*(urgent - chats))  # his message did not change now, but may wait from before
        if saved.status is Status.PLAYING:
            self.timers.computer_soon(saved)
        elif finished and self.reviewer.deals_max:
            self.reviewer.soon()
        self.on_change(saved)
        return saved

    async def refresh(self, game: Game, extra: Sequence[Owed] = ()) -> None:
        """Owe the messages of a game whose UI changed (not the game itself)."""
        tr = await self.directory.chat_tr(game.chat_id)
        ui = self.store.ui_of(game.id)
        now = self.clock.now()
        slots.track_turns(game, ui, now, None)
        write = slots.Write(tr, self.directory.default_language, now, ping_delay=self.ping_delay,
                            links=self.page_links(game))
        owed = slots.unwritten(ui, [*slots.owed(game, ui, write), *extra])
        await self.repo.put_owed(game.id, owed)
        slots.note_written(ui, owed)
        self.outbox.kick(*{o.chat_id for o in owed})
        self.on_change(game)

    async def watch(self, game_id: int, seat: int, live: bool) -> None:
        """A seat's Mini App page is live (open, and it acknowledges its frames) or not any more: while it is,
        his hand message waits; then it is brought up to date, and his pings come again."""
        if game_id not in self.store.games:
            return
        ui = self.store.ui_of(game_id)
        if live and seat not in ui.chatting:
            ui.watched.add(seat)
        elif seat in ui.watched:
            ui.watched.discard(seat)
            await self.with_game(game_id, self.refresh)

    def page_links(self, game: Game) -> tuple[str, str | None] | None:
        """Where the game's Mini App page opens from a hand and from the group (None: no Mini App)."""
        if self.links is None:
            return None
        return self.links.hand(game.id), self.links.table(game.id, self.bot_username)

    async def with_game(self, game_id: int, work: Callable[[Game], Awaitable[T]]) -> T | None:
        """Run ``work`` on the game under its lock; after a lost race the game is reloaded and ``work`` runs again."""
        for _ in range(RACE_RETRIES):
            async with self.store.locked(game_id) as game:
                if game is None:
                    return None
                if not self.repo.owns(game.chat_id):  # its partition is being handed over (bot.game.shares): the next
                    log.info("game %s is handed over to another process: not decided here", game_id)  # process
                    self.store.forget(game_id)  # decides what its timers or computers owe
                    return None
                try:
                    return await work(game)
                except Conflict as e:
                    log.warning("%s: deciding again", e)
        return None

    # ------------------------------------------------------------ presses

    async def press(self, press: Press, user: User, where: tuple[int, int] | None,
                    telegram_code: str | None = None, page: bool = False) -> Decision:
        """Decide and carry out a press; the Decision's toast and url answer it. ``page``: pressed on the Mini
        App's page of the game (its hand's buttons only), not on a message."""
        tr = self.directory.user_tr(user, telegram_code)
        if press.verb is Verb.REPLAY:
            return await self.lobbies.replay(tr, press.game, user, where, page)
        if press.game not in self.store.games:
            return Decision(tr.gettext("This game is over."))
        if where is not None and where not in self.store.ui_of(press.game).messages.values():
            await self.outbox.settle(where[0], SETTLE_SECONDS)  # a message so new that its id is being recorded

        async def work(game: Game) -> Decision:
            ui = self.store.ui_of(game.id)
            if not page and not self._pressed_on_its_message(game, ui, press, user, where):
                if where is not None and self._an_older_copy_of_his_hand(game, ui, press, user, where):
                    self.outbox.retire(*where)
                return Decision(tr.gettext("This button is not valid any more."))
            seat = game.seat_of(user.id)
            held = not page and seat is not None and seat in ui.watched
            if held and seat is not None:  # his page is open, yet he plays in the chat (a second device): his
                ui.watched.discard(seat)   # hand is kept up to date from now on
                ui.chatting.add(seat)
            decision = await self._decide(tr, game, ui, press, user)
            if held and decision.intent is None:
                await self.refresh(game)
            if decision.intent is not None:
                await self.carry_out(game, ui, decision.intent, user)
                if decision.intent.kind is Kind.PLAY and where is not None and self.outbox.held(user.id):
                    # his hand waits for Telegram's budget (folded under pressure): without a word he would see
                    # nothing happen for up to a minute and press the old position again. An answer costs no budget
                    return replace(decision, toast=tr.gettext(
                        "✔ Accepted. Many games are on right now: your cards will update shortly."))
            elif decision.toast and where is not None and where[0] == user.id:
                # refused on his hand, which may show an old position that waits in the outbox (folded under
                # Telegram's budget): he is looking at it now, so it goes ahead, or he presses it wrong again
                self.outbox.hurry(user.id, stale=True)
            return decision

        try:
            decision = await self.with_game(press.game, work)
        except Exception:
            log.exception("press %s by user %s failed", press, user.id)
            return Decision(tr.gettext("Something went wrong: please try again."))
        return decision or Decision(tr.gettext("This game is over."))

    def _pressed_on_its_message(self, game: Game, ui: GameUI, press: Press, user: User,
                                where: tuple[int, int] | None) -> bool:
        """A button counts only on the message it was sent on: the lobby/table, the presser's hand, the vote."""
        slot: Slot | None
        if press.verb is Verb.VOTE:
            slot = ui.vote.slot if ui.vote else None
        elif press.verb in GAME_VERBS or (press.verb is Verb.LEAVE and game.status is Status.PLAYING):
            seat = game.seat_of(user.id)
            slot = None if seat is None else hand_slot(seat)
        else:
            slot = TABLE
        return where is not None and slot is not None and ui.messages.get(slot) == where

    @staticmethod
    def _an_older_copy_of_his_hand(game: Game, ui: GameUI, press: Press, user: User, where: tuple[int, int]) -> bool:
        """Pressed on a hand in his private chat older than the one the bot keeps there: a copy posted just before
        a process was killed (its id never written) and posted again since, or an old copy whose delete failed.
        Only older: a newer one may be a copy whose id is still being written."""
        seat = game.seat_of(user.id)
        if press.verb not in GAME_VERBS or seat is None or where[0] != user.id:
            return False
        kept = ui.messages.get(hand_slot(seat))
        return kept is not None and kept[0] == user.id and where[1] < kept[1]

    async def _decide(self, tr: Translator, game: Game, ui: GameUI, press: Press, user: User) -> Decision:
        if press.verb is Verb.VOTE:
            return self.votes.decide(tr, game, ui, user.id)
        if game.status is Status.LOBBY:
            if press.verb is Verb.JOIN and not user.private_chat:  # he may have opened it at another process
                user = await self.directory.writable(user.id) or user
            admin = user.id != game.creator_id and press.verb in lobby.ADMIN_VERBS and (
                await self.directory.is_admin(game.chat_id, user.id))
            return lobby.decide(tr, game, press, user, admin, self.lobbies.deep_link(game.id))
        return play.decide(tr, game, ui, press, user.id)

    async def carry_out(self, game: Game, ui: GameUI, intent: Intent, user: User) -> None:
        kind, seat = intent.kind, intent.seat
        if kind is Kind.PLAY:
            assert seat is not None and intent.action is not None
            ui.played(seat)
            await self.advance(game, [(seat, intent.action, False)])
        elif kind is Kind.VOTE:
            await self.votes.vote(game, ui, user.id)
        elif kind is Kind.BACK_IN:
            assert seat is not None
            await self.advance(game, [], {seat: (0, Away.PLAYING)})
        elif kind is Kind.LEAVE_GAME:
            assert seat is not None
            ui.seat(seat).leaving = False
            await self.advance(game, [], {seat: (0, Away.LEFT)})
        elif kind in (Kind.SELECT, Kind.PICK, Kind.CHEAT, Kind.LEAVE_ASK, Kind.STAY, Kind.SWAPPING):
            assert seat is not None
            view = ui.seat(seat)
            if kind is Kind.SWAPPING:  # покерный: start or stop picking the two cards to swap
                view.swapping, view.picked, view.selected = not view.swapping, (), None
            elif kind is Kind.PICK:
                view.picked = unpack(intent.arg) if intent.arg else ()
            elif kind is Kind.SELECT:
                view.selected = parse_card(intent.arg) if intent.arg else None
            elif kind is Kind.CHEAT:
                view.armed = not view.armed
            else:
                view.leaving = kind is Kind.LEAVE_ASK
            await self.refresh(game)
        else:
            await self.lobbies.intent(game, ui, intent, user)

    # ------------------------------------------------------------ playing

    async def advance(self, game: Game, moves: list[play.Move], flags: dict[int, tuple[int, Away]] | None = None,
                      base: Game | None = None, extra: Sequence[Owed] = ()) -> Game:
        """Play the moves (and the computer's), write it all with the messages it owes."""
        new = play.advance(base or game, moves, flags, self.clock.now())
        assert new.state is not None
        if not new.state.attacks:  # a new bout: picks and choices of the last one are void
            self.store.ui_of(game.id).new_bout()
        if new.state.over:
            return await self.save(game, replace(new, status=Status.FINISHED, deadline=None),
                                   extra=[*extra, *await self._vote_ended(game)], finished=True)
        movers = frozenset(seat for seat, _, _ in moves) | frozenset(flags or ()) if moves or flags else None
        return await self.save(game, new, extra=extra, movers=movers)

    async def table_rules(self, chat_id: int | None, thread_id: int) -> Rules:
        """The rules of the open game here, else the chat's defaults, else the canon's defaults."""
        if chat_id is None:
            return Rules()
        game = self.store.open_in(chat_id, thread_id)
        if game is not None:
            return game.rules
        return (await self.repo.chat(chat_id)).rules or Rules()

    def table_message(self, game: Game) -> int | None:
        found = self.store.ui_of(game.id).messages.get(TABLE)
        return None if found is None else found[1]

    # ------------------------------------------------------------ endings

    async def close(self, game: Game, status: Status, why: Closing, by: User | None = None,
                     extra: Sequence[Owed] = ()) -> None:
        """End a lobby or a game without a result."""
        tr = await self.directory.chat_tr(game.chat_id)
        texts = {
            Closing.CANCELLED: tr.gettext("The game was cancelled by {name}.").format(name=by.name if by else "?"),
            Closing.EXPIRED: tr.gettext("The lobby expired: nobody started the game."),
            Closing.LOBBY_EMPTY: tr.gettext("Everybody left: the lobby is closed."),
            Closing.REFUSED: tr.gettext("Telegram did not let me post the game here: the lobby is closed."),
            Closing.STOPPED: tr.gettext("The game was stopped by {name}. No result is recorded.").format(
                name=by.name if by else "?"),
            Closing.VOTED: tr.gettext("The players voted to stop the game. No result is recorded."),
        }
        await self.save(game, replace(game, status=status, deadline=None), closing=texts[why],
                        extra=extra or await self._vote_ended(game))

    async def _vote_ended(self, game: Game) -> list[Owed]:
        """A /stop vote still open when its game ends: its message says so and loses its button."""
        vote = self.store.ui_of(game.id).vote
        if vote is None:
            return []
        tr = await self.directory.chat_tr(game.chat_id)
        return [self.votes.message(tr, game, vote, tr.gettext("The game is over."))]


class OutboxEvents:
    """What the outbox tells the game (``bot.transport.outbox.Listener``): a message shown, a user who blocked the
    bot, a group that became a supergroup, a post refused for good."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def shown(self, row: OutboxRow, message_id: int) -> None:
        self.service.on_shown(row, message_id)

    async def blocked(self, chat_id: int) -> None:
        await self.service.chats.user_blocked(chat_id)

    async def migrated(self, old: int, new: int) -> None:
        await self.service.chats.chat_migrated(old, new)

    async def refused(self, row: OutboxRow, why: str) -> None:
        await self.service.chats.post_refused(row, why)

    async def picture(self, row: OutboxRow) -> bytes | None:
        return await self.service.picture(row.chat_id, row.slot.key)
