"""durak: a pure rules engine for Durak (docs/rules.md), free of Telegram and SQLite.

>>> from durak import Rules, new_game, legal_actions, apply
>>> state = new_game(Rules(), players=2, seed=1)
>>> actions = legal_actions(state, state.attacker)
>>> state, events = apply(state, state.attacker, actions[0])
>>> events[0].kind
<Ev.LEAD: 'lead'>
"""

from durak.actions import PASS as PASS
from durak.actions import TAKE, Act, Action, Illegal, Reason, accuse, attack, defend, show, transfer
from durak.cards import Card, beats, card_code, card_label, parse_card
from durak.engine import apply, is_legal, legal_actions
from durak.events import Ev, Event
from durak.rules import FirstAttacker, Rules, RulesError, Teams, ThrowIn
from durak.setup import Previous, new_game, position
from durak.state import State, StateError
from durak.view import View, view

__all__ = [
    "PASS", "TAKE", "Act", "Action", "Card", "Ev", "Event", "FirstAttacker", "Illegal", "Previous",
    "Reason", "Rules", "RulesError", "State", "StateError", "Teams", "ThrowIn", "View", "accuse",
    "apply", "attack", "beats", "card_code", "card_label", "defend", "is_legal", "legal_actions",
    "new_game", "parse_card", "position", "show", "transfer", "view",
]
