"""Phase 1: Creating Your Battle Formation.

Rulebook, "Phase 1": starting from Red, the players take turns spending their 18 Military
Logistics Points on units placed in their Home Territory (facing any way) and on Fences; a
player who cannot spend any more is skipped (spec). Presets (``presets.json``) place whole
formations at once ("Initial Formations for Advanced Players").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

import sengoku.games.gunshi.cards as cards
import sengoku.games.gunshi.logistics as logistics
import sengoku.games.gunshi.shogun_and_card_order as shogun_and_card_order
import sengoku.games.gunshi.words as words
from sengoku.core.sentence import say
from sengoku.core.substate import SCALAR, Part, part_field
from sengoku.games.gunshi.battlefield import AT, FACE, FENCE, HOME_CELLS, PLACE, cn, parse_cell
from sengoku.games.gunshi.data import (
    BLUE,
    DIR_NAMES,
    EDGE_NAMES,
    FENCE_COST,
    FORMATIONS,
    HOME,
    LETTERS,
    RED,
    STARTING_POINTS,
    UNITS,
)
from sengoku.games.gunshi.fences import formation_edges, place_fence
from sengoku.games.gunshi.units import free_token, put_unit

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class Formation(Part):
    """Phase 1's decision in progress: the piece chosen (``I``, ``A``, ``C``, ``F`` for a
    Fence; "": none yet) and its cell (-1: none yet); whether the first placement has been made
    (the tournament clock starts then); whether a preset shows both players' cards."""

    fpiece: str = part_field(SCALAR, default="")
    fcell: int = part_field(SCALAR, default=-1)
    clock_started: bool = part_field(SCALAR, default=False)
    cards_public: bool = part_field(SCALAR, default=False)


def apply_preset(st: GunshiState, name: str) -> None:
    """An initial formation from the rulebook: both sides placed, hands and decks dealt."""
    fp = FORMATIONS[name]
    for p in (RED, BLUE):
        side = fp.sides[p]
        for t, cell, face in side.units:
            u = free_token(st, t)
            put_unit(st, u, p, cell, face)
        for e in side.fences:
            place_fence(st, e, p)
        logistics.set_points(st, p, max(0, STARTING_POINTS - side.cost))
        shogun_and_card_order.set_candidates(st, p)
        known = fp.public_cards
        cards.deal(
            st, p, [(c, known, False) for c in side.hand], [(c, known, False) for c in side.deck]
        )
        st.reset_knowledge(p)
    st.formation.cards_public = fp.public_cards
    st.formation.clock_started = True


def pieces(st: GunshiState, p: int) -> list[str]:
    """What p can still afford and place: unit types, and ``F`` for a Fence."""
    pts = st.logistics.points[p]
    free_home = any(st.field.board[c] < 0 for c in HOME[p])
    out = []
    for t in ("I", "A", "C"):
        if UNITS[t].cost <= pts and free_home and free_token(st, t) >= 0:
            out.append(t)
    if FENCE_COST <= pts and st.fences.fences_left[p] > 0 and formation_edges(st, p):
        out.append("F")
    return out


def next_placer(st: GunshiState, p: int) -> None:
    """The next placer: players alternate; one who cannot spend is skipped (spec). When
    neither can, the formations are complete."""
    for q in (p, 1 - p):
        if pieces(st, q):
            st.player = q
            st.formation.fpiece = ""
            return
    for q in (RED, BLUE):
        shogun_and_card_order.set_candidates(st, q)
    st.emit(None, "formation_done", say("Both formations are complete."))


def begin(st: GunshiState) -> None:
    """Phase 1 begins: starting from Red, the players take turns."""
    next_placer(st, RED)


def complete(st: GunshiState) -> bool:
    """Both formations are complete: no piece is being placed and the player to place (the
    last placer, when neither can spend) can place nothing (the flow's ``end``)."""
    return not st.formation.fpiece and not pieces(st, st.player)


def legal(st: GunshiState) -> list[GunshiAction]:
    p = st.player
    if not st.formation.fpiece:
        return [PLACE[t] for t in pieces(st, p)]
    if st.formation.fpiece == "F":
        return [FENCE[e] for e in formation_edges(st, p)]
    if st.formation.fcell < 0:
        board = st.field.board
        return [AT[c] for c in HOME_CELLS[p] if board[c] < 0]
    return list(FACE)


def do(st: GunshiState, a: GunshiAction) -> None:
    p = st.player
    if a.kind == "place":
        st.formation.fpiece = a.arg
        return
    if a.kind == "at":
        st.formation.fcell = parse_cell(a.arg)
        return
    if a.kind == "fence":
        e = EDGE_NAMES.index(a.arg)
        place_fence(st, e, p)
        logistics.pay(st, p, FENCE_COST)
        st.emit(
            None,
            "fence",
            say(
                "{colour} places a Fence between {a} and {b}.",
                colour=words.colour(p),
                **words.edge_ends(a.arg),
            ),
            edge=a.arg,
            seat=p,
        )
    else:
        t = st.formation.fpiece
        u = free_token(st, t)
        put_unit(st, u, p, st.formation.fcell, DIR_NAMES.index(a.arg))
        logistics.pay(st, p, UNITS[t].cost)
        st.emit(
            None,
            "place",
            say(
                "{colour} places {unit} {letter} on {cell}, facing {facing}.",
                colour=words.colour(p),
                unit=words.unit_type(u),
                letter=LETTERS[u],
                cell=cn(st.formation.fcell),
                facing=words.facing(a.arg),
            ),
            seat=p,
            unit=LETTERS[u],
            cell=cn(st.formation.fcell),
            facing=a.arg,
        )
    st.formation.fpiece = ""
    st.formation.fcell = -1
    st.formation.clock_started = True
    next_placer(st, 1 - p)
