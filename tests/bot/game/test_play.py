"""What a press in a running game means (bot/game/play.py), decided on the game as it is now: a legal card is
played, anything else gets its reason as a toast and changes nothing."""

from __future__ import annotations

from bot.game.decisions import Kind
from bot.game.play import decide
from bot.game.store import GameUI
from bot.ui.callbacks import Press, Verb
from bot.ui.i18n import translator
from durak import Act, Action, legal_actions
from durak.cards import card_code
from tests.bot.game.made import ANNA, BORIS, VERA, dealt, game_of

EN = translator("en")


def test_a_card_the_leader_holds_is_played() -> None:
    state = dealt()
    game = game_of(state, ANNA, BORIS)
    leader = game.seats[state.attacker].user
    card = min(state.hands[state.attacker])
    decision = decide(EN, game, GameUI(), Press(Verb.CARD, game.id, 1, card_code(card)), leader.id)
    assert decision.toast is None and decision.intent is not None
    assert decision.intent.kind is Kind.PLAY and decision.intent.seat == state.attacker
    assert decision.intent.action == Action(Act.ATTACK, (card,))
    assert decision.intent.action in legal_actions(state, state.attacker)


def test_a_card_he_does_not_hold_and_a_move_out_of_turn_are_refused_with_their_reason() -> None:
    state = dealt()
    game = game_of(state, ANNA, BORIS)
    leader, other = state.attacker, 1 - state.attacker
    foreign = min(state.hands[other])
    not_his = decide(EN, game, GameUI(), Press(Verb.CARD, game.id, 1, card_code(foreign)), game.seats[leader].user.id)
    assert not_his.intent is None and not_his.toast
    out_of_turn = decide(EN, game, GameUI(), Press(Verb.TAKE, game.id, 1), game.seats[other].user.id)
    assert out_of_turn.intent is None and out_of_turn.toast
    assert not_his.toast != out_of_turn.toast, "each says its own reason"


def test_someone_not_seated_and_a_malformed_button_change_nothing() -> None:
    state = dealt()
    game = game_of(state, ANNA, BORIS)
    stranger = decide(EN, game, GameUI(), Press(Verb.TAKE, game.id, 1), VERA.id)
    assert stranger.intent is None and stranger.toast == "You are not in this game."
    leader = game.seats[state.attacker].user.id
    garbled = decide(EN, game, GameUI(), Press(Verb.CARD, game.id, 1, "ZZ"), leader)
    assert garbled.intent is None and garbled.toast == "Unknown button."


def test_leaving_asks_first_and_a_yes_without_the_question_is_stale() -> None:
    state = dealt(3)
    game = game_of(state, ANNA, BORIS, VERA)
    ui = GameUI()
    ask = decide(EN, game, ui, Press(Verb.LEAVE, game.id, 1), BORIS.id)
    assert ask.intent is not None and ask.intent.kind is Kind.LEAVE_ASK and ask.toast is None
    stale = decide(EN, game, ui, Press(Verb.LEAVE_YES, game.id, 1), BORIS.id)
    assert stale.intent is None and stale.toast == "This button is not valid any more."
    ui.seat(1).leaving = True  # the question is on his hand now
    yes = decide(EN, game, ui, Press(Verb.LEAVE_YES, game.id, 1), BORIS.id)
    assert yes.intent is not None and yes.intent.kind is Kind.LEAVE_GAME and yes.intent.seat == 1
    stay = decide(EN, game, ui, Press(Verb.STAY, game.id, 1), BORIS.id)
    assert stay.intent is not None and stay.intent.kind is Kind.STAY


def test_cheating_is_refused_where_the_table_plays_honest() -> None:
    state = dealt()
    game = game_of(state, ANNA, BORIS)
    refused = decide(EN, game, GameUI(), Press(Verb.CHEAT, game.id, 1), ANNA.id)
    assert refused.intent is None and refused.toast == "Cheating is off at this table."
