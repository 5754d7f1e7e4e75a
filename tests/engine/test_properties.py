"""Random games for every preset and table size keep every invariant of the engine."""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from durak import Act, Action, Illegal, Rules, RulesError, State, apply, legal_actions, new_game, view
from durak.cards import deck
from durak.engine import actors, apply_in_place
from durak.rules import PRESETS

MAX_ACTIONS = 5000  # a game that has not ended by then is a bug


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int]:
    preset = draw(st.sampled_from(["podkidnoy", "perevodnoy", "simple", "do_zavala"]))
    deck_size = draw(st.sampled_from([24, 36, 52]))
    teams = draw(st.sampled_from(["none", "none", "2x2", "3x3"]))
    options = {
        "preset": preset, "deck_size": deck_size, "teams": teams,
        "cheating": draw(st.booleans()), "draw": draw(st.booleans()),
        "throw_in": draw(st.sampled_from(["all", "neighbours", "attacker", "off"])),
        "transfer_first_bout": draw(st.booleans()), "transfer_last_card": draw(st.booleans()),
    }
    if preset == "simple" and draw(st.booleans()):
        del options["throw_in"]
    rules = Rules.from_dict(options)
    if teams == "2x2":
        players = 4
    elif teams == "3x3":
        players = 6
    else:
        players = draw(st.integers(2, 6))
    if players > rules.max_players():
        rules = rules.replace(deck_size=52)
    return rules, players


# docs/variants.md §2's options, for random combinations over the presets
VARIANT_OPTIONS: dict[str, list[object]] = {
    "deal": ["standard", "whole_deck"], "redeal_same_suit": [None, 5, 6],
    "stock_mode": ["kept", "removed", "sorted"], "trump_suit": ["turned", "none", "S", "H"],
    "special_suit": [None, "S", "D"], "trump_card_hidden": [False, True], "suitless": [False, True],
    "royal": ["off", "royal", "aces"], "lead": ["same_rank", "whole_rank", "highest", "three", "pairs", "groups"],
    "transfer_trump_on_table": [True, False], "taker_attacks": [False, True], "rotate_hands": [False, True],
    "transfer_after_cover": [False, True], "recycle_discard": [False, True], "trump_swap": [False, True],
    "refill": ["to_hand_size", "when_empty"], "pogony_rule": ["sixes", "two_sixes", "off"],
    "ranking": ["order", "beaten", "figures", "pogony"], "transfer": [False, True], "throw_in": ["all", "off"],
    "secret_trump": [False, True], "stock_lead": [False, True], "transfer_beat_only_new": [False, True],
    "self_throw_in": [False, True], "counter_attack": [False, True], "draw_to_cover": [False, True],
    "poker_swap": [False, True], "transfer_last_card": [False, True], "two_trumps": [False, True],
}


@st.composite
def variant_tables(draw: st.DrawFn) -> tuple[Rules, int]:
    """Every preset, with a few random options over it; combinations docs/variants.md §3 refuses are skipped."""
    options: dict[str, object] = {"preset": draw(st.sampled_from(sorted(PRESETS))),
                                  "deck_size": draw(st.sampled_from([24, 36, 52])), "cheating": draw(st.booleans())}
    for name in draw(st.sets(st.sampled_from(sorted(VARIANT_OPTIONS)), max_size=4)):
        options[name] = draw(st.sampled_from(VARIANT_OPTIONS[name]))
    try:
        rules = Rules.from_dict(options)
    except RulesError:
        assume(False)
        raise
    return rules, draw(st.integers(2, min(6, rules.max_players())))


def candidate_actions(state: State, seat: int, rng: random.Random, k: int) -> list[Action]:
    """``k`` drawn alike from every single-card action with any card of the deck, listed or not, plus the rest.
    Only the drawn ones are built: a 52-card deck has thousands, and building them all took half the test's time."""
    cards = deck(state.rules.deck_size)
    targets, attacks = state.attacks + state.bypassed, state.attacks
    per_card = 4 + len(targets) + len(attacks)  # attack, transfer, show, throw to oneself; defend; counter

    def card_action(c: int, j: int, cheat: bool) -> Action:
        if j < 4:
            return Action((Act.ATTACK, Act.TRANSFER, Act.SHOW, Act.THROW_SELF)[j], (c,), cheat=cheat)
        if j - 4 < len(targets):
            return Action(Act.DEFEND, (c,), target=targets[j - 4], cheat=cheat)
        return Action(Act.COUNTER, (c, c ^ 1), target=attacks[j - 4 - len(targets)], cheat=cheat)

    hand = sorted(state.hands[seat])  # a pair is listed once, in the order of the deck
    rest = [Action(act, cheat=cheat) for cheat in (False, True)
            for act in (Act.TAKE, Act.PASS, Act.STOCK_LEAD, Act.DRAW_CARD)]
    rest += [Action(Act.SWAP, (a, b), cheat=cheat) for cheat in (False, True) for a, b in itertools.pairwise(hand)]
    rest += [Action(Act.ACCUSE, suspect=p) for p in range(state.players)]
    per_cheat = len(cards) * per_card
    drawn = rng.sample(range(2 * per_cheat + len(rest)), min(k, 2 * per_cheat + len(rest)))
    return [card_action(cards[i % per_cheat // per_card], i % per_card, i >= per_cheat) if i < 2 * per_cheat
            else rest[i - 2 * per_cheat] for i in drawn]


def check_invariants(state: State, full_deck: Counter[int], rng: random.Random) -> None:
    assert Counter(state.all_cards()) == full_deck, "every card exactly once"
    assert State.from_json(state.to_json()) == state, "JSON round trip"
    listed = {p: legal_actions(state, p) for p in range(state.players)}
    assert actors(state) == [p for p in range(state.players) if listed[p]]
    for p in range(state.players):
        seen = view(state, p)
        assert list(seen.hand) == state.hands[p]
        others = {c for q in range(state.players) if q != p for c in state.hands[q]}
        public = {c for pair in seen.table for c in pair} | {seen.trump_card}
        assert not (set(seen.hand) | public) & (others - public), "a view shows another seat's cards"
        assert seen.legal == tuple(listed[p])
        # docs/variants.md §2.9: the stock (the secret card, cards swapped into it, the top card before a stock lead),
        # set-aside cards and an unturned face-up card are in no view
        faces = {seen.trump_card, seen.second_card}
        hidden = (set(state.stock) | set(state.set_aside) | {state.secret}) - faces - {None}
        shown = set(seen.hand) | public | faces | set(seen.self_thrown)
        shown |= {c for a in seen.legal for c in (*a.cards, a.target) if c is not None}
        assert not shown & hidden, "a view shows a hidden card"
    # every listed action is accepted; a sample of unlisted ones is refused, changing nothing
    before = state.to_json()
    for p, acts in listed.items():
        for a in acts:
            apply(state, p, a)
        allowed = set(acts)
        for a in candidate_actions(state, p, rng, 60):
            honest = a._replace(cheat=False)
            expected = a in allowed or (a.cheat and state.rules.cheating and honest in allowed)
            try:
                apply(state, p, a)
                accepted = True
            except Illegal:
                accepted = False
            assert accepted == expected, (p, a, accepted)
    assert state.to_json() == before, "checking actions changed the state"


# Each random game checks every invariant after every move (about a second a game): four shards, spread over the
# test workers, each with games of its own, new ones at every run (hypothesis draws them afresh); THOROUGH=1 plays
# six times as many.
SHARDS = range(4)
THOROUGH = os.environ.get("THOROUGH") == "1"
GAMES = 24 if THOROUGH else 4
VARIANT_GAMES = 15 if THOROUGH else 3


@pytest.mark.slow
@pytest.mark.parametrize("shard", SHARDS)
@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(shard: int, table: tuple[Rules, int], seed: int) -> None:
    play_checking_invariants(table, seed + shard)


@pytest.mark.slow
@pytest.mark.parametrize("shard", SHARDS)
@settings(max_examples=VARIANT_GAMES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=variant_tables(), seed=st.integers(0, 2**32 - 1))
def test_random_variant_games_keep_every_invariant(shard: int, table: tuple[Rules, int], seed: int) -> None:
    play_checking_invariants(table, seed + shard)


@pytest.mark.slow
@pytest.mark.parametrize(("number", "preset"), list(enumerate(sorted(PRESETS))))
def test_every_preset_plays_to_the_end_keeping_every_invariant(number: int, preset: str) -> None:
    rules = Rules.from_dict({"preset": preset, "cheating": number % 2 == 1})
    play_checking_invariants((rules, min(2 + number % 3, rules.max_players())), seed=number)


def play_checking_invariants(table: tuple[Rules, int], seed: int) -> None:
    rules, players = table
    rng = random.Random(seed)
    state = new_game(rules, players, seed)
    full_deck = Counter(deck(rules.deck_size))
    for _ in range(MAX_ACTIONS):
        check_invariants(state, full_deck, rng)
        if state.over:
            break
        seat = rng.choice(actors(state))
        action = rng.choice(legal_actions(state, seat))
        twin = state.copy()
        state, events = apply(state, seat, action)
        assert events
        assert apply_in_place(twin, seat, action) == events and twin == state, "played in place: the same move"
    assert state.over, "the game did not end"
    assert state.attacker is None and state.defender is None
    if state.draw:
        assert state.losers == () and not state.pogony
    else:
        assert state.losers
        assert all(not state.hands[p] for p in state.out)
        assert not set(state.out) & set(state.losers) or rules.teams.value != "none"


@settings(max_examples=40, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32 - 1))
def test_fast_random_games_end(table: tuple[Rules, int], seed: int) -> None:
    """Many more games, checking only that they end with a consistent result."""
    rules, players = table
    rng = random.Random(seed)
    for game in range(5):
        state = new_game(rules, players, seed + game)
        for _ in range(MAX_ACTIONS):
            if state.over:
                break
            seat = rng.choice(actors(state))
            state, _ = apply(state, seat, rng.choice(legal_actions(state, seat)))
        assert state.over
        assert len(set(state.out)) == len(state.out)
