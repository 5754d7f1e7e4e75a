"""How a card is written for a reader who chose his country's letters (/letters), and named for screen readers."""

from __future__ import annotations

from bot.ui.i18n import translator
from bot.ui.labels import cards_text, faces, lettered, lettered_all, lettered_rows
from bot.webapp.view import page_texts
from durak.cards import parse_card

CARDS = cards_text(parse_card(c) for c in ("10S", "JS", "QH", "KD", "AC"))  # 10♠️ J♠️ Q♥️ K♦️ A♣️


def test_each_country_writes_its_face_cards_with_its_own_letters() -> None:
    assert lettered(CARDS, translator("ru", True)) == "10♠️ В♠️ Д♥️ К♦️ Т♣️"
    assert lettered(CARDS, translator("uk", True)) == "10♠️ В♠️ Д♥️ К♦️ Т♣️"
    assert lettered(CARDS, translator("de", True)) == "10♠️ B♠️ D♥️ K♦️ A♣️"
    assert lettered(CARDS, translator("en", True)) == CARDS
    assert lettered(CARDS, translator("ru")) == CARDS, "J Q K A unless chosen"
    assert faces(translator("de", True)) == "B D K A" and faces(translator("de")) == "J Q K A"


def test_only_cards_change_never_words_or_press_data() -> None:
    ru = translator("ru", True)
    assert lettered("Q: A♠️ (Ace) JQKA K 10♥️", ru) == "Q: Т♠️ (Ace) JQKA K 10♥️"
    rows = [[{"text": "K♦️★", "callback_data": "v1:d:5:0:K"}]]
    assert lettered_rows(rows, ru) == [[{"text": "К♦️★", "callback_data": "v1:d:5:0:K"}]]
    frame = {"table": [["QH", None]], "moves": ["Anna leads Q♥️"], "n": 3}
    assert lettered_all(frame, ru) == {"table": [["QH", None]], "moves": ["Anna leads Д♥️"], "n": 3}


def card_name(language: str, code: str) -> str:
    """A card's name as the Mini App composes it from its page's words (app.js ``cardName``)."""
    texts = page_texts(translator(language))
    rank = texts["rank_names"].split("|")[["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"].index(
        code[:-1])]
    return texts["card_name"].format(rank=rank, suit=texts["suit_names"].split("|")["SCDH".index(code[-1])])


def test_a_screen_reader_hears_the_cards_whole_name() -> None:
    assert card_name("en", "QH") == "queen of hearts"
    assert card_name("ru", "QH") == "дама червей"
    assert card_name("uk", "AS") == "туз пік"
    assert card_name("de", "QH") == "Herz-Dame"
