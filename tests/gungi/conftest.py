from __future__ import annotations

import pytest

import sengoku
from sengoku.games.gungi import Gungi, GungiState, Move


@pytest.fixture(scope="session")
def gungi() -> Gungi:
    game = sengoku.load_game("gungi")
    assert isinstance(game, Gungi)
    return game


def moves_from(state: GungiState, square: str) -> list[Move]:
    from sengoku.games.gungi.pieces import square_name

    return [
        m for m in state.legal_actions() if m.origin is not None and square_name(m.origin) == square
    ]


def targets(state: GungiState, square: str) -> set[str]:
    """Official destinations (c-r-t) of the moves of the piece on ``square``."""
    return {m.official().split()[0] for m in moves_from(state, square)}


def fen_of(towers: dict[str, str], hands: str = "-/-", side: str = "w", mode: int = 3) -> str:
    """A FEN from ``{"5-5": "DM"}`` (letters bottom to top; upper case White)."""
    grid = [["" for _ in range(9)] for _ in range(9)]
    for name, letters in towers.items():
        col, row = (int(p) for p in name.split("-"))
        grid[row - 1][9 - col] = letters
    ranks = []
    for row in grid:
        out, empty = [], 0
        for cell in row:
            if not cell:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            out.append(cell if len(cell) == 1 else "|" + ":".join(cell) + "|")
        if empty:
            out.append(str(empty))
        ranks.append("".join(out))
    return f"{'/'.join(ranks)} {hands} {side} {mode} - 1"


def study(gungi: Gungi, fen: str, **options: object) -> GungiState:
    """A study position (no Marshals needed): the move-generation tests' positions."""
    return gungi.from_fen(fen, study=True, **options)
