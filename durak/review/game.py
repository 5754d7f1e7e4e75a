"""A whole game's review: each seat's decisions judged in turn, and each seat's accuracy and labels."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from durak.actions import Action
from durak.engine import apply
from durak.record import Knowledge, Record, knowledge
from durak.review.judge import DEALS_MAX, PLAYON, Verdict, judge, move_accuracy
from durak.state import State


@dataclass(frozen=True, slots=True)
class Decision:
    """A move a seat made: the ``n``-th action of the game (from 1), and what the seat knew when it chose."""

    n: int
    seat: int
    knowledge: Knowledge
    played: Action


@dataclass(frozen=True, slots=True)
class Judged:
    decision: Decision
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class SeatReview:
    """One seat's game: its judged moves, their accuracy (0–100) and how many earned each label."""

    seat: int
    moves: int
    accuracy: float | None
    inaccuracies: int
    mistakes: int
    blunders: int


def decisions_of(deal: State, actions: Sequence[tuple[int, Action]], lowest_leads: bool = False) -> list[Decision]:
    """Replay a game from its deal: every action with what its seat knew just before it (its public record
    and its own view, never the other hands). ``lowest_leads``: the lowest trump's holder attacked first
    (``Record.start``)."""
    state, record = deal, Record.start(deal, lowest_leads=lowest_leads)
    decisions = []
    for n, (seat, action) in enumerate(actions, 1):
        decisions.append(Decision(n, seat, knowledge(state, seat, record), action))
        state, events = apply(state, seat, action)
        record = record.after(events)
    return decisions


def judge_all(decisions: Sequence[Decision], seed: int = 0, jobs: int = 1,
              deals_max: int = DEALS_MAX, playon: str | Sequence[str] = PLAYON) -> list[Judged]:
    """The judged decisions (forced ones left out), in the game's order; ``jobs`` processes judge side by side.
    ``playon``: one for all, or each decision's own (a second judging asks each verdict's again)."""
    seeds = [seed * 1_000_003 + d.n for d in decisions]
    most = [deals_max] * len(decisions)
    playons = [playon] * len(decisions) if isinstance(playon, str) else list(playon)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            verdicts = list(pool.map(_judge, decisions, seeds, most, playons, chunksize=4))
    else:
        verdicts = [_judge(d, s, deals_max, p) for d, s, p in zip(decisions, seeds, playons, strict=True)]
    return [Judged(d, v) for d, v in zip(decisions, verdicts, strict=True) if v is not None]


def _judge(decision: Decision, seed: int, deals_max: int, playon: str) -> Verdict | None:
    return judge(decision.knowledge, decision.played, seed, deals_max, playon=playon)


def seat_review(judged: Iterable[Judged], seat: int) -> SeatReview:
    mine = [j.verdict for j in judged if j.decision.seat == seat]
    labels = [v.label for v in mine]
    accuracy = round(sum(move_accuracy(v.cost) for v in mine) / len(mine), 1) if mine else None
    return SeatReview(seat, len(mine), accuracy, labels.count("inaccuracy"), labels.count("mistake"),
                      labels.count("blunder"))
