"""Gunkimono's components, read from the JSON files next to this module and checked at load.

Values the rulebook does not print (the battlefield layout, the symbols on the tiles, the
honor-track rows) are reconstructed: each file says so in its ``reconstructed`` field and
``docs/rules/gunkimono.md`` lists them, so the real values can replace them without code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


class DataError(ValueError):
    """A data file that does not describe valid Gunkimono components."""


@dataclass(frozen=True)
class Components:
    """Everything static about the game's pieces and board."""

    troop_names: tuple[str, ...]  # index = troop type = honor-track column
    troop_letters: tuple[str, ...]
    width: int
    height: int
    printed: tuple[int, ...]  # troop type printed on each square, row-major
    large_tiles: tuple[int, ...]  # tile codes (see tile_code), one per physical tile
    small_symbols: int
    ending_row: dict[int, int]  # player count -> row of the banner stacks
    stronghold_rows: dict[int, tuple[int, int]]  # player count -> (first, second)
    banner_kinds: tuple[str, ...]  # top to bottom of each stack
    banner_values: tuple[tuple[int, ...], ...]
    banner_min_players: tuple[int, ...]
    reconstructed: tuple[str, ...]  # names of the files whose values are reconstructed


def troop_code(troop: int, symbols: int) -> int:
    """One troop on a tile: its type and its stronghold symbols (1 or 2), as 0..9."""
    return troop * 2 + symbols - 1


def tile_code(a: int, sa: int, b: int, sb: int) -> int:
    """A large tile's contents as 0..99, the lower troop type first (tiles are unordered)."""
    if a > b:
        a, sa, b, sb = b, sb, a, sa
    return troop_code(a, sa) * 10 + troop_code(b, sb)


def tile_troops(code: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """((type, symbols), (type, symbols)) of a tile code."""
    c1, c2 = divmod(code, 10)
    return (c1 // 2, c1 % 2 + 1), (c2 // 2, c2 % 2 + 1)


def _load(name: str) -> dict[str, Any]:
    path = HERE / name
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{name}: cannot read: {exc}") from None
    if not isinstance(data, dict):
        raise DataError(f"{name}: must hold a JSON object")
    if not isinstance(data.get("reconstructed"), bool):
        raise DataError(f"{name}: field 'reconstructed' must be true or false")
    return data


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise DataError(message)


@cache
def components() -> Components:
    """The validated components (loaded once)."""
    reconstructed: list[str] = []

    troops_data = _load("troops.json")
    troops: Any = troops_data.get("troops")
    _require(
        isinstance(troops, list) and len(troops) == 5,
        "troops.json: 'troops' must list the 5 troop types",
    )
    names = tuple(str(t.get("name")) for t in troops)
    letters = tuple(str(t.get("letter")) for t in troops)
    _require(
        all(len(x) == 1 and x.isalpha() and x.isupper() for x in letters)
        and len(set(letters)) == 5,
        "troops.json: each troop needs a distinct one-letter upper-case 'letter'",
    )
    if troops_data["reconstructed"]:
        reconstructed.append("troops.json")

    board = _load("battlefield.json")
    rows: Any = board.get("rows")
    _require(
        isinstance(rows, list) and bool(rows) and all(isinstance(r, str) for r in rows),
        "battlefield.json: 'rows' must be a list of strings",
    )
    width = len(rows[0])
    _require(
        all(len(r) == width for r in rows), "battlefield.json: every row must have the same length"
    )
    _require(width <= 26 and len(rows) <= 99, "battlefield.json: at most 26 columns and 99 rows")
    printed = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            _require(
                ch in letters,
                f"battlefield.json: square ({x},{y}) holds {ch!r}, not a troop letter {letters}",
            )
            printed.append(letters.index(ch))
    if board["reconstructed"]:
        reconstructed.append("battlefield.json")

    tiles = _load("tiles.json")
    per_pair: Any = tiles.get("large_tiles_per_pair")
    _require(
        isinstance(per_pair, list)
        and all(
            isinstance(p, list) and len(p) == 2 and all(s in (1, 2) for s in p) for p in per_pair
        ),
        "tiles.json: 'large_tiles_per_pair' must list [symbols, symbols] pairs of 1 or 2",
    )
    large = []
    for a in range(5):
        for b in range(a + 1, 5):
            for sa, sb in per_pair:
                large.append(tile_code(a, sa, b, sb))
    _require(
        len(large) == tiles.get("large_tile_count"),
        f"tiles.json: the pairs make {len(large)} large tiles, "
        f"'large_tile_count' says {tiles.get('large_tile_count')}",
    )
    small: Any = tiles.get("small_tile_symbols")
    _require(small in (1, 2), "tiles.json: 'small_tile_symbols' must be 1 or 2")
    if tiles["reconstructed"]:
        reconstructed.append("tiles.json")

    honor = _load("honor_track.json")
    ending: dict[int, int] = {}
    strongholds: dict[int, tuple[int, int]] = {}
    for n in range(2, 6):
        end = honor.get("ending_row", {}).get(str(n))
        rows_n = honor.get("stronghold_rows", {}).get(str(n))
        _require(
            isinstance(end, int) and end > 0,
            f"honor_track.json: 'ending_row' needs a positive row for {n} players",
        )
        _require(
            isinstance(rows_n, list)
            and len(rows_n) == 2
            and all(isinstance(r, int) for r in rows_n)
            and 0 < rows_n[0] < rows_n[1] < end,
            f"honor_track.json: 'stronghold_rows' for {n} players must be two rows, "
            f"rising, above row 0 and below the ending row {end}",
        )
        ending[n] = end
        strongholds[n] = (rows_n[0], rows_n[1])
    if honor["reconstructed"]:
        reconstructed.append("honor_track.json")

    banners = _load("banners.json")
    kinds: Any = banners.get("kinds")
    _require(
        isinstance(kinds, list) and len(kinds) >= 1,
        "banners.json: 'kinds' must list the banner kinds, top of the stack first",
    )
    kind_names = []
    kind_values = []
    kind_min = []
    for k in kinds:
        values = k.get("values")
        _require(
            isinstance(values, list)
            and len(values) == 5
            and all(isinstance(v, int) and v > 0 for v in values),
            f"banners.json: kind {k.get('name')!r} needs 5 positive values (one per column)",
        )
        kind_names.append(str(k.get("name")))
        kind_values.append(tuple(values))
        kind_min.append(int(k.get("min_players", 2)))
    if banners["reconstructed"]:
        reconstructed.append("banners.json")

    return Components(
        troop_names=names,
        troop_letters=letters,
        width=width,
        height=len(rows),
        printed=tuple(printed),
        large_tiles=tuple(large),
        small_symbols=small,
        ending_row=ending,
        stronghold_rows=strongholds,
        banner_kinds=tuple(kind_names),
        banner_values=tuple(kind_values),
        banner_min_players=tuple(kind_min),
        reconstructed=tuple(reconstructed),
    )
