"""Chain Trap (Sanryaku, 2 points): laid beside the board; the next time an opponent's unit
moves one space, every unit next to where it started is dragged along the same way.

Rulebook, "Advanced Card Effects and Clarifications".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.cards as cards
import sengoku.games.gunshi.words as words
from sengoku.core.sentence import N_, say
from sengoku.games.gunshi.chained_commands import front_key
from sengoku.games.gunshi.commands.command import Command, nothing
from sengoku.games.gunshi.data import CARDS, DIR_NAMES, LETTERS, NEIGHBOUR
from sengoku.games.gunshi.fences import break_fences, enemy_fence
from sengoku.games.gunshi.units import adjacent_own, move_to

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


def start(st: GunshiState) -> None:
    p = st.player
    if st.logistics.points[p] < CARDS["Trap"].cost:
        nothing(st, N_("Chain Trap needs 2 points"))
        return
    st.pay(p, CARDS["Trap"].cost)
    import sengoku.games.gunshi.battle as battle  # battle -> universal_rules -> this module

    cards.lay_trap(st, p, battle.set_aside(st))  # beside the board, not at the deck's bottom
    st.emit(
        None, "trap", say("{colour} lays a Chain Trap beside the board.", colour=words.colour(p))
    )


def spring(st: GunshiState, cmd: Command, p: int, m: int, start: int, d: int) -> None:
    """p's unit m moved one space from ``start`` in direction d: the opponent's trap, if
    laid, drags every unit next to the mover along."""
    o = 1 - p
    if cards.spring_trap(st, o) is None:
        return
    forced = [u for u in adjacent_own(st, start, p, "IAC") if u != m]
    forced.sort(key=lambda x: front_key(st, x, d))
    moved = []
    for u in forced:
        cell = st.field.uloc[u]
        n = NEIGHBOUR[cell][d]
        if n < 0 or enemy_fence(st, cell, d, p) or st.field.board[n] >= 0:
            continue  # blocked: those units are not moved
        move_to(st, u, n, d)
        moved.append(u)
        break_fences(st, n, p)
    cmd.trap_moved = (cmd.trap_moved or ()) + tuple(moved)
    st.emit(
        None,
        "chain_trap",
        say(
            "{owner}'s Chain Trap springs: {count} more of {mover}'s units move {facing}.",
            owner=words.colour(o),
            count=len(moved),
            mover=words.colour(p),
            facing=words.facing(DIR_NAMES[d]),
        ),
        seat=o,
        moved=[LETTERS[u] for u in moved],
    )
