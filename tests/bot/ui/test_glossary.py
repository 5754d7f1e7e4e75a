"""Every message uses the glossary's word for each of the game's terms (CONTRIBUTING.md, «Glossary»): each word
listed for a language appears in its messages, and none of the words after ≠ does (no «партія» where the
glossary says «гра», no «Knopf» where it says «Button»)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.ui.i18n import LANGUAGES, LOCALES

CONTRIBUTING = Path(__file__).resolve().parents[3] / "CONTRIBUTING.md"


def glossary() -> list[dict[str, str]]:
    """The glossary's rows: the term and each language's cell."""
    section = CONTRIBUTING.read_text(encoding="utf-8").split("## Glossary", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|") and not line.startswith("|---")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [dict(zip(header, (cell.strip() for cell in line.strip("|").split("|")), strict=True))
            for line in lines[1:]]


def words(part: str) -> list[str]:
    return [w.strip() for w in part.split(",") if w.strip()]


def pattern(word: str) -> re.Pattern[str]:
    """A glossary word as it may show: a word ending in … stands for every word that begins so."""
    stem = word.removesuffix("…")
    tail = r"\w*" if word.endswith("…") else r"(?!\w)"
    return re.compile(rf"(?<!\w){re.escape(stem)}{tail}", re.IGNORECASE)


@cache
def messages(language: str) -> tuple[str, ...]:
    """What a reader of ``language`` sees: the catalog's translations (English: the source messages)."""
    if language == "en":
        from babel.messages.pofile import read_po as read
        with (LOCALES / "messages.pot").open("rb") as pot:
            return tuple(s for m in read(pot) if m.id for s in (m.id if isinstance(m.id, tuple) else (m.id,)))
    with (LOCALES / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    return tuple(s for m in catalog if m.id for s in (m.string if isinstance(m.string, tuple) else (m.string,)))


def test_the_glossary_names_every_term_in_every_language() -> None:
    rows = glossary()
    terms = {row["term"] for row in rows}
    assert {"lead", "cover", "throw in", "transfer", "take", "done (all covered)", "pass", "durak", "trump",
            "stock", "discard", "Podkidnoy", "Perevodnoy"} <= terms
    assert all(row[language] for row in rows for language in LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_messages_use_the_glossary_words(language: str) -> None:
    shown = messages(language)
    missing, wrong = [], []
    for row in glossary():
        use, _, avoid = row[language].partition("≠")
        missing += [f"{row['term']}: {w}" for w in words(use) if not any(pattern(w).search(s) for s in shown)]
        wrong += [f"{row['term']}: {w} in {s!r}" for w in words(avoid) for s in shown if pattern(w).search(s)]
    assert not missing, f"glossary words no message uses: {missing}"
    assert not wrong, f"words the glossary rules out: {wrong}"


def test_a_word_ruled_out_is_found_where_it_shows() -> None:
    assert pattern("парті…").search("Розбір партії")
    assert pattern("адмін").search("творець або адмін)") and not pattern("адмін").search("адміністратор")
    assert pattern("Knopf").search("Unbekannter Knopf.") and not pattern("Wertung").search("Wertungssystem")
