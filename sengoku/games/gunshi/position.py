"""A compact, public position string for Gunshi battles (a FEN of sorts).

``<ranks 7..1> <fences> <to act r|b> <points r,b> <fences in hand r,b> <invaders r,b>
<Red row>/<Blue row>``

* ranks: 7 cells each, a..g, separated by ``/``; a digit is a run of empty cells; a unit is
  its token letter (upper case Red, lower case Blue; the letter also gives the type) then
  its facing ``n e s w``, then ``-`` for an Infantry without its Shield;
* fences: ``R:d3n,B:d4n`` (canonical edge names) or ``-``;
* rows: the Command Row cards from the Lightning position (``L=`` prefix when used) to
  position 4, joined by ``.``, ``?`` for a face-down card, ``-`` when empty.

Only what both players see is written: the Shogun and the hands are not. ``from_position``
builds a Phase 3 position at the start of that player's turn (their Command Row resolves
first, as in play) with each side's Shogun on its first
unit in letter order, face-down cards replaced by the first cards of a Basic deck, and the
remaining Basic cards as hand (3) and deck.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sengoku.core.game import SengokuError
from sengoku.games.gunshi.data import (
    BASIC_DECK,
    CARDS,
    CELLS,
    DIR_NAMES,
    EDGE_NAMES,
    EDGES,
    LETTERS,
    NUM_TOKENS,
    SIZE,
    TOKEN_TYPE,
    parse_edge,
)

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


class PositionError(SengokuError):
    """A position string that is not a valid Gunshi position; the message names the field."""


def to_position(state: GunshiState) -> str:
    ranks = []
    for r in range(SIZE - 1, -1, -1):
        out = []
        empty = 0
        for c in range(SIZE):
            u = state.board[r * SIZE + c]
            if u < 0:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            letter = LETTERS[u] if state.uown[u] == 0 else LETTERS[u].lower()
            bare = "-" if TOKEN_TYPE[u] == "I" and not state.ushield[u] else ""
            out.append(letter + DIR_NAMES[state.uface[u]] + bare)
        if empty:
            out.append(str(empty))
        ranks.append("".join(out))
    fences = ",".join(
        f"{'RB'[state.fence[e]]}:{EDGE_NAMES[e]}" for e in range(EDGES) if state.fence[e] >= 0
    )
    rows = []
    for p in (0, 1):
        cards = [c[0] if c[2] else "?" for c in state.row[p]]
        lt = state.lightning[p]
        text = ".".join(cards)
        if lt is not None:
            text = f"L={lt[0] if lt[2] else '?'}" + (f".{text}" if text else "")
        rows.append(text or "-")
    return " ".join(
        [
            "/".join(ranks),
            fences or "-",
            "rb"[state.player] if state.result is None else "-",
            f"{state.points[0]},{state.points[1]}",
            f"{state.fences_left[0]},{state.fences_left[1]}",
            f"{state.invaders[0]},{state.invaders[1]}",
            "/".join(rows),
        ]
    )


_UNIT = re.compile(r"([A-Xa-x])([nesw])(-?)")


def _pair(text: str, field: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(","))
    except ValueError:
        raise PositionError(f"{field}: expected two numbers like 18,18, got {text!r}") from None
    if a < 0 or b < 0:
        raise PositionError(f"{field}: numbers cannot be negative ({text!r})")
    return a, b


def from_position(game: Any, text: str, **options: Any) -> GunshiState:
    fields = text.split()
    if len(fields) != 7:
        raise PositionError(
            "a Gunshi position has 7 fields: ranks, fences, to act, points, fences in hand, "
            f"invaders, rows; got {len(fields)}"
        )
    ranks_t, fences_t, side_t, pts_t, fl_t, inv_t, rows_t = fields
    state: GunshiState = game.new_state(0, **options)
    state.uloc = [-1] * NUM_TOKENS
    state.uown = [-1] * NUM_TOKENS
    state.ushield = [False] * NUM_TOKENS
    state.board = [-1] * CELLS
    state.fence = [-1] * EDGES
    ranks = ranks_t.split("/")
    if len(ranks) != SIZE:
        raise PositionError(f"ranks: expected 7 ranks separated by '/', got {len(ranks)}")
    for i, rank in enumerate(ranks):
        r = SIZE - 1 - i
        c = 0
        pos = 0
        while pos < len(rank):
            ch = rank[pos]
            if ch.isdigit():
                c += int(ch)
                pos += 1
                continue
            m = _UNIT.match(rank, pos)
            if not m:
                raise PositionError(f"rank {r + 1}: cannot read {rank[pos:]!r}")
            letter, face, bare = m.groups()
            u = LETTERS.index(letter.upper())
            if state.uloc[u] >= 0 or c >= SIZE:
                raise PositionError(f"rank {r + 1}: unit {letter} repeats or runs off the rank")
            owner = 0 if letter.isupper() else 1
            state._put_unit(u, owner, r * SIZE + c, DIR_NAMES.index(face))
            if bare:
                if TOKEN_TYPE[u] != "I":
                    raise PositionError(f"rank {r + 1}: only Infantry carry Shields ({letter})")
                state.ushield[u] = False
            c += 1
            pos = m.end()
        if c != SIZE:
            raise PositionError(f"rank {r + 1}: describes {c} cells, not 7")
    if fences_t != "-":
        for item in fences_t.split(","):
            owner, _, edge = item.partition(":")
            if owner not in ("R", "B"):
                raise PositionError(f"fences: {item!r} needs an owner R: or B:")
            try:
                state.fence[parse_edge(edge)] = "RB".index(owner)
            except SengokuError as exc:
                raise PositionError(f"fences: {exc}") from None
    if side_t not in ("r", "b"):
        raise PositionError(f"to act: 'r' or 'b', not {side_t!r}")
    state.points = list(_pair(pts_t, "points"))
    state.fences_left = list(_pair(fl_t, "fences in hand"))
    state.invaders = list(_pair(inv_t, "invaders"))
    row_texts = rows_t.split("/")
    if len(row_texts) != 2:
        raise PositionError("rows: Red's row and Blue's row separated by '/'")
    for p in (0, 1):
        units = [u for u in range(NUM_TOKENS) if state.uown[u] == p]
        if not units:
            raise PositionError(f"ranks: {('Red', 'Blue')[p]} has no unit, so no Shogun")
        state.shogun[p] = units[0]
        state.candidates[p] = units
        spare = list(BASIC_DECK)
        row: list[tuple[str, bool, bool]] = []
        lightning = None
        items = [] if row_texts[p] == "-" else row_texts[p].split(".")
        for k, item in enumerate(items):
            is_l = item.startswith("L=")
            code = item[2:] if is_l else item
            if is_l and k != 0:
                raise PositionError("rows: the Lightning card (L=) comes first")
            if code != "?" and code not in CARDS:
                raise PositionError(f"rows: unknown card {code!r}; codes: {', '.join(CARDS)}")
            if code == "?":
                card = (spare.pop(0) if spare else "M", False, False)
            else:
                if code in spare:
                    spare.remove(code)
                card = (code, True, True)
            if is_l:
                lightning = card
            else:
                row.append(card)
        state.row[p] = row
        state.lightning[p] = lightning
        state.hand[p] = [(c, False, False) for c in spare[:3]]
        state.deck[p] = [(c, False, False) for c in spare[3:]]
        state.stock[p] = []
        state.face_down_next[p] = len(row) % 2 == 0
        state.reset_knowledge(p)
    state.phase = "battle"
    state.step = "send"
    state.player = "rb".index(side_t)
    state.turn = 1
    state.pick_order = []
    state.clock_started = True
    state._begin_turn()
    state._events = []
    return state
