"""Units: Infantry, Archers and Cavalry on the Field, and where each may move.

Rulebook, "Components" (the units and their Shields), "Move Commands" and "Cavalry
Movement". A unit is a token id; ``state.field.uloc/uown/uface/ushield`` hold its cell, owner,
facing and Shield, ``state.field.board`` the unit on each cell: the :class:`Field`, which
this module writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

import sengoku.games.gunshi.shogun_and_card_order as shogun_and_card_order
from sengoku.core.substate import INTS, LIST, Part, part_field
from sengoku.games.gunshi.commands.light_infantry import double_step
from sengoku.games.gunshi.data import CELLS, EDGE_OF, NEIGHBOUR, NUM_TOKENS, TOKEN_TYPE, UNITS
from sengoku.games.gunshi.fences import enemy_fence

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState

OFF = -1  # a unit in the Reserve
INVADED = 99  # a unit on an Invader Spot
TYPE_NAME = {"I": "Infantry", "A": "Archer", "C": "Cavalry"}
UNITS_COST = {t: UNITS[t].cost for t in UNITS}
EN_ROUTE_COST = {t: UNITS[t].en_route_cost for t in UNITS}

_TOKENS: Final = range(NUM_TOKENS)
assert set(TOKEN_TYPE) <= set("IAC"), "units_of skips the type test for 'IAC'"


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class Field(Part):
    """The units: each token's cell (``OFF``: in the Reserve, ``INVADED``: on the Invader
    Spot), owner (-1: none), facing (0..3, ``DIR_NAMES``) and Shield; the unit on each cell."""

    uloc: list[int] = part_field(INTS, default_factory=lambda: [OFF] * NUM_TOKENS)
    uown: list[int] = part_field(INTS, default_factory=lambda: [-1] * NUM_TOKENS)
    uface: list[int] = part_field(INTS, default_factory=lambda: [0] * NUM_TOKENS)
    ushield: list[bool] = part_field(LIST, default_factory=lambda: [False] * NUM_TOKENS)
    board: list[int] = part_field(INTS, default_factory=lambda: [-1] * CELLS)


#: Each unit type's tokens, in token order (``free_token`` looks at these only: the
#: formation asks for a free token of each type at every placement, and a search plays many).
_TOKENS_OF: Final[dict[str, tuple[int, ...]]] = {
    t: tuple(u for u in _TOKENS if TOKEN_TYPE[u] == t) for t in sorted(set(TOKEN_TYPE))
}


def free_token(st: GunshiState, t: str) -> int:
    """A token of type t in the Reserve (-1: none left): the first in token order."""
    uloc = st.field.uloc
    for u in _TOKENS_OF.get(t, ()):
        if uloc[u] == OFF:
            return u
    return -1


def put_unit(st: GunshiState, u: int, p: int, cell: int, face: int) -> None:
    """Place unit u of player p on a cell (an Infantry with its Shield)."""
    st.field.uloc[u] = cell
    st.field.uown[u] = p
    st.field.uface[u] = face
    st.field.ushield[u] = UNITS[TOKEN_TYPE[u]].shield
    st.field.board[cell] = u


def remove_unit(st: GunshiState, u: int) -> None:
    """Take unit u off the Field, back to the box (it is no longer a Shogun candidate)."""
    owner = st.field.uown[u]
    st.field.board[st.field.uloc[u]] = -1
    st.field.uloc[u] = OFF
    st.field.uown[u] = -1
    st.field.ushield[u] = False
    if st.shoguns.shogun[owner] != u:
        shogun_and_card_order.rule_out(st, owner, u)


def move_to(st: GunshiState, u: int, cell: int, face: int) -> None:
    """Unit u moves to a free cell, facing ``face``."""
    f = st.field
    f.board[f.uloc[u]] = -1
    f.board[cell] = u
    f.uloc[u] = cell
    f.uface[u] = face


def turn_unit(st: GunshiState, u: int, face: int) -> None:
    """Unit u faces ``face`` (a Reorient, a Shield hit under ``shield_hit_facing=turn``)."""
    st.field.uface[u] = face


def lose_shield(st: GunshiState, u: int) -> None:
    """Infantry u has no Shield any more (hit, or dropped by Light Infantry)."""
    st.field.ushield[u] = False


def switch_units(st: GunshiState, u: int, v: int) -> None:
    """Units u and v trade cells (Strategic Switch)."""
    f = st.field
    cu, cv = f.uloc[u], f.uloc[v]
    f.uloc[u], f.uloc[v] = cv, cu
    f.board[cu], f.board[cv] = v, u


def leave_for_invader_spot(st: GunshiState, u: int) -> None:
    """Unit u leaves the Field for the Invader Spot (without its Shield)."""
    f = st.field
    f.board[f.uloc[u]] = -1
    f.uloc[u] = INVADED
    f.ushield[u] = False


def units_of(st: GunshiState, p: int, types: str = "IAC") -> list[int]:
    """p's units on the Field, of the given types."""
    uown, uloc = st.field.uown, st.field.uloc
    if types == "IAC":  # every token is one of these: no type test
        return [u for u in _TOKENS if uown[u] == p and 0 <= uloc[u] < CELLS]
    return [u for u in _TOKENS if uown[u] == p and 0 <= uloc[u] < CELLS and TOKEN_TYPE[u] in types]


def adjacent_own(st: GunshiState, cell: int, p: int, types: str) -> list[int]:
    """p's units of the given types orthogonally next to a cell."""
    out = []
    for d in range(4):
        n = NEIGHBOUR[cell][d]
        if n >= 0:
            u = st.field.board[n]
            if u >= 0 and st.field.uown[u] == p and TOKEN_TYPE[u] in types:
                out.append(u)
    return out


def dests(st: GunshiState, u: int, d: int, kind: str, board: list[int] | None = None) -> list[int]:
    """Cells a unit may move to in direction d (kind: ``move``, or ``light`` for Light
    Infantry). An enemy on the cell is attacked."""
    fld = st.field
    b = fld.board if board is None else board
    p = fld.uown[u]
    cell = fld.uloc[u]
    f = fld.uface[u]
    if kind == "move" and TOKEN_TYPE[u] == "C":
        return cavalry_dests(st, cell, d, f, p, b)
    one = step(st, cell, d, p, b)
    if kind == "light" and d == f:
        two = double_step(st, cell, d, p, b)
        if two >= 0:
            return one + [two]
    return one


def cavalry_dests(st: GunshiState, cell: int, d: int, f: int, p: int, b: list[int]) -> list[int]:
    """Cavalry Movement: never backwards; sideways one space; forwards any number of spaces,
    jumping over one own non-Cavalry unit, until it attacks an enemy or is stopped."""
    if d == (f + 2) % 4:
        return []
    if d != f:
        return step(st, cell, d, p, b)
    out = []
    jumped = False
    cur = cell
    while True:
        nxt = NEIGHBOUR[cur][d]
        if nxt < 0 or enemy_fence(st, cur, d, p):
            break
        occ = b[nxt]
        if occ < 0:
            out.append(nxt)
        elif st.field.uown[occ] != p:
            out.append(nxt)
            break
        elif TOKEN_TYPE[occ] != "C" and not jumped:
            jumped = True
        else:
            break
        cur = nxt
    return out


def step(st: GunshiState, cell: int, d: int, p: int, b: list[int]) -> list[int]:
    """One space in direction d, unless an enemy Fence or an own unit is in the way."""
    n = NEIGHBOUR[cell][d]
    if n < 0:
        return []
    e = EDGE_OF[cell][d]  # enemy_fence, inlined: this is the hottest geometry test
    if e >= 0 and st.fences.fence[e] == 1 - p:
        return []
    occ = b[n]
    if occ >= 0 and st.field.uown[occ] == p:
        return []
    return [n]


def dests_on(st: GunshiState, u: int, cell: int, d: int, kind: str, b: list[int]) -> list[int]:
    """``dests`` as if the unit stood on another cell (chain simulations)."""
    saved = st.field.uloc[u]
    st.field.uloc[u] = cell
    try:
        return dests(st, u, d, kind, b)
    finally:
        st.field.uloc[u] = saved
