"""The rules of docs/rules.md §4–§8: which actions are legal, and what an action does.

:func:`legal_actions` lists what a seat may do now; :func:`apply` returns the new state
and the events, or raises :class:`~durak.actions.Illegal` and changes nothing.

The package by job: ``position`` (whose turn, how much room), ``blockers`` (why a variant's
move is closed), ``listing`` (every legal action), ``checking`` (one action, with the reason
a refused one gets), ``playing`` (what an action does), ``bout_end`` (discard or take,
refill, scores, the game's end); ``constants`` holds what the hot paths read.

Choices where docs/rules.md is silent (see also docs/engine.md):

* Attackers throw in at any moment of an open bout, in any order; the main attacker has
  no priority. A player who passed may still throw in later (it clears all passes).
* With ``throw_in=neighbours`` only the nearest active player on each side of the defender
  throws in (an opponent, in team games). A main attacker sitting further round (3×3 teams,
  seats out between) leads but does not throw in, and the bout does not wait for his pass.
* A pass is needed from every attacker who may throw in and holds cards, even one with
  no card of a rank on the table: passing reveals nothing about a hand.
* Listing: a lead lists every same-rank set that fits; a throw-in, a transfer and a
  cheat list one card each (several may be played in one action all the same).
* Cheating: a player caught while out comes back in with the table's cards.
* Variants (docs/variants.md): a defender who threw in on himself more than he can beat and covers with his
  last card while cards remain to beat takes (he cannot beat them, and nobody else may act then).
  A lone card that breaks a variant's lead rule is listed as a cheat.
* A game whose position repeats ends in a draw (``bout_end._repeated``): the third time a bout begins after a
  take that drew nothing with the same hands, roles and trump, while no card has left play or been
  drawn since.
"""

from durak.engine.checking import check, is_legal
from durak.engine.constants import FIGURE_RANK, REPEATS
from durak.engine.listing import actors, awaited, legal_actions
from durak.engine.playing import apply, apply_in_place
from durak.engine.position import (
    bout_limit,
    cards_room,
    defender_for,
    lead_room,
    next_active,
    previous_active,
    room,
    throwers,
    trump_of,
)

__all__ = [
    "FIGURE_RANK",
    "REPEATS",
    "actors",
    "apply",
    "apply_in_place",
    "awaited",
    "bout_limit",
    "cards_room",
    "check",
    "defender_for",
    "is_legal",
    "lead_room",
    "legal_actions",
    "next_active",
    "previous_active",
    "room",
    "throwers",
    "trump_of",
]
