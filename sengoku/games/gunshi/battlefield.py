"""The battlefield: the 7x7 Field's cells by name, and each cell's actions built once.

Rulebook, "Game Setting & Overview" and "Setup"; the geometry itself (neighbours, edges,
Home Territories) is data, in ``data.py``.
"""

from __future__ import annotations

from typing import Final

from sengoku.games.gunshi.actions import CELL_NAMES, A, GunshiAction
from sengoku.games.gunshi.data import CELLS, DIR_NAMES, EDGE_NAMES, HOME, SIZE, cell_name

__all__ = ["CELL_NAMES", "cn", "parse_cell"]


def cn(cell: int) -> str:
    """A cell's name (precomputed for the board's cells, by far the most frequent case)."""
    return CELL_NAMES[cell] if 0 <= cell < CELLS else cell_name(cell)


def parse_cell(text: str) -> int:
    """The cell of an action's argument such as ``d4`` (the engine's own names only)."""
    cell = _CELL_OF.get(text)  # the board's names, looked up (every ply reads one or more)
    if cell is not None:
        return cell
    return (int(text[1]) - 1) * SIZE + "abcdefg".index(text[0])


#: Each board cell's name -> the cell (``parse_cell``'s usual answers).
_CELL_OF: Final[dict[str, int]] = {name: cell for cell, name in enumerate(CELL_NAMES)}


def _per_cell(kind: str) -> tuple[GunshiAction, ...]:
    return tuple(A(kind, name) for name in CELL_NAMES)


# Each cell's (or facing's) action of a kind, built once: cheaper than A(kind, cn(cell)).
# ``Final``: compiled (mypyc), a C static, not a look-up in the module's dictionary per use.
AT: Final = _per_cell("at")
UNIT: Final = _per_cell("unit")
HIT: Final = _per_cell("hit")
ASK: Final = _per_cell("ask")
SWAP: Final = _per_cell("swap")
CHAIN: Final = _per_cell("chain")
TO: Final = _per_cell("to")
DIR: Final = tuple(A("dir", name) for name in DIR_NAMES)
FACE: Final = tuple(A("face", name) for name in DIR_NAMES)
#: Each edge's Fence action, by edge index (``EDGE_NAMES``' order).
FENCE: Final = tuple(A("fence", name) for name in EDGE_NAMES)
#: Each piece's ``place`` action (a unit type's letter, or ``F``: a Fence).
PLACE: Final[dict[str, GunshiAction]] = {t: A("place", t) for t in ("I", "A", "C", "F")}
DONE: Final = A("done")
#: Each seat's Home Territory cells in order (``sorted(HOME[seat])``).
HOME_CELLS: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(sorted(h)) for h in HOME)
