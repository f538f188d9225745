"""Check and mate: whether a Marshal can be captured, mate, and the ``self_check`` option.

**Mate:** when every move of the player to move would leave their Marshal capturable by the
opponent's next move (whether or not it is attacked now), that player loses; this includes
having no move at all. Option ``self_check``: ``allowed`` (a move leaving your own Marshal
capturable is a legal blunder) or ``forbidden`` (such moves leave the legal list).
Capturing the Marshal itself ends the game (:mod:`sengoku.games.gungi.the_end`).

The tests are fast because they look only where an attack can come from: the squares from
which some piece can reach the Marshal (:data:`ATTACK_SOURCES`), and, for a move, whether it
changes anything near the Marshal's lines (:data:`NEAR_MARSHAL`, :func:`cannot_expose`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.games.gungi.move import MOVE_SPACE
from sengoku.games.gungi.movement import ALL_SQUARES, gen_board
from sengoku.games.gungi.new_pieces import has_drop
from sengoku.games.gungi.pieces import ARCHER, ATTACK_TABLES, BLACK, MARSHAL, NUM_KINDS, WHITE
from sengoku.games.gungi.setup import PLAY

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState


def _near(sq: int, archers: bool) -> frozenset[int]:
    """Squares whose change can open an attack on ``sq``: its eight lines and, against
    Archers (whose diagonal jumps look at squares beside them), every square within four."""
    x, y = sq % 9, sq // 9
    out = set()
    for other in range(81):
        dx, dy = abs(other % 9 - x), abs(other // 9 - y)
        if dx == 0 or dy == 0 or dx == dy or (archers and max(dx, dy) <= 4):
            out.add(other)
    out.discard(sq)
    return frozenset(out)


def _attack_sources(
    attacks: list[dict[int, tuple[bool, tuple[int, ...]]]],
) -> list[list[tuple[int, ...]]]:
    """[attacker color][target]: the squares (ascending) from which some piece of that
    color, at some tier, can reach ``target``. No other square can capture a Marshal there,
    so the capturable test looks at these only."""
    per_color = NUM_KINDS * 4 * 81  # entries of one color (see pieces.table_index)
    sources: list[list[set[int]]] = [[set() for _ in range(81)] for _ in (WHITE, BLACK)]
    for index, targets in enumerate(attacks):
        color, sq = index // per_color, index % 81
        for target in targets:
            sources[color][target].add(sq)
    return [[tuple(sorted(squares)) for squares in by_target] for by_target in sources]


ATTACK_SOURCES = {blockers: _attack_sources(table) for blockers, table in ATTACK_TABLES.items()}


# Indexed by [enemy has an Archer][square]; square -1 (no Marshal) has no lines.
NEAR_MARSHAL = [
    [_near(sq, archers) for sq in range(81)] + [frozenset()] for archers in (False, True)
]


def marshal_capturable(state: GungiState, color: int) -> bool:
    """Could the opponent capture ``color``'s Marshal with one move now?"""
    target_sq = state.marshal_at[color]
    if target_sq < 0:
        return False
    board = state.board
    height = len(board[target_sq])
    attacks = state.attacks
    enemy = 1 - color
    table_base = enemy * NUM_KINDS * 4
    for sq in state.attack_sources[enemy][target_sq]:
        tower = board[sq]
        if not tower:
            continue
        top = tower[-1]
        if top & 1 != enemy:
            continue
        tier = len(tower)
        if height > tier:
            continue
        hit = attacks[((table_base + (top >> 1) * 4) + tier) * 81 + sq].get(target_sq)
        if hit is None:
            continue
        is_jump, path = hit
        if is_jump:
            if all(len(board[s]) <= tier for s in path):
                return True
        elif not any(board[s] for s in path):
            return True
    return False


def is_mate(state: GungiState, color: int) -> bool:
    """Every move of ``color`` leaves its Marshal capturable (spec: mate).

    The pure-Python test (``GungiState.is_mate`` asks the native core first, when built).
    For the side to move, it leaves in the state's pseudo cache what it found (whether the
    Marshal is exposed, and the moves if it generated them), for the legal list to reuse.
    """
    exposed = marshal_capturable(state, color)
    if color == state.to_move:
        state.memo.pseudo = (state.hash, None, exposed)
    if not exposed and has_drop(state, color):
        # A drop never exposes the Marshal: it only adds height to own or empty squares.
        return False
    if not exposed and safe_board_move(state, color):
        return False
    codes = state.pseudo_codes()
    if color == state.to_move:
        state.memo.pseudo = (state.hash, codes, exposed)
    if not exposed:
        near = near_marshal(state, color)
        if any(cannot_expose(state, code, color, near) for code in codes):
            return False
    if exposed:
        # Moving the Marshal is the escape found most often: try those moves first
        # (whether any move is safe does not depend on the order they are tried in).
        codes = [c for c in codes if (c >> 2) & 15 == MARSHAL] + [
            c for c in codes if (c >> 2) & 15 != MARSHAL
        ]
    for code in codes:
        undo = state.make(code)
        safe = undo[6] or not marshal_capturable(state, color)
        state.unmake(undo)
        if safe:
            return False
    return True


def safe_board_move(state: GungiState, color: int) -> bool:
    """Whether some board move of ``color`` passes :func:`cannot_expose` (Marshal not exposed).

    Generates square by square and stops at the first such move, so the mate test after
    a move seldom generates the whole list. Only top pieces that are not the Marshal,
    off the Marshal's lines and not uncovering an enemy piece can pass.
    """
    board = state.board
    near = near_marshal(state, color)
    codes: list[int] = []
    for sq in ALL_SQUARES:
        tower = board[sq]
        if not tower:
            continue
        top = tower[-1]
        if top & 1 != color or top >> 1 == MARSHAL or sq in near:
            continue
        if len(tower) >= 2 and tower[-2] & 1 != color:
            continue
        codes.clear()
        gen_board(state, codes, color, (sq,))
        for code in codes:
            if cannot_expose(state, code, color, near):
                return True
    return False


def enemy_archers(state: GungiState, color: int) -> bool:
    """Whether an Archer of ``color``'s opponent is on top of some tower."""
    archer = ARCHER * 2 + (1 - color)
    # A plain loop: this runs after every move (mate test), a generator costs more.
    for tower in state.board:
        if tower and tower[-1] == archer:
            return True
    return False


def near_marshal(state: GungiState, color: int) -> frozenset[int]:
    """The squares whose change can open an attack on ``color``'s Marshal."""
    return NEAR_MARSHAL[enemy_archers(state, color)][state.marshal_at[color]]


def cannot_expose(state: GungiState, code: int, color: int, near: frozenset[int]) -> bool:
    """True when a move surely leaves an uncapturable Marshal uncapturable.

    Only a change near the Marshal's lines can open an attack: the Marshal moving, a
    piece leaving a square on a line to it (or uncovering an enemy piece), or a capture
    lowering a tower on such a line. Drops only add height, so never expose.
    """
    action = code >> 14
    if action >= MOVE_SPACE:
        return True
    if (code >> 2) & 15 == MARSHAL:
        return False
    frm, to = divmod(action >> 3, 81)
    if frm in near or (action >> 2 & 1 and to in near):
        return False
    tower = state.board[frm]
    return len(tower) < 2 or tower[-2] & 1 == color


def without_self_checks(state: GungiState, codes: list[int], exposed: bool | None) -> list[int]:
    """``codes`` less those leaving the mover's Marshal capturable, where that is
    forbidden (each code is judged on its own). ``exposed``: known already, or None."""
    if state.phase == PLAY and state.options["self_check"] == "forbidden":
        color = state.to_move
        if exposed is None:
            exposed = marshal_capturable(state, color)
        near = near_marshal(state, color)
        kept = []
        for code in codes:
            if not exposed and cannot_expose(state, code, color, near):
                kept.append(code)
                continue
            undo = state.make(code)
            if undo[6] or not marshal_capturable(state, color):
                kept.append(code)
            state.unmake(undo)
        codes = kept
    return codes
