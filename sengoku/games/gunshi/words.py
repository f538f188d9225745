"""Gunshi's words in its sentences (docs/i18n.md "The engines' sentences"): the game words a
log line or an illegal move's reason names, marked :class:`~sengoku.core.sentence.Word` so the
reader's language names them.

Card and unit names are the games' catalog words (the texts domain translates them); the
colours, the directions, the phases' names and the reasons a command does nothing are listed
here with ``N_`` so ``make i18n`` puts them in the messages catalog.
"""

from __future__ import annotations

from typing import Any, Final

from sengoku.core.sentence import N_, Sentence, Word
from sengoku.core.sentence import told as told_with
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


def told(sentence: Sentence) -> tuple[str, dict[str, Any]]:
    """An event's ``message`` and ``say`` in one pass (:func:`sengoku.core.sentence.told`),
    Gunshi's colours and cards given as their plain text made once."""
    return told_with(sentence, _PLAIN)
