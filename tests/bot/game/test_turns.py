"""Who moves when a player does not (bot/game/turns.py): the careful move when his time runs out, the computer's
move where its own is not legal, and the moves nobody need be asked for."""

from __future__ import annotations

from dataclasses import replace

from bot.game.turns import computer_action, forced_move, timeout_action
from durak import TAKE, Act, Action, apply, is_legal
from tests.bot.game.made import dealt


def test_when_time_runs_out_the_leader_leads_the_defender_takes_and_the_others_pass() -> None:
    state = dealt(3)
    lead = timeout_action(state, state.attacker)
    assert lead is not None and lead.act is Act.ATTACK and is_legal(state, state.attacker, lead)
    assert timeout_action(state, state.defender) is None, "nothing to take before a card is led"
    attacked, _ = apply(state, state.attacker, lead)
    assert timeout_action(attacked, attacked.defender) == TAKE
    third = next(p for p in range(3) if p not in (attacked.attacker, attacked.defender))
    careful = timeout_action(attacked, third)
    assert careful is None or careful == Action(Act.PASS), "a thrower-in never throws in for him"


def test_a_computers_illegal_choice_gives_way_to_the_careful_move() -> None:
    state = dealt()
    chosen = Action(Act.ATTACK, (min(state.hands[1 - state.attacker]),))  # a card of the other hand
    played = computer_action(state, state.attacker, chosen)
    assert played != chosen and is_legal(state, state.attacker, played)
    legal = timeout_action(state, state.attacker)
    assert legal is not None and computer_action(state, state.attacker, legal) == legal


def test_the_defender_alone_with_cards_and_no_stock_takes_without_being_asked() -> None:
    state = dealt()
    lead = timeout_action(state, state.attacker)
    assert lead is not None
    attacked, _ = apply(state, state.attacker, lead)
    assert forced_move(attacked) is None, "with a stock, he has a real choice"
    emptied = replace(attacked, stock=[], hands=[list(h) if p == attacked.defender else [] for p, h in
                                                 enumerate(attacked.hands)])
    assert len(emptied.hands[emptied.defender]) > 1  # more cards than lie open: the durak whatever he does
    assert forced_move(emptied) == (emptied.defender, TAKE)
    cheating = replace(emptied, rules=replace(emptied.rules, cheating=True))
    assert forced_move(cheating) is None, "an accusation may still change the bout"

