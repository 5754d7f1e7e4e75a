"""Tournaments in a group: opened for a fixed time by an admin, joined by a button, its players seated at tables as
they come free, its points written with each table's results, closed when its time is up and its last table ends.

Everything lies in the database (the tournament, its players, its tables as games that name it), so a restart or
a ``kill -9`` loses nothing: the sweep looks again. Several processes: a tournament is its chat's, and only the
process that leads that chat seats its tables and closes it. Its message (the standings) is an outbox row of its
own, rewritten with each join, leave, table seated and table ended.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

from telegram.error import BadRequest, Forbidden, TelegramError

from bot.game.core import Core
from bot.game.lobbies import Lobbies
from bot.game.slots import markup_json
from bot.stats import tournament_text
from bot.stats.tournament_rules import meetings, next_streak, points, tables
from bot.ui.callbacks import Press
from bot.ui.i18n import Translator
from bot.ui.render import name_of
from bot.ui.variants import game_name
from durak import Rules
from durak.scoring import ranks
from storage.computers import computer_id, is_computer
from storage.models import (
    DEFAULT_TURN_SECONDS,
    Entrant,
    Game,
    Owed,
    ResultRow,
    Scored,
    Status,
    Tournament,
    TournamentStatus,
    User,
)
from storage.repo import Conflict, Repo
from storage.slots import TABLE, note_slot, picture_slot
from storage.tournament_rows import standing_row

log = logging.getLogger(__name__)
MINUTES = (5, 600)         # how long a tournament may run
LOOK_SECONDS = 2.0         # between two looks of the sweep at the running tournaments
FREE_SECONDS = 5.0         # a player free this long is seated (time to read his last result)
LONE_SECONDS = 30.0        # a lone free player waits this long for another before a computer joins his table
COMPUTERS = ("computers", "bots", "компьютеры", "комп'ютери", "computer")
ANYONE = ("anyone", "all", "все", "всі", "alle")    # /tournament anyone: the admins' leave for everyone to open one
ADMINS = ("admins", "админы", "адміни")           # /tournament admins: taken back (German says admins too)


class Tournaments:
    def __init__(self, core: Core, repo: Repo, lobbies: Lobbies) -> None:
        self.core = core
        self.repo = repo
        self.lobbies = lobbies
        self.looked = 0.0
        self.refreshed: set[int] = set()  # tournaments whose message this process has written since it started
        self.writing: dict[int, asyncio.Lock] = {}  # one write of a tournament's message at a time, read just before

    # ------------------------------------------------------------ commands and presses

    async def open(self, tr: Translator, chat_id: int, thread_id: int, creator: User, args: Sequence[str],
                   title: str, admin: bool, forum: bool = False) -> str | None:
        """/tournament 60 [computers]: the answer to send (None: its message is the answer). An admin may open one,
        anyone else where the admins gave leave (/tournament anyone). In a ``forum`` its tables play in topics of
        their own."""
        chat = await self.repo.chat(chat_id)
        if not admin and not chat.tournaments_open:
            return tr.gettext("Only an admin can open a tournament here. An admin may let everyone open one: "
                              "/tournament anyone.")
        minutes = int(args[0]) if args and args[0].isascii() and args[0].isdigit() and len(args[0]) <= 6 else None
        computers = len(args) == 2 and args[1].lower() in COMPUTERS
        if minutes is None or not MINUTES[0] <= minutes <= MINUTES[1] or (len(args) > 1 and not computers):
            return tr.gettext("Send /tournament 60 for a tournament of 60 minutes (from {least} to {most}); add "
                              "«computers» to let computers fill a table.").format(least=MINUTES[0], most=MINUTES[1])
        rules = chat.rules or Rules()
        try:
            tournament = await self.repo.open_tournament(chat_id, thread_id, creator.id, rules,
                                                         chat.turn_timeout or DEFAULT_TURN_SECONDS, computers, title,
                                                         minutes, lambda t: [_message(tr, t, [], [])], forum)
        except Conflict:
            return tr.gettext("A tournament is already on here.")
        self.core.outbox.kick(chat_id)
        log.info("chat %s: tournament %s opened for %s minutes", chat_id, tournament.id, minutes)
        return None

    async def standing(self, tr: Translator, chat_id: int) -> str:
        """/tournament alone: how the group's tournament stands, if one is on."""
        running = await self.repo.tournament_in(chat_id)
        if running is None:
            return tr.gettext("No tournament is on here. An admin opens one: /tournament 60 (its minutes).")
        entrants = await self.repo.entrants(running.id)
        return tournament_text.message(tr, running, entrants, await self._seated(running))[0]

    async def leave(self, tr: Translator, chat_id: int, choice: str) -> str:
        """/tournament anyone|admins (admins): who may open a tournament here."""
        anyone = choice in ANYONE
        await self.repo.set_chat_tournaments_open(chat_id, anyone)
        return (tr.gettext("Anyone here may now open a tournament. /tournament admins takes it back.") if anyone
                else tr.gettext("Only admins may open a tournament here now."))

    async def stop(self, tr: Translator, chat_id: int, user_id: int, admin: bool) -> str | None:
        """/tournament stop (an admin, or the player who opened it): no new tables; it ends with its last one."""
        tournament = await self.repo.tournament_in(chat_id)
        if tournament is None or tournament.status is not TournamentStatus.OPEN:
            return tr.gettext("No tournament is open here.")
        if not admin and tournament.creator_id != user_id:
            return tr.gettext("Only an admin or the one who opened the tournament can end it.")
        await self._close(tournament)
        return None

    async def press(self, tr: Translator, press: Press, user: User, where: tuple[int, int] | None) -> str:
        """Join or Leave on a tournament's message: only on its own message, only while it is open."""
        tournament = await self.repo.tournament(press.game)
        shown = (await self.repo.slot_messages(standing_row(press.game))).get(TABLE) if tournament else None
        if tournament is None or where is None or shown != where or press.arg not in ("j", "l"):
            return tr.gettext("This button is not valid any more.")
        if tournament.status is not TournamentStatus.OPEN:
            return tr.gettext("The tournament takes no players any more.")
        if press.arg == "j" and not (await self.core.directory.writable(user.id) or user).private_chat:
            return tr.gettext("Open a private chat with me first (/start there), then press Join again.")
        joining = press.arg == "j"
        entrants = await self.repo.entrants(tournament.id)  # as they will be, for its message
        now = self.core.clock.now()
        if joining and all(e.user.id != user.id for e in entrants):
            entrants.append(Entrant(user, now, now, False, 0, 0, 0, 0))
        entrants = [e if e.user.id != user.id else _left(e, not joining) for e in entrants]  # back: his points stay
        group = await self.core.directory.chat_tr(tournament.chat_id)  # its message speaks the group's language
        changed = await self.repo.enter(tournament.id, user.id, joining,
                                        [_message(group, tournament, entrants, await self._seated(tournament))])
        if not changed:
            return tr.gettext("You are in the tournament already.") if joining else \
                tr.gettext("You are not in the tournament.")
        await self.refresh(tournament)  # as committed: a table may have ended meanwhile
        return tr.gettext("You are in: I seat you at a table as soon as someone is free.") if joining else \
            tr.gettext("You left the tournament: your points stay, you are not seated again.")

    # ------------------------------------------------------------ the sweep

    async def look(self, now: float) -> None:
        """Seat the free players, close the tournaments whose time is up (at most every ``LOOK_SECONDS``)."""
        if now < self.looked + LOOK_SECONDS:
            return
        self.looked = now
        try:
            for tournament in await self.repo.running_tournaments():
                if self.repo.owns(tournament.chat_id):
                    await self._step(tournament, now)
        except Exception:  # a failed look (a full disk) is tried again: the sweep must go on
            log.exception("the tournaments' look failed; the next one tries again")

    async def _step(self, tournament: Tournament, now: float) -> None:
        tables_now = await self.repo.tournament_tables(tournament.id)
        running = [(game, seated) for game, status, seated in tables_now if status in (Status.LOBBY, Status.PLAYING)]
        dealt = False
        for game_id, _ in running:  # a table a crash left undealt
            game = self.core.store.games.get(game_id)
            if game is not None and game.status is Status.LOBBY:
                dealt |= await self.lobbies.start_table(game_id) is not None
        if dealt or tournament.id not in self.refreshed:  # a crash may have come before its message showed them
            self.refreshed.add(tournament.id)
            await self.refresh(tournament)
        if tournament.status is TournamentStatus.OPEN and now >= tournament.ends_at:
            await self._close(tournament)
            return
        if tournament.status is TournamentStatus.CLOSING:
            if not running:
                await self._finish(tournament)
            return
        busy = {user for _, seated in running for user in seated}
        entrants = await self.repo.entrants(tournament.id)
        free = [e for e in sorted(entrants, key=lambda e: e.free_since)
                if not e.left and e.user.id not in busy and now >= e.free_since + FREE_SECONDS]
        met = meetings([seated for _, _, seated in tables_now])
        most = tournament.rules.max_players()
        seated_any = False
        seating = [[next(e.user for e in free if e.user.id == u) for u in table]
                   for table in tables([e.user.id for e in free], met, most)]
        if len(free) == 1 and tournament.computers and now >= free[0].free_since + LONE_SECONDS:
            computer = await self.repo.user(computer_id("normal", 1))
            if computer is not None:
                seating.append([free[0].user, computer])
        used = await self.repo.tournament_threads(tournament.id) if seating and tournament.topics else set()
        for users in seating:
            thread = await self._topic(tournament, used)
            if thread is None:  # the bot may not make topics here
                tournament = replace(tournament, topics=False)
                thread = tournament.thread_id
            used.add(thread)
            seated_any |= await self.lobbies.seat_table(tournament, users, thread) is not None
        if seated_any:
            await self.refresh(tournament)

    async def _topic(self, tournament: Tournament, used: set[int]) -> int | None:
        """The topic a new table plays in: in a forum the first of its tables' topics no table plays in now, made
        when none is free («🏆 Table 3»); else the tournament's own; None where the bot may not make topics (its
        tables then play in its own from now on). A crash between making a topic and keeping it leaves that topic
        unused."""
        if not tournament.topics:
            return tournament.thread_id
        made = await self.repo.tournament_topics(tournament.id)
        number = next(n for n in range(1, len(made) + 2) if made.get(n) not in used)
        if number in made:
            return made[number]
        tr = await self.core.directory.chat_tr(tournament.chat_id)
        try:
            topic = await self.core.directory.bot.create_forum_topic(
                tournament.chat_id, tr.gettext("🏆 Table {number}").format(number=number))
        except (BadRequest, Forbidden) as e:  # no right to manage topics, topics off: its tables play where it opened
            log.warning("chat %s: tournament %s cannot open a topic for a table (%s); its tables play in its own "
                        "topic", tournament.chat_id, tournament.id, e)
            await self.repo.end_tournament_topics(tournament.id)
            return None
        except TelegramError as e:  # a failed call (the network, Telegram busy): this table plays where it opened
            log.warning("chat %s: tournament %s: a table's topic could not be opened now (%s)", tournament.chat_id,
                        tournament.id, e)
            return tournament.thread_id
        return await self.repo.add_tournament_topic(tournament.id, number, topic.message_thread_id)

    async def _close_topics(self, tournament: Tournament) -> None:
        """Its tables' topics closed at its end: their results stay to read, the forum's list stays short."""
        for thread in (await self.repo.tournament_topics(tournament.id)).values():
            try:
                await self.core.directory.bot.close_forum_topic(tournament.chat_id, thread)
            except TelegramError as e:
                log.warning("chat %s: the topic %s of tournament %s could not be closed (%s)", tournament.chat_id,
                            thread, tournament.id, e)

    async def _close(self, tournament: Tournament) -> None:
        tr = await self.core.directory.chat_tr(tournament.chat_id)
        closing = replace(tournament, status=TournamentStatus.CLOSING)
        entrants = await self.repo.entrants(tournament.id)
        owed = [_message(tr, closing, entrants, await self._seated(closing))]
        if await self.repo.set_tournament_status(tournament.id, TournamentStatus.CLOSING, owed):
            self.core.outbox.kick(tournament.chat_id)

    async def _finish(self, tournament: Tournament) -> None:
        tr = await self.core.directory.chat_tr(tournament.chat_id)
        over = replace(tournament, status=TournamentStatus.OVER)
        entrants = await self.repo.entrants(tournament.id)
        best = tournament_text.ranked([e for e in entrants if e.games])
        gold = [(best[0].user.id, "tournament_gold")] if best and best[0].points > 0 else []
        owed = [await self._message(tr, over, entrants, []),
                Owed(tournament.chat_id, note_slot("tournament", tournament.id), tournament_text.final(tr, entrants),
                     None, tournament.thread_id)]
        if (await self.repo.chat(tournament.chat_id)).pictures and best:  # its picture, drawn when it is sent
            owed.append(Owed(tournament.chat_id, picture_slot("tournament", tournament.id),
                             game_name(tr, tournament.rules), None, tournament.thread_id))
        if await self.repo.set_tournament_status(tournament.id, TournamentStatus.OVER, owed, gold):
            log.info("chat %s: tournament %s is over", tournament.chat_id, tournament.id)
            self.core.outbox.kick(tournament.chat_id)
            await self._close_topics(tournament)

    # ------------------------------------------------------------ a table's end

    async def scored(self, game: Game, results: Sequence[ResultRow]) -> tuple[list[Scored], list[Owed]]:
        """A finished table's points for its tournament's players, and the standings they make (written with the
        game's results, ``Repo.save_game``)."""
        if game.tournament is None or game.state is None:
            return [], []
        tournament = await self.repo.tournament(game.tournament)
        if tournament is None:
            return [], []
        entrants = {e.user.id: e for e in await self.repo.entrants(tournament.id)}
        rank_of = ranks(game.state)
        players = len(results)
        scored = []
        for r in results:
            entrant = entrants.get(r.user_id)
            if entrant is None or is_computer(r.user_id):
                continue
            rank = rank_of[r.seat]
            tied = sum(1 for x in rank_of if x == rank)
            first = rank == 1 and not r.draw and not r.loser
            scored.append(Scored(tournament.id, r.user_id, points(players, rank, r.draw, tied, entrant.streak), first,
                                 next_streak(entrant.streak, first)))
        after = [_scored(e, next((s for s in scored if s.user_id == e.user.id), None)) for e in entrants.values()]
        tr = await self.core.directory.chat_tr(tournament.chat_id)
        seated = [names for game_id, names in await self._tables(tournament) if game_id != game.id]
        return scored, [await self._message(tr, tournament, after, seated)]

    # ------------------------------------------------------------ its message

    async def refresh(self, tournament: Tournament) -> None:
        """Its message as the database has it now. Two tables ending at once each wrote it with their own points,
        read before the other's were committed: one of them is short until this is written again."""
        async with self.writing.setdefault(tournament.id, asyncio.Lock()):
            tr = await self.core.directory.chat_tr(tournament.chat_id)
            fresh = await self.repo.tournament(tournament.id) or tournament
            await self.repo.update_standings(tournament.id, [
                await self._message(tr, fresh, await self.repo.entrants(tournament.id), await self._seated(fresh))])
        self.core.outbox.kick(tournament.chat_id)

    async def table_ended(self, tournament_id: int) -> None:
        """After a table's end was committed (its points and a first version of the message with them)."""
        tournament = await self.repo.tournament(tournament_id)
        if tournament is not None:
            await self.refresh(tournament)

    async def _tables(self, tournament: Tournament) -> list[tuple[int, list[str]]]:
        found = []
        for game_id, status, _ in await self.repo.tournament_tables(tournament.id):
            game = self.core.store.games.get(game_id)
            if status in (Status.LOBBY, Status.PLAYING) and game is not None:
                found.append((game_id, [name_of(game, s.seat) for s in game.seats]))
        return found

    async def _seated(self, tournament: Tournament) -> list[list[str]]:
        return [names for _, names in await self._tables(tournament)]

    async def _message(self, tr: Translator, tournament: Tournament, entrants: Sequence[Entrant],
                       seated: Sequence[Sequence[str]]) -> Owed:
        return _message(tr, tournament, entrants, seated)


def _message(tr: Translator, tournament: Tournament, entrants: Sequence[Entrant], seated: Sequence[Sequence[str]]
             ) -> Owed:
    """The tournament's message: its slot is the table slot of its own outbox rows (game -id)."""
    text, markup = tournament_text.message(tr, tournament, entrants, seated)
    return Owed(tournament.chat_id, TABLE, text, markup_json(markup), tournament.thread_id)


def _left(e: Entrant, left: bool = True) -> Entrant:
    return Entrant(e.user, e.joined_at, e.free_since, left, e.points, e.games, e.firsts, e.streak)


def _scored(e: Entrant, s: Scored | None) -> Entrant:
    if s is None:
        return e
    return Entrant(e.user, e.joined_at, e.free_since, e.left, e.points + s.points, e.games + 1,
                   e.firsts + int(s.first), s.streak)
