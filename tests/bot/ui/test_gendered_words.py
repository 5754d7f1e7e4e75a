"""A player's name is a man's or a woman's: no message puts a gendered verb, pronoun or short adjective next to
it (Russian «Оксана вернулся», «сам себе»; Ukrainian «Оксана … сам»; German «er»/«sein»), and no button says
«я вернулся» in the player's own words. Such sentences are built not to need one: «Я тут», «Відбій: {who}»."""

from __future__ import annotations

import re

import pytest

from bot.ui.i18n import LANGUAGES
from tests.bot.ui.test_glossary import messages

PLAYER = re.compile(r"\{(?:name|who|other)\}")  # a seat's name goes there; {names} lists several: plural

GENDERED = {
    "en": r"he|she|him|her|his|hers|himself|herself",
    # the past tense (взял, взяла, вернулся), pronouns, «сам», short adjectives (готов, должен, рад)
    "ru": r"\w{2,}(?:л|ла|лся|лась|ёл|шла)|он|она|его|её|ему|ей|сам|сама|готов|готова|должен|должна|рад|рада",
    "uk": r"\w{2,}(?:в|ла|вся|лася|йшов|йшла)|він|вона|його|її|йому|їй|сам|сама|готовий|готова|повинен|"
          r"повинна|радий|рада",
    "de": r"er|sie|ihm|ihn|sein|seine|seinen|seinem|seiner|ihre|ihren|ihrem|ihrer",
}
# Words the patterns catch that say nothing of the player: (language, word, the message's start)
NOT_OF_THE_PLAYER = {
    ("uk", "голосів", "{name} пропонує"),      # «голосів {votes} з {needed}»: votes, a plural noun
    ("de", "sie", "{who} spielt sie allein"),  # «sie»: the card (die Karte) he leads alone
    ("uk", "разів", "🃏 Дурень вечора"),         # «(5 разів)»: times, a plural noun
    ("uk", "разів", "🃏 Дурень сезону"),
}
FIRST_PERSON_PAST = {"ru": r"я\s+\w+(?:л|ла|лся|лась)", "uk": r"я\s+\w+(?:в|ла|вся|лася)"}


def found(pattern: str, text: str) -> list[str]:
    return re.findall(rf"(?<!\w)(?:{pattern})(?!\w)", text, re.IGNORECASE)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_gendered_word_next_to_a_players_name(language: str) -> None:
    wrong = [(word, text) for text in messages(language) if PLAYER.search(text)
             for word in found(GENDERED[language], text)
             if not any(language == lang and word.lower() == w and text.startswith(start)
                        for lang, w, start in NOT_OF_THE_PLAYER)]
    assert not wrong, wrong


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_no_message_puts_a_gendered_past_in_the_players_mouth(language: str) -> None:
    wrong = [text for text in messages(language) if found(FIRST_PERSON_PAST[language], text)]
    assert not wrong, wrong


def test_the_patterns_catch_what_native_readers_marked() -> None:
    assert found(GENDERED["uk"], "Зачекайте: {name} може підкинути карти сам собі")
    assert found(GENDERED["ru"], "{name} вернулся в игру")
    assert found(GENDERED["de"], "{name} nimmt seine Karten")
    assert found(FIRST_PERSON_PAST["ru"], "🙋 Я вернулся") and found(FIRST_PERSON_PAST["uk"], "🙋 Я повернувся")
    assert not found(GENDERED["ru"], "{name} может ещё подкинуть себе карты")
