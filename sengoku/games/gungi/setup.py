"""The setup phase and its placements (free setup in Intermediate and Advanced).

Players alternate placing one piece from hand at a time in their own three rows, starting
with their Marshals, stacking within the mode's limit, never on a Marshal. Instead of
placing, a player may declare **Done** (済み): after the first player's Done the second
keeps placing alone; the second player's Done ends the setup at once. The pieces left over
are the hands, and the first player moves first. Intro and Beginner start from a fixed
setup (``modes.json``), already in play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.games.gungi.move import DONE_CODE, DONE_INT
from sengoku.games.gungi.new_pieces import Target, emit_drops
from sengoku.games.gungi.pieces import BLACK, MARSHAL, NUM_KINDS, WHITE
from sengoku.games.gungi.zobrist import SETUP_KEYS

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState

SETUP, PLAY = "setup", "play"
"""The two phases of a game (``GungiState.phase``)."""


def setup_key(state: GungiState) -> int:
    """The setup progress's part of the position hash (0 in play)."""
    if state.phase != SETUP:
        return 0
    return SETUP_KEYS[state.drafting[0] + 2 * state.drafting[1]]


def gen_setup(state: GungiState, codes: list[int], color: int) -> None:
    """The placements of ``color`` (its Marshal first), then Done."""
    hand = state.hands[color]
    board = state.board
    limit = state.mode.stack_limit
    rows = range(6, 9) if color == WHITE else range(0, 3)
    targets: list[Target] = []
    for y in rows:
        for sq in range(y * 9, y * 9 + 9):
            tower = board[sq]
            if not tower:
                targets.append((sq, 1, tower))
            elif tower[-1] >> 1 != MARSHAL and len(tower) < limit:
                targets.append((sq, len(tower) + 1, tower))
    if hand[MARSHAL]:
        # rulebook/spec: setup placement starts from the Marshal
        emit_drops(state, codes, color, [MARSHAL], [t for t in targets if t[1] == 1])
        return
    emit_drops(state, codes, color, [k for k in range(NUM_KINDS) if hand[k]], targets)
    codes.append(DONE_CODE)


def declare_done(state: GungiState, color: int) -> int:
    """``color`` declares Done; returns who places (or moves) next."""
    state.drafting[color] = False
    if color != state.first or not state.drafting[1 - color]:
        # The second player's Done (or the last drafter's) ends the setup at once.
        state.drafting = [False, False]
        state.phase = PLAY
        return state.first
    return 1 - color


def counts_a_move(
    action: int,
    color: int,
    phase: str,
    drafting_before: tuple[bool, bool],
    drafting_after: list[bool],
) -> bool:
    """Whether this action advances the full move number, exactly as gungi.js counts.

    gungi.js has no separate Done: it marks the last placement of a player's setup as final
    (終). It adds one after a Black move in play, after a Black placement while White still
    places, after Black's final placement, and after White's final placement once Black has
    finished; Black placing alone after White's final placement adds nothing. Our Done is that
    mark on its own, so the count goes on the placements and on a Done that nothing
    counted yet: a Black Done never adds (Black's placement before it did, or Black placed
    alone), a White Done adds only when Black had already finished.
    """
    if phase != SETUP:
        return color == BLACK
    if action == DONE_INT:
        return color == WHITE and not drafting_before[BLACK]
    return color == BLACK and drafting_after[WHITE]
