"""Winning: the first to reach the VP target wins; in the solo mode the Kagemusha wins by
its VP or when a deck of it runs out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.game import Outcome
from sengoku.games.sashimono.pieces import KAGE

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


#: How the Kagemusha won, in words (the reason codes are for programs, not the players).
WHY_KAGEMUSHA_WINS = {
    "kagemusha_vp": ": it reaches the VP target",
    "kagemusha_deck": ": its deck runs out",
}


def win(state: SashimonoState, seat: int, reason: str) -> None:
    """``seat`` (or the Kagemusha) wins for ``reason``: the game ends."""
    if state.solo:
        if seat == KAGE:
            state.finish(Outcome(reason, (), state.interim_scores(), (-1.0,)))
            how = WHY_KAGEMUSHA_WINS.get(reason, "")
            state.emit("game_over", f"The Kagemusha wins{how}.", reason=reason)
        else:
            state.finish(Outcome(reason, (0,), state.interim_scores(), (1.0,)))
            state.emit("game_over", f"{state.name_of(0)} defeats the Kagemusha.", reason=reason)
        return
    returns = tuple(1.0 if s == seat else -1.0 for s in range(2))
    state.finish(Outcome(reason, (seat,), state.interim_scores(), returns))
    state.emit("game_over", f"{state.name_of(seat)} wins with {state.sides[seat].vp} VP.",
               reason=reason, winners=[seat])  # fmt: skip
