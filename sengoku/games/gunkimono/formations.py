"""Formations: orthogonally connected troops of one type, printed troops included, at any
level (rulebook, "Scoring Victory Points").

A formation's size is what a troop joining it scores in victory points and what a
stronghold standing in it scores each turn; a formation holding a stronghold is controlled
(``strongholds.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from sengoku.core.substate import SHARED_CACHE, Part, part_field
from sengoku.games.gunkimono.battlefield import CELLS, NEIGHBOURS

if TYPE_CHECKING:
    from sengoku.games.gunkimono.placement import PlaceScan
    from sengoku.games.gunkimono.state import GunkimonoState


def formation(top: list[int], cell: int) -> set[int]:
    """The squares of the formation whose troop stands on ``cell`` (``top``: the troop on
    top of each square)."""
    t = top[cell]
    seen = {cell}
    todo = [cell]
    while todo:
        c = todo.pop()
        for nb in NEIGHBOURS[c]:
            if nb not in seen and top[nb] == t:
                seen.add(nb)
                todo.append(nb)
    return seen


class Formations:
    """Formations of one battlefield (tops and stronghold owners), computed once and shared.

    Legal-action generation, scoring and the evaluation all ask for the formations of the
    same board many times; ``key`` says which board this is, so a state whose tops or
    strongholds changed (by a move, or by a test writing ``top`` directly) computes afresh.
    Nothing here is changed after it is built: clones and determinizations share it.
    """

    __slots__ = ("top", "sh_owner", "comp", "held", "size", "sites", "linkable")

    def __init__(self, top: list[int], sh_owner: list[int]) -> None:
        #: The board this is (copies: compared with the state's lists, element by element).
        self.top = top.copy()
        self.sh_owner = sh_owner.copy()
        comp = [-1] * CELLS
        size = [0] * CELLS
        for start in range(CELLS):
            if comp[start] >= 0:
                continue
            t = top[start]
            comp[start] = start
            todo = [start]
            n = 1
            while todo:
                c = todo.pop()
                for nb in NEIGHBOURS[c]:
                    if comp[nb] < 0 and top[nb] == t:
                        comp[nb] = start
                        todo.append(nb)
                        n += 1
            size[start] = n
        held: dict[int, list[int]] = {}
        for c in range(CELLS):
            if sh_owner[c] >= 0:
                held.setdefault(comp[c], []).append(c)
        #: Formation id (its lowest square) of each square.
        self.comp = comp
        #: The stronghold squares of each formation that holds one.
        self.held = held
        #: The number of squares of each formation, by formation id.
        self.size = size
        #: Stronghold sites by (seat, own_double_stronghold), filled on demand
        #: (``strongholds.stronghold_cells``).
        self.sites: dict[tuple[int, bool], list[int]] = {}
        #: The squares that touch two different controlled formations, filled on demand
        #: (``placement._linkable``: only there can Stronghold rule 4 refuse a troop).
        self.linkable: list[bool] | None = None

    def __reduce__(self) -> tuple[type[Formations], tuple[list[int], list[int]]]:
        # Pickled and copied as the board it was built from (the rest is worked out again;
        # ``sites`` refills on demand): compiled (mypyc), a native class's ``__new__`` runs
        # ``__init__``, so copy's default (an empty object, then its slots) cannot make one.
        return Formations, (self.top, self.sh_owner)


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class FormationCache(Part):
    """The formations of the battlefield last asked for, and its places
    (``placement.PlaceScan``): not saved, shared by clones (neither is changed once
    built)."""

    board: Formations | None = part_field(SHARED_CACHE, default=None)
    places: PlaceScan | None = part_field(SHARED_CACHE, default=None)


def formations(state: GunkimonoState) -> Formations:
    """The formations of the battlefield as it is now (cached while it stays so)."""
    top, sh_owner = state.battlefield.top, state.fortresses.sh_owner
    cache = state.formation_cache
    board = cache.board
    # Two list comparisons (no tuple of both boards built a call).
    if board is None or board.top != top or board.sh_owner != sh_owner:
        board = cache.board = Formations(top, sh_owner)
    return board


__all__ = ["FormationCache", "Formations", "formation", "formations"]
