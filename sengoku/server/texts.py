"""The long texts in every language (docs/i18n-texts.md): the rules panels
(sengoku/web/rules/*.md) and the tutorials (sengoku/web/tutorials/*.json), translated through
their own gettext domain, ``texts`` (sengoku/locale/<lang>/LC_MESSAGES/texts.po), apart from
the client's short messages (``messages``).

The English files stay the source. A rules document is cut into units as Sphinx's gettext
builder cuts a page: each heading, paragraph, list item and table cell is one message; a
tutorial's units are its visible strings (a title, a step's title and text, the waiting line).
Babel extracts them with the two extractors below (babel-texts.cfg) and the server puts each
unit's translation back in its place, the Markdown structure kept, English where a unit has
no translation (or only a fuzzy one).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from sengoku.core.registry import load_game
from sengoku.server import i18n

DOMAIN = "texts"
WEB_DIR = Path(__file__).resolve().parents[1] / "web"
RULES_DIR = WEB_DIR / "rules"
TUTORIALS_DIR = WEB_DIR / "tutorials"
NAME = re.compile(r"[a-z][a-z-]{0,31}")
#: A tutorial's strings a player reads (js/tutorial.js); the rest are selectors and options.
TUTORIAL_KEYS = frozenset({"title", "text", "waitText"})
PHASES_DIR = WEB_DIR / "phases"
#: A phase reference's strings (the rules panel's "Now" section, js/rules_panel.js); its
#: ``key`` and the phase names are what the client looks up.
PHASE_KEYS = frozenset({"title", "lines"})
_HEADING = re.compile(r"^(#{1,6} )(.*)$")
_BULLET = re.compile(r"^(\s*[-*] )(.*)$")
_NUMBERED = re.compile(r"^(\s*\d+\. )(.*)$")
_CONTINUATION = re.compile(r"^\s{2,}\S")
_CELL_SEP = re.compile(r"(?<!\\)\|")
_SEPARATOR = re.compile(r"^\|[\s:|-]+\|$")
#: A unit needs a letter outside its code spans: "`intro`" or "3" is the same in every language.
_CODE = re.compile(r"`[^`]*`")
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Unit:
    """One translatable unit of a document: its text and the line it starts on (1-based)."""

    text: str
    lineno: int


def translatable(text: str) -> bool:
    return bool(_LETTER.search(_CODE.sub("", text)))


def parse_markdown(source: str) -> list[list[Unit | str]]:
    """``source`` as lines to write back, each a list of literal pieces and units."""
    lines = source.split("\n")
    out: list[list[Unit | str]] = []
    i = 0
    fenced = False

    def unit(text: str, lineno: int) -> Unit | str:
        return Unit(text, lineno) if translatable(text) else text

    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            fenced = not fenced
            out.append([line])
            i += 1
            continue
        if fenced or not line.strip():
            out.append([line])
            i += 1
            continue
        if m := _HEADING.match(line):
            out.append([m.group(1), unit(m.group(2).strip(), i + 1)])
            i += 1
        elif line.startswith("|"):
            if _SEPARATOR.match(line):
                out.append([line])
            else:
                row: list[Unit | str] = ["|"]
                # "\\|" is a pipe inside a cell (in code: `a\\|b`), as js/markdown.js reads it
                for cell in _CELL_SEP.split(line)[1:-1]:
                    text = cell.strip()
                    row += [" ", unit(text, i + 1) if text else "", " |"]
                out.append(row)
            i += 1
        elif m := _BULLET.match(line):
            start, words = i, [m.group(2).strip()]
            i += 1
            # an item goes on over its indented lines (js/markdown.js reads them the same way)
            while i < len(lines) and _CONTINUATION.match(lines[i]) and not _BULLET.match(lines[i]):
                words.append(lines[i].strip())
                i += 1
            out.append([m.group(1), unit(" ".join(words), start + 1)])
        else:
            # A paragraph, or a numbered item when its first line is numbered: a numbered
            # line inside a paragraph is only a wrapped line ("... take the other\n3. Decide").
            start, words = i, []
            m = _NUMBERED.match(line)
            prefix = m.group(1) if m else ""
            while (
                i < len(lines)
                and lines[i].strip()
                and not lines[i].startswith(("#", "|", "```"))
                and not _BULLET.match(lines[i])
                and not (prefix and i > start and _NUMBERED.match(lines[i]))
            ):
                words.append(lines[i].strip())
                i += 1
            words[0] = words[0][len(prefix.strip()) :].strip() if prefix else words[0]
            text = " ".join(words)
            out.append([prefix, unit(text, start + 1)] if prefix else [unit(text, start + 1)])
    return out


def markdown_units(source: str) -> list[Unit]:
    return [p for line in parse_markdown(source) for p in line if isinstance(p, Unit)]


def render_markdown(source: str, translate: Callable[[str], str]) -> str:
    """``source`` with each unit replaced by ``translate(unit)``: the same headings, items,
    paragraphs and table rows, each unit on one line."""
    return "\n".join(
        "".join(translate(p.text) if isinstance(p, Unit) else p for p in line)
        for line in parse_markdown(source)
    )


def json_units(data: Any, keys: frozenset[str] = TUTORIAL_KEYS) -> list[str]:
    """The strings of ``data`` (a tutorial, or a phase reference with ``PHASE_KEYS``) a player
    reads: those under ``keys``, in file order."""
    found: list[str] = []

    def walk(value: Any, key: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key in keys and translatable(value):
            found.append(value)

    walk(data, "")
    return found


def render_json(
    data: Any, translate: Callable[[str], str], keys: frozenset[str] = TUTORIAL_KEYS
) -> Any:
    """A copy of ``data`` with the strings under ``keys`` translated."""

    def walk(value: Any, key: str) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if isinstance(value, str) and key in keys and translatable(value):
            return translate(value)
        return value

    return walk(data, "")


def tutorial_units(data: Any) -> list[str]:
    """A tutorial's visible strings, in file order."""
    return json_units(data, TUTORIAL_KEYS)


# Babel's extraction methods (babel-texts.cfg names them as module:function).
Extracted = Iterator[tuple[int, str | None, str, list[str]]]


def extract_rules(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Any
) -> Extracted:
    """Each heading, paragraph, list item and table cell of a rules document."""
    for u in markdown_units(fileobj.read().decode("utf-8")):
        yield u.lineno, None, u.text, []


def extract_tutorial(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Any
) -> Extracted:
    """Each visible string of a tutorial (its line is not kept: JSON strings are one-liners)."""
    for text in json_units(json.loads(fileobj.read().decode("utf-8")), TUTORIAL_KEYS):
        yield 0, None, text, []


def extract_phases(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Any
) -> Extracted:
    """Each title and line of a phase reference (the rules panel's "Now" section)."""
    for text in json_units(json.loads(fileobj.read().decode("utf-8")), PHASE_KEYS):
        yield 0, None, text, []


def catalog_units(game: str) -> list[str]:
    """The words of ``game``'s catalog (its default options: what the server sends) a player
    reads, in the catalog's order."""
    keys = _catalog_words(game)
    return [] if not keys else json_units(load_game(game).catalog(), keys)


def extract_catalog(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Any
) -> Extracted:
    """The words of a game's catalog: mapped on ``sengoku/games/<game>/game.py``, the game is
    named by its folder, and its words are what ``Game.catalog()`` builds from its data files
    (Gunshi's cards.json, Sashimono's cards/*.toml and the actions' effects put in words)."""
    for text in catalog_units(Path(getattr(fileobj, "name", "")).parent.name):
        yield 0, None, text, []


def translate_catalog(game: str, data: Any, lang: str) -> Any:
    """``data`` (``game``'s catalog) with the words of ``CATALOG_KEYS`` in ``lang``; the rest
    (ids, counts, codes, the Japanese names) as it is."""
    keys = _catalog_words(game)
    if lang == i18n.DEFAULT or not keys:
        return data
    return render_json(data, translator(lang), keys)


def games_with_catalog_words() -> list[str]:
    """The games of this server whose catalogs hold words a player reads."""
    from sengoku.core.registry import list_games

    return [game for game in list_games() if _catalog_words(game)]


def _catalog_words(game: str) -> frozenset[str]:
    """The keys of ``game``'s catalog that hold words a player reads (its GameType's
    ``catalog_words``; none for a game this server does not have)."""
    from sengoku.core.registry import list_games

    if game not in list_games():
        return frozenset()
    return load_game(game).game_type.catalog_words


def po_path(lang: str) -> Path:
    return i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def catalog(lang: str) -> Catalog:
    """``lang``'s texts catalog (an empty one for English, the source language)."""
    if lang not in i18n.LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(i18n.LANGUAGES)}")
    path = po_path(lang)
    if lang == i18n.DEFAULT or not path.is_file():
        return Catalog(locale=lang, domain=DOMAIN)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@functools.cache
def translations(lang: str) -> dict[str, str]:
    """Each translated unit of ``lang`` (fuzzy and empty translations left out)."""
    found: dict[str, str] = {}
    for message in catalog(lang):
        if (
            isinstance(message.id, str)
            and message.id
            and not message.fuzzy
            and isinstance(message.string, str)
            and message.string
        ):
            found[message.id] = message.string
    return found


def translator(lang: str) -> Callable[[str], str]:
    table = translations(lang)
    return lambda text: table.get(text, text)


def rules_path(game: str) -> Path | None:
    path = RULES_DIR / f"{game}.md"
    return path if NAME.fullmatch(game) and path.is_file() else None


def tutorial_path(game: str) -> Path | None:
    path = TUTORIALS_DIR / f"{game}.json"
    return path if NAME.fullmatch(game) and game != "index" and path.is_file() else None


def rules(game: str, lang: str) -> str | None:
    """The rules document of ``game`` in ``lang``, or None where there is none."""
    # Only documents that exist reach the cache: a request for any name cannot grow it.
    return None if rules_path(game) is None else _rules(game, lang)


@functools.cache
def _rules(game: str, lang: str) -> str:
    path = rules_path(game)
    assert path is not None
    source = path.read_text(encoding="utf-8")
    return source if lang == i18n.DEFAULT else render_markdown(source, translator(lang))


def phases_path(game: str) -> Path | None:
    path = PHASES_DIR / f"{game}.json"
    return path if NAME.fullmatch(game) and path.is_file() else None


@functools.cache
def _json(path: Path, keys: frozenset[str], lang: str) -> str:
    data = json.loads(path.read_text(encoding="utf-8"))
    return json.dumps(data if lang == i18n.DEFAULT else render_json(data, translator(lang), keys))


def tutorial(game: str, lang: str) -> Any:
    """The tutorial of ``game`` with its coach's words in ``lang`` (a fresh copy), or None."""
    path = tutorial_path(game)
    return None if path is None else json.loads(_json(path, TUTORIAL_KEYS, lang))


def phases(game: str, lang: str) -> Any:
    """The phase reference of ``game`` (the rules panel's "Now" section) in ``lang``, or None."""
    path = phases_path(game)
    return None if path is None else json.loads(_json(path, PHASE_KEYS, lang))
