"""Crossbow or Reorient (Rikutoh): Reorient as on Reorient or Shoot, or a Crossbow shot:
three spaces straight ahead or one to either side, blocked only by a Fence on the target's
own edge facing the shooter. Both chainable; the steps are those of
``commands/reorient_or_shoot.py``.

Rulebook, "Advanced Card Effects and Clarifications".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.sentence import N_
from sengoku.games.gunshi.commands.command import Command, offer_modes
from sengoku.games.gunshi.data import NEIGHBOUR
from sengoku.games.gunshi.fences import enemy_fence
from sengoku.games.gunshi.units import units_of

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState

RANGE = 3


def start(st: GunshiState) -> None:
    p = st.player
    modes = ["reorient"] if units_of(st, p) else []
    if any(crossbow_targets(st, u) for u in units_of(st, p, "A")):  # a shooter
        modes.append("crossbow")
    offer_modes(st, Command("Crossbow"), modes, N_("no unit can carry out the command"))


def crossbow_targets(st: GunshiState, u: int) -> list[int]:
    """Enemy units Archer u can hit with a Crossbow."""
    p = st.field.uown[u]
    cell = st.field.uloc[u]
    f = st.field.uface[u]
    cands = []
    for side in ((f + 3) % 4, (f + 1) % 4):
        n = NEIGHBOUR[cell][side]
        if n >= 0:
            cands.append((n, enemy_fence(st, cell, side, p)))
    cur = cell
    for _ in range(RANGE):
        nxt = NEIGHBOUR[cur][f]
        if nxt < 0:
            break
        # Crossbow: only a Fence on the target's own edge facing the shooter blocks.
        cands.append((nxt, enemy_fence(st, cur, f, p)))
        cur = nxt
    out = []
    for c, blocked in cands:
        occ = st.field.board[c]
        if not blocked and occ >= 0 and st.field.uown[occ] == 1 - p:
            out.append(c)
    return sorted(set(out))
