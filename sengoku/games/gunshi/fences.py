"""Fences: where they may be placed and built, what they block, and Fence Destruction.

Rulebook, "Build Fence Command" and "Phase 1: Creating Your Battle Formation"; the spec's
clarifications choose the diagonal edges (option ``fence_diagonal``) and the formation edges
(option ``formation_fences``). What a Fence blocks is in ``units.py`` (movement) and in the
shooting ranges of ``commands/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

import sengoku.games.gunshi.words as words
from sengoku.core.sentence import say
from sengoku.core.substate import INTS, Part, part_field
from sengoku.games.gunshi.data import (
    EDGE_CELLS,
    EDGE_NAMES,
    EDGE_OF,
    EDGES,
    FENCES_PER_PLAYER,
    HOME,
    NEIGHBOUR,
)

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class Fences(Part):
    """The Fences: the owner of the Fence on each edge (-1: none), the Fences each player has
    left to place or build."""

    fence: list[int] = part_field(INTS, default_factory=lambda: [-1] * EDGES)
    fences_left: list[int] = part_field(
        INTS, default_factory=lambda: [FENCES_PER_PLAYER, FENCES_PER_PLAYER]
    )


def enemy_fence(st: GunshiState, cell: int, d: int, p: int) -> bool:
    """Whether a Fence of p's opponent stands on the edge of ``cell`` in direction d."""
    e = EDGE_OF[cell][d]
    return e >= 0 and st.fences.fence[e] == 1 - p


def place_fence(st: GunshiState, e: int, p: int) -> None:
    """p places (Phase 1) or builds a Fence on edge e."""
    st.fences.fence[e] = p
    st.fences.fences_left[p] -= 1


def _formation_candidates(p: int, inside: bool) -> tuple[int, ...]:
    """The edges where p may place a Fence in Phase 1 on an empty board, in edge order:
    between two cells of p's Home Territory (``inside``), or touching it."""
    home = HOME[p]
    return tuple(
        e
        for e, (a, b) in enumerate(EDGE_CELLS)
        if ((a in home and b in home) if inside else (a in home or b in home))
    )


#: ``_formation_candidates`` for each ``formation_fences`` option and player, worked out once:
#: the formation asks for the free ones after every placement (``formation.pieces``).
FORMATION_CANDIDATES: Final[dict[bool, tuple[tuple[int, ...], tuple[int, ...]]]] = {
    inside: (_formation_candidates(0, inside), _formation_candidates(1, inside))
    for inside in (False, True)
}


def formation_edges(st: GunshiState, p: int) -> list[int]:
    """The free edges where p may place a Fence in Phase 1, in edge order."""
    inside = st.options["formation_fences"] == "inside_home"
    fence = st.fences.fence
    return [e for e in FORMATION_CANDIDATES[inside][p] if fence[e] < 0]


def buildable_edges(st: GunshiState, u: int) -> list[int]:
    """The edges where Infantry u may build a Fence: in front, left, right and the two front
    diagonals, free and not on a line next to an enemy unit."""
    p = st.field.uown[u]
    cell = st.field.uloc[u]
    f = st.field.uface[u]
    left, right = (f + 3) % 4, (f + 1) % 4
    edges = [EDGE_OF[cell][f], EDGE_OF[cell][left], EDGE_OF[cell][right]]
    if st.options["fence_diagonal"] == "neighbour_front":
        for side in (left, right):
            n = NEIGHBOUR[cell][side]
            if n >= 0:
                edges.append(EDGE_OF[n][f])
    else:
        n = NEIGHBOUR[cell][f]
        if n >= 0:
            edges += [EDGE_OF[n][left], EDGE_OF[n][right]]
    out = []
    for e in edges:
        if e < 0 or st.fences.fence[e] >= 0:
            continue
        if any(
            st.field.board[c] >= 0 and st.field.uown[st.field.board[c]] == 1 - p
            for c in EDGE_CELLS[e]
        ):
            continue  # not on a line adjacent to an enemy unit
        out.append(e)
    return sorted(set(out))


def break_fences(st: GunshiState, cell: int, p: int) -> None:
    """Fence Destruction: enemy Fences on the edges of a cell a unit moves onto."""
    for d in range(4):
        e = EDGE_OF[cell][d]
        if e >= 0 and st.fences.fence[e] == 1 - p:
            st.fences.fence[e] = -1
            st.fences.fences_left[1 - p] += 1
            st.emit(
                None,
                "fence_destroyed",
                say(
                    "{colour}'s Fence between {a} and {b} is destroyed.",
                    colour=words.colour(1 - p),
                    **words.edge_ends(EDGE_NAMES[e]),
                ),
                edge=EDGE_NAMES[e],
                seat=1 - p,
            )
