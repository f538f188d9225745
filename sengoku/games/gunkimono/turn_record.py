"""The latest turn as the players saw it: whose it was, the squares its tiles covered, and
each scoring of it (the breakdown a client shows: formation VP, honor, strongholds).

Not a rule: the record only remembers what happened at the table, where every player sees
it. It starts when a turn places its first tile (or passes), and stays until the next turn
does, so the turn just played is still there for the next player to read.

Each scoring is ``(kind, troop type or -1, square or -1, points)`` (a list in JSON), ``kind`` one of
:data:`KINDS` (for a banner, ``points`` is its kind's index: its value may be hidden).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

#: What each scoring kind number means (the view's names).
KINDS: tuple[str, ...] = ("vp", "honor", "strongholds", "stronghold_built", "banner")
VP, HONOR, STRONGHOLDS, STRONGHOLD_BUILT, BANNER = range(len(KINDS))


def begin(state: GunkimonoState) -> None:
    """The seat to act starts its turn's record (its first tile, or its pass)."""
    state.last_seat = state.turn
    state.last_squares = []
    state.last_scores = []


def covered(state: GunkimonoState, *squares: int) -> None:
    """A tile of this turn covers ``squares``."""
    state.last_squares.extend(squares)


def scored(state: GunkimonoState, kind: int, troop: int, square: int, points: int) -> None:
    """One scoring of this turn (see the module docstring)."""
    state.last_scores.append((kind, troop, square, points))


__all__ = ["KINDS", "begin", "covered", "scored"]
