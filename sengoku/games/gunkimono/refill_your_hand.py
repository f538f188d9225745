"""4. Refill Your Hand: after placing a large tile, take a tile of the face-up row (the row
is then refilled from the stack) or the top of the stack. Small tiles are never replaced.

Drawing the last tile of the main stacks brings the end-game stack into play, and the
end-of-game tile, drawn or revealed for the row, triggers the end (``end_of_the_game.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.game import Event, event
from sengoku.games.gunkimono.actions import Draw, tile_name
from sengoku.games.gunkimono.end_of_the_game import END_TILE, bring_end_stack, trigger_end
from sengoku.games.gunkimono.turn_sequence import Phase

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

#: The size of the face-up row.
ROW_SIZE = 3


def draw_due(state: GunkimonoState) -> bool:
    """Is there a step 4 this turn (a large tile was placed and a tile is left to take)?"""
    return state.placed_large and bool(state.stack or state.row)


def legal_draws(state: GunkimonoState) -> list[Draw]:
    out = [Draw(None)] if state.stack else []
    out.extend(Draw(t) for t in sorted(set(state.row)))
    return out


def why_not_draw(state: GunkimonoState, action: Draw) -> str | None:
    if state.phase is not Phase.DRAW:
        return f"tiles are drawn in step 4 of the turn; now: {state.phase.prompt}"
    if action.tile is None:
        return None if state.stack else "the stack is empty"
    if action.tile not in state.row:
        return f"tile {tile_name(action.tile)} is not in the face-up row"
    return None


def pop_stack(state: GunkimonoState, events: list[Event]) -> int | None:
    """The top tile of the draw pile; brings the end-game stack into play when needed."""
    if not state.stack:
        return None
    tile = state.stack.pop()
    if not state.stack and not state.end_stack_in_play:
        bring_end_stack(state, events)
    return tile


def draw(state: GunkimonoState, action: Draw, events: list[Event]) -> None:
    """Take the chosen tile into the hand (``None``: the top of the stack)."""
    seat = state.turn
    if action.tile is None:
        tile = pop_stack(state, events)
        while tile == END_TILE:
            trigger_end(state, events, f"drawn by seat {seat}")
            tile = pop_stack(state, events) if state.options["end_tile_replacement"] else None
        if tile is not None:
            state.hands[seat].append(tile)
            events.append(
                event(
                    "draw",
                    seat=seat,
                    source="stack",
                    message=f"Seat {seat} draws from the stack.",
                )
            )
            events.append(
                event(
                    "drawn",
                    audience=[seat],
                    tile=tile_name(tile),
                    message=f"You draw {tile_name(tile)}.",
                )
            )
    else:
        state.row.remove(action.tile)
        state.hands[seat].append(action.tile)
        state.known[seat].append(action.tile)
        events.append(
            event(
                "draw",
                seat=seat,
                source="row",
                tile=tile_name(action.tile),
                message=f"Seat {seat} takes {tile_name(action.tile)} from the face-up row.",
            )
        )
        refill_row(state, events)


def refill_row(state: GunkimonoState, events: list[Event]) -> None:
    """Turn tiles of the stack face up until the row holds three again (or the stack is out)."""
    while len(state.row) < ROW_SIZE:
        tile = pop_stack(state, events)
        if tile is None:
            return
        if tile == END_TILE:
            trigger_end(state, events, "revealed for the face-up row")
            if not state.options["end_tile_replacement"]:
                return
            continue
        state.row.append(tile)
        events.append(
            event("reveal", tile=tile_name(tile), message=f"{tile_name(tile)} joins the row.")
        )
