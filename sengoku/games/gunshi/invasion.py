"""Invasion: a unit that moves into the Invasion Zone may leave the Field for the Invader Spot.

Rulebook, "Move Commands" and "Setup & Winning the Game"; the Shogun cannot invade
(spec). Option ``invasion_zone`` chooses the zone's extent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

import sengoku.games.gunshi.words as words
from sengoku.core.sentence import say
from sengoku.core.substate import INTS, SCALAR, Part, part_field
from sengoku.games.gunshi.battlefield import cn
from sengoku.games.gunshi.data import LETTERS, RED, SIZE
from sengoku.games.gunshi.shogun_and_card_order import rule_out
from sengoku.games.gunshi.units import leave_for_invader_spot
from sengoku.games.gunshi.winning import check_invasion_win

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class InvaderSpot(Part):
    """What each player has on the Invader Spot (a shielded Infantry counts 2), and whether a
    unit invaded this turn (The Gunshi's Inspiration follows such a turn)."""

    invaders: list[int] = part_field(INTS, default_factory=lambda: [0, 0])
    invaded_turn: bool = part_field(SCALAR, default=False)


def start_turn(st: GunshiState) -> None:
    """A new turn: no unit has invaded in it yet."""
    st.invader_spot.invaded_turn = False


def in_zone(st: GunshiState, cell: int, p: int) -> bool:
    """Whether a cell is in p's Invasion Zone (the opponent's back line)."""
    r, c = divmod(cell, SIZE)
    if r != (SIZE - 1 if p == RED else 0):
        return False
    return bool(st.options["invasion_zone"] == "back_line" or 2 <= c <= 4)


def invade(st: GunshiState, m: int, p: int) -> None:
    """Unit m leaves the Field for the Invader Spot (a shielded Infantry counts 2)."""
    cell = st.field.uloc[m]
    worth = 2 if st.field.ushield[m] else 1
    leave_for_invader_spot(st, m)
    rule_out(st, p, m)
    st.invader_spot.invaders[p] += worth
    st.invader_spot.invaded_turn = True
    st.emit(
        None,
        "invade",
        say(
            "{colour}'s {unit} {letter} invades from {cell} (counts {worth}; {total} on the "
            "Invader Spot).",
            colour=words.colour(p),
            unit=words.unit_type(m),
            letter=LETTERS[m],
            cell=cn(cell),
            worth=worth,
            total=st.invader_spot.invaders[p],
        ),
        unit=LETTERS[m],
        worth=worth,
        total=st.invader_spot.invaders[p],
    )
    check_invasion_win(st, p)
