"""The Sonae, acted on: flipping a Kumi (face up <-> Hidden, in front of everyone), and
choosing Kumi of a Sonae as targets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.sentence import say
from sengoku.games.sashimono.decisions import K_ENEMY, K_OWN, Spec
from sengoku.games.sashimono.pieces import EVERYONE, KAGE, flipped, is_up, stack_words

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


def flip(state: SashimonoState, actor: int, side: int, idx: int) -> None:
    """``actor`` flips Kumi ``idx`` of ``side``'s Sonae (its types become public)."""
    cells = state.sides[side].cells
    st = cells[idx]
    assert st is not None
    cells[idx] = flipped(st)
    if side != KAGE:
        # turned in front of everyone: its types are public either way
        state.sides[side].known[idx] = EVERYONE
    now = cells[idx]
    assert now is not None
    where = state.cell_name(side, idx)
    owner = state.kumi_words(side, idx)
    if is_up(now):
        state.emit(
            "flip",
            say(
                "{side} flips {kumi} face up: {stack}.",
                side=state.name_of(actor),
                kumi=owner,
                stack=stack_words(now),
            ),
            side=side,
            cell=where,
            stack=now,
        )
    else:
        state.emit("flip", say("{side} flips {kumi} face down.", side=state.name_of(actor), kumi=owner),
                   side=side, cell=where)  # fmt: skip


def flip_targets(
    state: SashimonoState, actor: int, spec: Spec, line: int | None
) -> tuple[int, list[int]]:
    """Whose Sonae an effect acts on, and the Kumi there it may choose."""
    side = actor if spec.get("side", "own") == "own" else state.enemy(actor)
    cells = state.sides[side].cells
    where = spec.get("where", "any")
    face = spec.get("face", "any")
    out = []
    in_line = set(state.line_cells(side, line)) if line is not None else set()
    for i, st in enumerate(cells):
        if st is None:
            continue
        if line is not None and where == "line" and i not in in_line:
            continue
        if line is not None and where == "other" and i in in_line:
            continue
        if face == "hidden" and is_up(st):
            continue
        if face == "up" and not is_up(st):
            continue
        out.append(i)
    return side, out


def cell_opts(
    state: SashimonoState, chooser: int, side: int, cells: list[int], verb: str
) -> list[tuple[int, int, str, str]]:
    """The options naming ``cells`` of ``side``'s Sonae for ``chooser``."""
    if side == chooser:
        return [(K_OWN, i, f"{verb} {state.cell_name(side, i)}", state.cell_name(side, i))
                for i in cells]  # fmt: skip
    return [(K_ENEMY, i, f"{verb} enemy {state.cell_name(side, i)}", "e" + state.cell_name(side, i))
            for i in cells]  # fmt: skip
