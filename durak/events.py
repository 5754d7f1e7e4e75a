"""What happened, for move logs and messages. Every event is public: no hidden card."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from durak.cards import Card


class Ev(StrEnum):
    LEAD = "lead"              # seat, cards
    THROW_IN = "throw_in"      # seat, cards
    COVER = "cover"            # seat, cards=(target, card)
    TRANSFER = "transfer"      # seat, cards, other=new defender
    SHOW = "show"              # seat, cards=(trump shown,), other=new defender
    TAKE = "take"              # seat declared take
    PASS = "pass"              # seat; number: PASS_DONE, PASS_LET_TAKE or PASS_LEAD_ALONE
    BEATEN = "beaten"          # the bout ended in a successful defence by seat
    PICKED_UP = "picked_up"    # seat picked up cards (a take, or a caught cheat)
    CAUGHT = "caught"          # seat (the cheat) caught by other
    WRONG_ACCUSE = "wrong_accuse"  # seat accused other, who was honest
    DREW = "drew"              # seat drew number cards
    OUT = "out"                # seat is out, number = place (1 = first)
    GAME_OVER = "game_over"    # cards empty; see the state for loser, draw, pogony
    POGON = "pogon"            # погонный: seat hung a pogon of rank ``number`` on other (the taker)
    TRUMP_SWAPPED = "trump_swapped"  # козырной: cards=(old face-up card, new face-up card): its suit is trump
    RECYCLED = "recycled"      # отбойный: the beaten bout's cards went back into the stock, shuffled
    HANDS_ROTATED = "hands_rotated"  # круговой: every hand passed to the next active seat (number: their bit set)
    STOCK_LEAD = "stock_lead"  # армянский: seat led the stock's top card, cards=(it,); number=1 while the lead is open
    DREW_CARD = "drew_card"    # вторая попытка: the defender (seat) drew one card to cover; which, only he sees
    SWAPPED = "swapped"        # покерный: the defender (seat) swapped two cards with the stock; which, only he sees
    COUNTER = "counter"        # прибалтийский: seat beat cards[0] with cards[1], struck back with cards[1:] at other
    THROW_SELF = "throw_self"  # американский: the defender (seat) threw cards in on himself
    SECRET_TRUMP = "secret_trump"  # потайной: the secret card (cards[0]) is turned: its suit is trump from now on
    FACE_SHOWN = "face_shown"  # невидимый: the face-up card (cards[0]) shows, now the stock's only card
    FACE_DRAWN = "face_drawn"  # seat drew a face-up card (cards[0]) in front of everyone


# What a PASS meant: everything was covered (Done, «Бито»), the defender takes (Pass, «Пас»), or an армянский stock
# card is led alone.
PASS_DONE, PASS_LET_TAKE, PASS_LEAD_ALONE = 0, 1, 2


class Event(NamedTuple):
    kind: Ev
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    other: int | None = None
    number: int = 0
