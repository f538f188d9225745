"""The battlefield area: the printed squares, their neighbours, and where a large tile fits.

Squares are numbered row-major from the top left (``cell_name`` turns one into ``c3``). The
board is level 0; every tile placed on a square raises it by one level (``state.level``).
``state.top`` holds the troop type on top of each square (printed or on a tile), or
``FACE_DOWN`` for a small tile placed face down as extra support.
"""

from __future__ import annotations

from typing import Any, Final

from sengoku.core.events import Event
from sengoku.core.sentence import N_, Sentence, Word, told
from sengoku.games.gunkimono.actions import CELLS, LETTERS, WIDTH
from sengoku.games.gunkimono.data import components

_C: Final = components()
HEIGHT: Final = _C.height
#: Troop names by type (= honor-track column).
NAMES: Final = _C.troop_names
#: The troop names as the engine's sentences say them (in lower case, inside a sentence:
#: "the cavalry formation"), marked for the catalog that names them in each language.
SAID_NAMES: Final[tuple[str, ...]] = (
    N_("infantry"),
    N_("samurai"),
    N_("cavalry"),
    N_("spearman"),
    N_("archer"),
)
assert SAID_NAMES == tuple(NAMES), "troops.json and the catalog's troop words differ"


#: The troop words, made once (a ``Word``, a Python ``str`` subclass, made anew for each
#: sentence is a measurable part of a ply's events; words are immutable, so sentences share
#: them).
_WORDS: Final[tuple[Word, ...]] = tuple(Word(name) for name in NAMES)
#: Their texts as plain ``str``, which an event's ``say`` holds (``told``: looked up, not
#: copied out of the word for every event).
_PLAIN: Final[dict[str, str]] = {str(name): str(name) for name in NAMES}


def troop_word(troop: int) -> Word:
    """Troop type ``troop`` as a sentence's game word (``say(..., troop=troop_word(t))``)."""
    return _WORDS[troop]


def tell(made: dict[str, Any]) -> Event:
    """An event written out as a dict, its ``message`` a sentence: the sentence becomes the
    English ``message`` and its parts ``say``, what ``core.events.event(type_, audience,
    **details)`` makes of the same keys in the same order (``type``, ``audience``, the
    details, then ``say``), in one pass over the sentence's values
    (``core.sentence.told``). The rule modules' frequent events (a ply of random play
    returns one or two) are built so: ``event`` formats the sentence with ``format_map``
    and walks its values again for ``say``."""
    message = made["message"]
    if isinstance(message, Sentence):
        made["message"], made["say"] = told(message, _PLAIN)
    return made


#: The top of a square holding a face-down support tile (always covered at once).
FACE_DOWN: Final = 5

#: Neighbours of each square (orthogonal).
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        y2 * WIDTH + x2
        for x2, y2 in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
        if 0 <= x2 < WIDTH and 0 <= y2 < HEIGHT
    )
    for y in range(HEIGHT)
    for x in range(WIDTH)
)
#: Every place for a large tile: (top or left square, right or lower square), in the order
#: of the action numbers (square, then horizontal before vertical).
PAIRS: Final[tuple[tuple[int, int], ...]] = tuple(
    sorted(
        [(c, c + 1) for c in range(CELLS) if c % WIDTH < WIDTH - 1]
        + [(c, c + WIDTH) for c in range(CELLS - WIDTH)]
    )
)
#: ``(index, a, b)`` of each place in ``PAIRS``.
INDEXED_PAIRS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (i, a, b) for i, (a, b) in enumerate(PAIRS)
)
#: The places of ``INDEXED_PAIRS`` that cover each square.
PAIRS_OF: Final[tuple[tuple[tuple[int, int, int], ...], ...]] = tuple(
    tuple(p for p in INDEXED_PAIRS if c in p[1:]) for c in range(CELLS)
)

#: What a view shows for each square's top troop (``?`` for a face-down support tile).
TOP_NAMES: Final[tuple[str, ...]] = tuple(LETTERS) + ("?",)
assert len(TOP_NAMES) == FACE_DOWN + 1


def troop(code: int) -> tuple[int, int]:
    """(type, stronghold symbols) of a tile troop code."""
    return code // 2, code % 2 + 1


__all__ = [
    "CELLS",
    "FACE_DOWN",
    "HEIGHT",
    "INDEXED_PAIRS",
    "NAMES",
    "NEIGHBOURS",
    "PAIRS",
    "PAIRS_OF",
    "SAID_NAMES",
    "TOP_NAMES",
    "WIDTH",
    "troop",
    "troop_word",
]
