"""Every button with words shows whole on a 320-px phone, in every language: the lobby, its settings and game
picker, each hand's moves in every preset and role (the longest counts and names filled in), the result and
the stop vote. ``bot.ui.fit`` says how many letters a row of one, two or three buttons shows; card buttons
carry no words and keep the hand's own rows."""

from __future__ import annotations

import itertools

import pytest
from telegram import InlineKeyboardMarkup

from bot.ui import fit, hand, render, variants
from bot.ui.i18n import LANGUAGES, translator
from bot.ui.labels import card_text
from bot.ui.seat_view import SeatView
from durak import Rules, apply, attack, legal_actions, position
from durak.cards import deck
from durak.rules import PRESETS
from storage.models import Game, Seat, Status, User
from tests.bot.ui.test_hand_keyboard import positions

LONG_NAME = "Александра-Мария Иванова"  # as long as a name shows (render.MAX_NAME)
CARD_VERBS = ("c", "f", "d")  # a card's own button: play, pick, cover


def too_wide(rows: list[list[dict[str, str]]]) -> list[str]:
    return [f"{b['text']!r} ({fit.width(b['text'])} letters, {len(row)} in its row)"
            for row in rows for b in row
            if b.get("callback_data", "v1:x").split(":")[1] not in CARD_VERBS and not fit.fits(b["text"], len(row))]


def markup_rows(markup: InlineKeyboardMarkup) -> list[list[dict[str, str]]]:
    rows: list[list[dict[str, str]]] = markup.to_dict()["inline_keyboard"]
    return rows


def a_game(preset: str, players: int = 4, chat_id: int = -100, rules: Rules | None = None) -> Game:
    seats = tuple(Seat(i, User(100 + i, LONG_NAME)) for i in range(players))
    rules = rules or Rules.from_dict({"preset": preset})
    return Game(1, chat_id, 0, Status.LOBBY, 100, rules, 6, None, 1, None, seats)


def test_the_measure_counts_an_emoji_as_two_letters_and_a_selector_as_none() -> None:
    assert fit.width("Take") == 4
    assert fit.width("10♠️") == 4  # ♠ shown as an emoji
    assert fit.width("🤖+ hard") == 8
    assert fit.fits("▶ Throw in all 9s (3)", 1) and not fit.fits("▶ Підкинути всі дев'ятки (3)", 3)


def test_rows_keep_order_and_give_a_long_label_a_row_of_its_own() -> None:
    labels = ["Take", "Done", "▶ Підкинути всі дев'ятки (3)", "Pass", "Accuse"]
    rows = fit.rows(labels, str)
    assert [b for row in rows for b in row] == labels
    assert rows == [["Take", "Done"], ["▶ Підкинути всі дев'ятки (3)"], ["Pass", "Accuse"]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_lobby_settings_and_game_picker_fit(language: str) -> None:
    tr = translator(language)
    wide: list[str] = []
    for preset in sorted(PRESETS):
        for chat_id in (-100, 100):  # a group's lobby and a private table against computers
            wide += too_wide(markup_rows(render.lobby(tr, a_game(preset, chat_id=chat_id))[1]))
        wide += too_wide(markup_rows(render.settings(tr, a_game(preset))[1]))
        for page in range(variants.pages()):  # the picker with this game ticked ✅
            wide += too_wide(markup_rows(render.variant_picker(tr, a_game(preset), page)[1]))
    assert not wide, sorted(set(wide))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_hand_move_fits_in_every_preset_and_role(language: str) -> None:
    tr = translator(language)
    wide: list[str] = []
    for preset, size, cheating in itertools.product(sorted(PRESETS), (24, 36, 52), (False, True)):
        rules = Rules.from_dict({"preset": preset, "deck_size": size, "cheating": cheating})
        for _, state, seat in positions(rules):
            opts = hand.options(state, seat)  # type: ignore[arg-type]
            picks = tuple(sorted(opts.pickable)[:4])
            selected = next(iter(opts.playable), None)
            for view in (SeatView(selected=selected, picked=picks, armed=cheating), SeatView(leaving=True)):
                wide += too_wide(hand.keyboard(tr, 1, state, seat, lambda _: LONG_NAME,  # type: ignore[arg-type]
                                               view=view, cheating=cheating, away=True))
    assert not wide, sorted(set(wide))


@pytest.mark.parametrize("language", LANGUAGES)
def test_throw_in_all_fits_beside_pass_for_every_rank(language: str) -> None:
    """The widest move: «▶ Throw in all nines (3)» with Pass beside it, for each rank of a 52-card deck."""
    tr = translator(language)
    rules = Rules.from_dict({"preset": "podkidnoy", "deck_size": 52})
    wide: list[str] = []
    for rank in range(2, 15):
        cards = deck(52)
        mine = [c for c in cards if c >> 2 == rank][1:]  # three of the rank to throw in
        lead = [c for c in cards if c >> 2 == rank][:1]
        other = [c for c in cards if c >> 2 != rank and c & 3 == 0][:5]
        state = position(rules, [lead + mine, other], [], None, attacker=0, first_bout=False)
        state, _ = apply(state, 0, attack(lead[0]))
        state, _ = apply(state, 1, next(a for a in legal_actions(state, 1) if a.act.value == "take"))
        rows = hand.keyboard(tr, 1, state, 0, str)
        labels = [b["text"] for row in rows for b in row]
        assert any(label.startswith("▶") and "(3)" in label for label in labels), (card_text(mine[0]), labels)
        wide += too_wide(rows)
    assert not wide, sorted(set(wide))


@pytest.mark.parametrize("language", LANGUAGES)
def test_result_and_vote_buttons_fit(language: str) -> None:
    tr = translator(language)
    game = a_game("podkidnoy")
    assert not too_wide(markup_rows(render.stop_vote(tr, game, 1, 3, LONG_NAME)[1]))
