"""A move in the words card players use, for the review: "cover 7♥ with 10♥", "take", "throw in both 9s"."""

from __future__ import annotations

from collections.abc import Iterable

from durak.actions import Act, Action
from durak.cards import Card, card_label, rank_of


def describe(action: Action, leading: bool, taking: bool = False, hand: Iterable[Card] = ()) -> str:
    """A move in the words players use: "cover 7♥ with 10♥", "take", "throw in both 9s". ``taking``: the defender
    takes (an attacker's pass then throws in nothing more; otherwise it says Done: the bout is beaten off);
    ``hand``: the mover's cards before it, so that "both 9s" is said only where he held no third."""
    cards = action.cards
    act = action.act
    if act is Act.TAKE:
        return "take"
    if act is Act.PASS:
        return "throw in nothing more" if taking else "done"
    if act is Act.DEFEND and action.target is not None:
        return f"cover {card_label(action.target)} with {card_label(cards[0])}"
    if act in (Act.ATTACK, Act.THROW_SELF):
        verb = "lead" if leading and act is Act.ATTACK else "throw in"
        held = sum(1 for c in hand if rank_of(c) == rank_of(cards[0]))
        if len(cards) > 1 and len({rank_of(c) for c in cards}) == 1 and held <= len(cards):
            rank = card_label(cards[0])[:-1]
            count = {2: "both", 3: "three", 4: "all four"}.get(len(cards), str(len(cards)))
            return f"{verb} {count} {rank}s"
        return f"{verb} {' '.join(card_label(c) for c in cards)}"
    if act is Act.TRANSFER:
        return f"transfer with {' '.join(card_label(c) for c in cards)}"
    if act is Act.SHOW:
        return f"show {card_label(cards[0])} to transfer"
    if act is Act.COUNTER and action.target is not None:
        return (f"cover {card_label(action.target)} with {card_label(cards[0])}, strike back with "
                f"{' '.join(card_label(c) for c in cards[1:])}")
    if act is Act.ACCUSE:
        return f"accuse seat {action.suspect}"
    if act is Act.SWAP:
        return f"swap {' '.join(card_label(c) for c in cards)}"
    return act.value.replace("_", " ")
