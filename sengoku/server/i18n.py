"""The languages the server and the web client speak (docs/i18n.md): gettext catalogs under
``sengoku/locale/<lang>/LC_MESSAGES/messages.po``, one domain for the server's messages and the
client's strings, read with Babel at run time (no compiled file to keep up to date).

A request's language is its ``sengoku_lang`` cookie (the header switch sets it) or else the
best of its ``Accept-Language``; English is the source language and the fallback.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Mapping
from io import BytesIO
from pathlib import Path
from typing import Any

from babel import Locale, negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

#: Where the catalogs are: one folder per language, gettext's layout.
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
DOMAIN = "messages"
#: The languages offered, English (the source) first.
LANGUAGES = ("en", "ja", "fr")
DEFAULT = "en"
#: The cookie the client's language switch writes (sengoku/web/js/i18n.js).
COOKIE = "sengoku_lang"
#: U+00AD: where a long word of a translation may break with a hyphen (docs/i18n.md).
SOFT_HYPHEN = "\u00ad"


def N_(message: str) -> str:  # noqa: N802 - gettext's name for "mark, translate later"
    """Mark ``message`` for extraction; it is translated where it is shown (an error's answer)."""
    return message


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def catalog(lang: str) -> Catalog:
    """The language's catalog as Babel reads it (its messages and its plural rule)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@functools.cache
def translations(lang: str) -> gettext.GNUTranslations:
    """gettext's translations of ``lang``: the catalog compiled in memory (fuzzy entries are
    left out, as msgfmt leaves them out), so ``ngettext`` follows the catalog's plural rule."""
    buf = BytesIO()
    write_mo(buf, catalog(lang))
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def gettext_(lang: str, message: str) -> str:
    return translations(lang).gettext(message)


def word_(lang: str, word: str) -> str:
    """A game word (a :class:`~sengoku.core.sentence.Word` of an engine's sentence) in
    ``lang``: the game catalogs' (the texts domain: a card's, a unit's own name), else the
    messages catalog's, else the English itself. The game's name comes first: Gunshi's card
    "Move" is not the messages catalog's "Move" (a move of a game)."""
    found = game_words(lang).get(word)
    if found:
        return found
    return gettext_(lang, word)


@functools.cache
def game_words(lang: str) -> dict[str, str]:
    """The words of every game's catalog (card and unit names, troops, effects) that the
    texts catalog translates: what an engine's sentence may name (sengoku/server/texts.py)."""
    from sengoku.server import texts  # the texts domain builds on this module

    if lang == DEFAULT:
        return {}
    table = texts.translations(lang)
    found: dict[str, str] = {}
    for game in texts.games_with_catalog_words():
        for unit in texts.catalog_units(game):
            if unit in table:
                # A card's name may carry soft hyphens, where it breaks on a small card face
                # (French "Dépla\u00adce\u00adment"); inside a sentence it is a plain word.
                found[unit] = table[unit].replace(SOFT_HYPHEN, "")
    return found


def sentence_(lang: str, say: Mapping[str, Any]) -> str:
    """An engine's sentence (the ``say`` of an event or an error) in ``lang``: its template
    translated, its words named in the language, a value that is a sentence put into the
    language too, its other values as they are."""
    args = dict(say.get("args") or {})
    plain = dict(args)
    for name, value in args.items():
        if isinstance(value, Mapping):  # a phrase of the sentence, itself a sentence
            args[name] = sentence_(lang, value)
            plain[name] = sentence_(DEFAULT, value)
    for name in say.get("words") or ():
        if isinstance(args.get(name), str):
            args[name] = word_(lang, args[name])
    english = str(say.get("text", ""))
    for template, values in ((gettext_(lang, english), args), (english, plain)):
        try:
            return template.format_map(values)
        except (KeyError, ValueError, IndexError, AttributeError):
            continue  # a broken translation: the English; a broken sentence: its template
    return english


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    return translations(lang).ngettext(singular, plural, n)


def plural_table(lang: str) -> dict[str, int]:
    """Each CLDR category of ``lang`` to the index of the catalog's plural form it takes."""
    rule = Locale.parse(lang).plural_form
    pick = translations(lang).plural  # type: ignore[attr-defined]
    table: dict[str, int] = {}
    for n in [*range(0, 1001), 10**6, 2 * 10**6, 10**9]:
        category, index = rule(n), int(pick(n))
        if table.setdefault(category, index) != index:
            raise ValueError(
                f"{lang}: the catalog's Plural-Forms gives {index} for {n} but CLDR's "
                f"category {category!r} took {table[category]}"
            )
    return table


@functools.cache
def client_catalog(lang: str) -> dict[str, Any]:
    """What GET /api/i18n/<lang>.json answers: the translated messages (a plural message's
    forms as a list, keyed by its singular) and the plural table; untranslated and fuzzy
    messages are left out so that the client shows the English."""
    messages: dict[str, str | list[str]] = {}
    for message in catalog(lang):
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            forms = list(message.string) if isinstance(message.string, tuple) else []
            if forms and all(forms):
                messages[message.id[0]] = forms
        elif isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            messages[message.id] = message.string
    return {
        "lang": lang,
        "plural": plural_table(lang),
        "messages": messages,
        "words": game_words(lang),
    }


def parse_accept_language(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first (RFC 9110 12.5.4)."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and tag != "*" and q > 0:
            ranked.append((-q, i, tag))
    return [tag for _, _, tag in sorted(ranked)]


def choose(cookies: Mapping[str, str], accept_language: str | None) -> str:
    """The language of a request: its cookie if it names one we have, else Accept-Language."""
    chosen = cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    # "fr-CA" is French and "ja-JP" Japanese: the language part decides, in the header's order.
    wanted = [tag.split("-")[0].lower() for tag in parse_accept_language(accept_language or "")]
    return negotiate_locale(wanted, list(LANGUAGES), sep="_") or DEFAULT
