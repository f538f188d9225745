"""Rapid-Move (Rikutoh, 2 points): one unit, never chained, Moves and Reorients, in either
order; it may invade.

The movement itself is Move's (``commands/move.py``, type ``rapid``); this module holds the
reorientation steps: ``rapid`` (move, or reorient first) and ``rface`` (reorient after).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.sentence import N_
from sengoku.games.gunshi.battlefield import DIR, FACE
from sengoku.games.gunshi.commands.command import Command, CommandType, Step, done, open_command
from sengoku.games.gunshi.commands.reorient_or_shoot import turn
from sengoku.games.gunshi.data import CARDS, DIR_NAMES
from sengoku.games.gunshi.units import dests, turn_unit

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


def start(st: GunshiState) -> None:
    open_command(
        st,
        Command("Rapid", type=CommandType.RAPID, step=Step.UNIT),
        N_("Rapid-Move needs 2 points and a unit able to move"),
        affordable=st.logistics.points[st.player] >= CARDS["Rapid"].cost,
    )


def faces(st: GunshiState, u: int) -> list[int]:
    """Facings a Rapid-Move unit may reorient to first and still be able to move."""
    out = []
    saved = st.field.uface[u]
    for f in range(4):
        if f == saved:
            continue
        turn_unit(st, u, f)
        if any(dests(st, u, d, "move") for d in range(4)):
            out.append(f)
    turn_unit(st, u, saved)
    return out


def legal(st: GunshiState, cmd: Command, u: int) -> list[GunshiAction]:
    if cmd.step is Step.RAPID:
        dirs = [DIR[d] for d in range(4) if dests(st, u, d, "move")]
        return dirs + [FACE[f] for f in faces(st, u)]
    return [FACE[f] for f in range(4) if f != st.field.uface[u]]  # Step.RFACE


def chosen(st: GunshiState, cmd: Command) -> None:
    """The unit is chosen: pay, then move or reorient first."""
    st.pay(st.player, CARDS["Rapid"].cost)
    cmd.step = Step.RAPID
    cmd.rapid = ""


def first_step(st: GunshiState, cmd: Command, u: int, a: GunshiAction) -> bool:
    """Reorient first (then choose the direction), or move now: True when it moves now."""
    if a.kind == "face":
        turn(st, u, DIR_NAMES.index(a.arg))
        cmd.rapid = "reoriented"
        cmd.step = Step.DIR
        return False
    cmd.rapid = "moving"
    return True


def last_step(st: GunshiState, cmd: Command, u: int, a: GunshiAction) -> None:
    """Reorient after moving."""
    turn(st, u, DIR_NAMES.index(a.arg))
    done(st)
