"""A terminal drawing of a Gunshi position, built only from ``view(seat)``.

Cells read ``<owner><type><letter><facing>``: owner R/B, type I (shielded Infantry), i
(Infantry without Shield), A (Archer), C (Cavalry), the unit's token letter (A-X: the Shogun
is chosen and named by it), facing ^ > v < (n e s w, Red's seat at the bottom). ``RCK^`` is
Red's Cavalry K facing north. Fences replace the grid line they stand on with r (Red) or b
(Blue).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.hidden_information as hidden_information
from sengoku.games.gunshi.data import CARDS, COLS, SIZE, parse_cell, parse_edge
from sengoku.games.gunshi.views import CardSlotView

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState

ARROWS = {"n": "^", "e": ">", "s": "v", "w": "<"}


def _card(entry: CardSlotView | str | None, empty: str = "[?]") -> str:
    """A card as the view shows it: a row or Lightning slot, or a card code (None: hidden)."""
    if entry is None:
        return empty
    code = entry["card"] if isinstance(entry, dict) else entry
    up = entry["face_up"] if isinstance(entry, dict) else True
    if code is None:
        return "[?]"
    return f"[{code}]" if up else f"[{code}*]"


def render(state: GunshiState, seat: int | None) -> str:
    v = hidden_information.view(state, seat)  # the typed view (views.GunshiView)
    cells: dict[int, str] = {}
    for u in v["units"]:
        t = u["type"]
        if t == "I" and not u["shield"]:
            t = "i"
        cells[parse_cell(u["cell"])] = "RB"[u["owner"]] + t + u["letter"] + ARROWS[u["facing"]]
    fences = {parse_edge(f["edge"]): "rb"[f["owner"]] for f in v["fences"]}
    lines = [
        "Cells: owner R/B, type (I Infantry, i without Shield, A Archer, C Cavalry), "
        "unit letter, facing ^ > v <",
        "     " + "".join(f"  {c}  " for c in COLS),
    ]
    for r in range(SIZE - 1, -1, -1):
        if r < SIZE - 1:
            seg = []
            for c in range(SIZE):
                mark = fences.get(r * SIZE + c)
                seg.append(f"+{(mark * 4) if mark else '----'}")
            lines.append("    " + "".join(seg) + "+")
        else:
            lines.append("    " + "+----" * SIZE + "+")
        row = [f" {r + 1}  |"]
        for c in range(SIZE):
            cell = r * SIZE + c
            row.append(f"{cells.get(cell, '   '):<4}")
            if c < SIZE - 1:
                mark = fences.get(42 + r * 6 + c)
                row.append(mark if mark else "|")
        row.append("|")
        lines.append("".join(row))
    lines.append("    " + "+----" * SIZE + "+")
    for p, pl in enumerate(v["players"]):
        who = "you" if seat == p else ("spectator" if seat is None else "opponent")
        lines.append(
            f"{pl['colour']} ({who}): {pl['points']} points, {pl['fences_left']} fences in hand, "
            f"{pl['invaders']} on the Invader Spot"
            + (", Chain Trap beside the board" if pl["chain_trap_beside"] else "")
        )
        sent = " ".join(_card(c) for c in pl["row"])
        lines.append(f"   Command Row: L {_card(pl['lightning'], '-')} | {sent or '(empty)'}")
        lines.append(
            f"   hand: {' '.join(_card(c) for c in pl['hand']) or '(empty)'}   "
            f"deck (top first): {' '.join(_card(c) for c in pl['deck']) or '(empty)'}"
        )
        if pl["stock"]:
            lines.append(f"   cards to arrange: {' '.join(_card(c) for c in pl['stock'])}")
        shogun = pl["shogun"] or ("chosen, hidden" if pl["shogun_chosen"] else "not chosen")
        lines.append(f"   Shogun: {shogun}")
        if pl["prepared"]:
            lines.append(
                f"   prepared Advanced cards: {' '.join(_card(c) for c in pl['prepared'])}"
            )
    if v["pool"]:
        lines.append("Shared Advanced cards: " + ", ".join(CARDS[c].name for c in v["pool"]))
    if v["outcome"]:
        out = v["outcome"]
        lines.append(f"Game over: {out['reason']}, winners {out['winners']}")
    else:
        to_act = ("Red", "Blue")[v["to_act"]]
        doing = state.decision_name()
        lines.append(f"Turn {v['turn']}: {to_act} to act - {doing}")
    if v["clock"]["running"] is not None:
        lines.append(f"Clock running: {('Red', 'Blue')[v['clock']['running']]}")
    return "\n".join(lines)
