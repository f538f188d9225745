"""Zobrist hashing of a Gungi position: board, both hands, side to move, setup progress.

The keys come from a fixed seed, so hashes are the same in every process (records, storage,
and the native core, which is handed these very keys). The state updates its hash
incrementally in ``make``/``unmake``; :func:`position_key` and
``setup.setup_key`` compute it from scratch. The
repetition rule (:mod:`sengoku.games.gungi.the_end`) counts positions by this hash.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from sengoku.games.gungi.pieces import BLACK, NUM_KINDS, WHITE

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState

_ZRNG = random.Random(0x6A7E_61)
PIECE_KEYS = [_ZRNG.getrandbits(64) for _ in range(81 * 3 * 2 * NUM_KINDS)]
"""[square][tier][piece]: one key per piece (kind * 2 + colour) at a tier of a square."""
HAND_KEYS = [_ZRNG.getrandbits(64) for _ in range(2 * NUM_KINDS * 8)]
"""[colour][kind][count]: one key per number of pieces of a kind in a hand."""
BLACK_TO_MOVE_KEY = _ZRNG.getrandbits(64)
SETUP_KEYS = [_ZRNG.getrandbits(64) for _ in range(4)]
"""During the setup, by who is still placing (White + 2 * Black)."""


def tower_key(sq: int, tower: tuple[int, ...]) -> int:
    """The key of ``tower`` standing on ``sq``."""
    key = 0
    base = sq * 3 * 2 * NUM_KINDS
    for i, piece in enumerate(tower):
        key ^= PIECE_KEYS[base + i * 2 * NUM_KINDS + piece]
    return key


def hand_key(color: int, kind: int, count: int) -> int:
    """The key of ``count`` pieces of ``kind`` in ``color``'s hand."""
    return HAND_KEYS[(color * NUM_KINDS + kind) * 8 + count]


def position_key(state: GungiState) -> int:
    """The hash of ``state``'s board, hands and side to move, from scratch (the setup
    progress adds ``setup.setup_key``)."""
    key = BLACK_TO_MOVE_KEY if state.to_move == BLACK else 0
    for sq, tower in enumerate(state.board):
        if tower:
            key ^= tower_key(sq, tower)
    for color in (WHITE, BLACK):
        for kind, count in enumerate(state.hands[color]):
            key ^= hand_key(color, kind, count)
    return key
