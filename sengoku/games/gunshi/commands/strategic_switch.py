"""Strategic Switch (Sanryaku, 2 points): two adjacent own units swap places, keeping their
facings.

Rulebook, "Advanced Card Effects and Clarifications".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.words as words
from sengoku.core.sentence import N_, say
from sengoku.games.gunshi.battlefield import SWAP, UNIT, cn, parse_cell
from sengoku.games.gunshi.commands.command import (
    Command,
    CommandType,
    Step,
    done,
    need,
    open_command,
)
from sengoku.games.gunshi.data import CARDS
from sengoku.games.gunshi.units import adjacent_own, switch_units, units_of

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


def start(st: GunshiState) -> None:
    open_command(
        st,
        Command("Switch", type=CommandType.SWITCH, step=Step.UNIT),
        N_("Strategic Switch needs 2 points and two adjacent units"),
        affordable=st.logistics.points[st.player] >= CARDS["Switch"].cost,
    )


def legal(st: GunshiState, cmd: Command) -> list[GunshiAction]:
    p = st.player
    if cmd.step is Step.UNIT:
        return [
            UNIT[st.field.uloc[u]]
            for u in units_of(st, p)
            if adjacent_own(st, st.field.uloc[u], p, "IAC")
        ]
    return [
        SWAP[st.field.uloc[v]] for v in adjacent_own(st, st.field.uloc[need(cmd.first)], p, "IAC")
    ]


def do(st: GunshiState, cmd: Command, a: GunshiAction) -> None:
    p = st.player
    if a.kind == "unit":
        st.pay(p, CARDS["Switch"].cost)
        cmd.first = st.field.board[parse_cell(a.arg)]
        cmd.step = Step.SWAP
        return
    u = need(cmd.first)
    v = st.field.board[parse_cell(a.arg)]
    cu, cv = st.field.uloc[u], st.field.uloc[v]
    switch_units(st, u, v)
    st.emit(
        None,
        "switch",
        say("{colour} switches {a} and {b}.", colour=words.colour(p), a=cn(cu), b=cn(cv)),
    )
    done(st)
