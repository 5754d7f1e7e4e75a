"""The engine's constants: enum members as module globals, the single-card actions built once, the
rules' numbers.

Enum members read through their class cost a Python-level call on CPython 3.11 (``EnumType``
defines ``__getattr__``): about 55 ns, against 5 for a module global, and an action reads a dozen.
The engine reads them from these globals.
"""

from __future__ import annotations

from typing import Final

from durak.actions import Act, Action
from durak.events import Ev
from durak.rules import Lead, PogonyRule, Ranking, Refill, Teams, ThrowIn

Act_ACCUSE: Final = Act.ACCUSE
Act_ATTACK: Final = Act.ATTACK
Act_COUNTER: Final = Act.COUNTER
Act_DEFEND: Final = Act.DEFEND
Act_DRAW_CARD: Final = Act.DRAW_CARD
Act_PASS: Final = Act.PASS
Act_SHOW: Final = Act.SHOW
Act_STOCK_LEAD: Final = Act.STOCK_LEAD
Act_SWAP: Final = Act.SWAP
Act_TAKE: Final = Act.TAKE
Act_THROW_SELF: Final = Act.THROW_SELF
Act_TRANSFER: Final = Act.TRANSFER
Ev_BEATEN: Final = Ev.BEATEN
Ev_CAUGHT: Final = Ev.CAUGHT
Ev_COUNTER: Final = Ev.COUNTER
Ev_COVER: Final = Ev.COVER
Ev_DREW: Final = Ev.DREW
Ev_DREW_CARD: Final = Ev.DREW_CARD
Ev_FACE_DRAWN: Final = Ev.FACE_DRAWN
Ev_FACE_SHOWN: Final = Ev.FACE_SHOWN
Ev_GAME_OVER: Final = Ev.GAME_OVER
Ev_HANDS_ROTATED: Final = Ev.HANDS_ROTATED
Ev_LEAD: Final = Ev.LEAD
Ev_OUT: Final = Ev.OUT
Ev_PASS: Final = Ev.PASS
Ev_PICKED_UP: Final = Ev.PICKED_UP
Ev_POGON: Final = Ev.POGON
Ev_RECYCLED: Final = Ev.RECYCLED
Ev_SECRET_TRUMP: Final = Ev.SECRET_TRUMP
Ev_SHOW: Final = Ev.SHOW
Ev_STOCK_LEAD: Final = Ev.STOCK_LEAD
Ev_SWAPPED: Final = Ev.SWAPPED
Ev_TAKE: Final = Ev.TAKE
Ev_THROW_IN: Final = Ev.THROW_IN
Ev_THROW_SELF: Final = Ev.THROW_SELF
Ev_TRANSFER: Final = Ev.TRANSFER
Ev_TRUMP_SWAPPED: Final = Ev.TRUMP_SWAPPED
Ev_WRONG_ACCUSE: Final = Ev.WRONG_ACCUSE
Lead_SAME_RANK: Final = Lead.SAME_RANK
PogonyRule_SIXES: Final = PogonyRule.SIXES
PogonyRule_TWO_SIXES: Final = PogonyRule.TWO_SIXES
Ranking_BEATEN: Final = Ranking.BEATEN
Ranking_FIGURES: Final = Ranking.FIGURES
Ranking_ORDER: Final = Ranking.ORDER
Ranking_POGONY: Final = Ranking.POGONY
Refill_WHEN_EMPTY: Final = Refill.WHEN_EMPTY
Teams_NONE: Final = Teams.NONE
ThrowIn_ALL: Final = ThrowIn.ALL
ThrowIn_ATTACKER: Final = ThrowIn.ATTACKER
ThrowIn_OFF: Final = ThrowIn.OFF

PASS = Action(Act_PASS)
# Single-card actions are built once: listing them is the hot path of every simulation.
_CARDS = range(60)
ATTACK = [Action(Act_ATTACK, (c,)) for c in _CARDS]
ATTACK_CHEAT = [Action(Act_ATTACK, (c,), cheat=True) for c in _CARDS]
TRANSFER = [Action(Act_TRANSFER, (c,)) for c in _CARDS]
TRANSFER_CHEAT = [Action(Act_TRANSFER, (c,), cheat=True) for c in _CARDS]
SHOW = [Action(Act_SHOW, (c,)) for c in _CARDS]
SHOW_CHEAT = [Action(Act_SHOW, (c,), cheat=True) for c in _CARDS]
DEFEND = [[Action(Act_DEFEND, (c,), target=t) for c in _CARDS] for t in _CARDS]
DEFEND_CHEAT = [[Action(Act_DEFEND, (c,), target=t, cheat=True) for c in _CARDS] for t in _CARDS]
THROW_SELF = [Action(Act_THROW_SELF, (c,)) for c in _CARDS]
THROW_SELF_CHEAT = [Action(Act_THROW_SELF, (c,), cheat=True) for c in _CARDS]

FIGURE_RANK = 10  # фигурный: 10s to aces score
REPEATS = 3       # the time a bout begins in the same position that ends the game in a draw

# The events of the moves a game plays most are built from all five fields at once: ``Event(...)`` runs
# NamedTuple's ``__new__``, a Python function, which showed in a random game's profile (docs/performance.md).
event = tuple.__new__
