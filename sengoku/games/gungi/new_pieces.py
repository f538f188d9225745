"""New pieces (新, arata): putting a piece from hand onto the board, and the drop zone.

Instead of moving, a player may put one piece from hand on an empty square or on a tower
topped by their own piece (within the stack limit, never on a Marshal), in any row from
their own back row up to the row of their most advanced top piece; never on an opponent's
piece. A Captain dropped onto a tower holding enemy pieces may betray
(:mod:`sengoku.games.gungi.betrayal`). Setup placements are drops too
(:mod:`sengoku.games.gungi.setup`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.games.gungi.betrayal import gen_betrayals
from sengoku.games.gungi.move import MOVE_SPACE
from sengoku.games.gungi.pieces import BLACK, CAPTAIN, MARSHAL, NUM_KINDS, WHITE

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState

Target = tuple[int, int, tuple[int, ...]]
"""A square a piece may be put on: (square, the tier it lands at, the tower there)."""


def drop_zone(state: GungiState, color: int) -> range:
    """Rows (as y) between this side's back row and its most advanced top piece."""
    board = state.board
    if color == WHITE:
        front = 8
        for sq in range(81):
            tower = board[sq]
            if tower and tower[-1] & 1 == WHITE:
                front = sq // 9
                break
        return range(front, 9)
    front = 0
    for sq in range(80, -1, -1):
        tower = board[sq]
        if tower and tower[-1] & 1 == BLACK:
            front = sq // 9
            break
    return range(0, front + 1)


def gen_drops(state: GungiState, codes: list[int], color: int, quiet: bool = True) -> None:
    """The drops of ``color`` (with ``quiet`` False, only those that betray)."""
    hand = state.hands[color]
    kinds = [k for k in range(NUM_KINDS) if hand[k]]
    if not kinds:
        return
    board = state.board
    limit = state.mode.stack_limit
    targets: list[Target] = []
    for y in drop_zone(state, color):
        for sq in range(y * 9, y * 9 + 9):
            tower = board[sq]
            if not tower:
                targets.append((sq, 1, tower))
            else:
                top = tower[-1]
                if top & 1 == color and top >> 1 != MARSHAL and len(tower) < limit:
                    targets.append((sq, len(tower) + 1, tower))
    emit_drops(state, codes, color, kinds, targets, quiet)


def emit_drops(
    state: GungiState,
    codes: list[int],
    color: int,
    kinds: list[int],
    targets: list[Target],
    quiet: bool = True,
) -> None:
    """The codes putting each of ``kinds`` from hand on each of ``targets``."""
    append = codes.append
    hand = state.hands[color]
    for kind in kinds:
        kind_base = (MOVE_SPACE + kind * 81 * 4) << 14
        low = kind << 2
        for sq, tier, tower in targets:
            code = kind_base + (sq << 16) + low + tier
            if kind == CAPTAIN and any(p & 1 != color for p in tower):
                hand[CAPTAIN] -= 1  # the Captain itself leaves the hand first
                gen_betrayals(state, codes, color, tower, code, hand, quiet)
                hand[CAPTAIN] += 1
            elif quiet:
                append(code)


def has_drop(state: GungiState, color: int) -> bool:
    """Whether ``color`` can put some piece from hand on the board."""
    hand = state.hands[color]
    if not any(hand):
        return False
    board = state.board
    limit = state.mode.stack_limit
    for y in drop_zone(state, color):
        for sq in range(y * 9, y * 9 + 9):
            tower = board[sq]
            if not tower:
                return True
            top = tower[-1]
            if top & 1 == color and top >> 1 != MARSHAL and len(tower) < limit:
                return True
    return False
