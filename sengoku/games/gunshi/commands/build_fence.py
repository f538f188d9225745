"""Build Fence (1 point a Fence): an Infantry, and its chain, each build a Fence on a free
edge in front, to the side or on a front diagonal, not next to an enemy unit.

Rulebook, "Build Fence Command"; the edges themselves are in ``fences.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.words as words
from sengoku.core.sentence import N_, say
from sengoku.games.gunshi.battlefield import DONE, FENCE, UNIT, parse_cell
from sengoku.games.gunshi.chained_commands import after_chain_member, chain_choices
from sengoku.games.gunshi.commands.command import (
    Command,
    CommandType,
    Step,
    done,
    need,
    open_command,
)
from sengoku.games.gunshi.data import EDGE_NAMES, FENCE_COST
from sengoku.games.gunshi.fences import buildable_edges, place_fence
from sengoku.games.gunshi.units import units_of

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


def start(st: GunshiState) -> None:
    open_command(
        st,
        Command("F", type=CommandType.FENCE, step=Step.UNIT, used=()),
        N_("Build Fence needs a Fence, 1 point and an Infantry with room"),
    )


def legal(st: GunshiState, cmd: Command) -> list[GunshiAction]:
    p = st.player
    if cmd.step is Step.UNIT:
        if st.fences.fences_left[p] < 1 or st.logistics.points[p] < FENCE_COST:
            return []
        return [UNIT[st.field.uloc[u]] for u in units_of(st, p, "I") if buildable_edges(st, u)]
    if cmd.step is Step.FENCE:
        return [FENCE[e] for e in buildable_edges(st, need(cmd.builder))]
    return chain_choices(st, cmd, p, _builder_joins) + [DONE]


def _builder_joins(st: GunshiState, cmd: Command, u: int, p: int) -> bool:
    # Each chained Fence costs 1 and needs a Fence in hand.
    return (
        st.fences.fences_left[p] >= 1
        and st.logistics.points[p] >= FENCE_COST
        and bool(buildable_edges(st, u))
    )


def do(st: GunshiState, cmd: Command, a: GunshiAction) -> None:
    p = st.player
    if a.kind in ("unit", "chain"):
        u = st.field.board[parse_cell(a.arg)]
        if a.kind == "unit":
            cmd.leader = u
            cmd.origin = st.field.uloc[u]
        cmd.builder = u
        cmd.step = Step.FENCE
        cmd.used = need(cmd.used) + (u,)
        return
    if a.kind == "done":
        done(st)
        return
    e = EDGE_NAMES.index(a.arg)
    place_fence(st, e, p)
    st.pay(p, FENCE_COST)
    st.emit(
        None,
        "fence",
        say(
            "{colour} builds a Fence between {a} and {b}.",
            colour=words.colour(p),
            **words.edge_ends(a.arg),
        ),
        edge=a.arg,
        seat=p,
    )
    after_chain_member(st, cmd, p, _builder_joins)
