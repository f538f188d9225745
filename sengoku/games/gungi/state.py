"""A Gungi position and the rules that move it on.

The fast paths work on integer move codes (see :mod:`sengoku.games.gungi.move`): move
generation appends codes to a list, ``_make``/``_unmake`` change the board in place for
search and perft, and :class:`Move` objects are made (interned) only for the contract.
Towers are tuples, so :meth:`GungiState.clone` copies 81 references.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sengoku.core.game import TERMINAL, Event, IllegalAction, Outcome, State, event
from sengoku.games.gungi.move import (
    _INTERNED,
    DONE_CODE,
    DONE_INT,
    MOVE_SPACE,
    Move,
)
from sengoku.games.gungi.pieces import (
    ARCHER,
    ATTACK_TABLES,
    BLACK,
    CAPTAIN,
    COLOR_NAMES,
    JUMP,
    MARSHAL,
    MODES,
    NUM_KINDS,
    PIECES,
    RAY_TABLES,
    SLIDE,
    WHITE,
    Mode,
    square_name,
)

if TYPE_CHECKING:
    from sengoku.games.gungi.game import Gungi

# --- native core hook (issue 21): when the C++ core is built, legal codes, noisy codes, the
# mate test and perft come from it (sengoku/games/gungi/native_core.py); this module stays
# the reference engine. Tests set _NATIVE = False to ask the Python engine itself.
from sengoku.games.gungi import native_core as _native_core  # noqa: E402

_NATIVE = _native_core.native_available()

# Zobrist keys: a fixed seed, so hashes are the same in every process (records, storage).
_ZRNG = random.Random(0x6A7E_61)
_Z_PIECE = [_ZRNG.getrandbits(64) for _ in range(81 * 3 * 2 * NUM_KINDS)]
_Z_HAND = [_ZRNG.getrandbits(64) for _ in range(2 * NUM_KINDS * 8)]
_Z_BLACK_TO_MOVE = _ZRNG.getrandbits(64)
_Z_SETUP = [_ZRNG.getrandbits(64) for _ in range(4)]


def _tower_key(sq: int, tower: tuple[int, ...]) -> int:
    key = 0
    base = sq * 3 * 2 * NUM_KINDS
    for i, piece in enumerate(tower):
        key ^= _Z_PIECE[base + i * 2 * NUM_KINDS + piece]
    return key


def _hand_key(color: int, kind: int, count: int) -> int:
    return _Z_HAND[(color * NUM_KINDS + kind) * 8 + count]


SETUP, PLAY = "setup", "play"
ALL_SQUARES = range(81)


def _is_noisy_code(code: int) -> bool:
    """A capture or a betrayal (a Captain turning enemy pieces)."""
    action = code >> 14
    return action < DONE_INT and (action & 3 != 0 or (action < MOVE_SPACE and action & 4 != 0))


# JSON pieces of the view, made once: square names and (name, kanji, colour) per piece.
SQUARE_NAMES = [square_name(sq) for sq in range(81)]
PIECE_JSON = [(PIECES[p >> 1].name, PIECES[p >> 1].kanji, COLOR_NAMES[p & 1]) for p in range(28)]


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


class GungiState(State):
    """One Gungi position: board, hands, side to move, setup progress, history of positions."""

    __slots__ = (
        "game",
        "options",
        "num_players",
        "mode",
        "board",
        "hands",
        "hand_order",
        "to_move",
        "phase",
        "drafting",
        "first",
        "move_number",
        "ply",
        "hash",
        "seen",
        "marshal_at",
        "_outcome",
        "_rays",
        "_attacks",
        "_sources",
        "_legal_cache",
        "max_length",
        "_fen_cache",
        "_notation_cache",
        "_capturable_cache",
        "_pseudo_cache",
        "_noisy_cache",
    )

    def __init__(self, game: Gungi, options: dict[str, Any]) -> None:
        self.game = game
        self.options = options
        self.num_players = 2
        self.mode: Mode = MODES[options["mode"]]
        self.board: list[tuple[int, ...]] = [()] * 81
        self.hands: list[list[int]] = [[0] * NUM_KINDS, [0] * NUM_KINDS]
        # The order hand pieces are written in FEN (kept from the position's origin).
        self.hand_order: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self.to_move = WHITE
        self.phase = PLAY
        self.drafting = [False, False]
        self.first = WHITE
        self.move_number = 1
        self.ply = 0
        self.hash = 0
        self.seen: dict[int, int] = {}
        self.marshal_at = [-1, -1]
        self._outcome: Outcome | None = None
        self._rays = RAY_TABLES[options["archer_blockers"]]
        self._attacks = ATTACK_TABLES[options["archer_blockers"]]
        self._sources = ATTACK_SOURCES[options["archer_blockers"]]
        self._legal_cache: tuple[int, list[int]] | None = None
        self.max_length = game.max_game_length(**options)
        self._fen_cache: tuple[tuple[int, int], str] | None = None
        self._notation_cache: tuple[int, dict[str, int], dict[str, int]] | None = None
        self._capturable_cache: tuple[int, list[bool]] | None = None
        # The mate test after each move finds whether the Marshal is exposed and may
        # generate the next side's moves; the legal list reuses both (None: not generated).
        self._pseudo_cache: tuple[int, list[int] | None, bool] | None = None
        # The noisy codes of the position (a part of the legal list), for apply's check.
        self._noisy_cache: tuple[int, list[int]] | None = None

    # ------------------------------------------------------------------ bookkeeping
    def recompute(self) -> None:
        """Derive the hash, Marshal squares and position count from the position."""
        key = _Z_BLACK_TO_MOVE if self.to_move == BLACK else 0
        self.marshal_at = [-1, -1]
        for sq, tower in enumerate(self.board):
            if tower:
                key ^= _tower_key(sq, tower)
                for piece in tower:
                    if piece >> 1 == MARSHAL:
                        self.marshal_at[piece & 1] = sq
        for color in (WHITE, BLACK):
            for kind, count in enumerate(self.hands[color]):
                key ^= _hand_key(color, kind, count)
        key ^= self._setup_key()
        self.hash = key

    def _setup_key(self) -> int:
        if self.phase != SETUP:
            return 0
        return _Z_SETUP[self.drafting[0] + 2 * self.drafting[1]]

    @property
    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self.to_move

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    # ------------------------------------------------------------------ generation
    def _pseudo_codes(self) -> list[int]:
        """Every move the rules allow the side to move (self-check not considered)."""
        codes: list[int] = []
        color = self.to_move
        if self.phase == SETUP:
            self._gen_setup(codes, color)
            return codes
        self._gen_board(codes, color)
        self._gen_drops(codes, color)
        return codes

    def _gen_board(
        self,
        codes: list[int],
        color: int,
        squares: Iterable[int] = ALL_SQUARES,
        quiet: bool = True,
    ) -> None:
        """Board moves of ``color``'s top pieces on ``squares`` (ascending: the legal order);
        with ``quiet`` False, only captures and betrayals (see :meth:`noisy_codes`)."""
        board = self.board
        rays_table = self._rays
        limit = self.mode.stack_limit
        marshal_may_stack = self.mode.marshal_may_stack
        append = codes.append
        gen_onto = self._gen_onto
        slide, jump = SLIDE, JUMP  # locals: this loop is the engine's hottest
        table_base = color * NUM_KINDS * 4
        for frm in squares:
            tower = board[frm]
            if not tower:
                continue
            top = tower[-1]
            if top & 1 != color:
                continue
            kind = top >> 1
            tier = len(tower)
            may_stack = kind != MARSHAL or marshal_may_stack
            low = (kind << 2) | 0
            frm81 = frm * 81
            for mode, squares, extra in rays_table[((table_base + kind * 4) + tier) * 81 + frm]:
                if mode == slide:
                    for to in squares:
                        target = board[to]
                        if not target:
                            if quiet:
                                append(((frm81 + to) << 17) | low | 1)
                            continue
                        if len(target) <= tier:
                            gen_onto(
                                codes, color, kind, frm81 + to, target, limit, may_stack, quiet
                            )
                        break
                elif mode == jump:
                    for i, to in enumerate(squares):
                        target = board[to]
                        height = len(target)
                        if height > tier:
                            break  # a taller tower blocks this landing and all beyond
                        if i >= extra:
                            if not target:
                                if quiet:
                                    append(((frm81 + to) << 17) | low | 1)
                            else:
                                gen_onto(
                                    codes, color, kind, frm81 + to, target, limit, may_stack, quiet
                                )
                else:  # DIAGONAL archer landings, behind the front/wing blockers
                    if any(len(board[b]) > tier for b in extra):
                        continue
                    for to in squares:
                        target = board[to]
                        height = len(target)
                        if height > tier:
                            break
                        if not target:
                            if quiet:
                                append(((frm81 + to) << 17) | low | 1)
                        else:
                            gen_onto(
                                codes, color, kind, frm81 + to, target, limit, may_stack, quiet
                            )

    def _gen_onto(
        self,
        codes: list[int],
        color: int,
        kind: int,
        ft: int,
        target: tuple[int, ...],
        limit: int,
        may_stack: bool,
        quiet: bool = True,
    ) -> None:
        """Capture and/or stack onto an occupied square no taller than the mover (with
        ``quiet`` False, a plain stack is left out: only captures and betrayals)."""
        top = target[-1]
        if top & 1 != color:
            own = 0
            for p in target:
                if p & 1 == color:
                    own += 1
            codes.append((ft << 17) | 65536 | (kind << 2) | (own + 1))
        height = len(target)
        if height < limit and top >> 1 != MARSHAL and may_stack:
            base = (ft << 17) | (kind << 2) | (height + 1)
            if kind == CAPTAIN:
                self._gen_betrayals(codes, color, target, base, self.hands[color], quiet)
            elif quiet:
                codes.append(base)

    def _gen_betrayals(
        self,
        codes: list[int],
        color: int,
        target: tuple[int, ...],
        base: int,
        hand: list[int],
        quiet: bool = True,
    ) -> None:
        """The Captain stacked onto ``target``: one code per choice of enemy pieces to turn
        (and ``base``, turning none, unless ``quiet`` is False)."""
        if quiet:
            codes.append(base)
        eligible = [
            (tier, p >> 1)
            for tier, p in enumerate(target, start=1)
            if p & 1 != color and hand[p >> 1] > 0
        ]
        if not eligible:
            return
        choices = []
        for mask in range(1, 4):
            picked = [(t, k) for t, k in eligible if mask >> (t - 1) & 1]
            if len(picked) != bin(mask).count("1"):
                continue
            need: dict[int, int] = {}
            for _, k in picked:
                need[k] = need.get(k, 0) + 1
            if all(hand[k] >= n for k, n in need.items()):
                choices.append((mask, picked))
        if self.options["betrayal"] == "all_or_nothing":
            masks = [m for m, _ in choices]
            choices = [(m, p) for m, p in choices if not any(o != m and o & m == m for o in masks)]
        for mask, picked in choices:
            extra = mask << 14
            for t, k in picked:
                extra |= k << (10 if t == 1 else 6)
            codes.append(base | extra)

    def _drop_zone(self, color: int) -> range:
        """Rows (as y) between this side's back row and its most advanced top piece."""
        board = self.board
        if color == WHITE:
            front = 8
            for sq in range(81):
                tower = board[sq]
                if tower and tower[-1] & 1 == WHITE:
                    front = sq // 9
                    break
            return range(front, 9)
        front = 0
        for sq in range(80, -1, -1):
            tower = board[sq]
            if tower and tower[-1] & 1 == BLACK:
                front = sq // 9
                break
        return range(0, front + 1)

    def _gen_drops(self, codes: list[int], color: int, quiet: bool = True) -> None:
        hand = self.hands[color]
        kinds = [k for k in range(NUM_KINDS) if hand[k]]
        if not kinds:
            return
        board = self.board
        limit = self.mode.stack_limit
        targets: list[tuple[int, int, tuple[int, ...]]] = []
        for y in self._drop_zone(color):
            for sq in range(y * 9, y * 9 + 9):
                tower = board[sq]
                if not tower:
                    targets.append((sq, 1, tower))
                else:
                    top = tower[-1]
                    if top & 1 == color and top >> 1 != MARSHAL and len(tower) < limit:
                        targets.append((sq, len(tower) + 1, tower))
        self._emit_drops(codes, color, kinds, targets, quiet)

    def _emit_drops(
        self,
        codes: list[int],
        color: int,
        kinds: list[int],
        targets: list[tuple[int, int, tuple[int, ...]]],
        quiet: bool = True,
    ) -> None:
        append = codes.append
        hand = self.hands[color]
        for kind in kinds:
            kind_base = (MOVE_SPACE + kind * 81 * 4) << 14
            low = kind << 2
            for sq, tier, tower in targets:
                code = kind_base + (sq << 16) + low + tier
                if kind == CAPTAIN and any(p & 1 != color for p in tower):
                    hand[CAPTAIN] -= 1  # the Captain itself leaves the hand first
                    self._gen_betrayals(codes, color, tower, code, hand, quiet)
                    hand[CAPTAIN] += 1
                elif quiet:
                    append(code)

    def _gen_setup(self, codes: list[int], color: int) -> None:
        hand = self.hands[color]
        board = self.board
        limit = self.mode.stack_limit
        rows = range(6, 9) if color == WHITE else range(0, 3)
        targets = []
        for y in rows:
            for sq in range(y * 9, y * 9 + 9):
                tower = board[sq]
                if not tower:
                    targets.append((sq, 1, tower))
                elif tower[-1] >> 1 != MARSHAL and len(tower) < limit:
                    targets.append((sq, len(tower) + 1, tower))
        if hand[MARSHAL]:
            # rulebook/spec: setup placement starts from the Marshal
            self._emit_drops(codes, color, [MARSHAL], [t for t in targets if t[1] == 1])
            return
        self._emit_drops(codes, color, [k for k in range(NUM_KINDS) if hand[k]], targets)
        codes.append(DONE_CODE)

    def _legal_codes(self) -> list[int]:
        """Legal codes, sorted (ascending action_int); cached until the position changes."""
        if self._outcome is not None:
            return []
        cache = self._legal_cache
        if cache is not None and cache[0] == self.hash:
            return cache[1]
        if _NATIVE:  # native core hook
            codes = _native_core.legal_codes(self)
            self._legal_cache = (self.hash, codes)
            return codes
        pseudo = self._pseudo_cache
        exposed: bool | None = None
        if pseudo is not None and pseudo[0] == self.hash:
            exposed = pseudo[2]
            # A copy: the cache keeps its own list.
            codes = pseudo[1][:] if pseudo[1] is not None else self._pseudo_codes()
        else:
            codes = self._pseudo_codes()
        codes = self._without_self_checks(codes, exposed)
        codes.sort()
        self._legal_cache = (self.hash, codes)
        return codes

    def _without_self_checks(self, codes: list[int], exposed: bool | None) -> list[int]:
        """``codes`` less those leaving the mover's Marshal capturable, where that is
        forbidden (each code is judged on its own). ``exposed``: known already, or None."""
        if self.phase == PLAY and self.options["self_check"] == "forbidden":
            color = self.to_move
            if exposed is None:
                exposed = self._marshal_capturable(color)
            near = self._near_marshal(color)
            kept = []
            for code in codes:
                if not exposed and self._cannot_expose(code, color, near):
                    kept.append(code)
                    continue
                undo = self._make(code)
                if undo[6] or not self._marshal_capturable(color):
                    kept.append(code)
                self._unmake(undo)
            codes = kept
        return codes

    def noisy_codes(self) -> list[int]:
        """The legal codes that capture or betray (turn enemy pieces), ascending: the legal
        codes so filtered, but where the legal list is not known yet only those moves are
        generated (quiescence search asks for nothing else)."""
        if self._outcome is not None:
            return []
        cache = self._legal_cache
        if (cache is not None and cache[0] == self.hash) or self.phase == SETUP:
            return [code for code in self._legal_codes() if _is_noisy_code(code)]
        if _NATIVE:  # native core hook
            native_codes = _native_core.noisy_codes(self)
            self._noisy_cache = (self.hash, native_codes)
            return native_codes
        pseudo = self._pseudo_cache
        exposed = pseudo[2] if pseudo is not None and pseudo[0] == self.hash else None
        codes: list[int] = []
        color = self.to_move
        self._gen_board(codes, color, ALL_SQUARES, False)
        self._gen_drops(codes, color, False)
        codes = self._without_self_checks(codes, exposed)
        codes.sort()
        self._noisy_cache = (self.hash, codes)
        return codes

    def notation_counts(self) -> tuple[dict[str, int], dict[str, int]]:
        """How many legal moves share each official text, without and with the origin
        (cached per position: formatting a whole legal list stays linear)."""
        cached = self._notation_cache
        if cached is not None and cached[0] == self.hash and self._outcome is None:
            return cached[1], cached[2]
        short: dict[str, int] = {}
        with_origin: dict[str, int] = {}
        for move in self.legal_actions():
            text = move.official()
            short[text] = short.get(text, 0) + 1
            text = move.official(with_origin=True)
            with_origin[text] = with_origin.get(text, 0) + 1
        self._notation_cache = (self.hash, short, with_origin)
        return short, with_origin

    def legal_codes(self) -> list[int]:
        """The legal move codes, ascending: ``legal_actions`` without making Move objects
        (for search code that filters them). The list is cached: do not change it."""
        return self._legal_codes()

    def legal_actions(self) -> list[Any]:
        codes = self._legal_codes()
        try:  # every code seen before: one C-level pass over the intern table
            return list(map(_INTERNED.__getitem__, codes))
        except KeyError:
            interned = _INTERNED
            return [interned.get(c) or Move(c) for c in codes]

    # ------------------------------------------------------------------ attack and mate
    def _marshal_capturable(self, color: int) -> bool:
        """Could the opponent capture ``color``'s Marshal with one move now?"""
        target_sq = self.marshal_at[color]
        if target_sq < 0:
            return False
        board = self.board
        height = len(board[target_sq])
        attacks = self._attacks
        enemy = 1 - color
        table_base = enemy * NUM_KINDS * 4
        for sq in self._sources[enemy][target_sq]:
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

    def _has_drop(self, color: int) -> bool:
        hand = self.hands[color]
        if not any(hand):
            return False
        board = self.board
        limit = self.mode.stack_limit
        for y in self._drop_zone(color):
            for sq in range(y * 9, y * 9 + 9):
                tower = board[sq]
                if not tower:
                    return True
                top = tower[-1]
                if top & 1 == color and top >> 1 != MARSHAL and len(tower) < limit:
                    return True
        return False

    def _is_mate(self, color: int) -> bool:
        """Every move of ``color`` leaves its Marshal capturable (spec: mate)."""
        if _NATIVE and color == self.to_move:  # native core hook
            return _native_core.is_mate(self, color)
        exposed = self._marshal_capturable(color)
        if color == self.to_move:
            self._pseudo_cache = (self.hash, None, exposed)
        if not exposed and self._has_drop(color):
            # A drop never exposes the Marshal: it only adds height to own or empty squares.
            return False
        if not exposed and self._safe_board_move(color):
            return False
        codes = self._pseudo_codes()
        if color == self.to_move:
            self._pseudo_cache = (self.hash, codes, exposed)
        if not exposed:
            near = self._near_marshal(color)
            if any(self._cannot_expose(code, color, near) for code in codes):
                return False
        if exposed:
            # Moving the Marshal is the escape found most often: try those moves first
            # (whether any move is safe does not depend on the order they are tried in).
            codes = [c for c in codes if (c >> 2) & 15 == MARSHAL] + [
                c for c in codes if (c >> 2) & 15 != MARSHAL
            ]
        for code in codes:
            undo = self._make(code)
            safe = undo[6] or not self._marshal_capturable(color)
            self._unmake(undo)
            if safe:
                return False
        return True

    def _safe_board_move(self, color: int) -> bool:
        """Whether some board move of ``color`` passes ``_cannot_expose`` (Marshal not exposed).

        Generates square by square and stops at the first such move, so the mate test after
        a move seldom generates the whole list. Only top pieces that are not the Marshal,
        off the Marshal's lines and not uncovering an enemy piece can pass.
        """
        board = self.board
        near = self._near_marshal(color)
        cannot_expose = self._cannot_expose
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
            self._gen_board(codes, color, (sq,))
            for code in codes:
                if cannot_expose(code, color, near):
                    return True
        return False

    def _enemy_archers(self, color: int) -> bool:
        archer = ARCHER * 2 + (1 - color)
        # A plain loop: this runs after every move (mate test), a generator costs more.
        for tower in self.board:
            if tower and tower[-1] == archer:
                return True
        return False

    def _near_marshal(self, color: int) -> frozenset[int]:
        return NEAR_MARSHAL[self._enemy_archers(color)][self.marshal_at[color]]

    def _cannot_expose(self, code: int, color: int, near: frozenset[int]) -> bool:
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
        tower = self.board[frm]
        return len(tower) < 2 or tower[-2] & 1 == color

    # ------------------------------------------------------------------ make / unmake
    def _make(self, code: int) -> tuple[Any, ...]:
        """Play a (pseudo-legal) code in place; returns what ``_unmake`` needs.

        Index 6 of the result is True when the move captured the opposing Marshal.
        """
        board = self.board
        color = self.to_move
        hand = self.hands[color]
        key = self.hash ^ self._setup_key()
        action = code >> 14
        tier_kind_low = code & 0x3FFF
        kind = (tier_kind_low >> 2) & 15
        changed: list[tuple[int, tuple[int, ...]]] = []
        hand_changes: list[tuple[int, int]] = []
        captured: list[int] = []
        marshal_taken = False
        old_marshal = (self.marshal_at[0], self.marshal_at[1])
        old_drafting = (self.drafting[0], self.drafting[1])
        old_phase, old_move_number = self.phase, self.move_number
        if action == DONE_INT:
            self.drafting[color] = False
            if color != self.first or not self.drafting[1 - color]:
                # The second player's Done (or the last drafter's) ends the setup at once.
                self.drafting = [False, False]
                self.phase = PLAY
                next_color = self.first
            else:
                next_color = 1 - color
        else:
            mask = action & 3
            if action < MOVE_SPACE:
                ft = action >> 3
                frm, to = divmod(ft, 81)
                source = board[frm]
                piece = source[-1]
                changed.append((frm, source))
                key ^= _tower_key(frm, source)
                rest = source[:-1]
                board[frm] = rest
                key ^= _tower_key(frm, rest)
                target = board[to]
                if action >> 2 & 1:  # capture: every enemy piece of the tower leaves
                    captured = [p for p in target if p & 1 != color]
                    new_tower = tuple(p for p in target if p & 1 == color) + (piece,)
                else:
                    new_tower = target + (piece,)
                if kind == MARSHAL:
                    self.marshal_at[color] = to
            else:
                to = ((action - MOVE_SPACE) >> 2) % 81
                target = board[to]
                piece = kind * 2 + color
                new_tower = target + (piece,)
                hand_changes.append((kind, hand[kind]))
                key ^= _hand_key(color, kind, hand[kind])
                hand[kind] -= 1
                key ^= _hand_key(color, kind, hand[kind])
                if kind == MARSHAL:
                    self.marshal_at[color] = to
            if mask:  # betrayal: the turned enemy pieces leave; hand pieces take their place
                turned = list(new_tower)
                for tier_index, shift in ((0, 10), (1, 6)):
                    if mask >> tier_index & 1:
                        turned_kind = (code >> shift) & 15
                        captured.append(turned[tier_index])
                        turned[tier_index] = turned_kind * 2 + color
                        hand_changes.append((turned_kind, hand[turned_kind]))
                        key ^= _hand_key(color, turned_kind, hand[turned_kind])
                        hand[turned_kind] -= 1
                        key ^= _hand_key(color, turned_kind, hand[turned_kind])
                new_tower = tuple(turned)
            changed.append((to, target))
            key ^= _tower_key(to, target) ^ _tower_key(to, new_tower)
            board[to] = new_tower
            for p in captured:
                if p >> 1 == MARSHAL:
                    marshal_taken = True
                    self.marshal_at[p & 1] = -1
            next_color = 1 - color
            if self.phase == SETUP and not self.drafting[next_color]:
                next_color = color  # the other player is Done: keep placing alone
        if _counts_a_move(action, color, old_phase, old_drafting, self.drafting):
            self.move_number += 1
        if next_color != color:
            key ^= _Z_BLACK_TO_MOVE
        self.to_move = next_color
        key ^= self._setup_key()
        self.hash = key
        self.ply += 1
        self.seen[key] = self.seen.get(key, 0) + 1
        return (
            code,
            changed,
            hand_changes,
            color,
            old_marshal,
            (old_drafting, old_phase, old_move_number),
            marshal_taken,
            captured,
        )

    def _unmake(self, undo: tuple[Any, ...]) -> None:
        _, changed, hand_changes, color, old_marshal, setup, _, _ = undo
        count = self.seen[self.hash] - 1
        if count:
            self.seen[self.hash] = count
        else:
            del self.seen[self.hash]
        hand = self.hands[color]
        key = self.hash ^ self._setup_key()
        for sq, tower in reversed(changed):
            key ^= _tower_key(sq, self.board[sq]) ^ _tower_key(sq, tower)
            self.board[sq] = tower
        for kind, count in reversed(hand_changes):
            key ^= _hand_key(color, kind, hand[kind]) ^ _hand_key(color, kind, count)
            hand[kind] = count
        if self.to_move != color:
            key ^= _Z_BLACK_TO_MOVE
        self.to_move = color
        self.marshal_at = [old_marshal[0], old_marshal[1]]
        (d0, d1), self.phase, self.move_number = setup
        self.drafting = [d0, d1]
        self.hash = key ^ self._setup_key()
        self.ply -= 1

    # ------------------------------------------------------------------ contract
    def apply(self, action: Any) -> list[Event]:
        if self._outcome is not None:
            raise IllegalAction(f"the game is over ({self._outcome.reason}); no more moves")
        if not isinstance(action, Move):
            raise IllegalAction(f"{action!r} is not a Gungi move; use Gungi.parse_action")
        code = action.code
        if not self._is_legal_code(code):
            raise IllegalAction(f"{action} is not legal here: {self._why_illegal(action)}")
        mover = self.to_move
        phase_before = self.phase
        if _NATIVE:  # native core hook: the native copy follows the move (no reload)
            before = _native_core.mark(self)
            undo = self._make(code)
            _native_core.advance(self, code, before)
        else:
            undo = self._make(code)
        self._legal_cache = None
        text = str(action)
        events: list[Event] = [
            event(
                "move",
                seat=mover,
                action=text,
                message=f"{COLOR_NAMES[mover].title()} plays {text}",
            )
        ]
        for piece in undo[7]:
            events.append(
                event(
                    "piece_removed",
                    seat=piece & 1,
                    piece=PIECES[piece >> 1].name,
                    message=f"{COLOR_NAMES[piece & 1].title()}'s {PIECES[piece >> 1].english} "
                    "leaves the game",
                )
            )
        if phase_before == SETUP and self.phase == PLAY:
            events.append(
                event("setup_over", message=f"Setup over; {COLOR_NAMES[self.to_move]} moves first")
            )
        result = self._judge(mover, undo[6])
        if result is not None:
            self._finish(result, events)
        events += self._end_if_too_long(self.ply)
        return events

    def _is_legal_code(self, code: int) -> bool:
        # The legal codes are sorted: a binary search, no set built for each move played.
        legal = self._legal_cache
        noisy = self._noisy_cache
        if (legal is None or legal[0] != self.hash) and noisy is not None and noisy[0] == self.hash:
            # Search often plays a noisy move of a position whose legal list was never
            # made: the noisy codes are legal, so finding the code there settles it.
            i = bisect_left(noisy[1], code)
            if i < len(noisy[1]) and noisy[1][i] == code:
                return True
        codes = self._legal_codes()
        i = bisect_left(codes, code)
        return i < len(codes) and codes[i] == code

    def _judge(self, mover: int, marshal_taken: bool) -> Outcome | None:
        """The result if the move ``mover`` just made ended the game, else None."""
        if marshal_taken:
            return Outcome.win(mover, 2, "marshal_captured")
        if self.seen.get(self.hash, 0) >= 4:
            return Outcome.no_winner(2, "repetition")
        if self.phase == PLAY and self._is_mate(self.to_move):
            return Outcome.win(1 - self.to_move, 2, "mate")
        return None

    def _finish(self, result: Outcome, events: list[Event]) -> None:
        self._outcome = result
        self._legal_cache = None
        winner = f"{COLOR_NAMES[result.winners[0]].title()} wins" if result.winners else "no winner"
        events.append(event("game_over", **result.to_json(), message=f"{winner} ({result.reason})"))

    def _why_illegal(self, move: Move) -> str:
        """A reason a player can act on, for a move that is not in the legal list."""
        color = self.to_move
        if move.is_done:
            if self.phase != SETUP:
                return "Done is only declared during the setup"
            return "the Marshal must be placed first"
        dest = move.destination
        assert dest is not None
        if self.phase == SETUP:
            if move.is_board_move:
                return "during the setup pieces are only placed from the hand"
            if self.hands[color][MARSHAL] and move.kind != MARSHAL:
                return "setup placement starts with the Marshal"
            return (
                "setup pieces go in your own three rows, within the stack limit, never on a Marshal"
            )
        if move.is_drop:
            if not self.hands[color][move.kind]:
                return f"no {PIECES[move.kind].english} in hand"
            if dest // 9 not in self._drop_zone(color):
                return "a new piece (arata) goes between your back row and your most advanced piece"
            tower = self.board[dest]
            if tower and tower[-1] & 1 != color:
                return "a new piece may not be placed on the opponent's piece"
            if tower and tower[-1] >> 1 == MARSHAL:
                return "nothing is ever stacked on a Marshal"
            if len(tower) >= self.mode.stack_limit:
                return f"the stack limit is {self.mode.stack_limit}"
            return "that drop does not match the position (tier or betrayal)"
        origin = move.origin
        assert origin is not None
        tower = self.board[origin]
        if not tower or tower[-1] & 1 != color:
            return f"there is no piece of yours on top at {square_name(origin)}"
        if tower[-1] >> 1 != move.kind:
            return f"the piece on top at {square_name(origin)} is not a {PIECES[move.kind].english}"
        target = self.board[dest]
        if target and len(target) > len(tower):
            return (
                "a tower taller than the moving piece's tier can be neither captured nor stacked on"
            )
        if target and not move.capture and target[-1] >> 1 == MARSHAL:
            return "nothing is ever stacked on a Marshal"
        if move.capture and (not target or target[-1] & 1 == color):
            return "only a tower topped by an enemy piece can be captured"
        if not move.capture and len(target) + 1 > self.mode.stack_limit:
            return f"the stack limit is {self.mode.stack_limit}"
        if self.options["self_check"] == "forbidden":
            return "the piece cannot reach that square, or the move leaves your Marshal capturable"
        return "the piece cannot reach that square from there (reach, blocking or height rule)"

    def _end_game(self, result: Outcome) -> None:
        self._outcome = result
        self._legal_cache = None

    def clone(self) -> GungiState:
        other = GungiState.__new__(GungiState)
        other.game = self.game
        other.options = self.options
        other.num_players = 2
        other.mode = self.mode
        other.board = self.board[:]
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.hand_order = self.hand_order
        other.to_move = self.to_move
        other.phase = self.phase
        other.drafting = self.drafting[:]
        other.first = self.first
        other.move_number = self.move_number
        other.ply = self.ply
        other.hash = self.hash
        other.seen = dict(self.seen)
        other.marshal_at = self.marshal_at[:]
        other._outcome = self._outcome
        other._rays = self._rays
        other._attacks = self._attacks
        other._sources = self._sources
        other._legal_cache = self._legal_cache
        other.max_length = self.max_length
        other._fen_cache = self._fen_cache
        other._notation_cache = self._notation_cache
        other._capturable_cache = self._capturable_cache
        other._pseudo_cache = self._pseudo_cache
        other._noisy_cache = self._noisy_cache
        return other

    def determinize(self, seat: int, rng: random.Random) -> GungiState:
        # Gungi hides nothing: every seat sees the whole position.
        return self.clone()

    def view(self, seat: int | None) -> dict[str, Any]:
        result = self._outcome
        board = self.board
        hands = self.hands
        return {
            "game": "gungi",
            "seat": seat,
            "mode": self.mode.name,
            "phase": self.phase,
            "to_move": COLOR_NAMES[self.to_move],
            "current_player": self.current_player,
            "drafting": [COLOR_NAMES[c] for c in (WHITE, BLACK) if self.drafting[c]],
            "move_number": self.move_number,
            "ply": self.ply,
            "board": [
                {
                    "square": SQUARE_NAMES[sq],
                    "tower": [
                        {
                            "piece": PIECE_JSON[p][0],
                            "kanji": PIECE_JSON[p][1],
                            "color": PIECE_JSON[p][2],
                        }
                        for p in board[sq]
                    ],
                }
                for sq in range(81)
                if board[sq]
            ],
            "hands": {
                COLOR_NAMES[c]: {PIECE_JSON[k * 2][0]: n for k, n in enumerate(hands[c]) if n}
                for c in (WHITE, BLACK)
            },
            "marshal_capturable": self._capturable_flags(),
            "fen": self.fen(),
            "outcome": result.to_json() if result else None,
        }

    def _capturable_flags(self) -> list[bool]:
        """Whether each Marshal can be captured now (cached per position, for views)."""
        cached = self._capturable_cache
        if cached is None or cached[0] != self.hash:
            flags = [self.phase == PLAY and self._marshal_capturable(c) for c in (WHITE, BLACK)]
            cached = self._capturable_cache = (self.hash, flags)
        return list(cached[1])

    def fen(self) -> str:
        """The position as gungi.js FEN (cached until the position changes)."""
        from sengoku.games.gungi.fen import to_fen

        key = (self.hash, self.move_number)
        cached = self._fen_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        text = to_fen(self)
        self._fen_cache = (key, text)
        return text

    def to_json(self) -> dict[str, Any]:

        return {
            "game": "gungi",
            "options": dict(self.options),
            "fen": self.fen(),
            "first": COLOR_NAMES[self.first],
            "ply": self.ply,
            "seen": [[str(k), n] for k, n in self.seen.items()],
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    # ------------------------------------------------------------------ perft
    def perft(self, depth: int) -> int:
        """Leaf count of the legal move tree (the last ply is counted, not played)."""
        if depth <= 0:
            return 1
        if self._outcome is not None:
            return 0
        if _NATIVE:  # native core hook
            return _native_core.perft(self, depth)
        return self._perft(depth)

    def _perft(self, depth: int) -> int:
        codes = self._legal_codes()
        if depth == 1:
            return len(codes)
        total = 0
        for code in codes:
            undo = self._make(code)
            if self._judge(undo[3], undo[6]) is None:
                total += self._perft(depth - 1)
            self._unmake(undo)
        return total

    def __str__(self) -> str:
        from sengoku.games.gungi.render import render

        return render(self)


def _counts_a_move(
    action: int,
    color: int,
    phase: str,
    drafting_before: tuple[bool, bool],
    drafting_after: list[bool],
) -> bool:
    """Whether this action advances the full move number, exactly as gungi.js counts.

    gungi.js has no separate Done: it marks the last placement of a player's setup as final
    (終). It adds one after a Black move in play, after a Black placement while White still
    places, after Black's final placement, and after White's final placement once Black has
    finished; Black placing alone after White's final placement adds nothing. Our Done is that
    mark on its own, so the count goes on the placements and on a Done that nothing
    counted yet: a Black Done never adds (Black's placement before it did, or Black placed
    alone), a White Done adds only when Black had already finished.
    """
    if phase != SETUP:
        return color == BLACK
    if action == DONE_INT:
        return color == WHITE and not drafting_before[BLACK]
    return color == BLACK and drafting_after[WHITE]
