"""Gunkimono's legal actions as data (:meth:`sengoku.core.game.Game.describe_action`).

Kinds: ``place_tile`` (a large tile from the hand on two squares), ``small_tile`` (a small
tile face up), ``support`` (a small tile face down, extra support for the next large tile),
``score_vp`` and ``score_honor`` (the scoring choice for one placed troop),
``stronghold`` (build a stronghold on a troop), ``draw`` (refill from the face-down stack)
and ``take`` (refill with a face-up tile). A large tile's placements share ``group`` (the
tile's id, e.g. ``I2S1``): a client picks the tile, then its cells (``cells``, with
``rotation`` ``horizontal`` or ``vertical``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sengoku.core.describe import ActionDescription
from sengoku.games.gunkimono.actions import (
    LETTERS,
    NUM_ACTIONS,
    BuildStronghold,
    Draw,
    GunkimonoAction,
    Place,
    Score,
    SmallTile,
    cell_name,
    tile_name,
)
from sengoku.games.gunkimono.data import components, tile_troops

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

_C = components()


def troop_word(troop: int) -> str:
    """``"Infantry"`` for troop type 0."""
    return _C.troop_names[troop].title()


def _symbols(n: int) -> str:
    return f"{n} stronghold symbol{'s' if n != 1 else ''}"


def _worth(state: GunkimonoState, action: Score) -> tuple[int, int]:
    """(honor points, victory points) the scored troop is worth: the troop just placed,
    waiting to be scored (public); for any other square, what stands there now."""
    if state.scoring.pending:
        cell, troop, symbols, size, _ok = state.scoring.pending[0]
        if (cell, troop) == (action.cell, action.troop):
            return int(symbols), int(size)
    return int(state.battlefield.sym[action.cell]), int(state.formation_size(action.cell))


#: Descriptions that depend on the action alone (a tile's placement, a small tile, a draw),
#: made once per action and kept: a position offers hundreds of placements, mostly the same
#: ones as the last time the tile was in hand. At most ``NUM_ACTIONS`` of them.
_KEPT: dict[GunkimonoAction, ActionDescription] = {}
_ACTION_ALONE = (Place, SmallTile, Draw)


def describe(state: GunkimonoState, action: GunkimonoAction) -> ActionDescription:
    """``action``, legal in ``state``, as data."""
    if type(action) in _ACTION_ALONE and 0 <= getattr(action, "int_id", -1) < NUM_ACTIONS:
        kept = _KEPT.get(action)
        if kept is None:
            kept = _KEPT[action] = _describe(state, action)
        return kept
    return _describe(state, action)


def _describe(state: GunkimonoState, action: GunkimonoAction) -> ActionDescription:
    notation = str(action)
    if isinstance(action, Place):
        t1, s1 = divmod(action.first, 2)
        t2, s2 = divmod(action.second, 2)
        a, b = cell_name(action.a), cell_name(action.b)
        tile = tile_name(action.tile)
        label = f"Place {troop_word(t1)}/{troop_word(t2)} tile on {a}-{b}"
        text = (
            f"Place your {troop_word(t1)}/{troop_word(t2)} tile with the {troop_word(t1)} "
            f"({_symbols(s1 + 1)}) on {a} and the {troop_word(t2)} ({_symbols(s2 + 1)}) on {b}."
        )
        objects = {
            "tile": tile,
            "group": tile,
            "step": "cells",
            "cells": [a, b],
            # Square indices as in the view's board arrays (row * width + column).
            "squares": [action.a, action.b],
            "rotation": "horizontal" if action.b == action.a + 1 else "vertical",
            "troops": [
                {"troop": LETTERS[t1], "symbols": s1 + 1, "cell": a, "square": action.a},
                {"troop": LETTERS[t2], "symbols": s2 + 1, "cell": b, "square": action.b},
            ],
        }
        return ActionDescription(notation, "place_tile", label, text, objects)
    if isinstance(action, SmallTile):
        cell = cell_name(action.cell)
        word = troop_word(action.troop)
        objects = {
            "tile": f"{LETTERS[action.troop]}-small",
            "troop": LETTERS[action.troop],
            "to": cell,
            "cells": [cell],
            "squares": [action.cell],
            "step": "cells",
            "group": f"{LETTERS[action.troop]}-small",
        }
        if action.support:
            label = f"Support with small {word} on {cell}"
            text = (
                f"Place your small {word} tile face down on {cell} as extra support for the "
                "large tile you place next."
            )
            return ActionDescription(notation, "support", label, text, objects)
        label = f"Place small {word} tile on {cell}"
        text = f"Place your small {word} tile face up on {cell}."
        return ActionDescription(notation, "small_tile", label, text, objects)
    if isinstance(action, Score):
        cell = cell_name(action.cell)
        word = troop_word(action.troop)
        symbols, size = _worth(state, action)
        found: dict[str, Any] = {
            "troop": LETTERS[action.troop],
            "to": cell,
            "squares": [action.cell],
            "step": "choice",
        }
        if action.honor:
            end = _C.ending_row[state.num_players]
            row = min(state.honor_track.honor[state.sequence.turn][action.troop] + symbols, end)
            found.update(points=symbols, row=row, banner=row >= end)
            where = "the banners" if row >= end else f"row {row}"
            label = f"Honor +{symbols}: {word} marker to {where}"
            text = (
                f"Score {symbols} honor point{'s' if symbols != 1 else ''} for the {word} on "
                f"{cell} (its stronghold symbols): your {word} marker moves up to {where}."
            )
            return ActionDescription(notation, "score_honor", label, text, found)
        found.update(points=size)
        label = f"Victory points +{size}: {word} formation of {size}"
        text = (
            f"Score {size} victory point{'s' if size != 1 else ''} for the {word} on {cell} "
            f"(the size of its formation)."
        )
        return ActionDescription(notation, "score_vp", label, text, found)
    if isinstance(action, BuildStronghold):
        cell = cell_name(action.cell)
        top = state.battlefield.top[action.cell]
        word = troop_word(top) if 0 <= top < len(LETTERS) else "troop"
        size = state.formation_size(action.cell)
        label = f"Stronghold on {word} {cell} (formation of {size})"
        text = (
            f"Build your lowest remaining stronghold on the {word} on {cell}: its formation of "
            f"{size} is yours to assess every turn."
        )
        site = {"to": cell, "squares": [action.cell], "points": size, "step": "cell"}
        return ActionDescription(notation, "stronghold", label, text, site)
    if isinstance(action, Draw):
        if action.tile is None:
            return ActionDescription(
                notation,
                "draw",
                "Draw from the stack",
                "Refill your hand with the top tile of the face-down stack.",
                {"step": "tile"},
            )
        (t1, s1), (t2, s2) = tile_troops(action.tile)
        name = tile_name(action.tile)
        label = f"Take {troop_word(t1)}/{troop_word(t2)} tile"
        text = (
            f"Refill your hand with the face-up {troop_word(t1)} ({_symbols(s1)}) / "
            f"{troop_word(t2)} ({_symbols(s2)}) tile."
        )
        return ActionDescription(notation, "take", label, text, {"tile": name, "step": "tile"})
    raise TypeError(f"not a Gunkimono action: {action!r}")


def catalog() -> dict[str, Any]:
    """The troop types, the large tiles (by id: two troops with their stronghold symbols),
    the small tiles and the war banners, from the data files."""
    tiles = []
    for code in sorted(set(_C.large_tiles)):
        (a, sa), (b, sb) = tile_troops(code)
        tiles.append(
            {
                "id": tile_name(code),
                "halves": [
                    {"troop": LETTERS[a], "symbols": sa},
                    {"troop": LETTERS[b], "symbols": sb},
                ],
                "count": _C.large_tiles.count(code),
            }
        )
    return {
        "troops": [
            {"id": letter, "name": name.title()}
            for letter, name in zip(_C.troop_letters, _C.troop_names, strict=True)
        ],
        "tiles": tiles,
        "small_tiles": [
            {"id": f"{letter}-small", "troop": letter, "symbols": _C.small_symbols}
            for letter in _C.troop_letters
        ],
        "banners": [
            {"kind": kind, "values": list(values), "min_players": m}
            for kind, values, m in zip(
                _C.banner_kinds, _C.banner_values, _C.banner_min_players, strict=True
            )
        ],
        "reconstructed": list(_C.reconstructed),
    }
