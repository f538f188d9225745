"""Capturing and stacking (tsuke): what a move onto an occupied square may do.

Onto a tower no taller than the mover's tier, a piece may **capture** (the top piece is the
opponent's: every enemy piece of the tower leaves the game, the mover's own stay and it lands
on them) or **stack** (whoever owns the top), two different moves. Stacking keeps within the
mode's stack limit, never onto a Marshal, and a Marshal stacks only where the mode lets it.
A Captain stacked onto enemy pieces may turn them (:mod:`sengoku.games.gungi.betrayal`).
The board changes themselves are made in ``GungiState.make``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.games.gungi.betrayal import gen_betrayals
from sengoku.games.gungi.move import DONE_INT, MOVE_SPACE
from sengoku.games.gungi.pieces import CAPTAIN, MARSHAL

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState


def gen_onto(
    state: GungiState,
    codes: list[int],
    color: int,
    kind: int,
    ft: int,
    target: tuple[int, ...],
    limit: int,
    may_stack: bool,
    quiet: bool = True,
) -> None:
    """Capture and/or stack onto an occupied square no taller than the mover (with
    ``quiet`` False, a plain stack is left out: only captures and betrayals)."""
    top = target[-1]
    if top & 1 != color:
        own = 0
        for p in target:
            if p & 1 == color:
                own += 1
        codes.append((ft << 17) | 65536 | (kind << 2) | (own + 1))
    height = len(target)
    if height < limit and top >> 1 != MARSHAL and may_stack:
        base = (ft << 17) | (kind << 2) | (height + 1)
        if kind == CAPTAIN:
            gen_betrayals(state, codes, color, target, base, state.hands[color], quiet)
        elif quiet:
            codes.append(base)


def is_noisy_code(code: int) -> bool:
    """A capture or a betrayal (a Captain turning enemy pieces)."""
    action = code >> 14
    return action < DONE_INT and (action & 3 != 0 or (action < MOVE_SPACE and action & 4 != 0))
