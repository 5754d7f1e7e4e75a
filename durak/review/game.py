"""A whole game's review: each seat's decisions judged in turn, and each seat's accuracy and labels."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from durak.actions import Action
from durak.ai.endgame import nothing_hidden
from durak.engine import apply
from durak.record import Knowledge, Record, knowledge
from durak.review.judge import DEALS_MAX, PLAYON, Ending, Verdict, choices, judge, move_accuracy
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
    """The judged decisions (forced ones left out), in the game's order; ``jobs`` processes judge side by side, the
    endgame where every card is known (:func:`ending_of`) in one of them, first. ``playon``: one for all, or each
    decision's own (a second judging asks each verdict's again)."""
    playons = [playon] * len(decisions) if isinstance(playon, str) else list(playon)
    known = ending_of(decisions)
    rest = sorted(set(range(len(decisions))) - set(known))
    verdicts: list[Verdict | None] = [None] * len(decisions)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            ending = pool.submit(judge_ending, [decisions[i] for i in known], seed, deals_max,
                                 [playons[i] for i in known])
            found = list(pool.map(_judge, [decisions[i] for i in rest], [seed] * len(rest), [deals_max] * len(rest),
                                  [playons[i] for i in rest], chunksize=4))
            found_known = ending.result()
    else:
        found_known = judge_ending([decisions[i] for i in known], seed, deals_max, [playons[i] for i in known])
        found = [_judge(decisions[i], seed, deals_max, playons[i]) for i in rest]
    for i, v in zip(known + rest, found_known + found, strict=True):
        verdicts[i] = v
    return [Judged(d, v) for d, v in zip(decisions, verdicts, strict=True) if v is not None]


def ending_of(decisions: Sequence[Decision]) -> list[int]:
    """Where in ``decisions`` the seat knew every card (two players left, the stock empty, nothing set aside face
    down): the game's endgame, judged exactly and in order, in one process (``judge.Ending``)."""
    return [i for i, d in enumerate(decisions) if nothing_hidden(d.knowledge)]


def judge_ending(decisions: Sequence[Decision], seed: int, deals_max: int = DEALS_MAX,
                 playons: Sequence[str] | None = None,
                 between: Callable[[], object] | None = None) -> list[Verdict | None]:
    """A game's endgame decisions judged in the game's order, each search starting from what the ones before
    solved, on one budget (``judge.Ending``); a verdict for each (None for a forced move)."""
    ending = Ending(sum(len(choices(d.knowledge, d.played)) > 1 for d in decisions), deals_max)
    playons = playons or [PLAYON] * len(decisions)
    return [judge(d.knowledge, d.played, seed_of(seed, d), deals_max, between, playon, ending=ending)
            for d, playon in zip(decisions, playons, strict=True)]


def seed_of(seed: int, decision: Decision) -> int:
    """A decision's own judging seed in a review judged with ``seed``."""
    return seed * 1_000_003 + decision.n


def _judge(decision: Decision, seed: int, deals_max: int, playon: str) -> Verdict | None:
    return judge(decision.knowledge, decision.played, seed_of(seed, decision), deals_max, playon=playon)


def seat_review(judged: Iterable[Judged], seat: int) -> SeatReview:
    mine = [j.verdict for j in judged if j.decision.seat == seat]
    labels = [v.label for v in mine]
    accuracy = round(sum(move_accuracy(v.cost) for v in mine) / len(mine), 1) if mine else None
    return SeatReview(seat, len(mine), accuracy, labels.count("inaccuracy"), labels.count("mistake"),
                      labels.count("blunder"))
