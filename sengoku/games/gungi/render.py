"""The terminal drawing of a Gungi position: towers with their tier, both hands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.games.gungi.mate import marshal_capturable
from sengoku.games.gungi.pieces import COLOR_NAMES, PIECES, WHITE, square_name
from sengoku.games.gungi.setup import PLAY

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState

# Sides differ by a mark as well as by colour: White's pieces are "+", Black's "-".
MARK = ("+", "-")


def _cell(tower: tuple[int, ...]) -> str:
    if not tower:
        return "  .  "
    top = tower[-1]
    return f"{MARK[top & 1]}{PIECES[top >> 1].kanji}{len(tower)} "


def _hand(state: GungiState, color: int) -> str:
    hand = state.hands[color]
    parts = [f"{PIECES[k].kanji}x{n}" for k, n in enumerate(hand) if n]
    return " ".join(parts) or "(empty)"


def render(state: GungiState) -> str:
    lines = [
        f"Gungi ({state.mode.name}) - {state.phase}, move {state.move_number}, "
        f"{COLOR_NAMES[state.to_move]} to play"
        + (f" - {state.outcome().reason}" if state.outcome() else ""),  # type: ignore[union-attr]
        f"  Black hand (-): {_hand(state, 1)}",
        "     " + "".join(f"  {c}  " for c in range(9, 0, -1)),
    ]
    for y in range(9):
        row = "".join(_cell(state.board[y * 9 + x]) for x in range(9))
        lines.append(f"  {y + 1}  {row}")
    lines.append(f"  White hand (+): {_hand(state, WHITE)}")
    towers = [
        f"{square_name(sq)}: " + " ".join(f"{MARK[p & 1]}{PIECES[p >> 1].kanji}" for p in tower)
        for sq, tower in enumerate(state.board)
        if len(tower) > 1
    ]
    if towers:
        lines.append("  Towers (bottom first): " + "; ".join(towers))
    for color in (WHITE, 1):
        if state.phase == PLAY and marshal_capturable(state, color):
            lines.append(f"  Warning: {COLOR_NAMES[color]}'s Marshal can be captured!")
    return "\n".join(lines)
