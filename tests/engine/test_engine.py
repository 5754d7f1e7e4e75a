"""Refusals with their reasons, the JSON form, views and the computer player."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from durak import (
    PASS,
    TAKE,
    Act,
    Ev,
    Illegal,
    Reason,
    Rules,
    State,
    StateError,
    apply,
    attack,
    defend,
    legal_actions,
    new_game,
    position,
    show,
    transfer,
    view,
)
from durak.ai import greedy
from durak.cards import parse_card


def c(code: str) -> int:
    return parse_card(code)


def table(hands: list[list[str]], stock: list[str], **rules: object) -> State:
    return position(Rules.from_dict(rules), [[c(x) for x in h] for h in hands], [c(x) for x in stock],
                    trump=3, attacker=0, first_bout=False)


def refused(state: State, seat: int, action: object) -> Illegal:
    before = state.to_json()
    with pytest.raises(Illegal) as caught:
        apply(state, seat, action)  # type: ignore[arg-type]
    assert state.to_json() == before
    return caught.value


def test_refusals_say_why() -> None:
    s = table([["7S", "9S", "KD"], ["8S", "6S", "AD"], ["QC", "10D"]], ["AC", "7H"])
    assert refused(s, 1, attack(c("8S"))).reason is Reason.NOT_YOUR_TURN
    assert refused(s, 2, attack(c("QC"))).reason is Reason.ONLY_ATTACKER_LEADS
    assert refused(s, 0, attack(c("AS"))).reason is Reason.NOT_IN_HAND
    assert refused(s, 0, attack(c("7S"), c("9S"))).reason is Reason.MIXED_RANKS
    assert refused(s, 0, attack()).reason is Reason.NO_CARDS
    assert refused(s, 0, TAKE).reason is Reason.NOT_YOUR_TURN
    s, _ = apply(s, 0, attack(c("7S")))
    e = refused(s, 1, defend(c("7S"), c("6S")))
    assert (e.reason, e.params) == (Reason.CANNOT_COVER, {"card": c("6S"), "target": c("7S")})
    assert refused(s, 1, defend(c("9S"), c("8S"))).reason is Reason.NOT_ON_TABLE
    assert refused(s, 0, PASS).reason is Reason.PASS_NOT_NOW
    assert refused(s, 2, attack(c("QC"))).reason is Reason.RANK_NOT_ON_TABLE
    assert refused(s, 1, transfer(c("8S"))).reason is Reason.TRANSFER_OFF
    assert refused(s, 1, show(c("8S"))).reason is Reason.SHOW_OFF
    s, _ = apply(s, 1, defend(c("7S"), c("8S")))
    assert refused(s, 1, defend(c("7S"), c("AD"))).reason is Reason.ALREADY_COVERED
    assert refused(s, 1, TAKE).reason is Reason.NOTHING_TO_TAKE
    s, _ = apply(s, 0, PASS)
    assert refused(s, 0, PASS).reason is Reason.ALREADY_PASSED


def test_limit_says_how_many_more_fit() -> None:
    s = table([["7S", "7C", "7D", "KD"], ["AS", "AC"]], ["KS", "7H"])
    s, _ = apply(s, 0, attack(c("7S")))
    e = refused(s, 0, attack(c("7C"), c("7D")))
    assert (e.reason, e.params) == (Reason.LIMIT, {"room": 1})


def test_transfer_reasons() -> None:
    s = table([["7S", "7C", "KD"], ["8S", "7D", "JS", "7H"], ["9C", "10C"]], ["AS", "9H"], preset="perevodnoy")
    s, _ = apply(s, 0, attack(c("7S")))
    assert refused(s, 1, transfer(c("8S"))).reason is Reason.TRANSFER_RANK
    assert refused(s, 1, show(c("7D"))).reason is Reason.SHOW_NOT_TRUMP
    s, _ = apply(s, 1, defend(c("7S"), c("8S")))
    assert refused(s, 1, transfer(c("7D"))).reason is Reason.TRANSFER_AFTER_COVER


def test_apply_never_changes_its_input() -> None:
    s = new_game(Rules(), 3, seed=11)
    before = s.to_json()
    action = legal_actions(s, s.attacker)[0]  # type: ignore[arg-type]
    after, events = apply(s, s.attacker, action)  # type: ignore[arg-type]
    assert s.to_json() == before
    assert after.moves == 1 and events[0].kind is Ev.LEAD


def test_json_round_trip_and_format_version() -> None:
    s = new_game(Rules.from_dict({"preset": "perevodnoy", "cheating": True}), 4, seed=2)
    data = json.loads(json.dumps(s.to_json()))
    assert data["format"] == 5
    assert State.from_json(data) == s


FORMAT_4_KEYS = ("secret", "bypassed", "lead_open", "window", "drew", "swapped", "covered", "self_thrown", "trumps",
                 "second_card")


def test_a_state_of_format_3_is_still_read() -> None:
    """Games stored before the variants' bout state (format 4) go on after an upgrade."""
    s = new_game(Rules.from_dict({"preset": "points"}), 3, seed=7)
    data = s.to_json()
    for key in FORMAT_4_KEYS:
        del data[key]
    assert State.from_json({**data, "format": 3}) == s


def test_the_variants_bout_state_round_trips() -> None:
    """A passed-over card, an open window and the bout's marks survive a save: a restart plays on the same."""
    rules = Rules.from_dict({"preset": "perevodnoy_3", "ranking": "beaten"})
    s = position(rules, [[parse_card("7C")], [parse_card("7D"), parse_card("9S")], [parse_card("8D")]], [], 0,
                 attacker=0, first_bout=False)
    s, _ = apply(s, 0, attack(parse_card("7C")))
    s, _ = apply(s, 1, transfer(parse_card("7D")))
    assert s.bypassed == [parse_card("7C")] and s.attacks == [parse_card("7D")]
    s.drew, s.swapped, s.covered, s.self_thrown = frozenset({1}), frozenset({2}), frozenset({0}), (parse_card("7D"),)
    data = json.loads(json.dumps(s.to_json()))
    assert data["table"] == [["7C", None], ["7D", None]] and data["bypassed"] == [0]
    assert State.from_json(data) == s
    assert State.from_json({**data, "bypassed": 1}) == s  # saved before the laid order was kept: a count


def test_passed_over_cards_that_cannot_lie_where_a_save_says_are_refused() -> None:
    """A corrupt row names a covered pair, or a place past the table, as passed over: a clear error."""
    rules = Rules.from_dict({"preset": "perevodnoy_3", "transfer_after_cover": True})
    hands = [[parse_card(c) for c in ("6D", "8S", "AS")], [parse_card(c) for c in ("8D", "8C", "KS")]]
    s = position(rules, hands, [parse_card("6H")], parse_card("6H") & 3, attacker=0, first_bout=False)
    s, _ = apply(s, 0, attack(parse_card("6D")))
    s, _ = apply(s, 1, defend(parse_card("6D"), parse_card("8D")))
    s, _ = apply(s, 0, attack(parse_card("8S")))
    s, _ = apply(s, 1, transfer(parse_card("8C")))
    data = json.loads(json.dumps(s.to_json()))
    assert data["table"] == [["6D", "8D"], ["8S", None], ["8C", None]] and data["bypassed"] == [1]
    assert State.from_json(data) == s
    for bad in ([0], [3], [1, 1], "x"):
        with pytest.raises(StateError):
            State.from_json({**data, "bypassed": bad})


def test_a_state_of_format_4_is_still_read() -> None:
    """Games stored with the count of idle bouts (format 4) go on after an upgrade, counting repeats anew."""
    s = new_game(Rules.from_dict({"preset": "tedious"}), 3, seed=5)
    data = s.to_json()
    del data["seen"]
    assert State.from_json({**data, "idle": 3, "format": 4}) == s


def test_a_state_of_format_2_is_still_read() -> None:
    """Games stored before the variants (format 3: set-aside cards, scores, pogony) go on after an upgrade."""
    s = new_game(Rules.from_dict({"preset": "perevodnoy"}), 3, seed=5)
    data = s.to_json()
    for key in ("set_aside", "scores", "pogons", *FORMAT_4_KEYS, "seen"):
        del data[key]
    data["rules"] = {k: v for k, v in data["rules"].items() if k in OLD_OPTIONS}
    assert State.from_json({**data, "format": 2}) == s


def test_a_variant_state_round_trips() -> None:
    s = new_game(Rules.from_dict({"preset": "chukchi", "ranking": "figures"}), 3, seed=6)
    assert len(s.set_aside) == 18 and s.scores == (0, 0, 0)
    assert State.from_json(json.loads(json.dumps(s.to_json()))) == s


OLD_OPTIONS = {"preset", "deck_size", "hand_size", "lead_max", "throw_in", "bout_limit", "first_bout_limit",
               "after_take_unlimited", "transfer", "transfer_first_bout", "transfer_show_trump",
               "transfer_last_card", "draw", "teams", "cheating", "first_attacker"}


def test_a_state_of_format_1_is_still_read() -> None:
    """Games stored before format 2 (which keeps the order hands emptied in) go on after an upgrade."""
    s = new_game(Rules.from_dict({"preset": "podkidnoy"}), 3, seed=4)
    data = s.to_json()
    for key in ("emptied", "set_aside", "scores", "pogons", *FORMAT_4_KEYS, "seen"):
        del data[key]
    assert State.from_json({**data, "format": 1}) == s


@pytest.mark.parametrize("corrupt", [
    lambda d: d.update(format=99),
    lambda d: d["hands"][0].append(d["hands"][1][0]),
    lambda d: d["hands"][0].append("1Z"),
    lambda d: d.update(attacker=17),
    lambda d: d.pop("stock"),
    lambda d: d["rules"].update(deck_size=33),
    lambda d: d.update(table="nonsense"),
    lambda d: d.update(scores=[1, 2]),
    lambda d: d.update(set_aside=[d["stock"][0]]),
    lambda d: d["rules"].update(lead="sideways"),
])
def test_corrupt_json_is_a_clear_error(corrupt: object) -> None:
    data = new_game(Rules(), 2, seed=1).to_json()
    corrupt(data)  # type: ignore[operator]
    with pytest.raises(StateError):
        State.from_json(data)
    with pytest.raises(StateError, match="JSON object"):
        State.from_json([1, 2])


def test_views_show_only_the_own_hand() -> None:
    s = new_game(Rules(), 3, seed=4)
    mine = view(s, 1)
    assert list(mine.hand) == s.hands[1]
    assert mine.counts == (6, 6, 6)
    assert mine.trump_card == s.stock[-1] and mine.stock == 18
    public = view(s, None)
    assert public.hand == () and public.legal == ()
    assert view(s, s.attacker).legal == tuple(legal_actions(s, s.attacker))  # type: ignore[arg-type]


def test_room_in_view_counts_down() -> None:
    s = table([["7S", "7C", "KD"], ["AS", "AC", "QH"]], ["KS", "7H"])
    s, _ = apply(s, 0, attack(c("7S")))
    assert view(s, 0).room == 2


@pytest.mark.parametrize("preset", ["podkidnoy", "perevodnoy", "simple", "do_zavala"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_greedy_players_finish_games_legally(preset: str, players: int) -> None:
    rules = Rules.from_dict({"preset": preset})
    for seed in range(5):
        s = new_game(rules, players, seed)
        for _ in range(2000):
            if s.over:
                break
            moves = [(p, greedy.choose(s, p)) for p in range(players)]
            seat, action = next((p, a) for p, a in moves if a is not None)
            s, _ = apply(s, seat, action)
        assert s.over


def test_greedy_covers_cheaply_and_keeps_trumps() -> None:
    s = table([["7S", "KD"], ["8S", "AS", "6H", "QH"], ["9C", "10C"]], ["AC", "KC", "QC", "JC", "10D", "9D", "7H"])
    s, _ = apply(s, 0, attack(c("7S")))
    assert greedy.choose(s, 1) == defend(c("7S"), c("8S"))
    s2 = table([["AS", "KD"], ["8S", "QH", "JD"], ["9C", "10C"]], ["AC", "KC", "QC", "JC", "10D", "9D", "7H"])
    s2, _ = apply(s2, 0, attack(c("AS")))
    assert greedy.choose(s2, 1) == TAKE, "a queen of trumps is too dear for a plain ace early on"


def test_greedy_leads_its_cheapest_rank_with_all_its_cards() -> None:
    s = table([["9S", "9C", "7D", "7C", "AH"], ["8S", "AS", "6H", "QH", "JD"]], ["AC", "7H"])
    choice = greedy.choose(s, 0)
    assert choice.act is Act.ATTACK and sorted(choice.cards) == sorted([c("7D"), c("7C")])


def test_greedy_transfers_with_a_plain_card() -> None:
    s = table([["7S", "KD"], ["7C", "AS", "6H"], ["9C", "10C", "JD"]], ["AC", "7H"], preset="perevodnoy")
    s, _ = apply(s, 0, attack(c("7S")))
    assert greedy.choose(s, 1) == transfer(c("7C"))


def test_awaited_follows_the_bout() -> None:
    from durak.engine import awaited

    s = table([["7S", "KD"], ["8S", "AD", "JD"], ["QS", "10D"]], ["AC", "7H"])
    assert awaited(s) == [0]
    s, _ = apply(s, 0, attack(c("7S")))
    assert awaited(s) == [1]
    s, _ = apply(s, 1, defend(c("7S"), c("8S")))
    assert awaited(s) == [0, 2]
    s, _ = apply(s, 2, PASS)
    assert awaited(s) == [0]


def test_forced_leads_going_round_for_ever_end_in_a_draw_when_the_position_comes_back_a_third_time() -> None:
    """занудный without trumps: every lead must be an ace and nothing covers an ace, so each defender takes
    and the aces go round the table. The game is a draw the third time a bout begins in the same position
    (hands, roles), not after a count of bouts."""
    from durak.engine import actors
    from durak.setup import position

    rules = Rules.from_dict({"preset": "tedious", "trump_suit": "none"})
    hands = [[parse_card(c) for c in h] for h in (["AS", "6C"], ["AC", "6D"], ["AD", "6H"])]
    state = position(rules, hands, [], None, attacker=0, first_bout=False)
    starts: list[tuple[object, ...]] = []
    while not state.over:
        seat = actors(state)[0]
        acts = legal_actions(state, seat)
        if not state.attacks:
            assert {a.act for a in acts} == {Act.ATTACK} and all(c >> 2 == 14 for a in acts for c in a.cards)
            starts.append((tuple(frozenset(h) for h in state.hands), state.attacker, state.defender))
            assert max(Counter(starts).values()) < 3, "the game goes on until a position comes back a third time"
            action = acts[0]
        elif seat == state.defender:
            assert [a.act for a in acts] == [Act.TAKE], "nothing covers an ace without trumps"
            action = acts[0]
        else:
            action = next(a for a in acts if a.act is Act.PASS)
        state, _ = apply(state, seat, action)
        assert state.moves < 200
    assert state.draw and state.losers == () and state.out == []
    final = tuple(frozenset(h) for h in state.hands)
    assert sum(hands == final for hands, _, _ in starts) == 2, "it ended as a position came round the third time"
    assert len(starts) == 16

