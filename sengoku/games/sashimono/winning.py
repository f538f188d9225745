"""Winning: the first to reach the VP target wins; in the solo mode the Kagemusha wins by
its VP or when a deck of it runs out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.game import Outcome
from sengoku.core.sentence import N_, say
from sengoku.games.sashimono.pieces import KAGE

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


#: How the Kagemusha won, in words (the reason codes are for programs, not the players).
WHY_KAGEMUSHA_WINS = {
    "kagemusha_vp": N_("The Kagemusha wins: it reaches the VP target."),
    "kagemusha_deck": N_("The Kagemusha wins: its deck runs out."),
}


def win(state: SashimonoState, seat: int, reason: str) -> None:
    """``seat`` (or the Kagemusha) wins for ``reason``: the game ends."""
    if state.solo:
        if seat == KAGE:
            state.finish(Outcome(reason, (), state.interim_scores(), (-1.0,)))
            wins = WHY_KAGEMUSHA_WINS.get(reason, N_("The Kagemusha wins."))
            state.emit("game_over", say(wins), reason=reason)
        else:
            state.finish(Outcome(reason, (0,), state.interim_scores(), (1.0,)))
            state.emit(
                "game_over",
                say("{side} defeats the Kagemusha.", side=state.name_of(0)),
                reason=reason,
            )
        return
    returns = tuple(1.0 if s == seat else -1.0 for s in range(2))
    state.finish(Outcome(reason, (seat,), state.interim_scores(), returns))
    state.emit("game_over", say("{side} wins with {vp} VP.", side=state.name_of(seat),
                                vp=state.sides[seat].vp),
               reason=reason, winners=[seat])  # fmt: skip
