"""Computer players and what they may know: the public record, a seat's knowledge, the three levels."""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from durak import Act, Action, Rules, State, apply, legal_actions, new_game, position, view
from durak.ai import LEVELS, belief, choose, endgame, greedy, hard
from durak.ai.play import fallback, next_seat, score
from durak.arena import main as arena
from durak.arena import wilson
from durak.cards import deck, parse_card, strength
from durak.covering import beater_table
from durak.engine import apply_in_place
from durak.events import Ev
from durak.record import Record, knowledge
from durak.rules import PRESETS
from durak.soak import main as soak
from durak.soak import tables as soak_tables
from tests.engine.test_properties import THOROUGH, tables


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


def play(rules: Rules, players: int, seed: int, levels: list[str], budget_ms: float = 0.0,
         check: bool = False) -> State:
    """A whole game, each seat played by its level from its own knowledge; ``check`` verifies the
    record and the knowledge of every seat at every step against the real state."""
    state = new_game(rules, players, seed)
    record = Record.start(state)
    while not state.over:
        seat = next_seat(state)
        assert seat is not None
        if check:
            for p in range(players):
                check_knowledge(state, p, record, random.Random(seed + state.moves))
        action = choose(levels[seat], knowledge(state, seat, record), seed + state.moves, budget_ms)
        action = action or fallback(state, seat)
        assert not action.cheat, "no level ever cheats"
        assert action in legal_actions(state, seat)
        state, events = apply(state, seat, action)
        record = record.after(events)
        assert state.moves < 3000
    return state


def check_knowledge(state: State, seat: int, record: Record, rng: random.Random) -> None:
    k = knowledge(state, seat, record)
    for p, known in enumerate(k.known):
        assert known <= set(state.hands[p]), "what the table saw a player pick up or show is still his"
    face_up = [c for c in (k.view.trump_card, k.view.second_card) if c is not None]
    hidden = [c for p, h in enumerate(state.hands) if p != seat for c in h if c not in k.known[p]]
    hidden += [c for c in state.stock if c not in face_up]
    hidden += [c for c in state.set_aside if c != state.trump_card]  # the face-up card laid aside is public
    hidden += [] if state.secret is None else [state.secret]
    assert Counter(hidden) == Counter(k.unseen), "unseen: exactly the cards in other hands and the stock not yet seen"
    deal = k.sample(rng)
    assert Counter(deal.all_cards()) == Counter(deck(state.rules.deck_size)), "every card once in a sampled deal"
    assert deal.hands[seat] == state.hands[seat]
    assert [len(h) for h in deal.hands] == [len(h) for h in state.hands] and len(deal.stock) == len(state.stock)
    assert all(k.known[p] <= set(deal.hands[p]) for p in range(state.players))
    assert view(deal, seat) == view(state, seat), "a sampled deal looks the same from the seat"


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.integers(0, 10_000))
def test_the_record_and_every_seats_knowledge_stay_true_through_a_game(table: tuple[Rules, int], seed: int) -> None:
    rules, players = table
    play(rules, players, seed, ["normal"] * players, check=True)


def test_a_take_the_shown_trump_and_the_last_card_drawn_are_known_to_everyone() -> None:
    state = position(Rules.from_dict({"preset": "perevodnoy"}),
                     [cards("7S", "8S"), cards("9H", "6D", "AC"), cards("QH", "KH", "10D")],
                     stock=cards("6C", "JD"), trump=2, attacker=0)
    record = Record.start(state)
    assert record.trump_card == parse_card("JD")
    state, events = apply(state, 0, legal_actions(state, 0)[0])  # 7♠️ led at Boris
    record = record.after(events)
    take = next(a for a in legal_actions(state, 1) if a.act is Act.TAKE)
    state, events = apply(state, 1, take)
    record = record.after(events)
    while not any(e.kind.value == "picked_up" for e in events):
        seat = next_seat(state)
        assert seat is not None
        state, events = apply(state, seat, fallback(state, seat))
        record = record.after(events)
    assert parse_card("7S") in record.known[1], "Boris picked up 7♠️ in front of everyone"
    drew_last = [p for p, hand in enumerate(state.hands) if parse_card("JD") in hand]
    if not state.stock and drew_last:
        assert parse_card("JD") in record.known[drew_last[0]], "who drew the face-up trump card holds it"
    k = knowledge(state, 2, record)
    assert parse_card("7S") not in k.unseen


def test_positions_its_seat_cannot_tell_apart_give_hard_the_same_choice() -> None:
    """The honesty test: deal the hidden cards anew, consistently with what the seat knows; the knowledge is
    the same, and so is hard's choice for the same seed, whatever the other hands hold."""
    rules = Rules()
    for seed in range(6):
        state = new_game(rules, 3, seed)
        record = Record.start(state)
        for _ in range(8 + seed):
            seat = next_seat(state)
            assert seat is not None
            state, events = apply(state, seat, choose("normal", knowledge(state, seat, record)) or
                                  fallback(state, seat))
            record = record.after(events)
        seat = next_seat(state)
        assert seat is not None
        k = knowledge(state, seat, record)
        choices = set()
        for other in range(4):
            twin = k.sample(random.Random(100 + other))  # the same for the seat, other hidden cards
            assert twin.hands != state.hands or not k.unseen
            twin_k = knowledge(twin, seat, record)
            assert twin_k == k
            choices.add(hard.choose(twin_k, seed=7, budget_ms=0))
        assert len(choices) == 1


def knowledge_tables() -> list[tuple[str, int]]:
    """Each preset at two seats and at one more count, a different one from preset to preset, so that every count
    from 2 to 6 is played; THOROUGH=1: each preset at every count its rules allow (165 games, 2.5 times the CPU)."""
    every = soak_tables()
    if THOROUGH:
        return every
    counts: dict[str, list[int]] = {}
    for preset, players in every:
        counts.setdefault(preset, []).append(players)
    chosen = []
    for number, (preset, seats) in enumerate(counts.items()):
        chosen.append((preset, seats[0]))
        if more := seats[1:]:
            chosen.append((preset, more[number % len(more)]))
    return chosen


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), knowledge_tables())
def test_every_preset_keeps_each_seats_knowledge_true_and_its_twins_alike(preset: str, players: int) -> None:
    """Every preset, 2-6 seats: the record and every seat's knowledge stay true through a game (the cards
    it places are where it places them; a sampled deal is a deck that looks the same from the seat), and
    at a few points twin positions (every hidden card dealt anew) give the same knowledge and move."""
    rules = Rules.from_dict({"preset": preset})
    seed = players
    state = new_game(rules, players, seed)
    record = Record.start(state)
    while not state.over:
        seat = next_seat(state)
        assert seat is not None
        for p in range(players) if state.moves % 3 == 0 else (seat,):  # every seat now and then, the mover always
            check_knowledge(state, p, record, random.Random(seed + state.moves))
        k = knowledge(state, seat, record)
        if state.moves % 17 == 5 and k.unseen:
            twins = [knowledge(k.sample(random.Random(100 + other)), seat, record) for other in range(2)]
            assert all(twin == k for twin in twins)
            assert len({hard.choose(twin, seed=7, budget_ms=0) for twin in twins}) == 1
        state, events = apply(state, seat, choose("normal", k, seed) or fallback(state, seat))
        record = record.after(events)
        assert state.moves < 3000


def test_two_trumps_the_stocks_last_card_is_seat_1s_face_up_card() -> None:
    state = new_game(Rules.from_dict({"preset": "two_trumps"}), 2, 3)
    first, second = state.trump_card, state.second_card
    assert first is not None and second is not None and state.stock[-2:] == [first, second]
    record = Record.start(state)
    while state.stock:
        seat = next_seat(state)
        assert seat is not None
        state, events = apply(state, seat, greedy.choose(state, seat) or fallback(state, seat))
        record = record.after(events)
    for card in (first, second):  # each went, in front of everyone, to whoever drew it
        holder = next((p for p, h in enumerate(state.hands) if card in h), None)
        if holder is not None:
            assert card in record.known[holder]
            assert all(card not in known for p, known in enumerate(record.known) if p != holder)


def test_albanian_samples_keep_the_stock_in_order_of_rank() -> None:
    state = new_game(Rules.from_dict({"preset": "albanian"}), 3, 4)
    deal = knowledge(state, 0, Record.start(state)).sample(random.Random(1))
    ranks = [c >> 2 for c in deal.stock[:-1]]
    assert ranks == sorted(ranks, reverse=True), "aces on top, as the real stock lies"


def test_chukchi_the_face_up_card_is_known_to_lie_aside_with_the_stock() -> None:
    state = new_game(Rules.from_dict({"preset": "chukchi"}), 3, 5)
    assert state.trump_card in state.set_aside
    k = knowledge(state, 0, Record.start(state))
    assert state.trump_card not in k.unseen
    for n in range(5):
        assert state.trump_card in k.sample(random.Random(n)).set_aside


def test_hard_accuses_a_cheat_it_can_see_and_never_cheats() -> None:
    rules = Rules.from_dict({"preset": "podkidnoy", "cheating": True})
    state = position(rules, [cards("7S", "9D", "QC"), cards("6H", "10S", "JS"), cards("8C", "KD", "AH")],
                     stock=cards("6C", "AD"), trump=2, attacker=0)
    record = Record.start(state)
    lead = next(a for a in legal_actions(state, 0) if a.act is Act.ATTACK and a.cards == (parse_card("7S"),))
    state, events = apply(state, 0, lead)
    record = record.after(events)
    cheat = next(a for a in legal_actions(state, 1) if a.act is Act.DEFEND and a.cheat
                 and a.card == parse_card("6H"))  # 6♥ does not beat 7♠️: a cheat, face up on the table
    state, events = apply(state, 1, cheat)
    record = record.after(events)
    accusation = choose("hard", knowledge(state, 0, record), 1, 0)
    assert accusation is not None and accusation.act is Act.ACCUSE and accusation.suspect == 1
    # an honest table: nothing to accuse, and no cheat among its own moves
    quiet = position(rules, [cards("7S", "9D"), cards("6H", "10S")], stock=cards("6C", "AD"), trump=2, attacker=0)
    action = choose("hard", knowledge(quiet, 0, Record.start(quiet)), 1, 0)
    assert action is not None and action.act is Act.ATTACK and not action.cheat


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_level_plays_every_preset_to_the_end(name: str) -> None:
    """Two seats, and four at every other preset (THOROUGH=1: at each)."""
    rules = Rules.from_dict({"preset": name})
    four = THOROUGH or sorted(PRESETS).index(name) % 2 == 0
    for players in sorted({2, min(4 if four else 2, rules.max_players())}):
        end = play(rules, players, 5, [LEVELS[p % 3] for p in range(players)], budget_ms=0)
        assert end.over


def test_easy_never_covers_with_a_dear_card_when_a_cheap_one_does() -> None:
    state = position(Rules(), [cards("6S", "9D"), cards("7S", "AS", "AH", "KC")], stock=cards("6C", "10H"),
                     trump=3, attacker=0)
    state, _ = apply(state, 0, next(a for a in legal_actions(state, 0) if a.cards == (parse_card("6S"),)))
    record = Record.start(state)
    for seed in range(40):
        action = choose("easy", knowledge(state, 1, record), seed)
        assert action is not None
        assert action.act is Act.TAKE or action.card == parse_card("7S"), "7♠️ beats 6♠️: never the aces"


def test_easy_passes_now_and_then_where_normal_throws_in() -> None:
    state = position(Rules(), [cards("7S", "7C", "KD"), cards("9S", "AH", "10C")], stock=cards("6C", "10H"),
                     trump=3, attacker=0)
    state, _ = apply(state, 0, next(a for a in legal_actions(state, 0) if a.cards == (parse_card("7S"),)))
    state, _ = apply(state, 1, next(a for a in legal_actions(state, 1) if a.act is Act.DEFEND
                                    and a.card == parse_card("9S")))
    record = Record.start(state)
    assert choose("normal", knowledge(state, 0, record)).cards == (parse_card("7C"),)
    moves = [choose("easy", knowledge(state, 0, record), seed) for seed in range(40)]
    kinds = {m.act for m in moves if m is not None}
    assert kinds == {Act.ATTACK, Act.PASS}, "a beginner throws in only sometimes"


@pytest.mark.slow
def test_the_arena_prints_its_figures(capsys: object) -> None:
    assert arena(["--a", "hard", "--b", "easy", "--games", "4", "--budget-ms", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    assert out["games"] == 4 and out["wins"] + out["losses"] + out["draws"] == 4
    assert set(out["ms_per_move"]) == {"a", "b"} and out["ms_per_move"]["a"]["p95"] >= 0
    low, high = wilson(82, 100)
    assert 0.73 < low < 0.82 < high < 0.89


def test_the_all_seeing_player_imagines_only_the_true_deal() -> None:
    """The arena's ``seer`` is told the deal: every deal it samples is the real one, hands and stock in order;
    the seat's own knowledge, as the bot and the review build it, is told nothing of the kind."""
    state = new_game(Rules.from_dict({"preset": "podkidnoy"}), 3, 11)
    k = knowledge(state, 0, Record.start(state))
    assert k.truth is None and k.sample(random.Random(1)).hands[1] != state.hands[1]
    told = dataclasses.replace(k, truth=state.copy())
    for seed in range(5):
        seen = told.sample(random.Random(seed))
        assert seen.hands == state.hands and seen.stock == state.stock
        seen.hands[1].clear()  # each deal is a copy: a search that plays on it leaves the truth alone
        assert state.hands[1] and told.sample(random.Random(seed)).hands[1] == state.hands[1]


def test_the_all_seeing_player_beats_normal_in_the_arena(capsys: object) -> None:
    assert arena(["--a", "seer", "--b", "normal", "--games", "6", "--budget-ms", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    assert out["a"] == "seer" and out["games"] == 6 and out["wins"] >= 5


def _duels(preset: str, seeds: range, most: int = 40) -> list[State]:
    """Positions of two-player games of ``preset`` (played by normal) once the stock is empty, up to
    ``most`` from each game, where the seat to move has a choice."""
    rules = Rules.from_dict({"preset": preset})
    found: list[State] = []
    for seed in seeds:
        state = new_game(rules, 2, seed)
        record = Record.start(state)
        taken = 0
        while not state.over and state.moves < 400 and taken < most:
            seat = next_seat(state)
            assert seat is not None
            if not state.stock and len(legal_actions(state, seat)) > 1:
                found.append(state)
                taken += 1
            state, events = apply(state, seat, choose("normal", knowledge(state, seat, record), seed) or
                                  fallback(state, seat))
            record = record.after(events)
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "least", "games", "most"), [("perevodnoy", 0.5, 4, 8), ("circular", 0.0, 2, 3)])
@pytest.mark.long(9)
def test_the_exact_endgame_ends_where_positions_repeat(preset: str, least: float, games: int, most: int) -> None:
    # transfers bounce a bout back, hands pass on: these recursed past Python's limit before. круговой's
    # lines wander for hundreds of moves before one repeats: most of its duels give up (None), for the deals,
    # each after its whole budget of nodes: a few of them show it ends
    positions = _duels(preset, range(games), most=most)
    assert positions
    solved = 0
    for state in positions:
        seat = next_seat(state)
        assert seat is not None
        moves = endgame.best_moves(state, seat, nodes=30_000)
        if moves is not None:
            solved += 1
            assert all(m in legal_actions(state, seat) for m in moves)
    assert solved >= least * len(positions), (preset, solved, len(positions))


def _minimax(state: State, me: int, solved: dict[object, float], path: set[object], cycles: list[object]) -> float:
    """Every move of every position searched, no cut-off: each position solved once (``solved``). A position met
    again on the line searched is noted in ``cycles``: where none is, the game's graph has no cycle (a full
    depth-first search finds every one) and the values are exact."""
    if state.over:
        return score(state, me)
    key = endgame._key(state)
    if key in solved:
        return solved[key]
    if key in path:
        cycles.append(key)
        return endgame.DRAW
    seat = next_seat(state)
    assert seat is not None
    path.add(key)
    found = []
    for action in greedy.honest_moves(legal_actions(state, seat)):
        child = state.copy()
        apply_in_place(child, seat, action)
        found.append(_minimax(child, me, solved, path, cycles))
    path.discard(key)
    solved[key] = max(found) if seat == me else min(found)
    return solved[key]


@pytest.mark.slow
@pytest.mark.long(15)
def test_the_exact_endgame_with_its_cut_offs_values_every_move_as_the_whole_tree_does() -> None:
    """Alpha-beta leaves a line once it cannot change the choice, and its table keeps bounds: the values of
    every move are still those of the whole game tree, wherever no line repeats (podkidnoy's duels of up to six
    cards: a whole search of bigger ones, or of переводной's, whose transfers bounce, takes minutes)."""
    compared = 0
    kept = endgame.Solved()  # as hard keeps it from move to move: bounds found in one search serve the next
    for state in _duels("podkidnoy", range(12), most=40):
        if sum(len(h) for h in state.hands) > 6 or state.players - len(state.out) != 2:
            continue
        seat = next_seat(state)
        assert seat is not None
        moves = greedy.honest_moves(legal_actions(state, seat))
        assert endgame.values(state, seat, moves, nodes=1_000_000) is not None
        found = _values(state, seat, moves, state.rules, kept, 1_000_000)  # positions kept by their shape
        solved: dict[object, float] = {}
        cycles: list[object] = []
        whole = []
        for action in moves:
            child = state.copy()
            apply_in_place(child, seat, action)
            whole.append(_minimax(child, seat, solved, {endgame._key(state)}, cycles))
        if not cycles:
            assert found == whole, (state.hands, moves)
            compared += 1
    assert compared >= 30, compared


def _values(state: State, seat: int, moves: list[Action], rules: Rules | None,
            solved: endgame.Solved | None = None, nodes: int = 400_000) -> list[float]:
    """Every move's value from one search (``rules`` None: positions kept card by card)."""
    solver = endgame.Solver(seat, nodes, solved=solved, rules=rules)
    solver.path.add(solver.fingerprint(state))
    found = []
    for action in moves:
        child = state.copy()
        apply_in_place(child, seat, action)
        found.append(solver.value(child))
    return found


def test_positions_that_differ_only_by_which_card_of_a_rank_gone_was_played_are_solved_once() -> None:
    """A lone seven of spades played while the lone eight stays in hand, or the other way round: once no other
    seven or eight is in play, the two go on alike, and the table keeps them as one position."""
    rules = Rules()
    cards = [parse_card(c) for c in ("7S", "8S", "10H", "QD", "KS", "AH")]
    seven, eight, *rest = cards

    def duel(played: int, kept: int) -> State:
        return State(rules=rules, trump=3, trump_card=None, hands=[[kept, rest[0], rest[1]], [rest[2], rest[3]]],
                     stock=[], discard=[played], attacks=[], covers=[], attacker=0, defender=1, first_bout=False)

    one, other = duel(seven, eight), duel(eight, seven)
    assert endgame._key(one) != endgame._key(other)
    assert endgame.key_of(rules)(one) == endgame.key_of(rules)(other)
    assert endgame.best_moves(one, 0, nodes=10_000) is not None
    # where a rank counts by its value the exact key stays: королевский's sixes fall only to aces, японский's
    # queen of spades beats any spade, фигурный scores tens to aces, погонный hangs the rank of the pogon
    for preset in ("royal", "japanese", "figures", "pogony_race"):
        assert endgame.key_of(Rules.from_dict({"preset": preset})) is endgame._key, preset


@pytest.mark.slow
@pytest.mark.long(12)
@pytest.mark.parametrize("preset", ["podkidnoy", "perevodnoy", "perevodnoy_3", "american", "baltic", "two_trumps"])
def test_the_endgame_values_every_move_alike_whether_positions_are_kept_by_shape_or_by_card(preset: str) -> None:
    """The table keeps positions by their shape (ranks numbered among those in play, the table's pairs in one
    order): every move of every duel is valued as with positions kept card by card, in the variants whose
    tables, transfers, counter-attacks and trumps differ most."""
    rules = Rules.from_dict({"preset": preset})
    assert endgame.key_of(rules) is not endgame._key
    compared = 0
    for state in _duels(preset, range(2), most=8):
        seat = next_seat(state)
        assert seat is not None
        moves = greedy.honest_moves(legal_actions(state, seat))
        try:
            by_card = _values(state, seat, moves, None)
        except endgame.OutOfBudget:
            continue
        assert _values(state, seat, moves, rules) == by_card, (preset, state.hands, moves)
        compared += 1
    assert compared >= 8, compared


def test_the_table_of_solved_positions_gives_back_what_was_kept_under_each_hash() -> None:
    """The search's table (two flat arrays, doubled as it fills) reads back the last bounds kept under each of a
    few hundred thousand hashes, negative ones, 0 and hashes that share their low bits among them, and nothing
    under a hash never kept."""
    rng = random.Random(5)
    table, model = endgame.Table(), {}
    bounds = list(endgame.BOUNDS.values())
    hashes = [0, 1, -1, 2**63 - 1, -2**63] + [rng.getrandbits(64) - 2**63 for _ in range(200_000)]
    hashes += [h + (k << 40) for h in hashes[5:2000] for k in (1, 2)]  # the same slot, at every size
    for h in hashes + hashes[::7]:
        b = rng.choice(bounds)
        table.put(h, b)
        model[h or 1] = b  # 0 is kept as 1
    assert len(table) == len(model)
    assert all(table.get(h or 1) == b for h, b in model.items())
    assert all(table.get(rng.getrandbits(64) - 2**63) == endgame.UNKNOWN for _ in range(1000))


def test_what_one_set_of_rules_solved_is_not_read_under_another() -> None:
    """The hard computer's process keeps what it solved from game to game; the same cards go on otherwise in
    переводной than in подкидной, so each set of rules has its own table."""
    kept = endgame.Solved()
    state = _duels("podkidnoy", range(1), most=1)[0]
    seat = next_seat(state)
    assert seat is not None
    assert endgame.best_moves(state, seat, nodes=50_000, solved=kept) is not None
    assert kept.of(state.rules, endgame.anchor_of(state))
    assert not kept.of(Rules.from_dict({"preset": "perevodnoy"}), endgame.anchor_of(state))


def test_hard_reads_the_other_players_lead_and_cover_but_does_not_trust_them_blindly() -> None:
    """In a duel the deals hard samples lean on the bout: the other player led his cheapest card, covered with
    his cheapest beater. Most deals follow that reading, some do not (a player may lead otherwise)."""
    rules = Rules()
    state = new_game(rules, 2, 4)
    record = Record.start(state)
    a, d = state.attacker, state.defender
    assert a is not None and d is not None
    trump = state.trump
    plain = sorted((c for c in state.hands[a] if c & 3 != trump), key=lambda c: c >> 2)
    lead = plain[-1]  # his dearest plain card, not his cheapest
    assert lead >> 2 > plain[0] >> 2
    state, events = apply(state, a, Action(Act.ATTACK, (lead,)))
    record = record.after(events)
    k = knowledge(state, d, record)
    cheaper = {c for c in k.unseen if strength(c, trump) < strength(lead, trump)}
    assert belief.unlikely(k) == cheaper and cheaper

    def share_without(cards: set[int], sampler: Callable[[random.Random], State]) -> float:
        rng = random.Random(1)
        return sum(not cards & set(sampler(rng).hands[a]) for _ in range(400)) / 400

    read = share_without(cheaper, lambda rng: belief.sample(k, rng, belief.unlikely(k)))
    uniform = share_without(cheaper, k.sample)
    assert read > 0.75 > 0.3 > uniform, (read, uniform)
    assert read < 0.95, "a reading is a leaning: he did hold a cheaper card"

    # the defender covers with a dearer card than he needs: the attacker reads that he holds no cheaper one
    beaters = sorted((c for c in state.hands[d] if c in beater_table(rules, trump)[lead]),
                     key=lambda c: strength(c, trump))
    assert len(beaters) == 3
    state, events = apply(state, d, Action(Act.DEFEND, (beaters[-1],), target=lead))
    record = record.after(events)
    k = knowledge(state, a, record)
    dear = strength(beaters[-1], trump)
    assert belief.unlikely(k) == {c for c in beater_table(rules, trump)[lead] & k.unseen
                                  if strength(c, trump) < dear}
    assert beaters[0] in belief.unlikely(k)

    duel = new_game(Rules.from_dict({"preset": "perevodnoy"}), 2, 4)  # a transfer makes the other the attacker
    seat = duel.attacker
    assert seat is not None
    duel, _ = apply(duel, seat, Action(Act.ATTACK, (max(duel.hands[seat]),)))
    assert belief.unlikely(knowledge(duel, 1 - seat, Record.start(duel))) == set()

    three = new_game(rules, 3, 4)  # with more players nobody's lead is read: who holds what is less clear
    seat = three.attacker
    assert seat is not None
    three, _ = apply(three, seat, Action(Act.ATTACK, (max(three.hands[seat]),)))
    other = next(p for p in range(3) if p != seat)
    assert belief.unlikely(knowledge(three, other, Record.start(three))) == set()


@pytest.mark.parametrize(("preset", "remembered"), [("chukchi", True), ("podkidnoy", False)])
def test_hard_remembers_what_the_other_players_earlier_bouts_showed_where_no_hand_draws(preset: str,
                                                                                        remembered: bool) -> None:
    """In чукотский nobody draws: the cards cheaper than the other player's lead of an earlier bout he still does
    not hold, as he only lost cards since or picked up cards everyone saw. Where hands draw after each bout, a
    bout says nothing of the next. The record kept move by move and the one rebuilt from the stored log agree."""
    state = new_game(Rules.from_dict({"preset": preset}), 2, 4)
    record, log = Record.start(state), []
    a, d = state.attacker, state.defender
    assert a is not None and d is not None
    trump = state.trump
    lead = max((c for c in state.hands[a] if c & 3 != trump), key=lambda c: c >> 2)  # his dearest plain card
    action: Action | None = Action(Act.ATTACK, (lead,))
    seat: int | None = a
    while seat is not None and action is not None:
        state, events = apply(state, seat, action)
        record = record.after(events)
        log += events
        if not state.attacks:  # the bout is over
            break
        seat = next_seat(state)
        action = greedy.choose(state, seat) if seat is not None else None
    assert not state.attacks and not state.over
    k = knowledge(state, d, record)
    cheaper = {c for c in k.unseen if strength(c, trump) < strength(lead, trump)}
    assert cheaper
    if remembered:
        assert cheaper <= belief.unlikely(k)
    else:
        assert belief.unlikely(k) == set()
    rebuilt = Record.start(state, [e for e in log if e.kind is not Ev.DREW])
    assert (rebuilt.leads, rebuilt.covers) == (record.leads, record.covers)


def test_hard_remembers_a_lone_card_the_other_player_took_where_no_hand_draws() -> None:
    """In чукотский a player with no stock to keep his trumps for takes a lone card only when nothing in his hand
    beats it: bouts later, the other player's deals still lean on that."""
    state = new_game(Rules.from_dict({"preset": "chukchi"}), 2, 4)
    record = Record.start(state)
    a, d = state.attacker, state.defender
    assert a is not None and d is not None
    lead = min(state.hands[a], key=lambda c: strength(c, state.trump))
    seat: int | None = a
    action: Action | None = Action(Act.ATTACK, (lead,))
    while seat is not None and action is not None:
        state, events = apply(state, seat, action)
        record = record.after(events)
        if not state.attacks:  # the bout is over
            break
        seat = next_seat(state)
        action = Action(Act.TAKE) if seat == d else greedy.choose(state, seat) if seat is not None else None
    assert not state.attacks and lead in state.hands[d]
    k = knowledge(state, a, record)
    beaters = beater_table(state.rules, state.trump)[lead] & k.unseen
    assert beaters and beaters <= belief.unlikely(k)


def test_hard_keeps_to_its_budget_when_the_endgame_is_too_big_to_solve() -> None:
    for state in _duels("perevodnoy", range(3), most=3)[:6]:
        seat = next_seat(state)
        assert seat is not None
        k = knowledge(state, seat, Record.start(state))
        started = time.perf_counter()
        action = hard.choose(k, 1, budget_ms=50)
        assert action in legal_actions(state, seat)
        assert time.perf_counter() - started < 1.0


def test_hard_thinks_longer_only_over_an_endgame_small_enough_to_solve() -> None:
    """The exact search may take several budgets in a duel's endgame, which a game comes to once; наваленный deals
    the whole deck, so every card is known from the first move, but two hands of 18 are far beyond any search:
    there hard keeps to its budget, move after move."""
    duel = _duels("podkidnoy", range(1), most=1)[0]
    seat = next_seat(duel)
    assert seat is not None
    assert hard.endgame_budgets(knowledge(duel, seat, Record.start(duel))) == hard.ENDGAME_BUDGETS > 1
    piled = new_game(Rules.from_dict({"preset": "piled"}), 2, 3)
    seat = next_seat(piled)
    assert seat is not None
    k = knowledge(piled, seat, Record.start(piled))
    assert endgame.nothing_hidden(k) and sum(k.view.counts) == 36
    assert hard.endgame_budgets(k) == hard.ENDGAME_SHARE < 1
    started = time.perf_counter()
    assert hard.choose(k, 1, budget_ms=200) in legal_actions(piled, seat)
    assert time.perf_counter() - started < 1.0  # 8 budgets would be 1.6 s


@pytest.mark.parametrize(("preset", "seed", "n"), [("podkidnoy", 1, 49), ("podkidnoy", 2, 45),
                                                    ("perevodnoy", 9, 53), ("perevodnoy", 4, 68)])
def test_hard_never_plays_a_move_its_unfinished_endgame_search_proved_lost(preset: str, seed: int, n: int) -> None:
    """Where the exact search runs out before it knows the best move, a move it did prove to lose is not played
    while another may not lose: no move can do worse (here the tree chose one of them before)."""
    from durak.review import decisions_of
    from durak.review.command import play

    deal, actions = play(Rules.from_dict({"preset": preset}), ["easy", "normal"], seed, 0)
    d = next(d for d in decisions_of(deal, actions, lowest_leads=True) if d.n == n)
    proven: list[tuple[float, Action]] = []
    state = d.knowledge.sample(random.Random(seed))  # nothing hidden: the one deal there is
    assert endgame.best_moves(state, d.seat, nodes=hard.ENDGAME_NODES_MIN, values=proven) is None
    lost = {a for v, a in proven if v == 0.0}
    assert lost and lost != set(greedy.honest_moves(d.knowledge.view.legal))
    assert hard.choose(d.knowledge, seed, budget_ms=0) not in lost


def test_hard_with_too_little_time_to_tell_its_moves_apart_plays_the_greedy_move() -> None:
    """A budget too short for the tree's first iterations (an operator's small COMPUTER_BUDGET_MS, or a worker
    shared by many tables) would pick among the moves almost by chance: hard plays the greedy player's move."""
    differs = 0
    for seed in range(30):
        state = new_game(Rules.from_dict({"preset": "podkidnoy"}), 2, seed)
        record = Record.start(state)
        for _ in range(seed % 12):  # a position some moves into the game
            seat = next_seat(state)
            assert seat is not None
            action = choose("normal", knowledge(state, seat, record), seed) or fallback(state, seat)
            state, events = apply(state, seat, action)
            record = record.after(events)
        seat = next_seat(state)
        assert seat is not None
        k = knowledge(state, seat, record)
        if len(greedy.honest_moves(k.view.legal)) < 2:
            continue
        assert hard.choose(k, seed, budget_ms=0.001) == choose("normal", k, seed)
        differs += hard.choose(k, seed, budget_ms=0) != choose("normal", k, seed)
    assert differs, "with its iterations the tree does choose otherwise somewhere"


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["groups", "circular", "perevodnoy"])
@pytest.mark.long(13)
def test_the_soak_finds_no_exception_illegal_move_or_stall(capsys: object, preset: str) -> None:
    # groups (thousands of leads), circular and two-player perevodnoy (positions that repeat): the presets
    # where a computer once thought for a minute, recursed without end, or two of them played for ever
    code = soak(["--games", "1", "--preset", preset, "--json"])
    out = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    assert out["games"] == 6 * 5
    assert (out["exceptions"], out["illegal"], out["stalls"]) == (0, 0, 0), out["examples"]
    assert code == 0 and out["slowest_move_ms"] < 2000


def test_hard_keeps_to_its_budget_with_hundreds_of_leads() -> None:
    rules = Rules.from_dict({"preset": "groups"})
    hand = cards("6S", "6C", "6D", "7S", "7C", "7H", "8S", "8C", "8D", "9S", "9C", "9H", "10S", "10D", "JS", "JC",
                 "QS", "QD", "KC")
    state = position(rules, [hand, cards("AS", "AC", "AD"), cards("AH", "KS", "KD")], stock=cards("QC", "6H"),
                     trump=3, attacker=0, first_bout=False)
    assert len(legal_actions(state, 0)) > 200  # 8 deals of each took seconds before
    started = time.perf_counter()
    action = hard.choose(knowledge(state, 0, Record.start(state)), 1, budget_ms=100)
    assert action in legal_actions(state, 0)
    assert time.perf_counter() - started < 1.0


def test_tedious_rounds_that_draw_nothing_end_in_a_draw_not_for_ever() -> None:
    # full hands draw nothing from the stock, so the highest ranks went round for ever between normal players
    results = [play(Rules.from_dict({"preset": "tedious"}), 3, seed, ["normal"] * 3) for seed in range(3)]
    assert all(state.over for state in results) and any(state.draw for state in results)


def test_hard_pauses_between_iterations_when_asked_and_still_keeps_to_its_budget() -> None:
    state = new_game(Rules.from_dict({"preset": "podkidnoy"}), 2, 3)
    seat = next_seat(state)
    assert seat is not None
    k = knowledge(state, seat, Record.start(state))
    calls = []

    def busy() -> bool:  # the machine has more urgent work at every iteration: the search waits 100 ms each time
        calls.append(time.perf_counter())
        time.sleep(0.1)
        return True

    action = hard.choose(k, 1, budget_ms=300, pause=busy)
    assert action in legal_actions(state, seat)
    # asked between iterations (an iteration is a few ms: without the waits it makes hundreds in 300 ms), and the
    # waits count against the budget: after three of them it is spent, however fast or slow the machine
    assert 1 <= len(calls) <= 3, calls
    untouched = []
    assert hard.choose(k, 1, budget_ms=0, pause=lambda: untouched.append(1) or True) == hard.choose(k, 1, budget_ms=0)
    assert not untouched, "no time budget, no pause: the move stays repeatable"


def test_hard_says_how_many_iterations_its_move_took() -> None:
    state = new_game(Rules.from_dict({"preset": "podkidnoy"}), 2, 3)
    seat = next_seat(state)
    assert seat is not None
    k = knowledge(state, seat, Record.start(state))
    repeatable = hard.think(k, 1, budget_ms=0)
    assert repeatable == (hard.choose(k, 1, budget_ms=0), hard.ITERATIONS_MIN)
    starved = hard.think(k, 1, budget_ms=200, pause=lambda: time.sleep(0.05) or True)  # 50 ms lost each time
    assert 1 <= starved.iterations < hard.ITERATIONS_MIN
    assert starved.action == choose("normal", k, 1), "too few iterations: the greedy player's move"
