"""/stop by a vote of the seated players: a majority within a minute stops the game without a result."""

from __future__ import annotations

from bot.game import slots
from bot.game.core import Core
from bot.game.decisions import Closing, Decision, Intent, Kind
from bot.game.store import GameUI, Vote
from bot.game.timers import logged
from bot.ui import render
from bot.ui.i18n import Translator
from storage.models import Away, Game, Owed, Status, User
from storage.slots import Slot, vote_slot

VOTE_SECONDS = 60


def needed(game: Game) -> int:
    voters = [s for s in game.seats if s.away is not Away.LEFT]
    return len(voters) // 2 + 1


class Votes:
    def __init__(self, service: Core) -> None:
        self.service = service

    def message(self, tr: Translator, game: Game, vote: Vote, text: str | None = None) -> Owed:
        """The vote's own message in the group: the count and its button, or ``text`` once it is over."""
        if text is not None:
            return Owed(game.chat_id, vote.slot, text, None, game.thread_id)
        body, markup = render.stop_vote(tr, game, len(vote.voters), needed(game), vote.starter)
        return Owed(game.chat_id, vote.slot, body, slots.markup_json(markup), game.thread_id)

    async def stop_command(self, chat_id: int, thread_id: int, user: User, admin: bool) -> str | None:
        """/stop: the creator or an admin ends the game at once; a seated player opens a vote."""
        service = self.service
        tr = await service.directory.chat_tr(chat_id)
        found = service.store.open_in(chat_id, thread_id)
        none = tr.gettext("There is no game to stop here.")
        if found is None:
            return none

        async def work(game: Game) -> str | None:
            if game.status is not Status.PLAYING:
                return none
            if user.id == game.creator_id or admin:
                await service.close(game, Status.CANCELLED, Closing.STOPPED, by=user)
                return None
            if game.seat_of(user.id) is None:
                return tr.gettext("Only the players, the creator or an admin can stop the game.")
            ui = service.store.ui_of(game.id)
            if ui.vote is not None:
                return tr.gettext("A vote is already running: press its button.")
            if needed(game) <= 1:
                await service.close(game, Status.CANCELLED, Closing.VOTED)
                return None
            ui.votes_held += 1
            vote = ui.vote = Vote(vote_slot(ui.votes_held), service.clock.now() + VOTE_SECONDS, {user.id},
                                  render.name_of(game, game.seat_of(user.id) or 0))
            service.clock.call_at(vote.deadline, lambda: logged(game.id, self.expired(game.id, vote.slot)))
            await service.refresh(game, [self.message(tr, game, vote)])
            return None

        return await service.with_game(found.id, work)

    def decide(self, tr: Translator, game: Game, ui: GameUI, user_id: int) -> Decision:
        if ui.vote is None:
            return Decision(tr.gettext("This vote is over."))
        if game.seat_of(user_id) is None:
            return Decision(tr.gettext("Only the seated players vote."))
        if user_id in ui.vote.voters:
            return Decision(tr.gettext("You have already voted."))
        return Decision(tr.gettext("Your vote counts."), intent=Intent(Kind.VOTE))

    async def vote(self, game: Game, ui: GameUI, user_id: int) -> None:
        vote = ui.vote
        assert vote is not None
        vote.voters.add(user_id)
        tr = await self.service.directory.chat_tr(game.chat_id)
        if len(vote.voters) >= needed(game):
            ui.vote = None
            await self.service.close(game, Status.CANCELLED, Closing.VOTED,
                                     extra=[self.message(tr, game, vote, tr.gettext("The players voted to stop."))])
            return
        await self.service.refresh(game, [self.message(tr, game, vote)])

    async def expired(self, game_id: int, slot: Slot) -> None:
        async def work(game: Game) -> None:
            ui = self.service.store.ui_of(game_id)
            if ui.vote is None or ui.vote.slot != slot:
                return
            vote, ui.vote = ui.vote, None
            tr = await self.service.directory.chat_tr(game.chat_id)
            await self.service.refresh(game, [self.message(tr, game, vote, tr.gettext(
                "The vote to stop failed: the game goes on."))])

        await self.service.with_game(game_id, work)
