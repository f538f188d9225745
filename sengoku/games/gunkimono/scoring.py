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

from typing import TYPE_CHECKING

import sengoku.games.gunkimono.turn_record as turn_record
from sengoku.core.game import Event, event
from sengoku.games.gunkimono.actions import LETTERS, Score, cell_name
from sengoku.games.gunkimono.battlefield import NAMES
from sengoku.games.gunkimono.formations import formation
from sengoku.games.gunkimono.honor_track import advance_honor, can_honor
from sengoku.games.gunkimono.strongholds import RULE_2, after_scoring, controlled
from sengoku.games.gunkimono.turn_sequence import PendingScore, Phase

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState


def queue_scoring(state: GunkimonoState, cells: list[int], events: list[Event]) -> None:
    """The troops just placed on ``cells`` are to be scored, in that order."""
    state.passes = 0
    state.pending = []
    top = state.top
    for c in cells:
        # Just this formation, not the whole board's (which rollouts rarely need here).
        squares = formation(top, c)
        vp_allowed = not controlled(state, squares)  # Stronghold rule 2
        state.pending.append(PendingScore(c, top[c], state.sym[c], len(squares), vp_allowed))
    state.phase = Phase.SCORE
    skip_unscorable(state, events)


def skip_unscorable(state: GunkimonoState, events: list[Event]) -> None:
    """Troops that can score nothing (no VP allowed, no marker) pass without a decision;
    with none left to score, the turn goes on (``strongholds.after_scoring``)."""
    while state.pending:
        cell, troop, _sym, _vp, vp_ok = state.pending[0]
        if vp_ok or can_honor(state, state.turn, troop):
            return
        state.pending.pop(0)
        events.append(
            event(
                "score",
                seat=state.turn,
                points=0,
                message=f"The {NAMES[troop]} on {cell_name(cell)} joins a controlled "
                "formation and has no honor marker: it scores nothing.",
            )
        )
    after_scoring(state, events)


def legal_scores(state: GunkimonoState) -> list[Score]:
    """Victory points (if allowed) or honor points (if the marker can move) for the next troop."""
    cell, troop, _sym, _vp, vp_ok = state.pending[0]
    out = []
    if vp_ok:
        out.append(Score(False, troop, cell))
    if can_honor(state, state.turn, troop):
        out.append(Score(True, troop, cell))
    return out


def why_not_score(state: GunkimonoState, action: Score) -> str | None:
    if state.phase is not Phase.SCORE:
        return f"troops are scored in step 2 of the turn; now: {state.phase.prompt}"
    cell, troop, _sym, _vp, vp_ok = state.pending[0]
    if action.cell != cell or action.troop != troop:
        return f"score the troop just placed: {LETTERS[troop]}@{cell_name(cell)}"
    if not action.honor and not vp_ok:
        return RULE_2
    if action.honor and not can_honor(state, state.turn, troop):
        return f"your {NAMES[troop]} honor marker has left the track: score victory points"
    return None


def score(state: GunkimonoState, action: Score, events: list[Event]) -> None:
    seat = state.turn
    cell, troop, sym, vp, _ok = state.pending.pop(0)
    if not action.honor:
        state.score[seat] += vp
        turn_record.scored(state, turn_record.VP, troop, cell, vp)
        events.append(
            event(
                "score",
                seat=seat,
                kind="vp",
                points=vp,
                message=f"Seat {seat} scores {vp} VP for the {NAMES[troop]} formation "
                f"of {vp} at {cell_name(cell)}.",
            )
        )
    else:
        turn_record.scored(state, turn_record.HONOR, troop, cell, sym)
        advance_honor(state, seat, troop, sym, events)
    skip_unscorable(state, events)
