"""Move (and the movement of Light Infantry and Rapid-Move): a unit, chained with adjacent
units of its type, moves one direction; units resolve front first.

Rulebook, "Move Commands", "Cavalry Movement" and "Chained Commands". The command's
decisions: the leader (``unit``), its direction (``dir``), the units that join (``chain``),
a destination where there is a choice (``to``), and whether to invade (``invade``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.words as words
from sengoku.core.sentence import N_, say
from sengoku.games.gunshi.actions import A
from sengoku.games.gunshi.battlefield import CHAIN, DIR, DONE, TO, UNIT, cn, parse_cell
from sengoku.games.gunshi.chained_commands import front_first, mates, simulate
from sengoku.games.gunshi.combat import capture
from sengoku.games.gunshi.commands import chain_trap, light_infantry, rapid_move
from sengoku.games.gunshi.commands.command import (
    Command,
    CommandType,
    Step,
    done,
    need,
    open_command,
)
from sengoku.games.gunshi.data import (
    CELLS,
    DIR_NAMES,
    EDGE_OF,
    LETTERS,
    NEIGHBOUR,
    SIZE,
    TOKEN_TYPE,
)
from sengoku.games.gunshi.fences import break_fences
from sengoku.games.gunshi.invasion import in_zone, invade
from sengoku.games.gunshi.units import dests, move_to, turn_unit, units_of

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState

MOVEMENT = (CommandType.MOVE, CommandType.LIGHT, CommandType.RAPID)


def start(st: GunshiState) -> None:
    open_command(
        st,
        Command("M", type=CommandType.MOVE, step=Step.UNIT),
        N_("no unit can carry out Move"),
    )


def move_kind(cmd: Command) -> str:
    """How the units move: ``light`` for Light Infantry, else ``move``."""
    return "light" if cmd.type is CommandType.LIGHT else "move"


def can_lead(st: GunshiState, u: int, d: int, p: int, cmd: Command) -> bool:
    """Whether unit u can lead a move in direction d (alone, or pushed by its chain)."""
    kind = move_kind(cmd)
    if dests(st, u, d, kind):
        return True
    ms = mates(st, u, p, cmd)
    return bool(ms) and u in simulate(st, [u, *ms], d, kind)


def movable_units(st: GunshiState, cmd: Command, p: int, first_only: bool = False) -> list[int]:
    """The units that may carry out a movement command, in ``units_of`` order (with
    ``first_only``: at most the first of them).

    A unit qualifies if ``can_lead`` holds in some direction (or, for Rapid-Move, some
    reorientation lets it move). ``can_lead`` is "a destination of its own, or a chain
    whose simulation moves it"; the any-direction test takes the cheap half for all four
    directions first, and works out the mates once per unit."""
    t = cmd.type
    kind = move_kind(cmd)
    fld = st.field
    board, uown, uloc, uface = fld.board, fld.uown, fld.uloc, fld.uface
    fence, enemy = st.fences.fence, 1 - p
    out = []
    for u in units_of(st, p, "I" if t is CommandType.LIGHT else "IAC"):
        # Fast test: a single step in a direction the unit may take (not backwards for a
        # Cavalry) is a destination of dests. Only when there is none, the full test
        # (Light Infantry's double step, a Cavalry jumping over its own units).
        cell = uloc[u]
        back = (uface[u] + 2) % 4 if kind == "move" and TOKEN_TYPE[u] == "C" else -1
        ok = False
        for d, n in enumerate(NEIGHBOUR[cell]):
            if n < 0 or d == back:
                continue
            e = EDGE_OF[cell][d]
            if e >= 0 and fence[e] == enemy:
                continue
            occ = board[n]
            if occ < 0 or uown[occ] != p:
                ok = True
                break
        if not ok:
            ok = any(dests(st, u, d, kind) for d in range(4))
        if not ok:
            ms = mates(st, u, p, cmd)
            if ms:
                group = [u, *ms]
                ok = any(u in simulate(st, group, d, kind) for d in range(4))
        if not ok and t is CommandType.RAPID:
            ok = bool(rapid_move.faces(st, u))
        if ok:
            out.append(u)
            if first_only:
                break
    return out


def legal(st: GunshiState, cmd: Command) -> list[GunshiAction]:
    p = st.player
    step = cmd.step
    if step is Step.UNIT:
        return [UNIT[st.field.uloc[u]] for u in movable_units(st, cmd, p)]
    u = need(cmd.leader)
    if step is Step.DIR:
        return [DIR[d] for d in range(4) if can_lead(st, u, d, p, cmd)]
    if step is Step.RAPID or step is Step.RFACE:
        return rapid_move.legal(st, cmd, u)
    if step is Step.CHAIN:
        return chain_choices(st, cmd, p, u)
    if step is Step.TO:
        m = need(cmd.order)[0]
        return [TO[c] for c in dests(st, m, need(cmd.dir), move_kind(cmd))]
    if step is Step.INVADE:
        if st.shoguns.shogun[p] == need(cmd.invader):
            return [A("stay")]  # the Shogun cannot invade
        return [A("invade"), A("stay")]
    raise AssertionError(step)


def chain_choices(st: GunshiState, cmd: Command, p: int, u: int) -> list[GunshiAction]:
    """The mates that may still join the leader's move, and ``done`` if it can go now."""
    d = need(cmd.dir)
    kind = move_kind(cmd)
    sel = need(cmd.sel)
    ms = need(cmd.mates)
    could = simulate(st, [u, *ms], d, kind)
    out = [CHAIN[st.field.uloc[m]] for m in ms if m not in sel and m in could]
    if u in simulate(st, [u, *sel], d, kind):
        out.append(DONE)
    return out


def do(st: GunshiState, cmd: Command, a: GunshiAction) -> None:
    p = st.player
    step = cmd.step
    if step is Step.UNIT:
        u = st.field.board[parse_cell(a.arg)]
        cmd.leader = u
        cmd.sel = ()
        cmd.moved = ()
        cmd.trap_moved = ()
        if cmd.type is CommandType.RAPID:
            rapid_move.chosen(st, cmd)
        else:
            cmd.step = Step.DIR
        return
    u = need(cmd.leader)
    if step is Step.RAPID:
        if rapid_move.first_step(st, cmd, u, a):
            start_moves(st, cmd, p, DIR_NAMES.index(a.arg), ())
        return
    if step is Step.DIR:
        d = DIR_NAMES.index(a.arg)
        kind = move_kind(cmd)
        ms = mates(st, u, p, cmd)
        could = simulate(st, [u, *ms], d, kind) if ms else set()
        ms = [m for m in ms if m in could]
        if not ms:
            start_moves(st, cmd, p, d, ())
            return
        cmd.dir = d
        cmd.mates = tuple(ms)
        cmd.step = Step.CHAIN
        return
    if step is Step.CHAIN:
        if a.kind == "done":
            start_moves(st, cmd, p, need(cmd.dir), need(cmd.sel))
            return
        cmd.sel = need(cmd.sel) + (st.field.board[parse_cell(a.arg)],)
        if not [x for x in chain_choices(st, cmd, p, u) if x.kind == "chain"]:
            start_moves(st, cmd, p, need(cmd.dir), cmd.sel)
        return
    if step is Step.RFACE:
        rapid_move.last_step(st, cmd, u, a)
        return
    if step is Step.TO:
        order = need(cmd.order)
        m = order[0]
        cmd.order = order[1:]
        if not move_unit(st, cmd, p, m, parse_cell(a.arg)):
            resolve_moves(st, cmd, p)
        return
    if step is Step.INVADE:
        m = need(cmd.invader)
        if a.kind == "invade":
            invade(st, m, p)
            if cmd.type is CommandType.RAPID:
                cmd.rapid = "invaded"
        else:
            st.emit(
                None,
                "stay",
                say(
                    "{colour}'s {unit} {letter} on {cell} stays in the Invasion Zone.",
                    colour=words.colour(p),
                    unit=words.unit_type(m),
                    letter=LETTERS[m],
                    cell=cn(st.field.uloc[m]),
                ),
                seat=p,
            )
        resolve_moves(st, cmd, p)


def start_moves(st: GunshiState, cmd: Command, p: int, d: int, sel: tuple[int, ...]) -> None:
    """The leader and the chosen units move in direction d, front first."""
    units = [need(cmd.leader), *sel]
    cmd.dir = d
    cmd.order = tuple(front_first(st, units, d))
    resolve_moves(st, cmd, p)


def resolve_moves(st: GunshiState, cmd: Command, p: int) -> None:
    """Resolve the chosen units front-first; ask where several destinations exist."""
    kind = move_kind(cmd)
    d = need(cmd.dir)
    while st.result is None and need(cmd.order):
        order = need(cmd.order)
        m = order[0]
        if st.field.uown[m] != p or not 0 <= st.field.uloc[m] < CELLS or m in need(cmd.trap_moved):
            cmd.order = order[1:]
            continue
        ds = dests(st, m, d, kind)
        if not ds:
            cmd.order = order[1:]
            st.emit(
                None, "blocked", say("The unit on {cell} cannot move.", cell=cn(st.field.uloc[m]))
            )
            continue
        if kind == "light":
            light_infantry.drop_shield(st, m)
        if len(ds) > 1:
            cmd.step = Step.TO
            return
        cmd.order = order[1:]
        if move_unit(st, cmd, p, m, ds[0]):
            return
    if st.result is not None:
        done(st)
        return
    if cmd.type is CommandType.RAPID and cmd.rapid == "moving":
        cmd.step = Step.RFACE
        return
    done(st)


def move_unit(st: GunshiState, cmd: Command, p: int, m: int, dest: int) -> bool:
    """Move (or attack with) unit m; True when an invasion decision is now pending."""
    d = need(cmd.dir)
    start = st.field.uloc[m]
    occ = st.field.board[dest]
    if occ >= 0:
        st.emit(
            None,
            "attack",
            say(
                "{colour}'s {unit} {letter} attacks the unit on {cell}.",
                colour=words.colour(p),
                unit=words.unit_type(m),
                letter=LETTERS[m],
                cell=cn(dest),
            ),
            cell=cn(dest),
        )
        if not capture(st, occ, p, TOKEN_TYPE[m]):
            # Shield only: the attacker stays where it is (rulebook, Infantry Shields).
            if st.options["shield_hit_facing"] == "turn":
                turn_unit(st, m, d)
            if st.options["shield_hit_breaks_fences"]:
                break_fences(st, start, p)
            return False
    move_to(st, m, dest, d)
    st.emit(
        None,
        "move",
        say(
            "{colour}'s {unit} {letter} moves from {frm} to {to}.",
            colour=words.colour(p),
            unit=words.unit_type(m),
            letter=LETTERS[m],
            frm=cn(start),
            to=cn(dest),
        ),
        seat=p,
        frm=cn(start),
        to=cn(dest),
        unit=LETTERS[m],
    )
    if st.result is not None:
        return False
    break_fences(st, dest, p)
    r0, c0 = divmod(start, SIZE)
    r1, c1 = divmod(dest, SIZE)
    if abs(r0 - r1) + abs(c0 - c1) == 1:
        chain_trap.spring(st, cmd, p, m, start, d)
    if in_zone(st, dest, p):
        cmd.invader = m
        cmd.step = Step.INVADE
        return True
    return False
