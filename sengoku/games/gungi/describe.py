"""Gungi's legal moves as data (:meth:`sengoku.core.game.Game.describe_action`).

Kinds: ``move`` (a piece moves, onto an empty square or a stack), ``capture``, ``drop``
(新, a piece from the hand), ``place`` (a setup placement), ``done`` (済み, the end of
one's setup). Squares are the official ``column-row-tier``; a betrayal (返) lists the enemy
pieces it turns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sengoku.core.describe import ActionDescription
from sengoku.games.gungi.move import Move
from sengoku.games.gungi.pieces import PIECES, square_name


def piece_name(kind: int) -> str:
    """The English name of a piece kind, with its kanji: ``"Spear (槍)"``."""
    return f"{PIECES[kind].english} ({PIECES[kind].kanji})"


def tower_heights(view: Mapping[str, Any]) -> dict[str, int]:
    """Square -> the height of its tower, from a view (every square is public)."""
    return {entry["square"]: len(entry["tower"]) for entry in view["board"]}


#: Descriptions already made, by what they depend on: the move (interned by its code), the
#: setup phase, and the height of the origin's tower where it is named. A position offers
#: mostly the moves the last one did; the server describes every legal move of each.
_KEPT: dict[tuple[Move, bool, int | None], ActionDescription] = {}
#: Kept descriptions at most (about 1 kB each); the whole memo is dropped when full.
KEPT_MAX = 20_000


def describe_move(
    move: Move, setup: bool, heights: Mapping[str, int] | None = None
) -> ActionDescription:
    """``move`` as data; ``setup``: the position is in the setup phase (drops are placements);
    ``heights`` (:func:`tower_heights`): the origin's tier is named when given."""
    origin = move.origin  # None for a drop or Done
    height = None
    if heights is not None and origin is not None:
        height = heights.get(square_name(origin))
    key = (move, setup, height)
    kept = _KEPT.get(key)
    if kept is None:
        if len(_KEPT) >= KEPT_MAX:
            _KEPT.clear()
        kept = _KEPT[key] = _describe_move(move, setup, heights)
    return kept


def _describe_move(
    move: Move, setup: bool, heights: Mapping[str, int] | None = None
) -> ActionDescription:
    notation = str(move)
    if move.is_done:
        return ActionDescription(
            notation, "done", "Done (済み)", "Declare your setup done (済み).", {"step": "done"}
        )
    dest = move.destination
    assert dest is not None
    piece = PIECES[move.kind]
    to = f"{square_name(dest)}-{move.tier}"
    objects: dict[str, Any] = {"piece": piece.name, "to": to, "tier": move.tier}
    turned = [{"piece": PIECES[k].name, "tier": t} for t, k in move.turned]
    betrayal = ""
    if turned:
        objects["betrayal"] = turned
        names = " and ".join(piece_name(k) for _, k in move.turned)
        betrayal = f", turning the enemy {names} to your side (返)"
    if move.is_drop:
        kind = "place" if setup else "drop"
        verb = "Place" if setup else "Drop (新)"
        label = f"{verb} {piece.english} at {to}"
        text = (
            f"{'Place' if setup else 'Drop'} your {piece_name(move.kind)} from your hand "
            f"{'on' if move.tier == 1 else 'onto the stack at'} {to}{betrayal}."
        )
        objects["from"] = "hand"
        return ActionDescription(notation, kind, label, text, objects)
    origin = move.origin
    assert origin is not None
    frm = square_name(origin)
    if heights is not None and frm in heights:
        frm = f"{frm}-{heights[frm]}"
    objects["from"] = frm
    if move.capture:
        label = f"{piece.english} {frm} takes on {to}"
        text = f"Move your {piece_name(move.kind)} from {frm} to {to}, capturing (取){betrayal}."
        return ActionDescription(notation, "capture", label, text, objects)
    label = f"Move {piece.english} {frm} to {to}"
    stack = " onto the stack (付)" if move.tier > 1 else ""
    text = f"Move your {piece_name(move.kind)} from {frm} to {to}{stack}{betrayal}."
    return ActionDescription(notation, "move", label, text, objects)


def catalog() -> dict[str, Any]:
    """Every piece kind: its id (English name), kanji, letter, count and whether special."""
    return {
        "pieces": [
            {
                "id": p.name,
                "name": p.english,
                "kanji": p.kanji,
                "letter": p.letter,
                "count": p.count,
                "special": p.special,
            }
            for p in PIECES
        ]
    }
