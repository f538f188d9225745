"""Extra Support rule: where a large tile would straddle a difference of one level, a small
tile from the reserve may first go face down on the lower square; the large tile must then
cover it.

Being face down, the support is exempt from the Troop Duplication rule. We allow it only
where a large tile from the hand may then cover it, as the rulebook describes it ("You must
then place your large army tile so that half of it covers the face-down small army tile"),
every rule judged on the board as it will be after the support; at most one small tile per
turn, so nothing else may follow it but the large tile (phase ``SUPPORT``:
``placement.large_placements`` over ``state.sequence.support_cell``).

The board after the support differs from the board now only on its square: one level up,
and no troop on top (face down). The places over it are then the places to a neighbour one
level up, as now; the Troop Duplication rule asks only that neighbour's troop, as now. Only
Stronghold rule 4 may judge otherwise: the support can split the formation its square
belongs to (it never joins two), and where that formation holds two strongholds or more,
a large tile over the support may link the parts again, which the rule may refuse
(``own_double_stronghold`` builds a player's two strongholds in one formation;
``link_own_formations`` off then refuses to link them once apart). So the squares are found
on the board now (a necessary condition: what rule 4 refuses there it refuses after the
support too), and those in a formation holding two strongholds or more are judged again
with the formations after the support (``still_covered``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from sengoku.core.game import Event
from sengoku.core.sentence import said, say
from sengoku.games.gunkimono.actions import CELLS, SmallTile, cell_name
from sengoku.games.gunkimono.battlefield import FACE_DOWN, NEIGHBOURS, tell, troop_word
from sengoku.games.gunkimono.data import tile_troops
from sengoku.games.gunkimono.formations import Formations, formations
from sengoku.games.gunkimono.strongholds import links_controlled, may_link

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

#: The face-down small tile of each troop type on each square.
SUPPORTS: Final = tuple(tuple(SmallTile(t, c, True) for c in range(CELLS)) for t in range(5))


def support_cells(state: GunkimonoState) -> list[int]:
    """Squares where a face-down small tile lets a large tile from the hand lie level and
    cover it (every rule judged after the support)."""
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
        # Fewer than two strongholds built: no formation holds two (nothing to judge again).
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
    return still_covered(state, cells, state.supply.hands[seat])


def split_board(state: GunkimonoState) -> Formations | None:
    """The formations now, where a support may split one holding two strongholds or more
    (only there may Stronghold rule 4 judge the board after a support otherwise than this
    one); else None, at once in most positions (fewer than two strongholds built)."""
    if not may_link(state):
        return None
    board = formations(state)
    for squares in board.held.values():
        if len(squares) >= 2:
            return board
    return None


def still_covered(state: GunkimonoState, cells: list[int], hand: list[int]) -> list[int]:
    """``cells``, squares where a support passes the rules judged on the board now (for a
    large tile of ``hand``), less those where no large tile of ``hand`` may cover it on the
    board after the support: ``cells`` itself where no support can split a formation holding
    two strongholds or more (the module's docstring says why nothing else can differ)."""
    board = split_board(state)
    if board is None:
        return cells
    kept: list[int] = []
    for x in cells:
        held = board.held.get(board.comp[x])
        if held is None or len(held) < 2 or _coverable_after(state, x, hand):
            kept.append(x)
    return kept


def _coverable_after(state: GunkimonoState, x: int, hand: list[int]) -> bool:
    """May a large tile of ``hand`` cover a support on ``x`` once it lies there: some side
    of it with its troop on ``x`` and its other on a neighbour one level up (the level of
    ``x`` after the support), no stronghold on that neighbour (rule 1), not its troop's own
    type there (the Troop Duplication rule; the face-down support on ``x`` is none), and
    Stronghold rule 4 judged with the formations of the board after the support."""
    top, level, sh = state.battlefield.top, state.battlefield.level, state.fortresses.sh_owner
    after_top = top.copy()
    after_top[x] = FACE_DOWN
    after = Formations(after_top, sh)
    for y in NEIGHBOURS[x]:
        if sh[y] >= 0 or level[y] != level[x] + 1:
            continue
        for code in hand:
            (t1, _), (t2, _) = tile_troops(code)
            for tx, ty in ((t1, t2), (t2, t1)):
                # ``links_controlled`` sets the troops on ``x`` and ``y`` itself: the board's
                # top on ``x`` (before the support) is not read.
                if ty != top[y] and not links_controlled(state, x, tx, y, ty, after):
                    return True
    return False


def why_not_support(state: GunkimonoState, cell: int) -> str | None:
    if cell not in support_cells(state):
        return said(
            say(
                "Extra Support rule: a face-down small tile may only be placed where it "
                "removes a level difference for a large tile from your hand, and that tile "
                "must then be able to cover it"
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
