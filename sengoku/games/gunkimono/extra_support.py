"""Extra Support rule: where a large tile would straddle a difference of one level, a small
tile from the reserve may first go face down on the lower square; the large tile must then
cover it.

Being face down, the support is exempt from the Troop Duplication rule. We allow it only
where it removes such a difference for a large tile in the hand, as the rulebook describes
it; at most one small tile per turn, so nothing else may follow it but the large tile
(phase ``SUPPORT``: ``placement.large_placements`` over ``state.sequence.support_cell``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from sengoku.core.game import Event
from sengoku.core.sentence import said, say
from sengoku.games.gunkimono.actions import CELLS, SmallTile, cell_name
from sengoku.games.gunkimono.battlefield import FACE_DOWN, NEIGHBOURS, tell, troop_word
from sengoku.games.gunkimono.data import tile_troops
from sengoku.games.gunkimono.formations import formations
from sengoku.games.gunkimono.strongholds import links_controlled, may_link

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

#: The face-down small tile of each troop type on each square.
SUPPORTS: Final = tuple(tuple(SmallTile(t, c, True) for c in range(CELLS)) for t in range(5))


def support_cells(state: GunkimonoState) -> list[int]:
    """Squares where a face-down small tile would let a large tile from the hand lie level."""
    seat = state.sequence.turn
    if not state.supply.reserve[seat] or not state.supply.hands[seat]:
        return []
    kinds = set()
    for code in set(state.supply.hands[seat]):
        (t1, _), (t2, _) = tile_troops(code)
        kinds.add((t1, t2))
        kinds.add((t2, t1))
    top, level, sh = state.battlefield.top, state.battlefield.level, state.fortresses.sh_owner
    board = formations(state) if may_link(state) else None
    cells = []
    if board is None:
        # Then a neighbour one level up suits some tile side unless every second troop
        # of the hand's tiles is the neighbour's own (troop duplication).
        # So start from the raised squares (few) and mark their free neighbours one lower.
        seconds = {ty for _tx, ty in kinds}
        found: set[int] = set()
        for y in range(CELLS):
            ly = level[y]
            if ly == 0 or sh[y] >= 0 or (len(seconds) == 1 and top[y] in seconds):
                continue
            for x in NEIGHBOURS[y]:
                if level[x] == ly - 1 and sh[x] < 0:
                    found.add(x)
        return sorted(found)
    for x in range(CELLS):
        if sh[x] >= 0:
            continue
        ok = False
        for y in NEIGHBOURS[x]:
            if sh[y] >= 0 or level[y] != level[x] + 1:
                continue
            for tx, ty in kinds:
                if ty == top[y]:
                    continue
                if links_controlled(state, x, tx, y, ty, board):
                    continue
                ok = True
                break
            if ok:
                break
        if ok:
            cells.append(x)
    return cells


def why_not_support(state: GunkimonoState, cell: int) -> str | None:
    if cell not in support_cells(state):
        return said(
            say(
                "Extra Support rule: a face-down small tile may only be placed where it "
                "removes a level difference for a large tile from your hand"
            )
        )
    return None


def awaits_large(state: GunkimonoState) -> bool:
    """A support was just laid face down: the large tile must cover it next (the flow's
    ``next`` after step 1's placement)."""
    c = state.sequence.support_cell
    return c >= 0 and state.battlefield.top[c] == FACE_DOWN


def place_support(state: GunkimonoState, action: SmallTile, events: list[Event]) -> None:
    """The small tile (taken from the reserve, its level counted, laid face down by
    ``placement.place_small``) is a support: the large tile must cover it next."""
    c = action.cell
    state.sequence.support_cell = c
    if not state.muted:
        events.append(
            tell(
                {
                    "type": "support",
                    "audience": None,
                    "seat": state.sequence.turn,
                    "action": str(action),
                    "message": say(
                        "Seat {seat} places the small {troop} face down on {square} as extra "
                        "support.",
                        seat=state.sequence.turn,
                        troop=troop_word(action.troop),
                        square=cell_name(c),
                    ),
                }
            )
        )
