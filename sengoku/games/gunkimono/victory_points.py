"""The victory point track (rulebook, "Scoring Victory Points" and "3. Assess Strongholds").

Each seat's victory points, and the part of them its strongholds scored in step 3 (the rest
came from formations in step 2): the breakdown players are shown. Scoring and the stronghold
assessment move the markers through :func:`gain`; nothing else writes the track.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from sengoku.core.substate import INTS, Codec, Part, part_field

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

#: Absent from states saved before the breakdown was kept: nothing recorded yet.
_OPTIONAL_INTS: Final[Codec[list[int]]] = Codec(
    INTS.copy, INTS.dump, INTS.load, optional=True, copy_code=INTS.copy_code
)


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class VictoryPointTrack(Part):
    """Each seat's victory points, and those its strongholds scored."""

    score: list[int] = part_field(INTS)
    vp_strongholds: list[int] = part_field(_OPTIONAL_INTS)

    @classmethod
    def fresh(cls, players: int) -> VictoryPointTrack:
        return cls([0] * players, [0] * players)


def gain(state: GunkimonoState, seat: int, points: int, *, by_strongholds: bool = False) -> None:
    """Move the seat's marker ``points`` up the track (``by_strongholds``: step 3's points)."""
    track = state.victory_points
    track.score[seat] += points
    if by_strongholds:
        track.vp_strongholds[seat] += points


__all__ = ["VictoryPointTrack", "gain"]
