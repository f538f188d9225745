"""The turn sequence (rulebook, "Gameplay Reference"), as data.

Each player turn has 4 steps: 1. Place Army Tile, 2. Score Points, 3. Assess Strongholds,
4. Refill Your Hand. Sengoku asks one decision per action, so the steps with decisions
become the phases below; step 3 has no decision and happens inside ``apply``.

=============  ====  =====================================================================
phase          step  the decision asked
=============  ====  =====================================================================
``PLACE``      1     a large tile, a small tile face up, or a small tile face down as
                     extra support (``placement.py``, ``extra_support.py``)
``SUPPORT``    1     the large tile over that support (``extra_support.py``)
``SCORE``      2     victory points or honor points for the next placed troop, one
                     decision per troop (``scoring.py``, ``honor_track.py``)
``STRONGHOLD`` 2     the square of a new stronghold (``strongholds.py``)
``DRAW``       4     the face-up row tile or the top of the stack (``refill_your_hand.py``)
``OVER``       -     none: the game is over (``end_of_the_game.py``)
=============  ====  =====================================================================
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Phase(StrEnum):
    """The decision the player to act is asked now; its value is the name in JSON and views."""

    PLACE = "place"
    SUPPORT = "support"
    SCORE = "score"
    STRONGHOLD = "stronghold"
    DRAW = "draw"
    OVER = "over"

    @property
    def step(self) -> int:
        """The rulebook's step of the turn (0 once the game is over)."""
        return _STEPS[self]

    @property
    def prompt(self) -> str:
        """What the player to act does now, as an illegal action's message says it."""
        return _PROMPTS[self]


_STEPS: dict[Phase, int] = {
    Phase.PLACE: 1,
    Phase.SUPPORT: 1,
    Phase.SCORE: 2,
    Phase.STRONGHOLD: 2,
    Phase.DRAW: 4,
    Phase.OVER: 0,
}
_PROMPTS: dict[Phase, str] = {
    Phase.PLACE: "place a tile",
    Phase.SUPPORT: "place the large tile over the support",
    Phase.SCORE: "score the placed troops",
    Phase.STRONGHOLD: "build a stronghold",
    Phase.DRAW: "draw a tile",
    Phase.OVER: "the game is over",
}

#: Phase names, as written in JSON (``Phase(name)`` reads one).
PHASES: tuple[str, ...] = tuple(p.value for p in Phase)


class PendingScore(NamedTuple):
    """A placed troop still to be scored in step 2 (the pending decisions, in order).

    In JSON a list ``[cell, troop, symbols, vp, vp_allowed (1/0)]``."""

    cell: int
    troop: int
    #: Its stronghold symbols: the honor points it may score.
    symbols: int
    #: The size of its formation: the victory points it may score.
    vp: int
    #: False when it joins a formation with a stronghold (Stronghold rule 2).
    vp_allowed: bool

    def to_json(self) -> list[int]:
        return [self.cell, self.troop, self.symbols, self.vp, 1 if self.vp_allowed else 0]

    @classmethod
    def from_json(cls, data: list[int]) -> PendingScore:
        cell, troop, symbols, vp, ok = (int(v) for v in data)
        return cls(cell, troop, symbols, vp, bool(ok))


__all__ = ["PHASES", "PendingScore", "Phase"]
