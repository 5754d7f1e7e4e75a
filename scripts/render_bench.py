"""How long one private message (text and hand keyboard) takes to build, on real positions.

    python scripts/render_bench.py [--games 30]

Plays random games (podkidnoy and perevodnoy, 4 players, 36 cards) and renders every seat's
private message after every move; then a 45-card hand of a 52-card deck, defending and leading.
Prints microseconds per message. Run it on two checkouts to compare before and after.
"""

from __future__ import annotations

import argparse
import random
import time

from bot.ui import render
from bot.ui.i18n import translator
from durak import Rules, apply, attack, legal_actions, new_game, position
from durak.cards import deck
from storage.models import Game, Seat, Status, User


def as_game(state: object, players: int) -> Game:
    seats = tuple(Seat(i, User(100 + i, f"P{i}")) for i in range(players))
    return Game(1, -1, 0, Status.PLAYING, 100, state.rules, players, state, 1, None, seats)  # type: ignore[attr-defined]


def timed(games: list[Game], seats: int) -> float:
    tr = translator("ru")
    start = time.perf_counter()
    for g in games:
        for seat in range(seats):
            render.private(tr, g, seat, 0.0)
    return (time.perf_counter() - start) / (len(games) * seats) * 1e6


def played(preset: str, games: int, rng: random.Random) -> list[Game]:
    found = []
    for n in range(games):
        state = new_game(Rules.from_dict({"preset": preset}), players=4, seed=n)
        while not state.over:
            seat = rng.choice([p for p in range(4) if legal_actions(state, p)])
            state, _ = apply(state, seat, rng.choice(legal_actions(state, seat)))
            found.append(as_game(state, 4))
    return found


def big_hand() -> list[Game]:
    rules = Rules.from_dict({"preset": "perevodnoy", "deck_size": 52})
    cards = deck(52)
    low = [c for c in cards if c >> 2 == 6]
    stock = [c for c in cards if c & 3 == 3][-1:]
    big = [c for c in cards if c not in low and c not in stock][:45]
    leading = position(rules, [big, low], stock, 3, attacker=0, first_bout=False)
    defending, _ = apply(position(rules, [low, big], stock, 3, attacker=0, first_bout=False), 0, attack(*low))
    return [as_game(leading, 2), as_game(defending, 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(1)
    for preset in ("podkidnoy", "perevodnoy"):
        games = played(preset, args.games, rng)
        print(f"{preset} 4p: {timed(games, 4):.0f} µs per private message ({len(games) * 4} messages)")
    print(f"45-card hand: {timed(big_hand() * 50, 2):.0f} µs per private message")


if __name__ == "__main__":
    main()
