"""The honor track (rulebook, "Scoring Honor Points").

A troop scored for honor moves its owner's marker up that troop type's column by its
stronghold symbols. The row a marker reaches decides when a stronghold is due
(``strongholds.stronghold_due``); a marker that reaches the ending row claims a war banner
(``war_banners.py``) and leaves the track, so honor can no longer be scored for that troop
type. Honor beyond the ending row is lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from sengoku.core.game import Event
from sengoku.core.sentence import say
from sengoku.core.substate import INT_ROWS, Part, part_field
from sengoku.games.gunkimono.battlefield import NAMES, tell, troop_word
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.war_banners import reach_ending_row

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

_C: Final = components()

#: The row of an honor marker taken off the track after claiming a banner.
REMOVED: Final = -1


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class HonorTrack(Part):
    """Each seat's honor markers: the row of each troop column (``REMOVED``: off the track)."""

    honor: list[list[int]] = part_field(INT_ROWS)

    @classmethod
    def fresh(cls, players: int) -> HonorTrack:
        """Every marker on row 0."""
        return cls([[0] * 5 for _ in range(players)])


def ending_row(state: GunkimonoState) -> int:
    """The row of the banner stacks for this player count."""
    return _C.ending_row[state.num_players]


def can_honor(state: GunkimonoState, seat: int, troop: int) -> bool:
    """Is the seat's marker of this troop type still on the track, below the ending row?"""
    row = state.honor_track.honor[seat][troop]
    return row != REMOVED and row < _C.ending_row[state.num_players]


def advance_honor(
    state: GunkimonoState, seat: int, troop: int, points: int, events: list[Event]
) -> None:
    """Move the seat's ``troop`` marker up ``points`` rows (not past the ending row)."""
    end = _C.ending_row[state.num_players]
    row = min(state.honor_track.honor[seat][troop] + points, end)
    state.honor_track.honor[seat][troop] = row
    if not state.muted:
        events.append(
            tell(
                {
                    "type": "score",
                    "audience": None,
                    "seat": seat,
                    "kind": "honor",
                    "points": points,
                    "column": NAMES[troop],
                    "row": row,
                    "message": say(
                        "Seat {seat} scores {points} honor in the {troop} column (now row {row}).",
                        seat=seat,
                        points=points,
                        troop=troop_word(troop),
                        row=row,
                    ),
                }
            )
        )
    if row >= end and reach_ending_row(state, seat, troop, events):
        state.honor_track.honor[seat][troop] = REMOVED


__all__ = ["REMOVED", "HonorTrack", "advance_honor", "can_honor", "ending_row"]
