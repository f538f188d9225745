"""End of the Game.

When the last tile of the main stacks is drawn, the end-game stack (5 tiles shuffled with
the end-of-game tile at setup, kept under its cover tile) comes into play. Drawing the
end-of-game tile, from the stack or by revealing it for the face-up row, triggers the end:
play goes on until the last seat (seat N-1) has finished its turn. With
``end_tile_replacement`` the tile is set aside and replaced. A whole round of turns without
a legal placement also ends the game (``no_placement``).

Banners are then revealed and added to the victory points; the highest total wins, a tie
going to the most troops in the formations the player controls; players still tied share
the rank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.game import Event, Outcome, event
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.strongholds import controlled_troops
from sengoku.games.gunkimono.turn_sequence import Phase
from sengoku.games.gunkimono.war_banners import banner_total

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

_C = components()

#: The end-of-game tile inside the end-game stack.
END_TILE = 100


def bring_end_stack(state: GunkimonoState, events: list[Event]) -> None:
    """The main stacks are used up: the end-game stack comes into play."""
    state.end_stack_in_play = True
    state.stack = state.end_stack
    state.end_stack = []
    events.append(
        event(
            "end_stack",
            message="The last tile of the main stacks is drawn: the end-game stack comes "
            "into play (cover tile removed).",
        )
    )


def trigger_end(state: GunkimonoState, events: list[Event], how: str) -> None:
    """The end-of-game tile has appeared: the game ends after the last seat's turn."""
    state.end_triggered = True
    events.append(
        event(
            "end_triggered",
            seat=state.turn,
            message=f"The end-of-game tile is {how}: the game ends after seat "
            f"{state.num_players - 1}'s turn.",
        )
    )


def game_ends_now(state: GunkimonoState) -> str | None:
    """Asked at the end of each turn: the reason the game ends now, or None."""
    if state.end_triggered and state.turn == state.num_players - 1:
        return "end_of_game"
    if state.passes >= state.num_players:
        return "no_placement"
    return None


def final_scores(state: GunkimonoState) -> list[int]:
    """Victory points plus the values of the claimed war banners."""
    return [state.score[s] + banner_total(state, s) for s in range(state.num_players)]


def finish(state: GunkimonoState, reason: str, events: list[Event]) -> None:
    """The game is over: banners are revealed and final scores announced."""
    state.phase = Phase.OVER
    state.reason = reason
    state._legal = None
    finals = final_scores(state)
    reveal = {
        str(s): [[_C.banner_kinds[k], v] for k, v, _col in state.banners[s]]
        for s in range(state.num_players)
    }
    events.append(
        event(
            "game_over",
            reason=reason,
            banners=reveal,
            final_scores=finals,
            message="Game over: banners revealed; final scores "
            + ", ".join(f"seat {s} {finals[s]}" for s in range(state.num_players))
            + ".",
        )
    )


def outcome(state: GunkimonoState, reason: str | None) -> Outcome:
    """The ranking by final score, ties broken by the troops in controlled formations."""
    n = state.num_players
    finals = final_scores(state)
    tb = [controlled_troops(state, s) for s in range(n)]
    ranks = [sum(1 for o in range(n) if (finals[o], tb[o]) > (finals[s], tb[s])) for s in range(n)]
    return Outcome.ranked(finals, reason or "end_of_game", ranks)


__all__ = ["END_TILE", "final_scores", "finish", "outcome"]
