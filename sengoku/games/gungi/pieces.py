"""Gungi's pieces and modes, read from ``pieces.json`` and ``modes.json``, and the movement
tables built from them once at import.

Board geometry: ``sq = y * 9 + x`` where ``x`` runs 0..8 from left to right as White sees the
board (columns 9..1) and ``y`` runs 0..8 from Black's back row (row 1) to White's (row 9).
White's forward is towards row 1. A piece is ``kind * 2 + color`` (color 0 White, 1 Black); a
tower is a tuple of pieces, bottom first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

WHITE, BLACK = 0, 1
COLOR_NAMES = ("white", "black")
MAX_TIER = 3


def _load(name: str) -> Any:
    with (HERE / name).open(encoding="utf-8") as f:
        return json.load(f)


@dataclass(frozen=True)
class PieceType:
    kind: int
    name: str
    kanji: str
    letter: str
    count: int
    special: bool
    slides: tuple[
        tuple[int, int, int | None], ...
    ]  # (right, forward, base reach or None=unlimited)
    jumps: tuple[tuple[int, int], ...]  # (min landing distance, max landing distance at tier 1)
    diagonal_jumps: tuple[tuple[int, int], ...]  # archer (right, forward) landings by tier

    @property
    def english(self) -> str:
        return self.name.replace("_", " ").title()


def _read_pieces() -> tuple[PieceType, ...]:
    data = _load("pieces.json")
    types = []
    for kind, name in enumerate(data["order"]):
        raw = data["pieces"][name]
        slides = tuple(
            (int(d[0]), int(d[1]), None if reach == "unlimited" else int(reach))
            for d, reach in raw["slides"]
        )
        jumps = tuple((int(j["min"]), int(j["max_base"])) for j in raw.get("jumps", []))
        diag = tuple((int(a), int(b)) for a, b in raw.get("diagonal_jumps", []))
        types.append(
            PieceType(
                kind,
                name,
                raw["kanji"],
                raw["letter"],
                int(raw["count"]),
                bool(raw["special"]),
                slides,
                jumps,
                diag,
            )
        )
    return tuple(types)


PIECES = _read_pieces()
KIND_BY_NAME = {p.name: p.kind for p in PIECES}
KIND_BY_KANJI = {p.kanji: p.kind for p in PIECES}
KIND_BY_LETTER = {p.letter: p.kind for p in PIECES}
ENGLISH_ALIASES: dict[str, int] = {
    alias: KIND_BY_NAME[name]
    for name, aliases in _load("pieces.json")["english_aliases"].items()
    for alias in aliases
}
NUM_KINDS = len(PIECES)
MARSHAL = KIND_BY_NAME["marshal"]
CAPTAIN = KIND_BY_NAME["captain"]
ARCHER = KIND_BY_NAME["archer"]


@dataclass(frozen=True)
class Mode:
    name: str
    code: int
    stack_limit: int
    marshal_may_stack: bool
    free_setup: bool
    setup: str


MODES = {
    name: Mode(
        name,
        int(m["code"]),
        int(m["stack_limit"]),
        bool(m["marshal_may_stack"]),
        bool(m["free_setup"]),
        str(m["setup"]),
    )
    for name, m in _load("modes.json")["modes"].items()
}
MODE_BY_CODE = {m.code: m for m in MODES.values()}

ARCHER_BLOCKERS = ("front_and_wing", "front", "wing")


def square(x: int, y: int) -> int:
    return y * 9 + x


def on_board(x: int, y: int) -> bool:
    return 0 <= x < 9 and 0 <= y < 9


def square_name(sq: int) -> str:
    """Official coordinates ``column-row`` (columns 9..1 left to right from White's side)."""
    return f"{9 - sq % 9}-{sq // 9 + 1}"


def _walk(x: int, y: int, dx: int, dy: int, n: int | None) -> tuple[int, ...]:
    out = []
    step = 1
    while n is None or step <= n:
        nx, ny = x + dx * step, y + dy * step
        if not on_board(nx, ny):
            break
        out.append(square(nx, ny))
        step += 1
    return tuple(out)


# A ray is (mode, squares, extra):
#   SLIDE: walk ``squares`` and stop at the first occupied one;
#   JUMP: pass over towers no taller than the jumper, landing from index ``extra`` on;
#   DIAGONAL: archer landings ``squares``; ``extra`` are squares that must be no taller.
SLIDE, JUMP, DIAGONAL = 0, 1, 2
Ray = tuple[int, tuple[int, ...], Any]


def _rays(color: int, kind: int, tier: int, sq: int, blockers: str) -> tuple[Ray, ...]:
    piece = PIECES[kind]
    x, y = sq % 9, sq // 9
    # White looks towards row 1 (y decreasing); Black's board is White's turned half round.
    sx, sy = (1, -1) if color == WHITE else (-1, 1)
    rays: list[Ray] = []
    for right, forward, base in piece.slides:
        reach = None if base is None else base + tier - 1
        squares = _walk(x, y, right * sx, forward * sy, reach)
        if squares:
            rays.append((SLIDE, squares, None))
    for lo, hi in piece.jumps:
        squares = _walk(x, y, 0, sy, hi + tier - 1)
        if len(squares) >= lo:
            rays.append((JUMP, squares, lo - 1))
    if piece.diagonal_jumps:
        for side in (1, -1):
            landings = []
            for right, forward in piece.diagonal_jumps[:tier]:
                nx, ny = x + side * right * sx, y + forward * sy
                if on_board(nx, ny):
                    landings.append(square(nx, ny))
            if not landings:
                continue
            front = (x, y + sy)
            wing = (x + side * sx, y + sy)
            chosen = {"front_and_wing": (front, wing), "front": (front,), "wing": (wing,)}[blockers]
            block = tuple(square(bx, by) for bx, by in chosen if on_board(bx, by))
            rays.append((DIAGONAL, tuple(landings), block))
    return tuple(rays)


def table_index(color: int, kind: int, tier: int, sq: int) -> int:
    return ((color * NUM_KINDS + kind) * 4 + tier) * 81 + sq


def build_ray_table(blockers: str) -> list[tuple[Ray, ...]]:
    """Rays for every (color, kind, tier, square), flattened by :func:`table_index`."""
    table: list[tuple[Ray, ...]] = [()] * (2 * NUM_KINDS * 4 * 81)
    for color in (WHITE, BLACK):
        for kind in range(NUM_KINDS):
            for tier in range(1, MAX_TIER + 1):
                for sq in range(81):
                    table[table_index(color, kind, tier, sq)] = _rays(
                        color, kind, tier, sq, blockers
                    )
    return table


def build_attack_table(
    rays: list[tuple[Ray, ...]],
) -> list[dict[int, tuple[bool, tuple[int, ...]]]]:
    """For each (color, kind, tier, square): target -> (is_jump, path squares).

    A slide reaches the target when every path square is empty; a jump when every path
    square is no taller than the jumper. Used to test whether a Marshal is capturable.
    """
    table: list[dict[int, tuple[bool, tuple[int, ...]]]] = []
    for entry in rays:
        targets: dict[int, tuple[bool, tuple[int, ...]]] = {}
        for mode, squares, extra in entry:
            if mode == SLIDE:
                for i, s in enumerate(squares):
                    targets[s] = (False, squares[:i])
            elif mode == JUMP:
                for i in range(extra, len(squares)):
                    targets[squares[i]] = (True, squares[:i])
            else:
                for i, s in enumerate(squares):
                    targets[s] = (True, tuple(extra) + squares[:i])
        table.append(targets)
    return table


RAY_TABLES = {b: build_ray_table(b) for b in ARCHER_BLOCKERS}
ATTACK_TABLES = {b: build_attack_table(RAY_TABLES[b]) for b in ARCHER_BLOCKERS}
