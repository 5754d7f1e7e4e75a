"""Print what a table and a hand look like in a real position, in Russian and English (for docs/playing.md).

    python scripts/transcript.py
"""

from __future__ import annotations

from dataclasses import replace

from bot.game.play import advance
from bot.ui import render
from bot.ui.i18n import translator
from durak import Rules, attack, defend, position
from durak.ai import greedy
from durak.cards import parse_card
from durak.engine import awaited
from storage.models import Game, Seat, Status, User


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


def game(names: tuple[str, str, str]) -> Game:
    rules = Rules.from_dict({"preset": "perevodnoy"})
    state = position(rules, [cards("7S", "7C", "QD", "KS", "9H", "6D"), cards("8S", "JC", "10D", "AH", "6H", "9C"),
                             cards("7D", "QS", "KC", "10H", "8D", "JH")],
                     cards("AC", "9D", "QH"), trump=3, attacker=0, first_bout=False)
    seats = tuple(Seat(i, User(100 + i, name)) for i, name in enumerate(names))
    base = Game(1, -1, 0, Status.PLAYING, 100, rules, 3, state, 1, None, seats, turn_timeout=60)
    g = advance(base, [(0, attack(*cards("7S", "7C")), False)], None, now=0.0)
    return advance(g, [(1, defend(parse_card("7S"), parse_card("8S")), False)], None, now=0.0)


def to_the_end(g: Game) -> Game:
    """The same game played on by the normal computer for everyone, to its result."""
    state = g.state
    while state is not None and not state.over:
        seat = awaited(state)[0]
        g = advance(g, [(seat, greedy.choose(state, seat), False)], None, now=0.0)
        state = g.state
    return replace(g, status=Status.FINISHED)


def main() -> None:
    for language, names in (("ru", ("Аня", "Борис", "Вера")), ("en", ("Anna", "Boris", "Vera"))):
        g = game(names)
        tr = translator(language)
        print(f"--- {language}: the table\n{render.table(tr, g, now=0.0)}\n")
        text, markup = render.private(tr, g, 1, now=0.0)
        rows = [" ".join(f"[{b['text']}]" for b in row) for row in markup or ()]
        print(f"--- {language}: {names[1]}'s hand\n{text}\n" + "\n".join(rows) + "\n")
        end = to_the_end(g)
        text, result_markup = render.result(tr, end)
        buttons = " ".join(f"[{b.text}]" for row in result_markup.inline_keyboard for b in row)
        print(f"--- {language}: the end, in the group\n{render.table(tr, end, now=0.0)}\n\n{text}\n{buttons}\n")


if __name__ == "__main__":
    main()
