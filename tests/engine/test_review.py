"""The game review (durak.review): labels by cost, accuracy, verdicts that use only what the seat knew, and
``durak-review``'s JSON."""

from __future__ import annotations

import itertools
import json
import random
from itertools import pairwise

import pytest

from durak import Rules, State, apply
from durak.actions import Action
from durak.ai import endgame
from durak.ai.greedy import honest_moves
from durak.ai.play import play_out, score
from durak.engine import apply_in_place
from durak.record import Record, knowledge
from durak.review import Judged, decisions_of, describe, judge, judge_all, label_of, move_accuracy
from durak.review.command import main as review_main
from durak.review.command import play
from durak.review.game import ending_of, judge_ending, seed_of
from durak.review.judge import CHECK_DEALS, CHECK_FROM, EXACT_NODES, choices

SEVERITY = {None: 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
DEALS = 64   # enough for the tests' claims, an eighth of the review's own most
SHORT = Rules.from_dict({"preset": "podkidnoy", "deck_size": 24})  # a game half as long


@pytest.fixture(scope="module")
def game() -> tuple[State, list[tuple[int, Action]], list[Judged]]:
    """A two-player game between the easy and the normal computer, reviewed."""
    deal, actions = play(SHORT, ["easy", "normal"], seed=3, budget_ms=0)
    return deal, actions, judge_all(decisions_of(deal, actions), seed=1, deals_max=DEALS)


def test_the_label_follows_the_cost_alone_and_a_costlier_move_never_gets_a_milder_one() -> None:
    labels = [label_of(cost / 1000) for cost in range(1001)]
    assert [SEVERITY[x] for x in labels] == sorted(SEVERITY[x] for x in labels)
    assert (label_of(0.049), label_of(0.05), label_of(0.099), label_of(0.1), label_of(0.199), label_of(0.2)) == (
        None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder")


def test_accuracy_is_100_for_the_best_move_and_falls_to_0_as_the_cost_grows() -> None:
    values = [move_accuracy(cost / 100) for cost in range(101)]
    assert values[0] == pytest.approx(100, abs=0.01)
    assert all(a >= b for a, b in pairwise(values)) and values[-1] == 0
    assert 70 < move_accuracy(0.05) < 85 and move_accuracy(0.2) < 45  # lichess's curve


@pytest.mark.slow
def test_every_judged_move_names_the_best_move_its_cost_and_label_and_forced_moves_are_left_out(
        game: tuple[State, list[tuple[int, Action]], list[Judged]]) -> None:
    deal, actions, judged = game
    assert 10 < len(judged) < len(actions)
    assert {j.decision.seat for j in judged} == {0, 1}
    for j in judged:
        v = j.verdict
        values = dict(v.values)
        assert len(values) >= 2 and v.played in values
        assert v.best == v.values[0][0] and values[v.best] == max(values.values())
        assert v.cost == pytest.approx(values[v.best] - values[v.played]) and v.cost >= 0
        assert v.label == label_of(v.cost)
    assert any(j.verdict.label is not None for j in judged), "the easy computer errs somewhere"
    judged_n = {j.decision.n for j in judged}
    for d in decisions_of(deal, actions):
        if len([a for a in d.knowledge.view.legal if not a.cheat]) == 1:
            assert d.n not in judged_n, "a move with no choice is not judged"


@pytest.mark.slow
def test_the_checked_play_on_asks_the_tree_again_wherever_the_greedy_one_finds_a_cost(
        game: tuple[State, list[tuple[int, Action]], list[Judged]]) -> None:
    """"checked": a move the greedy play-on surely finds costs (nearly) nothing keeps that verdict, which gives
    no label; any other is the tree's verdict, on the same seed."""
    deal, actions, _ = game
    kinds = {"kept": 0, "asked again": 0}
    for d in decisions_of(deal, actions):
        greedy = judge(d.knowledge, d.played, 5, DEALS, playon="greedy")
        checked = judge(d.knowledge, d.played, 5, DEALS, playon="checked")
        if greedy is None or greedy.exact or (checked is not None and checked.playon == "greedy"):
            assert checked == greedy, d.n
            assert checked is None or checked.exact or (checked.cost < CHECK_FROM and checked.label is None), d.n
            kinds["kept"] += 1
        else:
            assert checked == judge(d.knowledge, d.played, 5, DEALS, playon="tree"), d.n
            assert checked is not None and checked.playon == "tree", d.n  # a puzzle's second judging asks the tree
            kinds["asked again"] += 1
        if greedy is not None and not greedy.exact and greedy.cost >= CHECK_FROM:
            assert checked is not None and checked.playon == "tree", d.n
    assert kinds["kept"] and kinds["asked again"], kinds


@pytest.mark.slow
def test_the_checked_play_on_leaves_the_greedy_one_as_soon_as_the_move_surely_costs(
        game: tuple[State, list[tuple[int, Action]], list[Judged]]) -> None:
    """Where the tree judges, the greedy play-on's figure is thrown away: it plays on no more deals than it needs
    to see that the move played costs ``CHECK_FROM`` or more (its cost less two standard errors), and never more
    than ``CHECK_DEALS``."""
    deal, actions, _ = game
    most = 4 * CHECK_DEALS
    cut_short = 0
    deals = itertools.count()
    for d in decisions_of(deal, actions):
        before = next(deals)
        checked = judge(d.knowledge, d.played, 5, most, between=deals.__next__)
        if checked is None or checked.playon != "tree":
            continue
        filtering = next(deals) - before - 1 - checked.deals  # the deals the greedy play-on was given first
        plain = judge(d.knowledge, d.played, 5, most, playon="greedy")
        assert plain is not None and 0 < filtering <= min(CHECK_DEALS, plain.deals), d.n
        cut_short += filtering < plain.deals
    assert cut_short, "some move the greedy play-on would have judged on longer goes to the tree at once"


@pytest.mark.slow
def test_a_seat_whose_hidden_cards_are_dealt_anew_gets_the_same_verdicts(
        game: tuple[State, list[tuple[int, Action]], list[Judged]]) -> None:
    """Twin positions: every card the seat could not see dealt otherwise; what it knew is the same, and so is the
    verdict on its move."""
    deal, actions, judged = game
    by_n = {j.decision.n: j for j in judged}
    state, record = deal, Record.start(deal)
    twins = 0
    for n, (seat, action) in enumerate(actions, 1):
        if n in by_n and n % 4 == 0:
            k = knowledge(state, seat, record)
            twin_state = k.sample(random.Random(n))
            assert twin_state.hands != state.hands or not k.unseen
            twin = knowledge(twin_state, seat, record)
            assert twin == k
            assert judge(twin, action, seed=5, deals_max=DEALS) == judge(k, action, seed=5, deals_max=DEALS)
            twins += 1
        state, events = apply(state, seat, action)
        record = record.after(events)
    assert twins >= 3


@pytest.mark.slow
def test_a_move_that_won_only_by_the_hidden_cards_is_still_judged_a_mistake(
        game: tuple[State, list[tuple[int, Action]], list[Judged]]) -> None:
    """Among the deals the seat could not tell apart, find one in which the played move does better than the
    review's best: had that been the true deal, the move would have won. The review, knowing what the seat
    knew, still calls it a mistake and still names the other move best."""
    deal, actions, judged = game
    records = _records(deal, actions)
    costly = [j for j in judged if SEVERITY[j.verdict.label] >= 2]
    assert costly
    found = 0
    for j in costly:
        k, v, seat = j.decision.knowledge, j.verdict, j.decision.seat
        rng = random.Random(j.decision.n)
        for _ in range(200):
            world = k.sample(rng)
            if _played_out(world, seat, v.played) > _played_out(world, seat, v.best):
                break
        else:
            continue
        twin = knowledge(world, seat, records[j.decision.n])
        assert twin == k
        assert judge(twin, v.played, seed=1 * 1_000_003 + j.decision.n, deals_max=DEALS) == v, (
            "the deal in which the move wins does not make it best")
        found += 1
    assert found, "some costly move wins in some deal the seat could not rule out"


@pytest.mark.slow
def test_where_every_card_is_known_each_move_is_valued_against_best_play() -> None:
    """Two players, the stock empty, nothing face down: the seat knows every card, and the review values each move
    exactly (1 he escapes, 0.5 a draw, 0 he is the durak, against best play on both sides). A move that throws
    the result away costs all of it, whatever the greedy play-on would have done; where every move comes to the
    same, nothing is judged (no blunder among moves that all lose)."""
    exact = decided = thrown = 0
    for seed in range(1, 9):
        deal, actions = play(Rules.from_dict({"preset": "podkidnoy"}), ["easy", "normal"], seed, 0)
        for d in decisions_of(deal, actions):
            k = d.knowledge
            moves = honest_moves(k.view.legal)
            if not endgame.nothing_hidden(k) or len(moves) < 2:
                continue
            truth = endgame.values(k.sample(random.Random(seed)), d.seat, moves, EXACT_NODES * DEALS)
            if truth is None:  # too big for the review's search at this many deals: it samples (the bench counts)
                continue
            verdict = judge(k, d.played, seed=seed, deals_max=DEALS)
            if len(set(truth)) == 1:
                assert verdict is None, "every move comes to the same: nothing to judge"
                decided += 1
                continue
            assert verdict is not None and verdict.exact
            assert dict(verdict.values) == dict(zip(moves, truth, strict=True))
            assert verdict.cost == max(truth) - truth[moves.index(d.played)]
            assert set(truth) <= {0.0, 0.5, 1.0} and verdict.label == label_of(verdict.cost)
            exact += 1
            thrown += verdict.cost > 0
    assert exact >= 5 and decided >= 20, (exact, decided)
    assert thrown, "the easy computer throws an endgame away somewhere, and it is a blunder"


@pytest.mark.slow
def test_a_games_endgame_judged_as_one_values_bigger_positions_exactly_for_either_seat() -> None:
    """The review judges a game's endgame decision after decision, with one table and one budget: a position too
    big for one decision's search alone is valued exactly there, and every value is the one a search of that
    position alone finds, for either seat (what was solved for one serves the other); the same in one process as
    in two."""
    bigger, seats = 0, set()
    for preset, seed in (("perevodnoy", 1), ("perevodnoy", 9)):
        deal, actions = play(Rules.from_dict({"preset": preset}), ["easy", "normal"], seed, 0)
        decisions = decisions_of(deal, actions, lowest_leads=True)
        known = [decisions[i] for i in ending_of(decisions)]
        assert known and all(endgame.nothing_hidden(d.knowledge) for d in known)
        verdicts = judge_ending(known, seed, DEALS)
        for d, v in zip(known, verdicts, strict=True):
            moves = choices(d.knowledge, d.played)
            truth = endgame.values(d.knowledge.sample(random.Random(0)), d.seat, moves, 1_000_000)
            assert truth is not None
            if len(moves) < 2 or len(set(truth)) == 1:
                assert v is None, "nothing to judge"
                continue
            assert v is not None and v.exact and dict(v.values) == dict(zip(moves, truth, strict=True))
            seats.add(d.seat)
            alone = judge(d.knowledge, d.played, seed_of(seed, d), DEALS)
            assert alone is not None
            bigger += not alone.exact
        assert judge_all(decisions, seed, jobs=2, deals_max=DEALS) == judge_all(decisions, seed, deals_max=DEALS)
    assert seats == {0, 1}
    assert bigger, "some position too big for its own search is exact in the game's"


def _played_out(state: State, seat: int, action: Action) -> float:
    s = state.copy()
    apply_in_place(s, seat, action)
    return score(play_out(s), seat)


def _records(deal: State, actions: list[tuple[int, Action]]) -> dict[int, Record]:
    """The public record before each action (numbered from 1)."""
    state, record, records = deal, Record.start(deal), {}
    for n, (seat, action) in enumerate(actions, 1):
        records[n] = record
        state, events = apply(state, seat, action)
        record = record.after(events)
    return records


def test_the_words_for_a_move_are_the_ones_players_use() -> None:
    from durak.actions import PASS, TAKE, attack, defend
    from durak.cards import parse_card as c
    assert describe(defend(c("7H"), c("10H")), leading=False) == "cover 7♥ with 10♥"
    assert describe(TAKE, leading=False) == "take"
    assert describe(PASS, leading=False) == "done", "the bout beaten off: «Бито»"
    assert describe(PASS, leading=False, taking=True) == "throw in nothing more", "he takes: a different word"
    assert describe(attack(c("9S"), c("9H")), leading=False) == "throw in both 9s"
    assert describe(attack(c("6D")), leading=True) == "lead 6♦"
    tens = [c("10S"), c("10H"), c("10D"), c("7C")]
    assert describe(attack(c("10S"), c("10H")), leading=True, hand=tens) == "lead 10♠ 10♥", "a third ten stays"
    assert describe(attack(c("10S"), c("10H"), c("10D")), leading=True, hand=tens) == "lead three 10s"


@pytest.mark.slow
def test_durak_review_plays_a_game_and_prints_each_seat_and_each_judged_move(capsys: pytest.CaptureFixture[str]
                                                                            ) -> None:
    assert review_main(["--play", "--preset", "podkidnoy", "--deck", "24", "--players", "2", "--levels",
                        "easy,normal", "--seed", "3", "--budget-ms", "0", "--deals", "32", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(s["seat"], s["level"]) for s in out["seats"]] == [(0, "easy"), (1, "normal")]
    for s in out["seats"]:
        assert set(s) == {"seat", "level", "moves", "accuracy", "inaccuracies", "mistakes", "blunders"}
        assert 0 <= s["accuracy"] <= 100 and s["moves"] == sum(m["seat"] == s["seat"] for m in out["moves"])
        assert s["blunders"] == sum(m["seat"] == s["seat"] and m["label"] == "blunder" for m in out["moves"])
    assert [m["n"] for m in out["moves"]] == sorted(m["n"] for m in out["moves"])
    for m in out["moves"]:
        assert m["label"] == label_of(m["cost"]) and isinstance(m["played"], str) and isinstance(m["best"], str)
    assert review_main(["--play", "--deck", "24", "--levels", "easy,normal", "--seed", "3", "--budget-ms", "0",
                        "--deals", "32"]) == 0
    table = capsys.readouterr().out
    assert "seat 0 (easy): accuracy" in table and "best:" in table
