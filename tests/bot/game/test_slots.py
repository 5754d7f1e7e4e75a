"""What each message of a game should show (bot/game/slots.py): the group's table, a hand in each person's private
chat (none for a computer), the result at the end; content this process wrote already is not owed again."""

from __future__ import annotations

from dataclasses import replace

from bot.game.slots import Write, note_written, owed, unwritten
from bot.game.store import GameUI
from bot.ui.i18n import translator
from storage.models import Status
from storage.slots import RESULT, TABLE, Kind, hand_slot
from tests.bot.game.made import ANNA, BORIS, COMPUTER, GROUP, dealt, game_of

WRITE = Write(translator("en"), "en", now=1000.0)


def test_a_game_owes_the_table_in_the_group_and_each_persons_hand_in_private() -> None:
    game = game_of(dealt(3), ANNA, COMPUTER, BORIS)
    slots = owed(game, GameUI(), WRITE)
    where = {o.slot: o.chat_id for o in slots if o.slot.kind is not Kind.PING}
    assert where == {TABLE: GROUP, hand_slot(0): ANNA.id, hand_slot(2): BORIS.id}, "no hand for the computer"
    hand = next(o for o in slots if o.slot == hand_slot(0))
    assert hand.text and hand.markup, "his cards, as text and as buttons"


def test_a_finished_game_adds_its_result_and_a_lobby_owes_its_table_alone() -> None:
    game = game_of(dealt(2), ANNA, BORIS)
    finished = replace(game, status=Status.FINISHED)
    assert RESULT in {o.slot for o in owed(finished, GameUI(), WRITE)}
    lobby = replace(game, status=Status.LOBBY, state=None)
    assert [o.slot for o in owed(lobby, GameUI(), WRITE)] == [TABLE]


def test_a_closed_game_says_its_last_words_and_takes_each_hand_away() -> None:
    game = game_of(dealt(2), ANNA, BORIS)
    closing = owed(game, GameUI(), replace(WRITE, closing="The game was stopped."))
    table = next(o for o in closing if o.slot == TABLE)
    assert table.text == "The game was stopped." and table.markup is None
    hands = [o for o in closing if o.slot.kind is Kind.HAND]
    assert len(hands) == 2 and all(o.text == "The game was cancelled." and o.markup is None for o in hands)


def test_what_was_written_is_not_owed_again() -> None:
    game = game_of(dealt(2), ANNA, BORIS)
    ui = GameUI()
    first = owed(game, ui, WRITE)
    assert unwritten(ui, first) == first
    note_written(ui, first)
    assert unwritten(ui, owed(game, ui, WRITE)) == [], "the same game, the same messages: nothing to send"
