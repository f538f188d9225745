"""Reorient or Shoot: one card, two Commands, both chainable.

Rulebook, "Reorient or Shoot Command": Reorient turns a unit (and its chain) to face one
direction; Shoot lets an Archer (and its chain) hit an enemy in range, which depends on its
facing. The Reorient and shooting steps here serve Crossbow or Reorient and Rapid Fire too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.words as words
from sengoku.core.sentence import N_, say
from sengoku.games.gunshi.actions import A
from sengoku.games.gunshi.battlefield import FACE, HIT, UNIT, cn, parse_cell
from sengoku.games.gunshi.chained_commands import after_chain_member, chain_choices
from sengoku.games.gunshi.combat import capture
from sengoku.games.gunshi.commands import rapid_fire
from sengoku.games.gunshi.commands.command import (
    Command,
    CommandType,
    Step,
    done,
    need,
    offer_modes,
)
from sengoku.games.gunshi.commands.crossbow_or_reorient import crossbow_targets
from sengoku.games.gunshi.data import (
    DIR_NAMES,
    LETTERS,
    NEIGHBOUR,
)
from sengoku.games.gunshi.fences import enemy_fence
from sengoku.games.gunshi.units import turn_unit, units_of

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState

A_DONE = A("done")


def start(st: GunshiState) -> None:
    p = st.player
    modes = ["reorient"] if units_of(st, p) else []
    if any(shoot_targets(st, u) for u in units_of(st, p, "A")):  # a shooter
        modes.append("shoot")
    offer_modes(st, Command("Re"), modes, N_("no unit can carry out the command"))


# ---------------------------------------------------------------------------- Reorient
def legal_reorient(st: GunshiState, cmd: Command) -> list[GunshiAction]:
    p = st.player
    if cmd.step is Step.UNIT:
        return [UNIT[st.field.uloc[u]] for u in units_of(st, p)]
    if cmd.step is Step.FACE:
        u = need(cmd.leader)
        return [FACE[d] for d in range(4) if d != st.field.uface[u]]
    return chain_choices(st, cmd, p, _reorient_joins) + [A_DONE]


def _reorient_joins(st: GunshiState, cmd: Command, u: int, p: int) -> bool:
    return st.field.uface[u] != cmd.dir  # chained units all face the same way


def do_reorient(st: GunshiState, cmd: Command, a: GunshiAction) -> None:
    p = st.player
    if a.kind == "unit":
        u = st.field.board[parse_cell(a.arg)]
        cmd.leader = u
        cmd.origin = st.field.uloc[u]
        cmd.step = Step.FACE
        cmd.used = (u,)
        return
    if a.kind == "face":
        d = DIR_NAMES.index(a.arg)
        cmd.dir = d
        turn(st, need(cmd.leader), d)
        after_chain_member(st, cmd, p, _reorient_joins)
        return
    if a.kind == "done":
        done(st)
        return
    u = st.field.board[parse_cell(a.arg)]
    cmd.used = need(cmd.used) + (u,)
    turn(st, u, need(cmd.dir))
    after_chain_member(st, cmd, p, _reorient_joins)


def turn(st: GunshiState, u: int, d: int) -> None:
    """Unit u turns to face direction d."""
    turn_unit(st, u, d)
    st.emit(
        None,
        "reorient",
        say(
            "{colour}'s {unit} {letter} on {cell} turns to face {facing}.",
            colour=words.colour(st.field.uown[u]),
            unit=words.unit_type(u),
            letter=LETTERS[u],
            cell=cn(st.field.uloc[u]),
            facing=words.facing(DIR_NAMES[d]),
        ),
        seat=st.field.uown[u],
        cell=cn(st.field.uloc[u]),
        facing=DIR_NAMES[d],
    )


# ---------------------------------------------------------------------------- Shoot
def shoot_targets(st: GunshiState, u: int) -> list[int]:
    """Enemy units Archer u can Shoot: the two spaces ahead, the front diagonals and the
    sides (rulebook ranges; what blocks follows the spec and option ``shoot_block``)."""
    p = st.field.uown[u]
    cell = st.field.uloc[u]
    f = st.field.uface[u]
    left, right = (f + 3) % 4, (f + 1) % 4
    block_sides = st.options["shoot_block"] == "any_crossed"
    f1 = NEIGHBOUR[cell][f]
    cands: list[tuple[int, bool]] = []
    if f1 >= 0:
        b1 = enemy_fence(st, cell, f, p)
        cands.append((f1, b1))
        f2 = NEIGHBOUR[f1][f]
        if f2 >= 0:
            cands.append((f2, b1 or enemy_fence(st, f1, f, p)))
        for side in (left, right):
            dg = NEIGHBOUR[f1][side]
            if dg >= 0:
                blocked = block_sides and (
                    enemy_fence(st, f1, side, p) and enemy_fence(st, cell, f, p)
                )
                cands.append((dg, blocked))
    for side in (left, right):
        n = NEIGHBOUR[cell][side]
        if n >= 0:
            cands.append((n, block_sides and enemy_fence(st, cell, side, p)))
    return hits(st, p, cands)


def hits(st: GunshiState, p: int, cands: list[tuple[int, bool]]) -> list[int]:
    """The cells of a range (cell, blocked) that hold an enemy and are not blocked."""
    out = []
    for c, blocked in cands:
        occ = st.field.board[c]
        if not blocked and occ >= 0 and st.field.uown[occ] == 1 - p:
            out.append(c)
    return sorted(set(out))


def targets(st: GunshiState, u: int, kind: str) -> list[int]:
    """Enemy units Archer u can hit with a Shoot (``shoot``) or a Crossbow (``crossbow``)."""
    return crossbow_targets(st, u) if kind == "crossbow" else shoot_targets(st, u)


def shooters(st: GunshiState, p: int, t: CommandType) -> list[int]:
    kind = "crossbow" if t is CommandType.CROSSBOW else "shoot"
    return [u for u in units_of(st, p, "A") if targets(st, u, kind)]


def legal_shoot(st: GunshiState, cmd: Command) -> list[GunshiAction]:
    """Shoot, Crossbow and Rapid Fire: an Archer, its target, then the next of the chain."""
    p = st.player
    t = need(cmd.type)
    if cmd.step is Step.UNIT:
        return [UNIT[st.field.uloc[u]] for u in shooters(st, p, t)]
    if cmd.step is Step.HIT:
        kind = "crossbow" if t is CommandType.CROSSBOW else "shoot"
        return [HIT[c] for c in targets(st, need(cmd.shooter), kind)]
    return chain_choices(st, cmd, p, _shooter_joins) + [A_DONE]


def _shooter_joins(st: GunshiState, cmd: Command, u: int, p: int) -> bool:
    kind = "crossbow" if cmd.type is CommandType.CROSSBOW else "shoot"
    return bool(targets(st, u, kind))  # each chained Archer picks its own target


def do_shoot(st: GunshiState, cmd: Command, a: GunshiAction) -> None:
    p = st.player
    if a.kind == "unit":
        u = st.field.board[parse_cell(a.arg)]
        cmd.leader = u
        cmd.origin = st.field.uloc[u]
        cmd.shooter = u
        cmd.step = Step.HIT
        cmd.used = (u,)
        return
    if a.kind == "chain":
        u = st.field.board[parse_cell(a.arg)]
        cmd.shooter = u
        cmd.step = Step.HIT
        cmd.used = need(cmd.used) + (u,)
        return
    if a.kind == "done":
        done(st)
        return
    target = st.field.board[parse_cell(a.arg)]
    shooter = need(cmd.shooter)
    st.emit(
        None,
        "shoot",
        say(
            "{colour}'s Archer {letter} on {cell} shoots at {target}.",
            colour=words.colour(p),
            letter=LETTERS[shooter],
            cell=cn(st.field.uloc[shooter]),
            target=a.arg,
        ),
        cell=a.arg,
    )
    capture(st, target, p, "A")
    if st.result is not None:
        done(st)
        return
    if cmd.type is CommandType.FIRE:
        rapid_fire.after_shot(st, cmd, bool(shoot_targets(st, shooter)))
        return
    after_chain_member(st, cmd, p, _shooter_joins)
