"""Invasion: a unit that moves into the Invasion Zone may leave the Field for the Invader Spot.

Rulebook, "Move Commands" and "Setup & Winning the Game"; the Shogun cannot invade
(spec). Option ``invasion_zone`` chooses the zone's extent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.games.gunshi.battlefield import cn
from sengoku.games.gunshi.data import COLOUR, LETTERS, RED, SIZE, TOKEN_TYPE
from sengoku.games.gunshi.units import INVADED, TYPE_NAME
from sengoku.games.gunshi.winning import check_invasion_win

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


def in_zone(st: GunshiState, cell: int, p: int) -> bool:
    """Whether a cell is in p's Invasion Zone (the opponent's back line)."""
    r, c = divmod(cell, SIZE)
    if r != (SIZE - 1 if p == RED else 0):
        return False
    return bool(st.options["invasion_zone"] == "back_line" or 2 <= c <= 4)


def invade(st: GunshiState, m: int, p: int) -> None:
    """Unit m leaves the Field for the Invader Spot (a shielded Infantry counts 2)."""
    cell = st.uloc[m]
    worth = 2 if st.ushield[m] else 1
    st.board[cell] = -1
    st.uloc[m] = INVADED
    st.ushield[m] = False
    if m in st.candidates[p]:
        st.candidates[p].remove(m)
    st.invaders[p] += worth
    st.invaded_turn = True
    st.emit(
        None,
        "invade",
        f"{COLOUR[p]}'s {TYPE_NAME[TOKEN_TYPE[m]]} {LETTERS[m]} invades from {cn(cell)} "
        f"(counts {worth}; {st.invaders[p]} on the Invader Spot).",
        unit=LETTERS[m],
        worth=worth,
        total=st.invaders[p],
    )
    check_invasion_win(st, p)
