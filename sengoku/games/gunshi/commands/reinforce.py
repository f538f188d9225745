"""Reinforce (2-4 points): a unit from the Reserve enters an empty space of the Home
Territory, facing any way (Infantry 2 with its Shield, Archer 3, Cavalry 4).

Rulebook, "Reinforce Command". The placing steps (``piece``, ``at``, ``face``) serve
Reinforce en Route too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.words as words
from sengoku.core.sentence import N_, say
from sengoku.games.gunshi.actions import A
from sengoku.games.gunshi.battlefield import AT, FACE, cn, parse_cell
from sengoku.games.gunshi.commands.command import (
    Command,
    CommandType,
    Step,
    done,
    need,
    open_command,
)
from sengoku.games.gunshi.data import DIR_NAMES, HOME, LETTERS
from sengoku.games.gunshi.fences import break_fences
from sengoku.games.gunshi.units import EN_ROUTE_COST, UNITS_COST, free_token, put_unit

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


def start(st: GunshiState) -> None:
    open_command(
        st,
        Command("Rf", type=CommandType.REINFORCE, step=Step.PIECE),
        N_("Reinforce needs 2 points, a unit in the Reserve and an open space"),
    )


def reinforce_types(
    st: GunshiState, p: int, costs: dict[str, int], need_home: bool = True
) -> list[str]:
    """The unit types p can afford and has in the Reserve (and room for at Home)."""
    if need_home and not any(st.field.board[c] < 0 for c in HOME[p]):
        return []
    return [
        t for t in ("I", "A", "C") if costs[t] <= st.logistics.points[p] and free_token(st, t) >= 0
    ]


def legal(st: GunshiState, cmd: Command) -> list[GunshiAction]:
    p = st.player
    if cmd.step is Step.PIECE:
        return [A("place", x) for x in reinforce_types(st, p, UNITS_COST)]
    if cmd.step is Step.AT:
        return [AT[c] for c in sorted(HOME[p]) if st.field.board[c] < 0]
    return list(FACE)


def do(st: GunshiState, cmd: Command, a: GunshiAction) -> None:
    """The placing steps of Reinforce and Reinforce en Route."""
    p = st.player
    if a.kind == "unit":
        cmd.base = st.field.board[parse_cell(a.arg)]
        cmd.step = Step.PIECE
        return
    if a.kind == "place":
        cmd.piece = a.arg
        cmd.step = Step.AT
        return
    if a.kind == "at":
        cmd.cell = parse_cell(a.arg)
        cmd.step = Step.FACE
        return
    t = need(cmd.piece)
    cost = (UNITS_COST if cmd.type is CommandType.REINFORCE else EN_ROUTE_COST)[t]
    u = free_token(st, t)
    cell = need(cmd.cell)
    put_unit(st, u, p, cell, DIR_NAMES.index(a.arg))
    st.pay(p, cost)
    reinforced = {
        "colour": words.colour(p),
        "unit": words.unit_type(u),
        "letter": LETTERS[u],
        "cell": cn(cell),
        "facing": words.facing(a.arg),
        "cost": cost,
    }
    st.emit(
        None,
        "reinforce",
        (
            say(
                "{colour} reinforces with {unit} {letter} on {cell}, facing {facing}, for {cost} "
                "point.",
                **reinforced,
            )
            if cost == 1
            else say(
                "{colour} reinforces with {unit} {letter} on {cell}, facing {facing}, for {cost} "
                "points.",
                **reinforced,
            )
        ),
        seat=p,
        unit=LETTERS[u],
        cell=cn(cell),
        facing=a.arg,
    )
    break_fences(st, cell, p)
    done(st)
