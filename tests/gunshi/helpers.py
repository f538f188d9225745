"""Helpers for Gunshi tests: build a battle position directly, play decisions by notation."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

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
    s.uloc = [-1] * NUM_TOKENS
    s.uown = [-1] * NUM_TOKENS
    s.ushield = [False] * NUM_TOKENS
    s.board = [-1] * CELLS
    s.fence = [-1] * EDGES
    s.fences_left = [4, 4] if fences_left is None else list(fences_left)
    placed: list[list[int]] = [[], []]
    for text in units:
        owner, t, cell, face = text.split()
        p = "RB".index(owner)
        u = s._free_token(t.upper())
        assert u >= 0, f"no {t} left in the Reserve"
        s._put_unit(u, p, parse_cell(cell), DIR_NAMES.index(face))
        s.ushield[u] = t == "I"
        placed[p].append(u)
    for text in fences:
        owner, edge = text.split()
        p = "RB".index(owner)
        s.fence[parse_edge(edge)] = p
    s.points = list(points)
    for p in (0, 1):
        s.candidates[p] = sorted(placed[p])
        if placed[p]:
            s.shogun[p] = LETTERS.index(shogun[p]) if shogun[p] else placed[p][0]
        s.hand[p] = [(c, False, False) for c in hand[p]]
        s.deck[p] = [(c, False, False) for c in deck[p]]
        s.row[p] = [(c, True, True) for c in row[p]]
        s.stock[p] = []
        s.reset_knowledge(p)
    s.phase = "battle"
    s.step = "send"
    s.player = to_act
    s.turn = 5
    s.fpiece = ""
    s.pick_order = []
    s.clock_started = True
    return s


def resolve(s: GunshiState) -> list[dict[str, Any]]:
    """Start the acting player's turn: Units Follow Orders (events returned)."""
    s._events = []
    s._begin_turn()
    events, s._events = s._events, []
    return events


def play(s: GunshiState, *moves: str) -> list[dict[str, Any]]:
    """Apply decisions written in notation; returns all events."""
    out: list[dict[str, Any]] = []
    for text in moves:
        out += s.apply(GAME.parse_action(s, text))
    return out


def legal(s: GunshiState) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def unit_at(s: GunshiState, cell: str) -> dict[str, Any] | None:
    u = s.board[parse_cell(cell)]
    if u < 0:
        return None
    return {
        "letter": LETTERS[u],
        "owner": s.uown[u],
        "facing": DIR_NAMES[s.uface[u]],
        "shield": s.ushield[u],
    }


def fence_at(s: GunshiState, edge: str) -> int:
    return s.fence[parse_edge(edge)]
