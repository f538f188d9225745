"""Attacks: a unit moving onto an enemy (or an Archer shooting it) removes it, except that an
Infantry's Shield absorbs a non-Cavalry attack first.

Rulebook, "Components" (Shield Tokens), "Move Commands" and "Important Things to Remember".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.words as words
from sengoku.core.sentence import say
from sengoku.games.gunshi.battlefield import cn
from sengoku.games.gunshi.data import LETTERS
from sengoku.games.gunshi.units import lose_shield, remove_unit
from sengoku.games.gunshi.winning import check_shogun_captured

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


def capture(st: GunshiState, target: int, attacker_seat: int, by: str) -> bool:
    """An attack on ``target`` by a unit of type ``by``; True if the unit left the board
    (False: it lost its Shield only)."""
    cell = st.field.uloc[target]
    owner = st.field.uown[target]
    if st.field.ushield[target] and by != "C":
        lose_shield(st, target)
        st.emit(
            None,
            "shield",
            say(
                "{colour}'s Infantry {letter} on {cell} loses its Shield.",
                colour=words.colour(owner),
                letter=LETTERS[target],
                cell=cn(cell),
            ),
            cell=cn(cell),
        )
        return False
    remove_unit(st, target)
    st.emit(
        None,
        "capture",
        say(
            "{attacker} removes {owner}'s {unit} {letter} from {cell}.",
            attacker=words.colour(attacker_seat),
            owner=words.colour(owner),
            unit=words.unit_type(target),
            letter=LETTERS[target],
            cell=cn(cell),
        ),
        cell=cn(cell),
        unit=LETTERS[target],
    )
    check_shogun_captured(st, target, owner, attacker_seat)
    return True
