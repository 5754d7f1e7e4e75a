"""What one seat's hand shows beyond the game itself, between his presses: the card he chose to cover with, the
cards he picked to play together, a cheat armed, a swap begun (покерный), the question whether to leave."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SeatView:
    selected: int | None = None      # a cover card that fits several open cards, waiting for its target
    picked: tuple[int, ...] = ()     # cards picked to play together (a lead of several, a swap's two)
    armed: bool = False              # his next card is a cheat
    swapping: bool = False           # picking the two cards to swap
    leaving: bool = False            # asked "leave the game?"

    def new_bout(self) -> None:
        """A new bout voids what was picked for the last one; a cheat stays armed, the question stays asked."""
        self.selected, self.picked, self.swapping = None, (), False


NOTHING = SeatView()  # what a seat nobody pressed for shows (never written to)
