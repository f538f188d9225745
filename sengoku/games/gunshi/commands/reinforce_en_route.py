"""Reinforce en Route (Rikutoh): an Infantry or Archer on the Field calls a unit from the
Reserve onto an empty space next to it outside the Home Territory, at the en route cost.

Rulebook, "Advanced Card Effects and Clarifications". The placing steps are Reinforce's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.sentence import N_
from sengoku.games.gunshi.actions import A
from sengoku.games.gunshi.battlefield import AT, FACE, UNIT
from sengoku.games.gunshi.commands.command import Command, CommandType, Step, need, open_command
from sengoku.games.gunshi.commands.reinforce import reinforce_types
from sengoku.games.gunshi.data import HOME, NEIGHBOUR
from sengoku.games.gunshi.units import EN_ROUTE_COST, units_of

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


def start(st: GunshiState) -> None:
    open_command(
        st,
        Command("EnRoute", type=CommandType.ENROUTE, step=Step.UNIT),
        N_("Reinforce en Route cannot be afforded or placed"),
    )


def en_route_cells(st: GunshiState, u: int) -> list[int]:
    """The empty cells next to unit u outside its owner's Home Territory."""
    p = st.field.uown[u]
    out = []
    for d in range(4):
        n = NEIGHBOUR[st.field.uloc[u]][d]
        if n >= 0 and st.field.board[n] < 0 and n not in HOME[p]:
            out.append(n)
    return sorted(out)


def legal(st: GunshiState, cmd: Command) -> list[GunshiAction]:
    p = st.player
    if cmd.step is Step.UNIT:
        if not reinforce_types(st, p, EN_ROUTE_COST, need_home=False):
            return []
        return [UNIT[st.field.uloc[u]] for u in units_of(st, p, "IA") if en_route_cells(st, u)]
    if cmd.step is Step.PIECE:
        return [A("place", x) for x in reinforce_types(st, p, EN_ROUTE_COST, need_home=False)]
    if cmd.step is Step.AT:
        return [AT[c] for c in en_route_cells(st, need(cmd.base))]
    return list(FACE)
