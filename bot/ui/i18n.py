"""Translations: gettext catalogs (``bot/ui/locales/<lang>/LC_MESSAGES/messages.po``, kept with Babel).

English is the source language. The .po files are compiled in memory when first used, so
there is no binary catalog to forget to rebuild.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES = Path(__file__).parent / "locales"
LANGUAGES = ("en", "ru", "uk", "de")
# Telegram language codes of ours' neighbours whose speakers most likely read Russian better than English.
RUSSIAN_READERS = ("be", "kk", "ky", "uz", "tg", "hy", "az", "ka", "tt")

Translator = gettext.NullTranslations


class Lettered(gettext.NullTranslations):
    """A language's catalog for a reader who writes the face cards in his country's letters (В Д К Т, B D K A):
    every text it renders shows its cards so (``bot.ui.labels.lettered``)."""

    def __init__(self, catalog: Translator) -> None:
        super().__init__()
        self.add_fallback(catalog)
        self.catalog = catalog


@cache
def translator(language: str, letters: bool = False) -> Translator:
    """The catalog of ``language``; English (the source text) for anything unknown. ``letters``: the reader
    writes the face cards in his country's letters."""
    return Lettered(_catalog(language)) if letters else _catalog(language)


def language_of(tr: Translator) -> str:
    """The language a translator speaks (its catalog's header; English for the source text)."""
    catalog = tr.catalog if isinstance(tr, Lettered) else tr
    language = catalog.info().get("language", "en")
    return language if language in LANGUAGES else "en"


def local_letters(tr: Translator) -> bool:
    return isinstance(tr, Lettered)


@cache
def _catalog(language: str) -> Translator:
    path = LOCALES / language / "LC_MESSAGES" / "messages.po"
    if language == "en" or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def pick_language(chosen: str | None, telegram_code: str | None, default: str) -> str:
    """A language of ours: the one chosen with /language, else Telegram's, else the default."""
    if chosen in LANGUAGES:
        return chosen
    if telegram_code:
        code = telegram_code.split("-")[0].lower()
        return code if code in LANGUAGES else "ru" if code in RUSSIAN_READERS else "en"
    return default if default in LANGUAGES else "en"


def N_(message: str) -> str:
    """Marks a message for extraction (Babel knows N_); it is translated where it is shown."""
    return message
