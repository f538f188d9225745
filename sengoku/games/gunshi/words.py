"""Gunshi's words in its sentences (docs/i18n.md "The engines' sentences"): the game words a
log line or an illegal move's reason names, marked :class:`~sengoku.core.sentence.Word` so the
reader's language names them.

Card and unit names are the games' catalog words (the texts domain translates them); the
colours, the directions, the phases' names and the reasons a command does nothing are listed
here with ``N_`` so ``make i18n`` puts them in the messages catalog.
"""

from __future__ import annotations

from string import Formatter
from typing import Any, Final, cast

from sengoku.core.sentence import N_, Said, Sentence, Word
from sengoku.games.gunshi.data import (
    CARDS,
    COLOUR,
    EDGE_CELLS,
    FACING_WORDS,
    TOKEN_TYPE,
    UNITS,
    cell_name,
    parse_edge,
)

#: The colours and the facings, as the log names them (data.COLOUR, data.FACING_WORDS).
WORDS: tuple[str, ...] = (
    N_("Red"),
    N_("Blue"),
    N_("north"),
    N_("east"),
    N_("south"),
    N_("west"),
)

#: The phases' names (state.PHASES), which an illegal move's reason names.
PHASE_NAMES: tuple[str, ...] = (
    N_("Custom Deck Construction: choose a card"),
    N_("Gunshi's Inspiration: prepare an Advanced Command card"),
    N_("Phase 1, Creating Your Battle Formation"),
    N_("Modification 3: choose an Advanced Command card"),
    N_("Phase 2, Choosing Your Shogun and Card Order"),
    N_("Phase 3, Battle"),
)


#: The words made once: most log lines name a colour and a card, and a ``Word`` (a Python
#: ``str`` subclass) made anew for each is a measurable part of a ply's events. Words are
#: immutable, so every sentence may share them.
_COLOURS: Final[tuple[Word, ...]] = tuple(Word(c) for c in COLOUR)
_CARDS: Final[dict[str, Word]] = {code: Word(c.name) for code, c in CARDS.items()}
#: Their texts as plain ``str``, which the wire form of an event holds (``told``): looked up
#: by the word instead of copied out of it for every event (``str(word)`` makes a new one).
_PLAIN: Final[dict[str, str]] = {str(w): str(w) for w in (*_COLOURS, *_CARDS.values())}


def colour(seat: int) -> Word:
    """A seat's colour: Red or Blue."""
    return _COLOURS[seat]


def card(code: str) -> Word:
    """A Command card's name."""
    return _CARDS[code]


def unit_type(token: int) -> Word:
    """A unit token's type: Infantry, Archer or Cavalry (its letter is written apart)."""
    return Word(UNITS[TOKEN_TYPE[token]].name)


def facing(letter: str) -> Word:
    """A facing or direction letter (``n``) in words (north)."""
    return Word(FACING_WORDS[letter])


def phase(name: str) -> Word:
    """A phase's name (one of ``PHASE_NAMES``)."""
    return Word(name)


def edge_ends(name: str) -> dict[str, str]:
    """An edge's two cells (``d3n``: d3 and d4), the places ``{a}`` and ``{b}`` of a sentence
    that says where a Fence stands (``data.edge_words``: the log reads no codes)."""
    a, b = EDGE_CELLS[parse_edge(name)]
    return {"a": cell_name(a), "b": cell_name(b)}


#: Each template's pieces (the text before a place, the place's name; the last piece's name
#: is empty), parsed once; None for a template ``english`` leaves to ``str.format_map``.
_PIECES: Final[dict[str, list[tuple[str, str]] | None]] = {}
#: ``_PIECES.get``'s answer for a template not parsed yet.
_UNPARSED: Final[list[tuple[str, str]]] = []


def _pieces(template: str) -> list[tuple[str, str]] | None:
    pieces: list[tuple[str, str]] = []
    for text, name, spec, conversion in Formatter().parse(template):
        if name is None:
            pieces.append((text, ""))
            continue
        if spec or conversion or not name.isidentifier():
            return None  # a format spec, a conversion, an index: the general way
        pieces.append((text, name))
    return pieces


def english(sentence: Sentence) -> str:
    """``str(sentence)`` (its template's ``format_map`` over its values), faster for the
    engine's templates: the template is split into its pieces once, and a value that is
    text (a :class:`Word`) goes in as it is, an ``int`` as ``str``, anything else as
    ``format(value, "")``, which is what ``format_map`` puts in a bare ``{name}``."""
    template = sentence.template
    pieces = _PIECES.get(template, _UNPARSED)  # one look-up (None is a parsed answer)
    if pieces is _UNPARSED:
        pieces = _PIECES[template] = _pieces(template)
    if pieces is None:
        return str(sentence)
    args = sentence.args
    out: list[str] = []
    for text, name in pieces:
        if text:
            out.append(text)
        if name:
            value = args[name]
            if isinstance(value, str):
                out.append(value)
            elif type(value) is int:
                out.append(str(value))
            else:
                out.append(format(value, ""))
    return "".join(out)


def told(sentence: Sentence) -> tuple[str, dict[str, Any]]:
    """An event's ``message`` and ``say``: ``(str(sentence), sentence.wire())``, with the
    wire's usual values (a :class:`Word`, an ``int``, a ``str``) recognised by their exact
    type in one pass over a plain dict of values; any other value, or values that are not a
    dict, take ``Sentence.wire``'s own tests in its order (tests/gunshi/test_gunshi_fast_paths.py
    holds the two together)."""
    values = sentence.args
    if type(values) is not dict:
        return english(sentence), sentence.wire()
    args = cast("dict[str, object]", values)
    wired: dict[str, Any] = {}
    marked: list[str] = []
    for name, value in args.items():
        kind = type(value)
        if kind is Word:
            marked.append(name)
            plain = _PLAIN.get(cast("str", value))
            wired[name] = str(value) if plain is None else plain
        elif kind is int:
            wired[name] = value
        elif kind is str:
            wired[name] = value
        elif isinstance(value, (Sentence, Said)):
            inner = value if isinstance(value, Sentence) else value.sentence
            wired[name] = inner.wire()
        elif isinstance(value, Word):
            marked.append(name)
            wired[name] = str(value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            wired[name] = value
        else:
            wired[name] = str(value)
    out: dict[str, Any] = {"text": sentence.template, "args": wired}
    if marked:
        out["words"] = marked
    return english(sentence), out
