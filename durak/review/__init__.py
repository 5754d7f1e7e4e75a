"""The game review: each move a player made, judged on what he knew then (``judge``), the words for a move
(``words``), a whole game's accuracy and labels per seat (``game``), and ``durak-review`` (``command``)."""

from durak.review.game import Decision, Judged, SeatReview, decisions_of, judge_all, seat_review
from durak.review.judge import BLUNDER, INACCURACY, MISTAKE, Verdict, judge, label_of, move_accuracy
from durak.review.words import describe

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "Decision",
    "Judged",
    "SeatReview",
    "Verdict",
    "decisions_of",
    "describe",
    "judge",
    "judge_all",
    "label_of",
    "move_accuracy",
    "seat_review",
]
