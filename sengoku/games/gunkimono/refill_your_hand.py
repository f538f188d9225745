"""4. Refill Your Hand: after placing a large tile, take a tile of the face-up row (the row
is then refilled from the stack) or the top of the stack. Small tiles are never replaced.

Drawing the last tile of the main stacks brings the end-game stack into play, and the
end-of-game tile, drawn or revealed for the row, triggers the end (``end_of_the_game.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from sengoku.core.game import Event
from sengoku.core.sentence import said, say
from sengoku.core.substate import INT_ROWS, INTS, Part, part_field
from sengoku.games.gunkimono.actions import Draw, tile_name
from sengoku.games.gunkimono.battlefield import tell
from sengoku.games.gunkimono.end_of_the_game import END_TILE, bring_end_stack, trigger_end
from sengoku.games.gunkimono.turn_sequence import Phase

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

#: The size of the face-up row.
ROW_SIZE: Final = 3


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class Supply(Part):
    """The tiles off the battlefield: hands, reserves, the face-up row, the draw stack and
    the tiles removed at setup (dealt by ``setup.py``; drawn here, played by
    ``placement.py`` through :func:`play_from_hand` and :func:`play_from_reserve`)."""

    #: Each seat's large tiles.
    hands: list[list[int]] = part_field(INT_ROWS)
    #: The tiles of each hand seen taken from the row (public).
    known: list[list[int]] = part_field(INT_ROWS)
    #: Each seat's small tiles, by troop type.
    reserve: list[list[int]] = part_field(INT_ROWS)
    #: The face-up row.
    row: list[int] = part_field(INTS)
    #: The draw pile, top last.
    stack: list[int] = part_field(INTS)
    #: The large tiles removed unseen at setup.
    removed: list[int] = part_field(INTS)

    @classmethod
    def empty(cls, players: int) -> Supply:
        """Before the deal: empty hands, full reserves."""
        return cls(
            [[] for _ in range(players)],
            [[] for _ in range(players)],
            [list(range(5)) for _ in range(players)],
            [],
            [],
            [],
        )


def play_from_hand(state: GunkimonoState, seat: int, tile: int) -> None:
    """The seat's large tile leaves its hand for the battlefield."""
    supply = state.supply
    supply.hands[seat].remove(tile)
    if tile in supply.known[seat]:
        supply.known[seat].remove(tile)


def play_from_reserve(state: GunkimonoState, seat: int, troop: int) -> None:
    """The seat's small tile of ``troop`` leaves its reserve for the battlefield."""
    state.supply.reserve[seat].remove(troop)


def open_end_stack(state: GunkimonoState, events: list[Event]) -> None:
    """The main stacks are used up: the end-game stack becomes the draw pile."""
    state.supply.stack = bring_end_stack(state, events)


def draw_due(state: GunkimonoState) -> bool:
    """Is there a step 4 this turn (a large tile was placed and a tile is left to take)?"""
    return state.sequence.placed_large and bool(state.supply.stack or state.supply.row)


#: Every draw, made once: the stack's, and each tile's from the row (``_TAKES[tile]``).
_FROM_STACK: Final = Draw(None)
_TAKES: Final[list[Draw]] = [Draw(t) for t in range(100)]


def legal_draws(state: GunkimonoState) -> list[Draw]:
    out = [_FROM_STACK] if state.supply.stack else []
    for t in sorted(set(state.supply.row)):
        out.append(_TAKES[t] if 0 <= t < 100 else Draw(t))
    return out


def why_not_draw(state: GunkimonoState, action: Draw) -> str | None:
    if state.sequence.phase is not Phase.DRAW:
        return said(
            say(
                "tiles are drawn in step 4 of the turn; now: {now}",
                now=state.sequence.phase.prompt_word,
            )
        )
    if action.tile is None:
        return None if state.supply.stack else said(say("the stack is empty"))
    if action.tile not in state.supply.row:
        return said(say("tile {tile} is not in the face-up row", tile=tile_name(action.tile)))
    return None


def pop_stack(state: GunkimonoState, events: list[Event]) -> int | None:
    """The top tile of the draw pile; brings the end-game stack into play when needed."""
    if not state.supply.stack:
        return None
    tile = state.supply.stack.pop()
    if not state.supply.stack and not state.ending.end_stack_in_play:
        open_end_stack(state, events)
    return tile


def draw(state: GunkimonoState, action: Draw, events: list[Event]) -> None:
    """Take the chosen tile into the hand (``None``: the top of the stack)."""
    seat = state.sequence.turn
    if action.tile is None:
        tile = pop_stack(state, events)
        while tile == END_TILE:
            trigger_end(state, events, seat)
            tile = pop_stack(state, events) if state.options["end_tile_replacement"] else None
        if tile is not None:
            state.supply.hands[seat].append(tile)
            if not state.muted:
                events.append(
                    tell(
                        {
                            "type": "draw",
                            "audience": None,
                            "seat": seat,
                            "source": "stack",
                            "message": say("Seat {seat} draws from the stack.", seat=seat),
                        }
                    )
                )
                name = tile_name(tile)
                events.append(
                    tell(
                        {
                            "type": "drawn",
                            "audience": [seat],
                            "tile": name,
                            "message": say("You draw {tile}.", tile=name),
                        }
                    )
                )
    else:
        state.supply.row.remove(action.tile)
        state.supply.hands[seat].append(action.tile)
        state.supply.known[seat].append(action.tile)
        if not state.muted:
            name = tile_name(action.tile)
            events.append(
                tell(
                    {
                        "type": "draw",
                        "audience": None,
                        "seat": seat,
                        "source": "row",
                        "tile": name,
                        "message": say(
                            "Seat {seat} takes {tile} from the face-up row.", seat=seat, tile=name
                        ),
                    }
                )
            )
        refill_row(state, events)


def refill_row(state: GunkimonoState, events: list[Event]) -> None:
    """Turn tiles of the stack face up until the row holds three again (or the stack is out)."""
    while len(state.supply.row) < ROW_SIZE:
        tile = pop_stack(state, events)
        if tile is None:
            return
        if tile == END_TILE:
            trigger_end(state, events, None)
            if not state.options["end_tile_replacement"]:
                return
            continue
        state.supply.row.append(tile)
        if not state.muted:
            name = tile_name(tile)
            events.append(
                tell(
                    {
                        "type": "reveal",
                        "audience": None,
                        "tile": name,
                        "message": say("{tile} joins the row.", tile=name),
                    }
                )
            )
