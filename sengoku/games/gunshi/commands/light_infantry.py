"""Light Infantry (Rikutoh, chainable): Infantry only; they drop their Shield, then step 1,
or go 2 forward passing over any unit (not over an enemy Fence); they may invade.

The command's decisions are Move's (``commands/move.py``, type ``light``); this module holds
what differs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.units as units
from sengoku.core.sentence import N_, say
from sengoku.games.gunshi.commands.command import Command, CommandType, Step, open_command
from sengoku.games.gunshi.data import LETTERS, NEIGHBOUR
from sengoku.games.gunshi.fences import enemy_fence

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


def start(st: GunshiState) -> None:
    open_command(
        st,
        Command("Light", type=CommandType.LIGHT, step=Step.UNIT),
        N_("no unit can carry out Light Infantry"),
    )


def double_step(st: GunshiState, cell: int, d: int, p: int, b: list[int]) -> int:
    """The cell two spaces forwards, if free of own units and enemy Fences (-1: none)."""
    n1 = NEIGHBOUR[cell][d]
    if n1 >= 0 and not enemy_fence(st, cell, d, p):
        n2 = NEIGHBOUR[n1][d]
        if n2 >= 0 and not enemy_fence(st, n1, d, p):
            occ = b[n2]
            if occ < 0 or st.field.uown[occ] != p:
                return n2
    return -1


def drop_shield(st: GunshiState, m: int) -> None:
    """Light Infantry: the Shield comes off before moving."""
    if st.field.ushield[m]:
        units.lose_shield(st, m)
        st.emit(
            None,
            "shield_off",
            say("Infantry {letter} drops its Shield to move.", letter=LETTERS[m]),
        )
