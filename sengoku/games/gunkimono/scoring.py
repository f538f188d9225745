"""2. Score Points: each troop just placed scores, one decision per troop, in the order
written in the action.

* **Scoring Victory Points**: the size of the troop's formation after the placement
  (``formations.py``), none if the formation is controlled (Stronghold rule 2).
* **Scoring Honor Points**: the troop's stronghold symbols, up its column of the honor
  track (``honor_track.py``).

Never both for one troop; the two troops of a tile may differ. A troop that can score
nothing (no victory points allowed, its marker off the track) passes without a decision.
Once every troop is scored, a stronghold that is due is built (``strongholds.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

import sengoku.games.gunkimono.turn_record as turn_record
from sengoku.core.game import Event
from sengoku.core.sentence import said, say
from sengoku.core.substate import Codec, Part, part_field
from sengoku.games.gunkimono.actions import CELLS, LETTERS, Score, cell_name
from sengoku.games.gunkimono.battlefield import tell, troop_word
from sengoku.games.gunkimono.formations import formation
from sengoku.games.gunkimono.honor_track import advance_honor, can_honor
from sengoku.games.gunkimono.strongholds import RULE_2, controlled
from sengoku.games.gunkimono.turn_sequence import PendingScore, Phase
from sengoku.games.gunkimono.victory_points import gain

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState


#: Every scoring decision, made once (``_SCORES[honor][troop][cell]``): a legal list hands out
#: these, not new actions (a constructor checks its fields; a search compares lists of them).
_SCORES: Final[list[list[list[Score]]]] = [
    [[Score(honor, t, c) for c in range(CELLS)] for t in range(5)] for honor in (False, True)
]


def _score(honor: bool, troop: int, cell: int) -> Score:
    if 0 <= troop < 5 and 0 <= cell < CELLS:
        return _SCORES[1 if honor else 0][troop][cell]
    return Score(honor, troop, cell)  # a state loaded with a bad square: the field is named


def _same(pending: list[PendingScore]) -> list[PendingScore]:
    return list(pending)  # immutable records: a shallow copy


def _dump(pending: list[PendingScore]) -> list[list[int]]:
    return [p.to_json() for p in pending]


def _load(data: Any) -> list[PendingScore]:
    return [PendingScore.from_json(p) for p in data]


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class Scoring(Part):
    """Step 2's queue: the placed troops still to score, in order (as lists in JSON)."""

    pending: list[PendingScore] = part_field(
        Codec(_same, _dump, _load, copy_code="list({})"), default_factory=list
    )


def turn_over(state: GunkimonoState) -> None:
    """The turn is over: nothing is left to score."""
    state.scoring.pending = []


def queue_scoring(state: GunkimonoState, cells: list[int], events: list[Event]) -> None:
    """The troops just placed on ``cells`` are to be scored, in that order."""
    state.sequence.passes = 0
    pending: list[PendingScore] = []
    top, sym = state.battlefield.top, state.battlefield.sym
    for c in cells:
        # Just this formation, not the whole board's (which rollouts rarely need here).
        squares = formation(top, c)
        vp_allowed = not controlled(state, squares)  # Stronghold rule 2
        pending.append(PendingScore(c, top[c], sym[c], len(squares), vp_allowed))
    state.scoring.pending = pending


def skip_unscorable(state: GunkimonoState, events: list[Event]) -> None:
    """Troops that can score nothing (no VP allowed, no marker) pass without a decision
    (as step 2 begins, and after each troop scored); with none left to score, step 2 is over
    (``scored``)."""
    while state.scoring.pending:
        cell, troop, _sym, _vp, vp_ok = state.scoring.pending[0]
        if vp_ok or can_honor(state, state.sequence.turn, troop):
            return
        state.scoring.pending.pop(0)
        if not state.muted:
            events.append(
                tell(
                    {
                        "type": "score",
                        "audience": None,
                        "seat": state.sequence.turn,
                        "points": 0,
                        "message": say(
                            "The {troop} on {square} joins a controlled formation and has no "
                            "honor marker: it scores nothing.",
                            troop=troop_word(troop),
                            square=cell_name(cell),
                        ),
                    }
                )
            )


def scored(state: GunkimonoState) -> bool:
    """Every troop placed this turn is scored: step 2 is over (the flow's ``end``)."""
    return not state.scoring.pending


def legal_scores(state: GunkimonoState) -> list[Score]:
    """Victory points (if allowed) or honor points (if the marker can move) for the next troop."""
    cell, troop, _sym, _vp, vp_ok = state.scoring.pending[0]
    out = []
    if vp_ok:
        out.append(_score(False, troop, cell))
    if can_honor(state, state.sequence.turn, troop):
        out.append(_score(True, troop, cell))
    return out


def why_not_score(state: GunkimonoState, action: Score) -> str | None:
    if state.sequence.phase is not Phase.SCORE:
        return said(
            say(
                "troops are scored in step 2 of the turn; now: {now}",
                now=state.sequence.phase.prompt_word,
            )
        )
    cell, troop, _sym, _vp, vp_ok = state.scoring.pending[0]
    if action.cell != cell or action.troop != troop:
        placed = f"{LETTERS[troop]}@{cell_name(cell)}"  # notation, as the player writes it
        return said(say("score the troop just placed: {troop}", troop=placed))
    if not action.honor and not vp_ok:
        return RULE_2
    if action.honor and not can_honor(state, state.sequence.turn, troop):
        return said(
            say(
                "your {troop} honor marker has left the track: score victory points",
                troop=troop_word(troop),
            )
        )
    return None


def score(state: GunkimonoState, action: Score, events: list[Event]) -> None:
    seat = state.sequence.turn
    cell, troop, sym, vp, _ok = state.scoring.pending.pop(0)
    if not action.honor:
        gain(state, seat, vp)
        turn_record.scored(state, turn_record.VP, troop, cell, vp)
        if not state.muted:
            events.append(
                tell(
                    {
                        "type": "score",
                        "audience": None,
                        "seat": seat,
                        "kind": "vp",
                        "points": vp,
                        "message": say(
                            "Seat {seat} scores {points} VP for the {troop} formation of "
                            "{points} at {square}.",
                            seat=seat,
                            points=vp,
                            troop=troop_word(troop),
                            square=cell_name(cell),
                        ),
                    }
                )
            )
    else:
        turn_record.scored(state, turn_record.HONOR, troop, cell, sym)
        advance_honor(state, seat, troop, sym, events)
    skip_unscorable(state, events)
