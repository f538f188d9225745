"""1. Place Army Tile: a large tile from the hand or a small tile from the reserve, face up.

The rulebook's three placement rules:

* **Troop Duplication rule**: a troop may not cover a face-up troop of its own type
  (``troop_duplication``).
* **Level Difference rule**: both troops of a large tile must lie at the same level
  (``level_difference``).
* **Extra Support rule**: a small tile placed face down first may remove a level difference
  (``extra_support.py``).

Stronghold rules 1 and 4 also forbid some placements (``strongholds.py``). At most one
small tile per turn. Large tiles may be turned any way: the action names which troop lands
on which square. The placed troops are then scored (``scoring.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, cast

from mypy_extensions import mypyc_attr

import sengoku.games.gunkimono.turn_record as turn_record
from sengoku.core.game import Event
from sengoku.core.sentence import said, say
from sengoku.core.substate import INT_ROWS, INTS, Part, part_field
from sengoku.games.gunkimono.actions import (
    CELLS,
    WIDTH,
    GunkimonoAction,
    Place,
    SmallTile,
    cell_name,
    tile_name,
)
from sengoku.games.gunkimono.battlefield import (
    FACE_DOWN,
    NEIGHBOURS,
    PAIRS,
    PAIRS_OF,
    tell,
    troop,
    troop_word,
)
from sengoku.games.gunkimono.data import components, tile_troops
from sengoku.games.gunkimono.extra_support import (
    SUPPORTS,
    place_support,
    still_covered,
    why_not_support,
)
from sengoku.games.gunkimono.formations import Formations, formations
from sengoku.games.gunkimono.refill_your_hand import play_from_hand, play_from_reserve
from sengoku.games.gunkimono.scoring import queue_scoring
from sengoku.games.gunkimono.strongholds import (
    RULE_1,
    links_controlled,
    may_link,
    on_stronghold,
    why_links,
)
from sengoku.games.gunkimono.turn_sequence import Phase

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

_C: Final = components()


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class Battlefield(Part):
    """The battlefield as tiles cover it: what step 1 alone writes."""

    #: The troop type on top of each square (``battlefield.FACE_DOWN``: a support).
    top: list[int] = part_field(INTS)
    #: The stronghold symbols of each square's top troop.
    sym: list[int] = part_field(INTS)
    #: Tiles stacked on each square.
    level: list[int] = part_field(INTS)
    #: The large tiles on the battlefield, in the order placed.
    placed: list[int] = part_field(INTS)
    #: The small tiles placed, in order: ``[seat, troop, face up 1/0]``.
    placed_small: list[list[int]] = part_field(INT_ROWS)

    @classmethod
    def printed(cls) -> Battlefield:
        """The battlefield as printed, before any tile."""
        return cls(list(_C.printed), [0] * CELLS, [0] * CELLS, [], [])


_PLACES: Final[
    dict[int, list[Place]]
] = {}  # troop codes c1*10+c2 -> a Place per pair (built lazily)
#: The face-up small tile of each troop type on each square.
SMALLS: Final = tuple(tuple(SmallTile(t, c, False) for c in range(CELLS)) for t in range(5))


def _places(c1: int, c2: int) -> list[Place]:
    key = c1 * 10 + c2
    table = _PLACES.get(key)
    if table is None:
        table = _PLACES[key] = [Place(c1, a, c2, b) for a, b in PAIRS]
    return table


# ---------------------------------------------------------------- the placement rules


def troop_duplication(state: GunkimonoState, cell: int, t: int) -> str | None:
    """Troop Duplication rule: may troop type ``t`` cover the troop on ``cell``?"""
    if state.battlefield.top[cell] == t:
        return said(
            say(
                "Troop Duplication rule: a troop may not cover one of its own type "
                "({troop} on {troop} at {square})",
                troop=troop_word(t),
                square=cell_name(cell),
            )
        )
    return None


def level_difference(state: GunkimonoState, a: int, b: int) -> str | None:
    """Level Difference rule: may a large tile lie on squares ``a`` and ``b``?"""
    level = state.battlefield.level
    if level[a] != level[b]:
        return said(
            say(
                "Level Difference rule: both troops of a large tile must lie at the same level "
                "({a} is at {level_a}, {b} at {level_b})",
                a=cell_name(a),
                level_a=level[a],
                b=cell_name(b),
                level_b=level[b],
            )
        )
    return None


def why_not_cover(state: GunkimonoState, t1: int, a: int, t2: int, b: int) -> str | None:
    """The rule that forbids troop ``t1`` on ``a`` and ``t2`` on ``b`` (a large tile), if any."""
    for c in (a, b):
        if on_stronghold(state, c):
            return RULE_1
    why = level_difference(state, a, b)
    if why is None:
        why = troop_duplication(state, a, t1) or troop_duplication(state, b, t2)
    return why or why_links(state, a, t1, b, t2)


# ---------------------------------------------------------------- legal placements
#
# Step 1's legal actions are generated from one scan of the places of the battlefield, not
# per tile: a place free for large tiles (no stronghold, both squares at one level: Stronghold
# rule 1 and the Level Difference rule) gets one byte for the troops on its two squares
# (``PlaceScan``, kept with the formations and worked out again only over the squares that
# changed). Each tile side then keeps the places whose byte its own table allows (the Troop
# Duplication rule: one ``bytes.translate``, a C loop) and takes their ``Place`` objects from
# its table of every place (made once: the same objects every time). Small tiles are one byte
# per square likewise; the supports come from the places that straddle one level, found by
# the same scan. Stronghold rule 4 is asked only of the places next to two controlled
# formations. The rules' own checks (``why_not_cover``, ``extra_support.support_cells``),
# which validate an action, are the reference the tests hold this generator to
# (tests/gunkimono/test_legal_reference.py).

#: Each place of ``PAIRS`` by its index: its top or left square, its right or lower one (lists
#: of ints: compiled with mypyc, an item of a list of ints is read without unpacking a tuple).
_PAIR_A: Final[list[int]] = [a for a, _b in PAIRS]
_PAIR_B: Final[list[int]] = [b for _a, b in PAIRS]
_NUM_PAIRS: Final = len(PAIRS)
#: The indexes of the places that cover each square (``PAIRS_OF``).
_PAIRS_OF: Final[list[list[int]]] = [[i for i, _a, _b in of] for of in PAIRS_OF]
#: Each tile code's two halves as troop codes (``type * 2 + symbols - 1``), both ways round:
#: ``[c1 * 10 + c2, t1, c1, t2, c2]`` then ``[c2 * 10 + c1, t2, c2, t1, c1]``.
_KINDS: Final[list[list[list[int]]]] = []
for _code in range(100):
    (_t1, _s1), (_t2, _s2) = tile_troops(_code)
    _c1, _c2 = _t1 * 2 + _s1 - 1, _t2 * 2 + _s2 - 1
    _KINDS.append([[_c1 * 10 + _c2, _t1, _c1, _t2, _c2], [_c2 * 10 + _c1, _t2, _c2, _t1, _c1]])
#: Whether each tile code shows two different troop types (every tile of the game does).
_MIXED: Final[list[bool]] = [_KINDS[_code][0][1] != _KINDS[_code][0][3] for _code in range(100)]

#: What a square's top may be in a byte: the five troop types and ``FACE_DOWN`` (a top
#: outside them, never a troop's own type, reads as ``FACE_DOWN``).
_TOPS: Final = FACE_DOWN + 1
#: The byte of a place (or square) no tile may cover: a stronghold, or a level difference.
_BLOCKED: Final = 255
#: The Troop Duplication rule for a large tile with troop type ``t1`` on a place's first
#: square and ``t2`` on its second, at index ``t1 * 5 + t2``: a translation table from the
#: place's byte (``top_a * _TOPS + top_b``, or ``_BLOCKED``) to 1 where the tile may lie, else 0.
_LARGE_ALLOWS: Final[list[bytes]] = [
    bytes(
        1 if code < _TOPS * _TOPS and code // _TOPS != t1 and code % _TOPS != t2 else 0
        for code in range(256)
    )
    for t1 in range(5)
    for t2 in range(5)
]
#: The same for a small tile of troop type ``t`` and a square's byte (its top, or
#: ``_BLOCKED`` under a stronghold).
_SMALL_ALLOWS: Final[list[bytes]] = [
    bytes(1 if v < _TOPS and v != t else 0 for v in range(256)) for t in range(5)
]


#: ``SMALLS`` as lists (compiled, an item of a list is read without a generic call).
_SMALL_TABLES: Final[list[list[SmallTile]]] = [list(tiles) for tiles in SMALLS]


def _top_byte(t: int) -> int:
    return t if 0 <= t < _TOPS else FACE_DOWN


def _place_byte(top: list[int], level: list[int], sh: list[int], a: int, b: int) -> int:
    """A place's byte (``_LARGE_ALLOWS``): its two troops, or ``_BLOCKED``."""
    if sh[a] >= 0 or sh[b] >= 0 or level[a] != level[b]:
        return _BLOCKED
    return _top_byte(top[a]) * _TOPS + _top_byte(top[b])


def _square_byte(top: list[int], sh: list[int], c: int) -> int:
    """A square's byte for a small tile (``_SMALL_ALLOWS``): its top, or ``_BLOCKED``."""
    return _BLOCKED if sh[c] >= 0 else _top_byte(top[c])


def _lower_square(level: list[int], sh: list[int], a: int, b: int) -> int:
    """The lower square of a place whose squares differ by one level (no stronghold on
    either: where a support may go), else -1."""
    if sh[a] >= 0 or sh[b] >= 0:
        return -1
    if level[b] == level[a] + 1:
        return a
    if level[a] == level[b] + 1:
        return b
    return -1


class PlaceScan:
    """What the battlefield allows, place by place, with the board it was worked out for:
    each place's byte (``_LARGE_ALLOWS``), its lower square where its squares differ by
    one level (-1 elsewhere), and each square's byte (``_SMALL_ALLOWS``); then, as they are
    asked for, the legal places of each tile side and the legal small tiles of each troop
    type on this board. Copies of the state share it (``FormationCache.places``): nothing
    in it changes once made. A changed board gets a new one, made from the last one by
    working out again only the places over the squares that changed (a turn changes two or
    three squares of the 80: whole, the scan is a fifth of a compiled turn)."""

    __slots__ = (
        "top",
        "level",
        "sh_owner",
        "codes",
        "lower",
        "squares",
        "sides",
        "smalls",
        "support_squares",
    )

    def __init__(
        self,
        top: list[int],
        level: list[int],
        sh_owner: list[int],
        codes: bytes,
        lower: list[int],
        squares: bytes,
    ) -> None:
        #: The board this is (copies: compared with the state's lists, element by element).
        self.top = top
        self.level = level
        self.sh_owner = sh_owner
        self.codes = codes
        self.lower = lower
        self.squares = squares
        #: Each tile side's legal places on this board (by ``_KINDS``' key, times 2, plus 1
        #: under rule 4), and each troop type's legal small tiles (likewise), made on demand: a search's determinizations ask the
        #: same board again with other hands (rule 4 is decided by the board too).
        self.sides: dict[int, list[GunkimonoAction]] = {}
        self.smalls: dict[int, list[GunkimonoAction]] = {}
        #: The lower squares of the places whose squares differ by one level, in square
        #: order (``_support_squares``), made on demand.
        self.support_squares: list[int] | None = None

    def __reduce__(
        self,
    ) -> tuple[type[PlaceScan], tuple[list[int], list[int], list[int], bytes, list[int], bytes]]:
        # Compiled (mypyc), a native class's ``__new__`` runs ``__init__``: copied and pickled
        # through it.
        fields = (self.top, self.level, self.sh_owner, self.codes, self.lower, self.squares)
        return PlaceScan, fields


def _full_scan(top: list[int], level: list[int], sh: list[int]) -> PlaceScan:
    codes: list[int] = []
    lower: list[int] = []
    for i in range(_NUM_PAIRS):
        a = _PAIR_A[i]
        b = _PAIR_B[i]
        codes.append(_place_byte(top, level, sh, a, b))
        lower.append(_lower_square(level, sh, a, b))
    squares = [_square_byte(top, sh, c) for c in range(CELLS)]
    return PlaceScan(top.copy(), level.copy(), sh.copy(), bytes(codes), lower, bytes(squares))


def place_scan(state: GunkimonoState) -> PlaceScan:
    """The places of the battlefield as it is now (cached while it stays so, and worked out
    again only where it changed)."""
    top, level, sh = state.battlefield.top, state.battlefield.level, state.fortresses.sh_owner
    cache = state.formation_cache
    old = cache.places
    if old is not None and old.top == top and old.level == level and old.sh_owner == sh:
        return old
    if old is None:
        scan = _full_scan(top, level, sh)
    else:
        scan = _rescan(old, top, level, sh, state.record.squares)
    cache.places = scan
    return scan


def _rescan(
    old: PlaceScan, top: list[int], level: list[int], sh: list[int], hint: list[int]
) -> PlaceScan:
    """``_full_scan`` of this board, from the scan of another: only the places over the
    squares that differ are worked out again. ``hint``: the squares that probably changed
    (the turn record's: a scan is made as a turn or its step 1 starts, and the squares
    covered since are the last turn's), checked: the old board with those squares brought
    up to date must be this board (three list comparisons, in C), else the squares that
    differ are looked for one by one (a stronghold built, a test's board)."""
    if len(old.top) != CELLS or len(top) != CELLS or len(level) != CELLS or len(sh) != CELLS:
        return _full_scan(top, level, sh)
    ntop, nlevel, nsh = old.top.copy(), old.level.copy(), old.sh_owner.copy()
    changed: list[int] = []
    for c in hint:
        if 0 <= c < CELLS and c not in changed:
            changed.append(c)
            ntop[c] = top[c]
            nlevel[c] = level[c]
            nsh[c] = sh[c]
    if ntop != top or nlevel != level or nsh != sh:
        otop, olevel, osh = old.top, old.level, old.sh_owner
        changed = []
        for c in range(CELLS):
            if top[c] != otop[c] or level[c] != olevel[c] or sh[c] != osh[c]:
                changed.append(c)
        ntop, nlevel, nsh = top.copy(), level.copy(), sh.copy()
    if len(changed) > 8:  # another board altogether (a test's, a loaded one)
        return _full_scan(top, level, sh)
    codes = bytearray(old.codes)
    lower = old.lower.copy()
    squares = bytearray(old.squares)
    for c in changed:
        squares[c] = _square_byte(top, sh, c)
        for i in _PAIRS_OF[c]:
            a = _PAIR_A[i]
            b = _PAIR_B[i]
            codes[i] = _place_byte(top, level, sh, a, b)
            lower[i] = _lower_square(level, sh, a, b)
    return PlaceScan(ntop, nlevel, nsh, bytes(codes), lower, bytes(squares))


def _only_over(codes: bytes, square: int) -> bytes:
    """The places' bytes with every place that does not cover ``square`` blocked (the
    large tile over a support)."""
    kept = bytearray(b"\xff" * _NUM_PAIRS)
    for i in _PAIRS_OF[square]:
        kept[i] = codes[i]
    return bytes(kept)


def _linkable(board: Formations) -> list[bool]:
    """Stronghold rule 4 can refuse a troop on a square only if that square touches two
    different controlled formations: those squares (cached with the formations)."""
    found = board.linkable
    if found is None:
        comp = board.comp
        held = [False] * CELLS
        for g in board.held:
            held[g] = True
        found = [False] * CELLS
        for c in range(CELLS):
            first = -1
            for nb in NEIGHBOURS[c]:
                g = comp[nb]
                if held[g]:
                    if first < 0:
                        first = g
                    elif g != first:
                        found[c] = True
                        break
        board.linkable = found
    return found


def _rule_4_board(state: GunkimonoState) -> Formations | None:
    """The formations when Stronghold rule 4 can refuse a placement (two controlled
    formations on the battlefield), else None."""
    if not may_link(state):
        return None
    board = formations(state)
    return board if len(board.held) >= 2 else None


def _large(
    state: GunkimonoState,
    codes: bytes,
    board: Formations | None,
    out: list[GunkimonoAction],
    made: dict[int, list[GunkimonoAction]] | None,
) -> None:
    """Legal large tiles from the places' bytes, in ascending action-number order, appended
    to ``out``; each tile side's list is kept in ``made`` (the scan's, by side), if given."""
    hand = set(state.supply.hands[state.sequence.turn])
    if not hand:
        return
    kinds: list[list[int]] = []
    for code in hand:
        kinds.extend(_KINDS[code])
    kinds.sort()
    risky: list[int] | None = None
    # Kept by side and by whether rule 4 applies (which the board decides, unless a test
    # paints strongholds without their squares).
    ruled = 1 if board is not None else 0
    for kind in kinds:
        key = kind[0] * 2 + ruled
        if made is not None:
            kept_before = made.get(key)
            if kept_before is not None:
                out.extend(kept_before)
                continue
        if risky is None:
            risky = _risky_places(codes, board)
        if made is None:
            _side(state, codes, board, risky, kind, out)
        else:
            side: list[GunkimonoAction] = []
            _side(state, codes, board, risky, kind, side)
            made[key] = side
            out.extend(side)


def _risky_places(codes: bytes, board: Formations | None) -> list[int]:
    """The free places where Stronghold rule 4 may refuse a tile (a square next to two
    controlled formations), with ``board``; none without."""
    risky: list[int] = []
    if board is not None:
        near = _linkable(board)
        for i in range(_NUM_PAIRS):
            if codes[i] != _BLOCKED and (near[_PAIR_A[i]] or near[_PAIR_B[i]]):
                risky.append(i)
    return risky


def _side(
    state: GunkimonoState,
    codes: bytes,
    board: Formations | None,
    risky: list[int],
    kind: list[int],
    side: list[GunkimonoAction],
) -> None:
    """One tile side's legal places (``_KINDS``' ``kind``), in place order, appended to
    ``side``."""
    t1 = kind[1]
    t2 = kind[3]
    allowed = codes.translate(_LARGE_ALLOWS[t1 * 5 + t2])
    if risky:
        assert board is not None
        kept = bytearray(allowed)
        for i in risky:
            if kept[i] and links_controlled(state, _PAIR_A[i], t1, _PAIR_B[i], t2, board):
                kept[i] = 0
        allowed = bytes(kept)
    table = _places(kind[2], kind[4])
    # Compiled, a loop over the bytes touches only the placements it keeps (a filter over
    # the table would read every one of them).
    for i in range(_NUM_PAIRS):
        if allowed[i]:
            side.append(table[i])


def large_placements(state: GunkimonoState, support: int | None) -> list[Place]:
    """Legal large tiles, in ascending action-number order (over the support square, if
    one was just placed)."""
    scan = place_scan(state)
    out: list[GunkimonoAction] = []
    if support is None:
        _large(state, scan.codes, _rule_4_board(state), out, _kept(state, scan.sides))
    else:
        _large(state, _only_over(scan.codes, support), _rule_4_board(state), out, None)
    return cast("list[Place]", out)


def can_place(state: GunkimonoState) -> bool:
    """Whether step 1 has a legal action (``bool(place_actions(state))``): a turn begins
    with this, and its legal list is made when first asked for (a search's playout that
    stops as the turn begins never asks). Without Stronghold rule 4 a large tile side or a
    small tile that the places' bytes allow answers at once; else the list decides."""
    if _rule_4_board(state) is None:
        scan = place_scan(state)
        seat = state.sequence.turn
        for code in state.supply.hands[seat]:
            if 0 <= code < 100:
                for kind in _KINDS[code]:
                    if 1 in scan.codes.translate(_LARGE_ALLOWS[kind[1] * 5 + kind[3]]):
                        return True
        for t in state.supply.reserve[seat]:
            if 0 <= t < 5 and 1 in scan.squares.translate(_SMALL_ALLOWS[t]):
                return True
    return bool(place_actions(state))


def _nth_allowed(allowed: bytes, k: int) -> int:
    """The index of the ``k``-th nonzero byte of ``allowed`` (from 0)."""
    for i in range(len(allowed)):
        if allowed[i]:
            if k == 0:
                return i
            k -= 1
    raise IndexError(k)


def pick_place_action(state: GunkimonoState, rng: random.Random) -> GunkimonoAction | None:
    """``rng.choice(place_actions(state))``, the same draw (``Random.choice`` of a sequence
    of that length: the same number taken from ``rng``) and the same action, without
    making the list: each part's length is counted from the places' bytes (in C) and only
    the action drawn is looked up (a playout's step). None, having drawn nothing, where the
    list decides: under Stronghold rule 4, or with a hand or reserve the tables do not
    know."""
    if _rule_4_board(state) is not None:
        return None
    scan = place_scan(state)
    seat = state.sequence.turn
    hand = set(state.supply.hands[seat])
    kinds: list[list[int]] = []
    mixed = False
    for code in hand:
        if not 0 <= code < 100:
            return None
        kinds.extend(_KINDS[code])
        mixed = mixed or _MIXED[code]
    kinds.sort()
    # The parts of the list in its order: each large tile side, each small tile's troop
    # type, then the supports (``place_actions``).
    allowed_of: list[bytes] = []
    count_of: list[int] = []
    codes = scan.codes
    for kind in kinds:
        allowed = codes.translate(_LARGE_ALLOWS[kind[1] * 5 + kind[3]])
        allowed_of.append(allowed)
        count_of.append(allowed.count(1))
    reserve = sorted(state.supply.reserve[seat])
    cells: list[int] = []
    if reserve:
        for t in reserve:
            if not 0 <= t < 5:
                return None
            allowed = scan.squares.translate(_SMALL_ALLOWS[t])
            allowed_of.append(allowed)
            count_of.append(allowed.count(1))
        if kinds:
            if not mixed:
                return None  # the supports' own loop decides (``_supports``)
            cells = still_covered(state, _support_squares(scan), state.supply.hands[seat])
    n = len(reserve) * len(cells)
    for count in count_of:
        n += count
    if n == 0:
        return None
    k: int = rng.choice(range(n))
    for j in range(len(count_of)):
        count = count_of[j]
        if k < count:
            i = _nth_allowed(allowed_of[j], k)
            if j < len(kinds):
                kind = kinds[j]
                return _places(kind[2], kind[4])[i]
            return _SMALL_TABLES[reserve[j - len(kinds)]][i]
        k -= count
    return SUPPORTS[reserve[k // len(cells)]][cells[k % len(cells)]]


def place_actions(state: GunkimonoState) -> list[GunkimonoAction]:
    """Step 1's legal actions in ascending action-number order: large tiles, small tiles
    face up, then small tiles face down as supports."""
    board = _rule_4_board(state)
    scan = place_scan(state)
    out: list[GunkimonoAction] = []
    _large(state, scan.codes, board, out, _kept(state, scan.sides))
    reserve = sorted(state.supply.reserve[state.sequence.turn])
    if not reserve:
        return out
    near = _linkable(board) if board is not None else None
    smalls = _kept(state, scan.smalls)
    ruled = 1 if board is not None else 0
    for t in reserve:
        if smalls is not None:
            kept_before = smalls.get(t * 2 + ruled)
            if kept_before is not None:
                out.extend(kept_before)
                continue
        allowed = scan.squares.translate(_SMALL_ALLOWS[t])
        if near is not None:
            assert board is not None
            kept = bytearray(allowed)
            for c in range(CELLS):
                if kept[c] and near[c] and links_controlled(state, c, t, c, t, board):
                    kept[c] = 0
            allowed = bytes(kept)
        table = _SMALL_TABLES[t]
        tiles: list[GunkimonoAction] = out if smalls is None else []
        for c in range(CELLS):
            if allowed[c]:
                tiles.append(table[c])
        if smalls is not None:
            smalls[t * 2 + ruled] = tiles
            out.extend(tiles)
    out.extend(_supports(state, scan, reserve, board))
    return out


def _kept(
    state: GunkimonoState, lists: dict[int, list[GunkimonoAction]]
) -> dict[int, list[GunkimonoAction]] | None:
    """Where the lists of each tile side or troop type are kept with the scan: a search's
    state (muted) keeps them, for the next determinization of the same board with other
    hands; a state that tells its events (direct play) makes its list once a position, and
    building the lists apart to keep them would only copy them."""
    return lists if state.muted else None


def _support_squares(scan: PlaceScan) -> list[int]:
    """The lower square of each place whose squares differ by one level (no stronghold on
    either), once each, in square order (kept with the scan)."""
    found = scan.support_squares
    if found is None:
        marked = [False] * CELLS
        for x in scan.lower:
            if x >= 0:
                marked[x] = True
        found = scan.support_squares = [c for c in range(CELLS) if marked[c]]
    return found


def _supports(
    state: GunkimonoState, scan: PlaceScan, reserve: list[int], board: Formations | None
) -> list[SmallTile]:
    """Legal face-down small tiles (``extra_support.support_cells``' squares), from the
    places that straddle one level (``PlaceScan.lower``): the lower square takes a support
    when some side of a tile in the hand may then lie there, its other troop on the upper
    square (the Troop Duplication rule there, Stronghold rule 4; judged again on the board
    after the support where it splits a formation holding two strongholds:
    ``extra_support.still_covered``)."""
    hand = state.supply.hands[state.sequence.turn]
    if not hand:
        return []
    if board is None:
        for code in hand:
            if 0 <= code < 100 and _MIXED[code]:
                # A tile of two troop types, turned either way, puts either on the upper
                # square: one of them differs from the troop there (the Troop Duplication
                # rule), so every such lower square takes a support (no rule 4 here, unless
                # the support splits a formation holding two strongholds).
                cells = still_covered(state, _support_squares(scan), hand)
                return [SUPPORTS[t][c] for t in reserve for c in cells]
    lower = scan.lower
    kinds: list[list[int]] = []
    for code in set(hand):
        kinds.extend(_KINDS[code])
    top = state.battlefield.top
    found = [False] * CELLS
    any_found = False
    for i in range(_NUM_PAIRS):
        x = lower[i]
        if x < 0 or found[x]:
            continue
        y = _PAIR_A[i] + _PAIR_B[i] - x
        for kind in kinds:
            # The tile's first troop on the support, its second on the upper square.
            tx = kind[1]
            ty = kind[3]
            if ty == top[y]:
                continue
            if board is not None and links_controlled(state, x, tx, y, ty, board):
                continue
            found[x] = True
            any_found = True
            break
    if not any_found:
        return []
    cells = still_covered(state, [c for c in range(CELLS) if found[c]], hand)
    return [SUPPORTS[t][c] for t in reserve for c in cells]


# ---------------------------------------------------------------- validation


def why_not_place(state: GunkimonoState, action: Place) -> str | None:
    """None if the large tile ``action`` may be placed now, else the rule it breaks."""
    phase = state.sequence.phase
    if phase is not Phase.PLACE and phase is not Phase.SUPPORT:
        return said(
            say("a large tile is placed in step 1 of the turn; now: {now}", now=phase.prompt_word)
        )
    a, b = action.a, action.b
    if not (0 <= a < CELLS and 0 <= b < CELLS) or not (
        (b == a + 1 and a % WIDTH < WIDTH - 1) or b == a + WIDTH
    ):
        return said(say("a large tile must lie on two neighbouring squares inside the battlefield"))
    if not (0 <= action.first < 10 and 0 <= action.second < 10) or (
        action.first // 2 == action.second // 2
    ):
        return said(say("a large tile shows two different troops"))
    if action.tile not in state.supply.hands[state.sequence.turn]:
        return said(say("tile {tile} is not in your hand", tile=tile_name(action.tile)))
    if phase is Phase.SUPPORT and state.sequence.support_cell not in (a, b):
        return said(
            say(
                "Extra Support rule: the large tile must cover the face-down small tile on "
                "{square}",
                square=cell_name(state.sequence.support_cell),
            )
        )
    return why_not_cover(state, action.first // 2, a, action.second // 2, b)


def why_not_small(state: GunkimonoState, action: SmallTile) -> str | None:
    """None if the small tile ``action`` (face up or as support) may be placed now."""
    phase = state.sequence.phase
    if phase is not Phase.PLACE:
        if phase is Phase.SUPPORT:
            return said(say("at most one small tile per turn: place the large tile on the support"))
        return said(
            say("tiles are placed in step 1 of the turn; now: {now}", now=phase.prompt_word)
        )
    if not (0 <= action.troop < 5 and 0 <= action.cell < CELLS):
        return said(say("no such troop or square"))
    if action.troop not in state.supply.reserve[state.sequence.turn]:
        return said(
            say(
                "your small {troop} tile is no longer in your reserve",
                troop=troop_word(action.troop),
            )
        )
    c = action.cell
    if on_stronghold(state, c):
        return RULE_1
    if action.support:
        return why_not_support(state, c)
    return troop_duplication(state, c, action.troop) or why_links(
        state, c, action.troop, c, action.troop
    )


# ---------------------------------------------------------------- effects


def place_large(state: GunkimonoState, action: Place, events: list[Event]) -> None:
    seat = state.sequence.turn
    if state.sequence.support_cell < 0:  # after extra support the turn's record has begun
        turn_record.begin(state)
    turn_record.covered(state, action.a, action.b)
    play_from_hand(state, seat, action.tile)
    field = state.battlefield
    field.placed.append(action.tile)
    top, sym, level = field.top, field.sym, field.level
    for c, code in ((action.a, action.first), (action.b, action.second)):
        t, s = troop(code)
        top[c] = t
        sym[c] = s
        level[c] += 1
    state.sequence.placed_large = True
    state.sequence.support_cell = -1
    if not state.muted:
        text = str(action)
        events.append(
            tell(
                {
                    "type": "place",
                    "audience": None,
                    "seat": seat,
                    "tile": tile_name(action.tile),
                    "action": text,
                    "message": say("Seat {seat} places {action}.", seat=seat, action=text),
                }
            )
        )
    queue_scoring(state, [action.a, action.b], events)


def place_small(state: GunkimonoState, action: SmallTile, events: list[Event]) -> None:
    """A small tile from the reserve, face up (or face down: ``extra_support.place_support``)."""
    seat = state.sequence.turn
    turn_record.begin(state)
    turn_record.covered(state, action.cell)
    play_from_reserve(state, seat, action.troop)
    c = action.cell
    field = state.battlefield
    field.level[c] += 1
    field.placed_small.append([seat, action.troop, 0 if action.support else 1])
    if action.support:
        # Face down: no troop, no symbols (the Extra Support rule's tile).
        field.top[c] = FACE_DOWN
        field.sym[c] = 0
        place_support(state, action, events)
        return
    field.top[c] = action.troop
    field.sym[c] = _C.small_symbols
    state.sequence.placed_large = False
    if not state.muted:
        text = str(action)
        events.append(
            tell(
                {
                    "type": "place",
                    "audience": None,
                    "seat": seat,
                    "action": text,
                    "message": say("Seat {seat} places {action}.", seat=seat, action=text),
                }
            )
        )
    queue_scoring(state, [c], events)
