"""A game's review as the bot keeps and words it: only people's own choices judged, and a summary that reads as a
player of each language would write it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.game import play
from bot.game.reviews import review_game
from bot.ui import review_text
from bot.ui.i18n import translator
from durak import Rules, legal_actions, new_game
from durak.actions import Act, Action, action_to_json
from durak.cards import parse_card
from durak.review import label_of
from durak.review.command import play as play_game
from durak.rules import Rules as RulesType
from storage.models import Game, Seat, Status, User

DEALS = 64


def game_in(title: str, chat_id: int = -100) -> Game:
    seats = (Seat(0, User(101, "Anna")), Seat(1, User(102, "Boris")))
    return Game(7, chat_id, 0, Status.FINISHED, 101, Rules(), 2, None, 1, None, seats, title=title)


REVIEW = {"seats": {"0": {"moves": 20, "accuracy": 84.4, "inaccuracies": 0, "mistakes": 2, "blunders": 1},
                    "1": {"moves": 18, "accuracy": 97.0, "inaccuracies": 0, "mistakes": 0, "blunders": 0}},
          "moves": [{"n": 12, "seat": 0, "cost": 0.231, "label": "blunder", "leading": False, "taking": False,
                     "played": action_to_json(Action(Act.TAKE)),
                     "best": action_to_json(Action(Act.DEFEND, (parse_card("10H"),), target=parse_card("7H")))},
                    {"n": 20, "seat": 0, "cost": 0.12, "label": "mistake", "leading": True, "taking": False,
                     "played": action_to_json(Action(Act.ATTACK, (parse_card("9S"), parse_card("9C")))),
                     "best": action_to_json(Action(Act.ATTACK, (parse_card("6D"),)))}]}


def test_the_summary_reads_as_a_russian_player_writes_it() -> None:
    text = review_text.summary(translator("ru"), game_in("Друзья"), REVIEW, 0)
    assert text == ("📊 Разбор партии в «Друзья»\n"
                    "Точность 84 %, 1 грубая ошибка, 2 ошибки\n"
                    "Самый дорогой ход — 12-й: вы решили взять карты, а лучше было побить 7♥️ картой 10♥️. "
                    "Это стоило 23 % шанса не остаться в дураках."), text


def test_the_summary_in_every_language_names_the_figures_and_the_costliest_move() -> None:
    expected = {
        "en": ("Accuracy 84 %, 1 blunder, 2 mistakes", "you chose to take the cards, but it was better to cover 7♥️ "
               "with 10♥️"),
        "uk": ("Точність 84 %, 1 груба помилка, 2 помилки", "ви вирішили взяти карти, а краще було побити 7♥️ "
               "картою 10♥️"),
        "de": ("Genauigkeit 84 %, 1 grober Fehler, 2 Fehler", "Du hast „die Karten aufnehmen“ gewählt, besser wäre "
               "„7♥️ mit 10♥️ schlagen“ gewesen"),
    }
    for language, (figures, worst) in expected.items():
        text = review_text.summary(translator(language), game_in("Friends"), REVIEW, 0)
        assert figures in text and worst in text, text


def test_a_clean_game_says_so_and_a_table_in_private_names_no_group() -> None:
    text = review_text.summary(translator("ru"), game_in("", chat_id=101), REVIEW, 1)
    assert text == "📊 Разбор партии\nТочность 97 %, без ошибок", text
    nothing = {"seats": {"0": {"moves": 0, "accuracy": None, "inaccuracies": 0, "mistakes": 0, "blunders": 0}},
               "moves": []}
    assert review_text.summary(translator("ru"), game_in(""), nothing, 0) == (
        "📊 Разбор партии\nВ этой партии у вас не было хода с настоящим выбором: оценивать нечего.")
    assert "nothing to judge" in review_text.summary(translator("en"), game_in(""), nothing, 0)


def test_moves_in_players_words() -> None:
    ru, game = translator("ru"), game_in("")
    words = {Action(Act.ATTACK, (parse_card("9S"), parse_card("9C"))): "подкинуть 9♠️ 9♣️",
             Action(Act.TRANSFER, (parse_card("8D"),)): "перевести картой 8♦️",
             Action(Act.TRANSFER, (parse_card("8D"), parse_card("8S"))): "перевести картами 8♦️ 8♠️",
             Action(Act.PASS): "сказать «Бито»"}
    for action, said in words.items():
        assert review_text.move_words(ru, game, action, leading=False, taking=False) == said
    assert review_text.move_words(ru, game, Action(Act.ATTACK, (parse_card("6D"),)), True, False) == "зайти с 6♦️"
    assert review_text.move_words(ru, game, Action(Act.PASS), False, True) == "больше не подкидывать"


@pytest.mark.slow
def test_only_the_peoples_own_choices_are_judged() -> None:
    rules = RulesType.from_dict({"preset": "podkidnoy", "deck_size": 24})
    deal, actions = play_game(rules, ["easy", "normal"], seed=4, budget_ms=0)
    every = review_game(deal, actions, frozenset(), frozenset({0, 1}), DEALS, between=None)
    judged = [m["n"] for m in every["moves"]]
    assert judged and {m["seat"] for m in every["moves"]} == {0, 1}
    assert all(m["label"] == label_of(m["cost"]) for m in every["moves"])
    # seat 1 a computer (not among the people), and one of seat 0's judged moves made for him by his timer
    timed_out = next(m["n"] - 1 for m in every["moves"] if m["seat"] == 0)
    mine = review_game(deal, actions, frozenset({timed_out}), frozenset({0}), DEALS, between=None)
    assert set(mine["seats"]) == {"0"}
    assert [m["n"] for m in mine["moves"]] == [n for n in judged if n != timed_out + 1 and
                                                 actions[n - 1][0] == 0], "the same verdicts, less those two kinds"
    assert mine["seats"]["0"]["moves"] == every["seats"]["0"]["moves"] - 1


def test_a_move_the_timer_made_is_marked_as_not_the_players() -> None:
    state = new_game(Rules(), 2, seed=1)
    seats = (Seat(0, User(101, "Anna")), Seat(1, User(102, "Boris")))
    game = Game(1, -100, 0, Status.PLAYING, 101, Rules(), 2, state, 1, None, seats, deal=state)
    seat = state.attacker
    chosen, timed = legal_actions(state, seat)[0], None
    after = play.advance(game, [(seat, chosen, False)], None, 0.0)
    assert after.moves[0] == (seat, chosen) and 0 not in after.auto
    assert after.state is not None
    defender = after.state.defender
    assert defender is not None
    timed = legal_actions(after.state, defender)[0]
    later = play.advance(replace(after, version=2), [(defender, timed, True)], None, 0.0)
    assert later.moves[1] == (defender, timed) and 1 in later.auto and 0 not in later.auto
