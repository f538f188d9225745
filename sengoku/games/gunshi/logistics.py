"""Military Logistics Points: spent on the formation and on Lightning Commands, gained at
Re-Supply and by some commands.

Rulebook, "Phase 1" (18 points to spend), "Phase 3" (Re-Supply, Lightning Command) and the
cards that gain or cost points; option ``logistics_cap`` caps a player's total.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from sengoku.core.substate import INTS, Part, part_field
from sengoku.games.gunshi.data import STARTING_POINTS

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class MilitaryLogistics(Part):
    """Each player's Military Logistics Points."""

    points: list[int] = part_field(INTS, default_factory=lambda: [STARTING_POINTS, STARTING_POINTS])


def gain(st: GunshiState, p: int, n: int) -> None:
    """p gains n Military Logistics Points (up to the ``logistics_cap`` option)."""
    points = st.logistics.points
    cap = st.options["logistics_cap"]
    total = points[p] + n
    points[p] = total if cap is None else max(points[p], min(cap, total))


def pay(st: GunshiState, p: int, n: int) -> None:
    """p spends n Military Logistics Points."""
    st.logistics.points[p] -= n


def set_points(st: GunshiState, p: int, n: int) -> None:
    """p holds n points (a preset formation's remainder, a position string's count)."""
    st.logistics.points[p] = n
