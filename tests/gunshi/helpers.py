"""Helpers for Gunshi tests: build a battle position directly, play decisions by notation."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sengoku.games.gunshi.battle as battle_rules
import sengoku.games.gunshi.units as unit_rules
from sengoku.games.gunshi import Gunshi, GunshiState
from sengoku.games.gunshi.data import (
    CELLS,
    DIR_NAMES,
    EDGES,
    LETTERS,
    NUM_TOKENS,
    parse_cell,
    parse_edge,
)

GAME = Gunshi()


def battle(
    units: Iterable[str],
    fences: Iterable[str] = (),
    *,
    to_act: int = 0,
    points: Sequence[int] = (18, 18),
    shogun: Sequence[str | None] = (None, None),
    row: Sequence[Sequence[str]] = ((), ()),
    hand: Sequence[Sequence[str]] = (("M", "Re", "F"), ("M", "Re", "F")),
    deck: Sequence[Sequence[str]] = (("M", "Re", "M", "Rf"), ("M", "Re", "M", "Rf")),
    fences_left: Sequence[int] | None = None,
    **options: Any,
) -> GunshiState:
    """A Phase 3 position.

    ``units``: ``"R C d4 n"`` = Red Cavalry on d4 facing n; type ``I`` is a shielded
    Infantry, ``i`` one without its Shield. ``fences``: ``"R d4n"``. The Shogun defaults
    to each side's first unit. The position is at the start of ``to_act``'s Send New
    Commands step; ``row`` cards are face up (use :func:`resolve` to resolve the first).
    """
    s = GAME.new_state(0, **options)
    s.field.uloc = [-1] * NUM_TOKENS
    s.field.uown = [-1] * NUM_TOKENS
    s.field.ushield = [False] * NUM_TOKENS
    s.field.board = [-1] * CELLS
    s.fences.fence = [-1] * EDGES
    s.fences.fences_left = [4, 4] if fences_left is None else list(fences_left)
    placed: list[list[int]] = [[], []]
    for text in units:
        owner, t, cell, face = text.split()
        p = "RB".index(owner)
        u = unit_rules.free_token(s, t.upper())
        assert u >= 0, f"no {t} left in the Reserve"
        unit_rules.put_unit(s, u, p, parse_cell(cell), DIR_NAMES.index(face))
        s.field.ushield[u] = t == "I"
        placed[p].append(u)
    for text in fences:
        owner, edge = text.split()
        p = "RB".index(owner)
        s.fences.fence[parse_edge(edge)] = p
    s.logistics.points = list(points)
    for p in (0, 1):
        s.shoguns.candidates[p] = sorted(placed[p])
        if placed[p]:
            s.shoguns.shogun[p] = LETTERS.index(shogun[p]) if shogun[p] else placed[p][0]
        s.cards.hand[p] = [(c, False, False) for c in hand[p]]
        s.cards.deck[p] = [(c, False, False) for c in deck[p]]
        s.cards.row[p] = [(c, True, True) for c in row[p]]
        s.cards.stock[p] = []
        s.reset_knowledge(p)
    s.phase = "battle"
    s.step = "send"
    s.player = to_act
    s.battle.turn = 5
    s.formation.fpiece = ""
    s.deck_construction.pick_order = []
    s.formation.clock_started = True
    return s


def resolve(s: GunshiState) -> list[dict[str, Any]]:
    """Start the acting player's turn: Units Follow Orders (events returned)."""
    s.take_events()
    battle_rules.begin_turn(s)
    return s.take_events()


def play(s: GunshiState, *moves: str) -> list[dict[str, Any]]:
    """Apply decisions written in notation; returns all events."""
    out: list[dict[str, Any]] = []
    for text in moves:
        out += s.apply(GAME.parse_action(s, text))
    return out


def legal(s: GunshiState) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def unit_at(s: GunshiState, cell: str) -> dict[str, Any] | None:
    u = s.field.board[parse_cell(cell)]
    if u < 0:
        return None
    return {
        "letter": LETTERS[u],
        "owner": s.field.uown[u],
        "facing": DIR_NAMES[s.field.uface[u]],
        "shield": s.field.ushield[u],
    }


def fence_at(s: GunshiState, edge: str) -> int:
    return s.fences.fence[parse_edge(edge)]
