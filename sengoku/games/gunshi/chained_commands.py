"""Chained Commands: units of the same type next to the leader carry out the same command.

Rulebook, "Chained Commands": Move, Reorient, Shoot, Crossbow and Build Fence may be chained
(``chainable`` in ``cards.json``); the units of a chained move act front first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sengoku.games.gunshi.battlefield import CHAIN
from sengoku.games.gunshi.commands.command import Command, CommandType, Step, done, need
from sengoku.games.gunshi.data import SIZE, TOKEN_TYPE
from sengoku.games.gunshi.units import adjacent_own, dests_on

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState

#: Whether unit u of player p may join the chain of this command (the command's own test).
JoinTest = Callable[["GunshiState", Command, int, int], bool]


def chain_choices(st: GunshiState, cmd: Command, p: int, may_join: JoinTest) -> list[GunshiAction]:
    """The units of the leader's type next to the leader's first cell that have not acted and
    may join (Reorient, Shoot, Crossbow, Build Fence; Move has its own, in ``move.py``)."""
    used = need(cmd.used)
    out = []
    for u in adjacent_own(st, need(cmd.origin), p, TOKEN_TYPE[need(cmd.leader)]):
        if u not in used and may_join(st, cmd, u, p):
            out.append(CHAIN[st.field.uloc[u]])
    return out


def after_chain_member(st: GunshiState, cmd: Command, p: int, may_join: JoinTest) -> None:
    """After a chained unit acted: stop if no other unit can join."""
    cmd.step = Step.CHAIN
    if not chain_choices(st, cmd, p, may_join):
        done(st)


def front_key(st: GunshiState, u: int, d: int) -> int:
    """Sort key: the unit furthest in direction d first (chained units act front first)."""
    r, c = divmod(st.field.uloc[u], SIZE)
    return (-r, -c, r, c)[d]


def front_first(st: GunshiState, units: list[int], d: int) -> list[int]:
    """``sorted(units, key=lambda u: front_key(st, u, d))``, without a call per unit: each
    unit's key and its place in ``units`` made one ``int`` (key first, the place breaking
    ties as the stable sort does), and the integers sorted."""
    n = len(units)
    if n < 2:
        return list(units)  # one unit (most moves): nothing to sort
    uloc = st.field.uloc
    keys: list[int] = []
    low = 0
    for u in units:
        loc = uloc[u]
        r = loc // SIZE  # divmod's quotient and remainder, as native arithmetic
        c = loc % SIZE
        if d == 0:
            k = -r
        elif d == 1:
            k = -c
        elif d == 2:
            k = r
        elif d == 3:
            k = c
        else:
            k = (-r, -c, r, c)[d]
        if not keys or k < low:
            low = k
        keys.append(k)
    order = [(keys[i] - low) * n + i for i in range(n)]
    order.sort()
    return [units[k % n] for k in order]


def mates(st: GunshiState, u: int, p: int, cmd: Command) -> list[int]:
    """The units that could chain with leader u (Rapid-Move cannot be chained)."""
    if cmd.type is CommandType.RAPID:
        return []
    return adjacent_own(st, st.field.uloc[u], p, TOKEN_TYPE[u])


def simulate(st: GunshiState, units: list[int], d: int, kind: str) -> set[int]:
    """Which of these units could act (move or attack), resolved front-first."""
    b = list(st.field.board)
    acted = set()
    for u in front_first(st, units, d):
        cell = st.field.uloc[u]
        dests = dests_on(st, u, cell, d, kind, b)
        if not dests:
            continue
        acted.add(u)
        dest = dests[0]
        occ = b[dest]
        if occ >= 0 and st.field.ushield[occ] and TOKEN_TYPE[u] != "C":
            continue
        b[cell] = -1
        b[dest] = u
    return acted
