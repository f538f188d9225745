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

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from sengoku.core.sentence import N_, Word
from sengoku.core.substate import SCALAR, Codec, Part, part_field


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

    @property
    def prompt_word(self) -> Word:
        """``prompt`` as a sentence's value that the reader's language words (``"...; now:
        {now}"``)."""
        return Word(_PROMPTS[self])


_STEPS: Final[dict[Phase, int]] = {
    Phase.PLACE: 1,
    Phase.SUPPORT: 1,
    Phase.SCORE: 2,
    Phase.STRONGHOLD: 2,
    Phase.DRAW: 4,
    Phase.OVER: 0,
}
_PROMPTS: Final[dict[Phase, str]] = {
    Phase.PLACE: N_("place a tile"),
    Phase.SUPPORT: N_("place the large tile over the support"),
    Phase.SCORE: N_("score the placed troops"),
    Phase.STRONGHOLD: N_("build a stronghold"),
    Phase.DRAW: N_("draw a tile"),
    Phase.OVER: N_("the game is over"),
}

#: Phase names, as written in JSON (``Phase(name)`` reads one).
PHASES: Final[tuple[str, ...]] = tuple(p.value for p in Phase)


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


def _load_phase(value: Any) -> Phase:
    if value not in PHASES:
        raise UnknownPhase(value)
    return Phase(value)


class UnknownPhase(ValueError):
    """A saved state names a phase that does not exist."""


def _same_phase(phase: Phase) -> Phase:
    return phase


def _phase_name(phase: Phase) -> str:
    return phase.value


#: A phase, saved by its name.
PHASE: Final[Codec[Phase]] = Codec(_same_phase, _phase_name, _load_phase)


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class TurnSequence(Part):
    """Whose turn it is and how far it has got (state.py's turn loop, and each step's module
    as it hands the turn on, write it)."""

    #: The seat whose turn it is.
    turn: int = part_field(SCALAR, default=0)
    #: Turns completed.
    turns: int = part_field(SCALAR, default=0)
    #: The decision asked now.
    phase: Phase = part_field(PHASE, default=Phase.PLACE)
    #: The square of the face-down support the large tile must cover (-1: none).
    support_cell: int = part_field(SCALAR, default=-1)
    #: Did step 1 place a large tile (then step 4 refills the hand)?
    placed_large: bool = part_field(SCALAR, default=False)
    #: Turns passed in a row without a legal placement.
    passes: int = part_field(SCALAR, default=0)
    #: Decisions taken in the game (the length guard's count).
    decisions: int = part_field(SCALAR, default=0)


__all__ = ["PHASE", "PHASES", "PendingScore", "Phase", "TurnSequence", "UnknownPhase"]
