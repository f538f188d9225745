"""Gungi's evaluation as a parameter vector: the layout the Texel tuning fits
(:mod:`sengoku.arena.texel`, which finds this module through ``GungiFeatures.texel_tables``),
its fit, the positions it keeps, and the tables the searches take from it.

A top piece's worth is ``tier[kind][height] + row[kind][advance] + file[distance from the
edge]`` (left-right mirrored; the same for both colours from each side's point of view):

* ``tier[kind][h]`` for heights 1-3 (hand-made: ``VALUE + TIER_BONUS``);
* ``row[kind][r]``, r = rows advanced 0-8 (hand-made: ``ADVANCE * r``, the Marshal
  ``MARSHAL_ADVANCE * r``);
* ``file[d]``, d = 0-4 files from the nearer edge (hand-made: 0);
* ``value[kind]`` (a buried piece of the top's colour; hand-made: ``VALUE``), ``buried``
  (the factor for one buried under an enemy top) and ``hand`` (the factor in hand).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from sengoku.core.game import State

NK = 14
HEIGHTS = 3
ROWS = 9
FILES = 5
#: Parameter vector layout: tier, row, file, value, then the buried and hand factors.
N_TIER = NK * HEIGHTS
N_ROW = NK * ROWS
OFF_ROW = N_TIER
OFF_FILE = OFF_ROW + N_ROW
OFF_VALUE = OFF_FILE + FILES
OFF_BURIED = OFF_VALUE + NK
OFF_HAND = OFF_BURIED + 1
N_PARAMS = OFF_HAND + 1


def hand_made() -> np.ndarray:
    """The hand-made evaluation as a parameter vector."""
    import sengoku.games.gungi.features as f
    from sengoku.games.gungi.pieces import MARSHAL

    theta = np.zeros(N_PARAMS)
    for kind in range(NK):
        for h in range(HEIGHTS):
            theta[kind * HEIGHTS + h] = f.VALUE[kind] + f.TIER_BONUS[h + 1]
        step = f.MARSHAL_ADVANCE if kind == MARSHAL else f.ADVANCE
        for r in range(ROWS):
            theta[OFF_ROW + kind * ROWS + r] = step * r
        theta[OFF_VALUE + kind] = f.VALUE[kind]
    theta[OFF_BURIED] = f.BURIED_BY_ENEMY
    theta[OFF_HAND] = f.HAND_FACTOR
    return theta


def to_json(theta: np.ndarray) -> dict[str, Any]:
    """The parameters by the pieces' names (the weights file's ``parameters``)."""
    from sengoku.games.gungi.pieces import KIND_BY_NAME

    names = sorted(KIND_BY_NAME, key=KIND_BY_NAME.__getitem__)
    return {
        "tier": {
            n: [round(float(theta[k * HEIGHTS + h]), 6) for h in range(HEIGHTS)]
            for k, n in enumerate(names)
        },
        "row": {
            n: [round(float(theta[OFF_ROW + k * ROWS + r]), 6) for r in range(ROWS)]
            for k, n in enumerate(names)
        },
        "file": [round(float(x), 6) for x in theta[OFF_FILE : OFF_FILE + FILES]],
        "value": {n: round(float(theta[OFF_VALUE + k]), 6) for k, n in enumerate(names)},
        "buried": round(float(theta[OFF_BURIED]), 6),
        "hand": round(float(theta[OFF_HAND]), 6),
    }


def from_json(params: dict[str, Any]) -> np.ndarray:
    from sengoku.games.gungi.pieces import KIND_BY_NAME

    theta = np.zeros(N_PARAMS)
    for name, k in KIND_BY_NAME.items():
        theta[k * HEIGHTS : (k + 1) * HEIGHTS] = params["tier"][name]
        theta[OFF_ROW + k * ROWS : OFF_ROW + (k + 1) * ROWS] = params["row"][name]
        theta[OFF_VALUE + k] = params["value"][name]
    theta[OFF_FILE : OFF_FILE + FILES] = params["file"]
    theta[OFF_BURIED] = params["buried"]
    theta[OFF_HAND] = params["hand"]
    return theta


def top_table(theta: np.ndarray) -> list[list[list[float]]]:
    """``TOP[piece][height][sq]`` for the parameters (height 0 never holds a top: 0)."""
    table = []
    for piece in range(2 * NK):
        kind, color = piece >> 1, piece & 1
        per_height = [[0.0] * 81]
        for h in range(1, 4):
            row = []
            for sq in range(81):
                advance = 8 - sq // 9 if color == 0 else sq // 9
                file = sq % 9
                row.append(
                    float(theta[kind * HEIGHTS + h - 1])
                    + float(theta[OFF_ROW + kind * ROWS + advance])
                    + float(theta[OFF_FILE + min(file, 8 - file)])
                )
            per_height.append(row)
        table.append(per_height)
    return table


def features(towers: np.ndarray, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The linear part and the per-kind counts of positions.

    ``towers``: (n, 81, 3) piece codes bottom first, -1 empty; ``hands``: (n, 2, 14).
    Returns ``lin`` (n, OFF_VALUE): signed counts (White +1, Black -1) of each tier, row and
    file parameter, and ``counts`` (n, 3, 14): signed counts of buried pieces under their own
    colour, buried under the enemy, and White's hand minus Black's, by kind. Then
    balance = lin @ theta[:OFF_VALUE] + sum_k value_k (own_k + buried * enemy_k + hand * hand_k).
    """
    n = towers.shape[0]
    lin = np.zeros((n, OFF_VALUE))
    counts = np.zeros((n, 3, NK))
    heights = (towers >= 0).sum(axis=2)  # (n, 81)
    sq = np.arange(81)
    file_idx = np.minimum(sq % 9, 8 - sq % 9)
    rows = np.arange(n)
    for s in range(81):
        h = heights[:, s]
        occupied = h > 0
        if not occupied.any():
            continue
        idx = rows[occupied]
        hh = h[occupied]
        top = towers[idx, s, hh - 1]
        kind, color = top >> 1, top & 1
        sign = np.where(color == 0, 1.0, -1.0)
        advance = np.where(color == 0, 8 - s // 9, s // 9)
        np.add.at(lin, (idx, kind * HEIGHTS + hh - 1), sign)
        np.add.at(lin, (idx, OFF_ROW + kind * ROWS + advance), sign)
        np.add.at(lin, (idx, np.full(len(idx), OFF_FILE + file_idx[s])), sign)
        for level in range(2):
            below = hh > level + 1
            if not below.any():
                continue
            piece = towers[idx[below], s, level]
            pkind, pcolor = piece >> 1, piece & 1
            psign = np.where(pcolor == 0, 1.0, -1.0)
            which = np.where(pcolor == color[below], 0, 1)
            np.add.at(counts, (idx[below], which, pkind), psign)
    counts[:, 2, :] = hands[:, 0, :] - hands[:, 1, :]
    return lin, counts


def balance(theta: np.ndarray, lin: np.ndarray, counts: np.ndarray) -> np.ndarray:
    value = theta[OFF_VALUE : OFF_VALUE + NK]
    per_kind = counts[:, 0] + theta[OFF_BURIED] * counts[:, 1] + theta[OFF_HAND] * counts[:, 2]
    return lin @ theta[:OFF_VALUE] + per_kind @ value  # type: ignore[no-any-return]


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))  # type: ignore[no-any-return]


def fit(
    lin: np.ndarray,
    counts: np.ndarray,
    y: np.ndarray,
    prior: np.ndarray,
    k: float,
    l2: float,
    steps: int = 3000,
    lr: float = 0.02,
) -> np.ndarray:
    """Minimise mean log-loss of sigmoid(k * balance) + l2 * |theta - prior|^2 / N_PARAMS
    (full-batch Adam from the prior; the loss is smooth: bilinear in values and factors)."""
    theta = prior.copy()
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    n = len(y)
    for t in range(1, steps + 1):
        value = theta[OFF_VALUE : OFF_VALUE + NK]
        per_kind = counts[:, 0] + theta[OFF_BURIED] * counts[:, 1] + theta[OFF_HAND] * counts[:, 2]
        b = lin @ theta[:OFF_VALUE] + per_kind @ value
        err = (_sigmoid(k * b) - y) * k / n  # d loss / d balance
        grad = np.empty_like(theta)
        grad[:OFF_VALUE] = err @ lin
        grad[OFF_VALUE : OFF_VALUE + NK] = err @ per_kind
        grad[OFF_BURIED] = err @ (counts[:, 1] @ value)
        grad[OFF_HAND] = err @ (counts[:, 2] @ value)
        grad += 2 * l2 * (theta - prior) / N_PARAMS
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        theta -= lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return theta


def quiet_position(state: State) -> tuple[np.ndarray, np.ndarray] | None:
    """The position as the fit stores it, raw (towers (81, 3) bottom first, -1 empty; hands
    (2, 14)), when it is quiet: past the setup, and no capture or betrayal for the side to
    move; else None."""
    from sengoku.games.gungi.setup import SETUP
    from sengoku.games.gungi.state import GungiState

    assert isinstance(state, GungiState)
    if state.phase == SETUP or state.noisy_codes():
        return None
    board = np.full((81, 3), -1, dtype=np.int8)
    for s, tower in enumerate(state.board):
        board[s, : len(tower)] = tower
    return board, np.array(state.hands, dtype=np.int8)
