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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from sengoku.core.game import Event, Outcome, event
from sengoku.core.sentence import N_, Sentence, say
from sengoku.core.substate import FROZEN_JSON, INTS, SCALAR, Part, part_field
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.strongholds import controlled_troops
from sengoku.games.gunkimono.turn_sequence import Phase
from sengoku.games.gunkimono.war_banners import banner_total

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

_C: Final = components()

#: The end-of-game tile inside the end-game stack.
END_TILE: Final = 100


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class Ending(Part):
    """The end-game stack and how the game ends: what this rule alone writes."""

    #: The covered end-game stack until it comes into play (then empty).
    end_stack: list[int] = part_field(INTS, default_factory=list)
    end_stack_in_play: bool = part_field(SCALAR, default=False)
    #: Has the end-of-game tile appeared (the round then finishes)?
    end_triggered: bool = part_field(SCALAR, default=False)
    #: Why the game ended (None while it goes on).
    reason: str | None = part_field(SCALAR, default=None)
    #: An ending made by core (concession, timeout, length limit), as Outcome JSON.
    ended: dict[str, Any] | None = part_field(FROZEN_JSON, default=None)


def bring_end_stack(state: GunkimonoState, events: list[Event]) -> list[int]:
    """The main stacks are used up: the end-game stack comes into play. Its tiles, for
    the draw pile (``refill_your_hand.open_end_stack``)."""
    ending = state.ending
    tiles = ending.end_stack
    ending.end_stack_in_play = True
    ending.end_stack = []
    if not state.muted:
        events.append(
            event(
                "end_stack",
                message=say(
                    "The last tile of the main stacks is drawn: the end-game stack comes "
                    "into play (cover tile removed)."
                ),
            )
        )
    return tiles


def trigger_end(state: GunkimonoState, events: list[Event], drawn_by: int | None) -> None:
    """The end-of-game tile has appeared, drawn from the stack by seat ``drawn_by`` (None:
    revealed for the face-up row): the game ends after the last seat's turn."""
    state.ending.end_triggered = True
    last = state.num_players - 1
    if drawn_by is None:
        message = say(
            "The end-of-game tile is revealed for the face-up row: the game ends after seat "
            "{last}'s turn.",
            last=last,
        )
    else:
        message = say(
            "The end-of-game tile is drawn by seat {seat}: the game ends after seat {last}'s turn.",
            seat=drawn_by,
            last=last,
        )
    if not state.muted:
        events.append(event("end_triggered", seat=state.sequence.turn, message=message))


def game_ends_now(state: GunkimonoState) -> str | None:
    """Asked at the end of each turn: the reason the game ends now, or None."""
    if state.ending.end_triggered and state.sequence.turn == state.num_players - 1:
        return "end_of_game"
    if state.sequence.passes >= state.num_players:
        return "no_placement"
    return None


def final_scores(state: GunkimonoState) -> list[int]:
    """Victory points plus the values of the claimed war banners."""
    return [
        state.victory_points.score[s] + banner_total(state, s) for s in range(state.num_players)
    ]


def finish(state: GunkimonoState, reason: str, events: list[Event]) -> None:
    """The game is over: banners are revealed and final scores announced."""
    state.sequence.phase = Phase.OVER
    state.ending.reason = reason
    finals = final_scores(state)
    reveal = {
        str(s): [[_C.banner_kinds[k], v] for k, v, _col in state.war_banners.banners[s]]
        for s in range(state.num_players)
    }
    if not state.muted:
        events.append(
            event(
                "game_over",
                reason=reason,
                banners=reveal,
                final_scores=finals,
                message=_final_scores_said(finals),
            )
        )


#: The game-over sentence for 2 to 5 players: one sentence a player count, so that a
#: language words the list of scores whole ("seat {seat1} {score1}": seat 1 has score1).
_GAME_OVER: Final[dict[int, str]] = {
    2: N_(
        "Game over: banners revealed; final scores seat {seat0} {score0}, seat {seat1} {score1}."
    ),
    3: N_(
        "Game over: banners revealed; final scores seat {seat0} {score0}, seat {seat1} "
        "{score1}, seat {seat2} {score2}."
    ),
    4: N_(
        "Game over: banners revealed; final scores seat {seat0} {score0}, seat {seat1} "
        "{score1}, seat {seat2} {score2}, seat {seat3} {score3}."
    ),
    5: N_(
        "Game over: banners revealed; final scores seat {seat0} {score0}, seat {seat1} "
        "{score1}, seat {seat2} {score2}, seat {seat3} {score3}, seat {seat4} {score4}."
    ),
}


def _final_scores_said(finals: list[int]) -> Sentence:
    """The game-over sentence naming every seat's final score."""
    args: dict[str, object] = {}
    for seat, score in enumerate(finals):
        args[f"seat{seat}"] = seat
        args[f"score{seat}"] = score
    return Sentence(_GAME_OVER[len(finals)], args)


def end_by_core(state: GunkimonoState, result: Outcome) -> None:
    """Core ended the game (concession, timeout, length limit): keep its outcome."""
    state.sequence.phase = Phase.OVER
    state.ending.reason = result.reason
    state.ending.ended = result.to_json()


def outcome(state: GunkimonoState, reason: str | None) -> Outcome:
    """The ranking by final score, ties broken by the troops in controlled formations."""
    n = state.num_players
    finals = final_scores(state)
    tb = [controlled_troops(state, s) for s in range(n)]
    ranks = [sum(1 for o in range(n) if (finals[o], tb[o]) > (finals[s], tb[s])) for s in range(n)]
    return Outcome.ranked(finals, reason or "end_of_game", ranks)


__all__ = ["END_TILE", "Ending", "end_by_core", "final_scores", "finish", "outcome"]
