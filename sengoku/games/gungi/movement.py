"""Pieces and reach: the moves of the pieces on the board.

Each piece's reach at each tier is precomputed in ray tables (:mod:`sengoku.games.gungi.pieces`,
from ``pieces.json``): slides stop at the first occupied square; the forward moves of the
Cannon, Archer and Musketeer jump over towers no taller than the jumper's tier; the Archer's
diagonal jumps look at the front and wing squares first (option ``archer_blockers``). What
a move onto an occupied square may do is the rule of :mod:`sengoku.games.gungi.stacking`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from sengoku.games.gungi.pieces import JUMP, MARSHAL, NUM_KINDS, SLIDE
from sengoku.games.gungi.stacking import gen_onto

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState

ALL_SQUARES = range(81)


def gen_board(
    state: GungiState,
    codes: list[int],
    color: int,
    squares: Iterable[int] = ALL_SQUARES,
    quiet: bool = True,
) -> None:
    """Board moves of ``color``'s top pieces on ``squares`` (ascending: the legal order);
    with ``quiet`` False, only captures and betrayals (see ``GungiState.noisy_codes``)."""
    board = state.board
    rays_table = state.rays
    limit = state.mode.stack_limit
    marshal_may_stack = state.mode.marshal_may_stack
    append = codes.append
    onto = gen_onto
    slide, jump = SLIDE, JUMP  # locals: this loop is the engine's hottest
    table_base = color * NUM_KINDS * 4
    for frm in squares:
        tower = board[frm]
        if not tower:
            continue
        top = tower[-1]
        if top & 1 != color:
            continue
        kind = top >> 1
        tier = len(tower)
        may_stack = kind != MARSHAL or marshal_may_stack
        low = (kind << 2) | 0
        frm81 = frm * 81
        for mode, squares, extra in rays_table[((table_base + kind * 4) + tier) * 81 + frm]:
            if mode == slide:
                for to in squares:
                    target = board[to]
                    if not target:
                        if quiet:
                            append(((frm81 + to) << 17) | low | 1)
                        continue
                    if len(target) <= tier:
                        onto(state, codes, color, kind, frm81 + to, target, limit, may_stack, quiet)
                    break
            elif mode == jump:
                _jump(state, codes, color, kind, tier, frm81, squares, extra, may_stack, quiet)
            else:  # DIAGONAL archer landings, behind the front/wing blockers
                _diagonal(state, codes, color, kind, tier, frm81, squares, extra, may_stack, quiet)


def _jump(
    state: GungiState,
    codes: list[int],
    color: int,
    kind: int,
    tier: int,
    frm81: int,
    squares: Sequence[int],
    first: int,
    may_stack: bool,
    quiet: bool,
) -> None:
    """A jumping ray of ``gen_board``: landings from index ``first`` on, up to the first
    tower taller than the mover's tier (which blocks it and every landing beyond)."""
    board = state.board
    low = (kind << 2) | 0
    for i, to in enumerate(squares):
        target = board[to]
        if len(target) > tier:
            break  # a taller tower blocks this landing and all beyond
        if i >= first:
            if not target:
                if quiet:
                    codes.append(((frm81 + to) << 17) | low | 1)
            else:
                limit = state.mode.stack_limit
                gen_onto(state, codes, color, kind, frm81 + to, target, limit, may_stack, quiet)


def _diagonal(
    state: GungiState,
    codes: list[int],
    color: int,
    kind: int,
    tier: int,
    frm81: int,
    squares: Sequence[int],
    blockers: Sequence[int],
    may_stack: bool,
    quiet: bool,
) -> None:
    """An archer's diagonal ray of ``gen_board``: none if a front or wing blocker is taller
    than its tier; else landings up to the first taller tower."""
    board = state.board
    if any(len(board[b]) > tier for b in blockers):
        return
    low = (kind << 2) | 0
    for to in squares:
        target = board[to]
        if len(target) > tier:
            break
        if not target:
            if quiet:
                codes.append(((frm81 + to) << 17) | low | 1)
        else:
            limit = state.mode.stack_limit
            gen_onto(state, codes, color, kind, frm81 + to, target, limit, may_stack, quiet)
