"""A computer seat's knowledge, rebuilt from the game's stored log, is the engine's public record."""

from __future__ import annotations

from bot.computers import computer_id, is_computer, level_of, next_computer, record_of
from bot.play import events_json
from durak import Rules, apply, new_game
from durak.ai import LEVELS, greedy
from durak.ai.play import fallback, next_seat
from durak.record import Record
from storage.models import Game, Seat, Status, User


def test_computer_ids_name_their_level_and_never_a_person() -> None:
    for level in LEVELS:
        for k in range(1, 6):
            assert level_of(computer_id(level, k)) == level
    assert not is_computer(101) and not is_computer(-1001) and not is_computer(-1016)
    game = Game(1, -5, 0, Status.LOBBY, 101, Rules(), 6, None, 0, None,
                tuple(Seat(i, User(computer_id("hard", i + 1), "🤖")) for i in range(5)))
    assert next_computer(game, "hard") is None and next_computer(game, "easy") == computer_id("easy", 1)


def test_the_record_rebuilt_from_the_log_is_the_one_kept_from_the_events() -> None:
    for seed in range(30):
        players = 2 + seed % 3
        rules = Rules.from_dict({"preset": ("podkidnoy", "perevodnoy")[seed % 2]})
        state = new_game(rules, players, seed)
        record = Record.start(state)
        log: list[dict[str, object]] = []
        while not state.over:
            seat = next_seat(state)
            assert seat is not None
            taking = state.taking
            state, events = apply(state, seat, greedy.choose(state, seat) or fallback(state, seat))
            record = record.after(events)
            log += events_json(events, None, taking)
            game = Game(1, -5, 0, Status.PLAYING, 101, rules, 6, state, 0, None, log=tuple(log))
            rebuilt = record_of(game)
            assert rebuilt.known == record.known, (seed, state.moves)
            assert rebuilt.gone == record.gone and rebuilt.stock == record.stock
