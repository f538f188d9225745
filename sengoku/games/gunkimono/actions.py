"""Gunkimono's actions: one decision each, frozen and hashable, ``str`` = canonical notation.

Squares are named like a chess board: a column letter (``a`` on the left) and a row number
(``1`` at the top, as the board is drawn). A troop is its letter (I infantry, S samurai,
C cavalry, P spearman, A archer) and, on a large tile, its stronghold symbols.

=====================  ==================  =========================================
decision               canonical           short form (also accepted)
=====================  ==================  =========================================
large tile             ``A1@c3 C2@d3``     ``Ac3 Cd3`` (when no other tile matches)
small tile, face up    ``small A@c3``      ``sA c3``
extra support          ``support A@c3``    ``xA c3``
score a troop          ``vp A@c3``         ``vp c3`` / ``honor c3``
build a stronghold     ``stronghold c3``   ``c3``
draw                   ``draw stack``      ``stack``; from the row ``take A1C2``
=====================  ==================  =========================================

The ``@`` is optional on input, and case and spaces do not matter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from mypy_extensions import mypyc_attr

from sengoku.core.game import IllegalAction, action_number
from sengoku.games.gunkimono.data import components, tile_code, tile_troops

_C: Final = components()
LETTERS: Final = _C.troop_letters
WIDTH: Final = _C.width
CELLS: Final = _C.width * _C.height

#: Integer action space: the blocks below, one after the other.
PLACE_BASE: Final = 0
SMALL_BASE: Final = PLACE_BASE + 100 * CELLS * 2
SUPPORT_BASE: Final = SMALL_BASE + 5 * CELLS
SCORE_BASE: Final = SUPPORT_BASE + 5 * CELLS
STRONGHOLD_BASE: Final = SCORE_BASE + 10 * CELLS
DRAW_BASE: Final = STRONGHOLD_BASE + CELLS
NUM_ACTIONS: Final = DRAW_BASE + 101


def _square_name(cell: int) -> str:
    y, x = divmod(cell, WIDTH)
    return f"{chr(ord('a') + x)}{y + 1}"


#: The name of each square, by index (``cell_name`` of 0..CELLS-1).
CELL_NAMES: Final[tuple[str, ...]] = tuple(_square_name(c) for c in range(CELLS))


def cell_name(cell: int) -> str:
    """A square's name, ``c3`` (read from :data:`CELL_NAMES` on the board)."""
    return CELL_NAMES[cell] if 0 <= cell < CELLS else _square_name(cell)


def _check_whole(action: object, *names: str) -> None:
    """Refuse fields that are not whole numbers (``Place(1.5, ...)``): IllegalAction, a
    ValueError naming the field, never a TypeError deep in the engine."""
    for name in names:
        value = getattr(action, name)
        if type(value) is not int:
            raise IllegalAction(
                f"{type(action).__name__}.{name} must be a whole number (an int), got {value!r}"
            )


def _check_range(action: object, name: str, size: int, what: str) -> None:
    """Refuse a whole-number field outside ``0..size-1`` (``SmallTile(7, ...)``): it would
    crash when the action is printed; IllegalAction naming the field instead."""
    value = getattr(action, name)
    if not 0 <= value < size:
        raise IllegalAction(
            f"{type(action).__name__}.{name} must be {what} in 0..{size - 1}, got {value!r}"
        )


def _check_flag(action: object, name: str) -> bool:
    """Refuse a flag that is not True, False, 1 or 0 (IllegalAction naming the field), and
    store it as a bool (compiled with mypyc, reading a ``bool`` field that holds 1 fails)."""
    value = getattr(action, name)
    if not isinstance(value, int) or value not in (0, 1):
        raise IllegalAction(f"{type(action).__name__}.{name} must be True or False, got {value!r}")
    flag = bool(value)
    object.__setattr__(action, name, flag)
    return flag


def _set_int(action: object, n: int) -> None:
    """Store an action's integer in its ``int_id`` slot (the actions are frozen)."""
    object.__setattr__(action, "int_id", n)


def troop_name(code: int) -> str:
    """A tile troop as letter + symbols, e.g. ``A1``."""
    return f"{LETTERS[code // 2]}{code % 2 + 1}"


def _tile_name(code: int) -> str:
    (a, sa), (b, sb) = tile_troops(code)
    return f"{LETTERS[a]}{sa}{LETTERS[b]}{sb}"


def tile_name(code: int) -> str:
    """A large tile, e.g. ``A1C2`` (lower troop type first): read from :data:`TILE_NAMES`
    (the events of every draw and placement name tiles)."""
    return TILE_NAMES[code] if 0 <= code < 100 else _tile_name(code)


#: A large tile's half in canonical and in short notation (``A1@c3`` / ``Ac3``), by troop
#: code (0..9) and square: a legal list holds hundreds of placements, all written out.
_HALVES: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(f"{troop_name(code)}@{name}" for name in CELL_NAMES) for code in range(10)
)
_SHORT_HALVES: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(f"{LETTERS[code // 2]}{name}" for name in CELL_NAMES) for code in range(10)
)

#: ``tile_name`` of every tile code 0..99, by index (written once).
TILE_NAMES: Final[tuple[str, ...]] = tuple(_tile_name(code) for code in range(100))


# The actions stay Python classes when compiled (mypyc's native_class=False): a constructor
# checks its fields itself (IllegalAction naming the field), where a native class's would refuse
# ``Place(1.5, ...)`` with a TypeError before.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Place:
    """A large tile from the hand: troop ``first`` on square ``a`` (top or left), ``second`` on
    ``b`` (its right or lower neighbour). Troops are codes ``type * 2 + symbols - 1``."""

    first: int
    a: int
    second: int
    b: int
    #: The action's integer (``to_int()``), computed once at construction.
    int_id: int = field(init=False, repr=False, compare=False)
    #: ``hash`` of the compared fields (what the dataclass would compute on every call),
    #: computed once: search looks placements up in its tree nodes' dicts by the thousand.
    hash_value: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_whole(self, "first", "a", "second", "b")
        for name in ("first", "second"):
            _check_range(self, name, 10, "a troop code (type * 2 + symbols - 1)")
        _check_range(self, "a", CELLS, "a square")
        # b is a's right or lower neighbour; the action space also numbers the halves that
        # fall off the board (never legal), so only the offset is checked.
        if self.b not in (self.a + 1, self.a + WIDTH):
            raise IllegalAction(
                f"Place.b must be a + 1 (right of a) or a + {WIDTH} (below a), a being "
                f"{self.a}; got {self.b}"
            )
        vertical = 0 if self.b == self.a + 1 else 1
        _set_int(
            self, PLACE_BASE + ((self.first * 10 + self.second) * CELLS + self.a) * 2 + vertical
        )
        object.__setattr__(self, "hash_value", hash((self.first, self.a, self.second, self.b)))

    def __hash__(self) -> int:
        return self.hash_value

    def __str__(self) -> str:
        first, a, second, b = self.first, self.a, self.second, self.b
        if 0 <= first < 10 and 0 <= second < 10 and 0 <= a < CELLS and 0 <= b < CELLS:
            return f"{_HALVES[first][a]} {_HALVES[second][b]}"
        return f"{troop_name(first)}@{cell_name(a)} {troop_name(second)}@{cell_name(b)}"

    def short(self) -> str:
        first, a, second, b = self.first, self.a, self.second, self.b
        if 0 <= first < 10 and 0 <= second < 10 and 0 <= a < CELLS and 0 <= b < CELLS:
            return f"{_SHORT_HALVES[first][a]} {_SHORT_HALVES[second][b]}"
        return f"{LETTERS[first // 2]}{cell_name(a)} {LETTERS[second // 2]}{cell_name(b)}"

    @property
    def tile(self) -> int:
        first, second = self.first, self.second
        return first * 10 + second if first <= second else second * 10 + first

    def to_int(self) -> int:
        return self.int_id


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class SmallTile:
    """A small tile from the reserve: face up (``support`` false) or face down as extra
    support for the large tile placed next in the same turn."""

    troop: int  # troop type 0..4
    cell: int
    support: bool
    #: The action's integer (``to_int()``), computed once at construction.
    int_id: int = field(init=False, repr=False, compare=False)
    #: ``hash`` of the compared fields, computed once (as for ``Place``).
    hash_value: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_whole(self, "troop", "cell")
        _check_range(self, "troop", len(LETTERS), "a troop type")
        _check_range(self, "cell", CELLS, "a square")
        base = SUPPORT_BASE if _check_flag(self, "support") else SMALL_BASE
        _set_int(self, base + self.troop * CELLS + self.cell)
        object.__setattr__(self, "hash_value", hash((self.troop, self.cell, self.support)))

    def __hash__(self) -> int:
        return self.hash_value

    def __str__(self) -> str:
        word = "support" if self.support else "small"
        return f"{word} {LETTERS[self.troop]}@{cell_name(self.cell)}"

    def short(self) -> str:
        return f"{'x' if self.support else 's'}{LETTERS[self.troop]} {cell_name(self.cell)}"

    def to_int(self) -> int:
        return self.int_id


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Score:
    """Victory points (formation size) or honor points (symbols) for one placed troop."""

    honor: bool
    troop: int  # troop type 0..4
    cell: int
    #: The action's integer (``to_int()``), computed once at construction.
    int_id: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_whole(self, "troop", "cell")
        _check_range(self, "troop", len(LETTERS), "a troop type")
        _check_range(self, "cell", CELLS, "a square")
        honor = _check_flag(self, "honor")
        _set_int(self, SCORE_BASE + (int(honor) * 5 + self.troop) * CELLS + self.cell)

    def __str__(self) -> str:
        return f"{'honor' if self.honor else 'vp'} {LETTERS[self.troop]}@{cell_name(self.cell)}"

    def short(self) -> str:
        return f"{'honor' if self.honor else 'vp'} {cell_name(self.cell)}"

    def to_int(self) -> int:
        return self.int_id


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class BuildStronghold:
    """Build the lowest remaining stronghold on the troop at ``cell``."""

    cell: int
    #: The action's integer (``to_int()``), computed once at construction.
    int_id: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_whole(self, "cell")
        _check_range(self, "cell", CELLS, "a square")
        _set_int(self, STRONGHOLD_BASE + self.cell)

    def __str__(self) -> str:
        return f"stronghold {cell_name(self.cell)}"

    def short(self) -> str:
        return cell_name(self.cell)

    def to_int(self) -> int:
        return self.int_id


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Draw:
    """Refill the hand: from the face-down stack (``tile`` None) or this face-up row tile."""

    tile: int | None
    #: The action's integer (``to_int()``), computed once at construction.
    int_id: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Read as any value (compiled with mypyc, reading the field checks its type first).
        if getattr(self, "tile") is not None:  # noqa: B009
            _check_whole(self, "tile")
            _check_range(self, "tile", 100, "a tile code")
        _set_int(self, DRAW_BASE + (0 if self.tile is None else 1 + self.tile))

    def __str__(self) -> str:
        return "draw stack" if self.tile is None else f"take {tile_name(self.tile)}"

    def short(self) -> str:
        return "stack" if self.tile is None else tile_name(self.tile)

    def to_int(self) -> int:
        return self.int_id


GunkimonoAction = Place | SmallTile | Score | BuildStronghold | Draw


def int_to_action(given: object) -> GunkimonoAction:
    """The action numbered ``given`` (the inverse of ``action.to_int()``)."""
    # Typed ``object``: compiled (mypyc), an ``int`` parameter would refuse "3" with a bare
    # TypeError and take True as 1 before ``action_number`` names the field.
    n = action_number(given, NUM_ACTIONS)
    if n < SMALL_BASE:
        rest, vertical = divmod(n - PLACE_BASE, 2)
        pair, a = divmod(rest, CELLS)
        first, second = divmod(pair, 10)
        b = a + (WIDTH if vertical else 1)
        return Place(first, a, second, b)
    if n < SCORE_BASE:
        support = n >= SUPPORT_BASE
        troop, cell = divmod(n - (SUPPORT_BASE if support else SMALL_BASE), CELLS)
        return SmallTile(troop, cell, support)
    if n < STRONGHOLD_BASE:
        kind, cell = divmod(n - SCORE_BASE, CELLS)
        honor, troop = divmod(kind, 5)
        return Score(bool(honor), troop, cell)
    if n < DRAW_BASE:
        return BuildStronghold(n - STRONGHOLD_BASE)
    k = n - DRAW_BASE
    return Draw(None if k == 0 else k - 1)


def parse_square(text: str) -> int:
    """``c3`` -> square index; raises ValueError naming the board's bounds."""
    t = text.strip().lower()
    height = CELLS // WIDTH
    if len(t) >= 2 and t[0].isalpha() and t[1:].isdigit():
        x, y = ord(t[0]) - ord("a"), int(t[1:]) - 1
        if 0 <= x < WIDTH and 0 <= y < height:
            return y * WIDTH + x
    last = chr(ord("a") + WIDTH - 1)
    raise ValueError(f"{text!r} is not a square: columns a..{last}, rows 1..{height}")


def parse_tile(text: str) -> int:
    """``A1C2`` (either order) -> tile code; raises ValueError explaining the form."""
    t = text.strip().upper()
    if len(t) == 4 and t[0] in LETTERS and t[2] in LETTERS and t[1] in "12" and t[3] in "12":
        a, b = LETTERS.index(t[0]), LETTERS.index(t[2])
        if a != b:
            return tile_code(a, int(t[1]), b, int(t[3]))
    raise ValueError(
        f"{text!r} is not a large tile: two different troops with their symbols, e.g. A1C2 "
        f"(troops {', '.join(LETTERS)}; symbols 1 or 2)"
    )


_T: Final = "[" + "".join(LETTERS).lower() + "]"
_SQ: Final = r"([a-z]\d+)"
_PATTERNS: Final = {
    "place": re.compile(rf"^({_T})([12]){_SQ}({_T})([12]){_SQ}$"),
    "small": re.compile(rf"^(small|support|s|x)({_T}){_SQ}$"),
    "score": re.compile(rf"^(vp|honor)({_T}){_SQ}$"),
    "stronghold": re.compile(rf"^stronghold{_SQ}$"),
    "take": re.compile(rf"^(?:take)?({_T}[12]{_T}[12])$"),
    "square": re.compile(rf"^{_SQ}$"),
}


_SHORT_PLACE: Final = re.compile(rf"^({_T}){_SQ}({_T}){_SQ}$")


def short_place(text: str) -> tuple[int, int, int, int] | None:
    """A large tile's short form ``Ac3 Cd3`` (either half first) as (troop type on the top or
    left square, that square, troop type on the other, that square), or None."""
    t = "".join(text.split()).casefold().replace("@", "")
    m = _SHORT_PLACE.match(t)
    if m is None:
        return None
    try:
        t1, a = LETTERS.index(m.group(1).upper()), parse_square(m.group(2))
        t2, b = LETTERS.index(m.group(3).upper()), parse_square(m.group(4))
    except ValueError:
        return None
    if b < a:
        t1, a, t2, b = t2, b, t1, a
    return t1, a, t2, b


def from_notation(text: str) -> GunkimonoAction | None:
    """The action that notation names, legal or not (None if it is not notation, or a short
    form that needs the position, like ``vp c3`` or ``Ac3 Cd3``).

    Used to explain why a well-formed action is refused, naming the rule it breaks.
    """
    t = "".join(text.split()).casefold().replace("@", "")
    try:
        if t in ("drawstack", "stack"):
            return Draw(None)
        if m := _PATTERNS["square"].match(t):
            return BuildStronghold(parse_square(m.group(1)))
        if m := _PATTERNS["take"].match(t):
            return Draw(parse_tile(m.group(1)))
        if m := _PATTERNS["stronghold"].match(t):
            return BuildStronghold(parse_square(m.group(1)))
        if m := _PATTERNS["score"].match(t):
            return Score(
                m.group(1) == "honor", LETTERS.index(m.group(2).upper()), parse_square(m.group(3))
            )
        if m := _PATTERNS["small"].match(t):
            return SmallTile(
                LETTERS.index(m.group(2).upper()),
                parse_square(m.group(3)),
                m.group(1) in ("support", "x"),
            )
        if m := _PATTERNS["place"].match(t):
            c1 = LETTERS.index(m.group(1).upper()) * 2 + int(m.group(2)) - 1
            c2 = LETTERS.index(m.group(4).upper()) * 2 + int(m.group(5)) - 1
            a, b = parse_square(m.group(3)), parse_square(m.group(6))
            if b < a:
                c1, a, c2, b = c2, b, c1, a
            return Place(c1, a, c2, b)
    except ValueError:
        return None
    return None
