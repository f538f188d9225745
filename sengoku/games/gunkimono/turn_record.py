"""The latest turn as the players saw it: whose it was, the squares its tiles covered, and
each scoring of it (the breakdown a client shows: formation VP, honor, strongholds).

Not a rule: the record only remembers what happened at the table, where every player sees
it. It starts when a turn places its first tile (or passes), and stays until the next turn
does, so the turn just played is still there for the next player to read.

Each scoring is ``(kind, troop type or -1, square or -1, points)`` (a list in JSON), ``kind`` one of
:data:`KINDS` (for a banner, ``points`` is its kind's index: its value may be hidden).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from sengoku.core.substate import Part

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

#: What each scoring kind number means (the view's names).
KINDS: Final[tuple[str, ...]] = ("vp", "honor", "strongholds", "stronghold_built", "banner")
VP, HONOR, STRONGHOLDS, STRONGHOLD_BUILT, BANNER = range(len(KINDS))


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class TurnRecord(Part):
    """The latest turn as players saw it; saved as one object, ``last_turn``."""

    #: Its seat (-1: no turn yet).
    seat: int = -1
    #: The squares its tiles covered, in order.
    squares: list[int] = field(default_factory=list)
    #: Each scoring (see the module docstring); immutable records.
    scores: list[tuple[int, int, int, int]] = field(default_factory=list)

    def clone(self) -> TurnRecord:
        return TurnRecord(self.seat, list(self.squares), list(self.scores))

    def dump_into(self, data: dict[str, Any]) -> None:
        data["last_turn"] = {
            "seat": self.seat,
            "squares": list(self.squares),
            "scores": [list(x) for x in self.scores],
        }

    def load_from(self, data: Mapping[str, Any], *, keep_absent: bool = False) -> None:
        # Absent from states saved before the record was kept: no turn recorded yet (an
        # absent key is always read so; ``keep_absent`` is the base class's signature).
        last = data.get("last_turn") or {}
        self.seat = int(last.get("seat", -1))
        self.squares = [int(c) for c in last.get("squares", [])]
        self.scores = [(int(k), int(t), int(c), int(p)) for k, t, c, p in last.get("scores", [])]

    @classmethod
    def saved_names(cls) -> tuple[str, ...]:
        return ("last_turn",)


def begin(state: GunkimonoState) -> None:
    """The seat to act starts its turn's record (its first tile, or its pass)."""
    state.record.seat = state.sequence.turn
    state.record.squares = []
    state.record.scores = []


def covered(state: GunkimonoState, *squares: int) -> None:
    """A tile of this turn covers ``squares``."""
    state.record.squares.extend(squares)


def scored(state: GunkimonoState, kind: int, troop: int, square: int, points: int) -> None:
    """One scoring of this turn (see the module docstring)."""
    state.record.scores.append((kind, troop, square, points))


__all__ = ["KINDS", "TurnRecord", "begin", "covered", "scored"]
