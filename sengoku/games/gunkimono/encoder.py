"""Gunkimono's observation encoder for research tools: one flat vector: the battlefield per square, the row,
counts of tiles by code, banners, and each player (seats relative to the observer).

Gunkimono.observation_encoder() declares it. It reads ``view(seat)`` and nothing else (see
:mod:`sengoku.core.observation`), or the :class:`GunkimonoSnapshot` of it that
:meth:`GunkimonoEncoder.capture` takes from the state: the view's fields the encoder reads,
as the state's integers, hidden as the view hides them, without the rest of the view (the
tiles' faces, the formations, the last turn, the options), which costs several times more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from sengoku.core.observation import Encoder, Entries, clear_entries, entries_of
from sengoku.games.gunkimono.actions import CELL_NAMES, LETTERS, TILE_NAMES
from sengoku.games.gunkimono.battlefield import NAMES, TOP_NAMES
from sengoku.games.gunkimono.honor_track import REMOVED
from sengoku.games.gunkimono.snapshot import GunkimonoSnapshot, PlayerSnapshot, snapshot
from sengoku.games.gunkimono.state import GunkimonoState
from sengoku.games.gunkimono.views import GunkimonoView, PlayerView
from sengoku.games.gunkimono.war_banners import BANNER_KINDS


def _index(names: tuple[str, ...] | list[str]) -> dict[str, int]:
    return {name: i for i, name in enumerate(names)}


#: The view's names -> the state's integers (to read a view as a snapshot).
_TOP = _index(TOP_NAMES)
_TILE = _index(TILE_NAMES)
_TROOP = _index(LETTERS)
_KIND = _index(BANNER_KINDS)
_COLUMN = _index(NAMES)
_CELL = _index(CELL_NAMES)


def _snapshot_of_view(view: GunkimonoView) -> GunkimonoSnapshot:
    """A view's fields as a snapshot (its names read back as the state's integers)."""
    board = view["board"]
    tile = _TILE
    support = view["support_square"]
    return GunkimonoSnapshot(
        view["players_count"],
        view["current_player"],
        view["phase"],
        view["turn"],
        view["turns"],
        view["decisions"],
        [_TOP[name] for name in board["troops"]],
        board["symbols"],
        board["levels"],
        board["strongholds"],
        [tile[name] for name in view["row"]],
        view["stack_size"],
        view["end_stack_size"],
        view["end_stack_in_play"],
        view["end_triggered"],
        view["removed_count"],
        [tile[name] for name in view["placed"]],
        # Tuples, as a snapshot holds them (the compiled encoder checks the type).
        [(owner, troop, face_up) for owner, troop, face_up in view["placed_small"]],
        [[_KIND[kind] for kind in stack] for stack in view["banner_stacks"]],
        [(_CELL[p["square"]], p["vp"], p["vp_allowed"]) for p in view["pending"]],
        -1 if support is None else _CELL[support],
        view["placed_large"],
        view["passes"],
        [(owner, turn) for owner, turn in view["built_at"]],
        [_player_of_view(p) for p in view["players"]],
    )


def _player_of_view(player: PlayerView) -> PlayerSnapshot:
    tile = _TILE
    hand = player["hand"]
    return PlayerSnapshot(
        player["score"],
        None if hand is None else [tile[name] for name in hand],
        player["hand_size"],
        [tile[name] for name in player["hand_known"]],
        [_TROOP[letter] for letter in player["reserve"]],
        [REMOVED if row is None else row for row in player["honor"]],
        player["strongholds_left"],
        [(_KIND[b["kind"]], _COLUMN[b["column"]], b["value"]) for b in player["banners"]],
    )


class GunkimonoEncoder(Encoder):
    """Gunkimono as one flat vector, seats relative to the observer.

    Player slot ``i`` is the seat ``i`` places after the observer (slot 0: the observer; a
    spectator observes as seat 0); slots past the player count stay zero. A tile is
    ``(troop one-hot 5, its symbols) x 2``, lower troop type first as in its name; tile counts
    are indexed by the game's tile code (``troop * 2 + symbols - 1`` for each half).

    * board, per square (row-major, 80): top troop one-hot (I S C P A, face-down ``?``),
      symbols, level, stronghold owner slot one-hot (5), a scoring choice pending there
      (flag, VP, VP allowed), the support square flag;
    * the face-up row (3 slots: present flag + tile); the phase one-hot (place, support,
      score, stronghold, draw, over); turn, turns completed, decisions; stack sizes, the end
      stack in play, the end triggered, removed tiles; a large tile placed this turn; passes;
      the slot to act one-hot (5);
    * every large tile on the battlefield, counted by tile code (100); the small tiles placed
      per slot and troop (placed, face up); the banners left per column and kind (5 x 3);
      the turn each slot built its strongholds (+1; 0 not built);
    * per slot: present, score, hand counts by code (the observer's only; others are
      hidden), hand size, tiles of its hand known to all by code, small tiles left per
      troop, honor marker per column (-1 removed), strongholds left, and each banner it holds
      per kind and column (held, value known, value).

    Faithful but for the constants of the environment (seat, options, ending and stronghold
    rows), the order in which large tiles were placed (counted instead: the board shows
    where) and the outcome (terminal states have no decision).
    """

    SLOTS = 5
    PHASES = ("place", "support", "score", "stronghold", "draw", "over")
    ROW = 3
    TILE = 12
    CODES = 100
    CELL = 17
    low = -1.0
    high = 1000.0  # decisions are bounded by max_game_length

    def __init__(self) -> None:
        from sengoku.games.gunkimono.data import components, tile_code

        c = components()
        self.letters = {letter: i for i, letter in enumerate(c.troop_letters)}
        self.troop_index = {**self.letters, "?": 5}  # the top troop's entry; "?": face down
        self.troops = len(c.troop_letters)
        self.banner_kinds = {name: i for i, name in enumerate(c.banner_kinds)}
        self.columns = {name: i for i, name in enumerate(c.troop_names)}
        self.cells = c.width * c.height
        self.width = c.width
        # Every tile name ("P1A2": troop, symbols, troop, symbols) -> the game's tile code.
        self.codes = {
            f"{a}{sa}{b}{sb}": tile_code(self.letters[a], sa, self.letters[b], sb)
            for a in c.troop_letters
            for b in c.troop_letters
            for sa in (1, 2)
            for sb in (1, 2)
        }
        # The state's integers -> the encoder's entries, through the names the view gives
        # them (so that a snapshot encodes as its view does).
        self.top_entry = [self.troop_index[name] for name in TOP_NAMES]
        self.code_entry = [self.codes[name] for name in TILE_NAMES]
        self.row_entry = [
            (self.letters[name[0]], int(name[1]), self.letters[name[2]], int(name[3]))
            for name in TILE_NAMES
        ]
        self.troop_entry = [self.letters[letter] for letter in LETTERS]
        self.kind_entry = [self.banner_kinds[kind] for kind in BANNER_KINDS]
        self.column_entry = [self.columns[name] for name in NAMES]
        self.cell_entry = [self._cell(name) for name in CELL_NAMES]
        n, t = self.SLOTS, self.troops
        kinds = len(c.banner_kinds)
        self.player_size = 1 + 1 + self.CODES + 1 + self.CODES + t + 2 * t + 1 + kinds * 5 * 3
        sizes = [
            ("board", self.cells * self.CELL),
            ("row", self.ROW * (1 + self.TILE)),
            ("globals", len(self.PHASES) + 3 + 5 + 2 + n),
            ("placed", self.CODES),
            ("small", n * t * 2),
            ("banner_stacks", 5 * kinds),
            ("built", n * 2),
            ("players", n * self.player_size),
        ]
        self.offsets: dict[str, int] = {}
        total = 0
        for name, size in sizes:
            self.offsets[name] = total
            total += size
        self.shape = (total,)

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        snapshot = (
            view
            if isinstance(view, GunkimonoSnapshot)
            else _snapshot_of_view(cast(GunkimonoView, view))
        )
        self._encode(snapshot, seat, out)

    def capture(self, state: Any, seat: int | None) -> Any:
        """The :class:`GunkimonoSnapshot` of ``view(seat)``, from the state's parts: what
        :func:`~sengoku.games.gunkimono.hidden_information.view` shows of them, hidden as it
        hides it (a hand for its owner only; banner values for their owner, and for all once
        the game is over), and nothing else."""
        if not isinstance(state, GunkimonoState):
            return state.view(seat)
        n = state.num_players
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be None or 0..{n - 1}, got {seat!r}")
        return snapshot(state, seat, n)

    def _encode(self, view: GunkimonoSnapshot, seat: int | None, out: np.ndarray) -> None:
        # Written one entry at a time through a memoryview of ``out`` (far cheaper than
        # numpy's item writes, and compiled with mypyc: the module is in [tool.sengoku]
        # compiled); counted entries (the tiles placed, banner stacks, hands, known tiles
        # and reserves) are added to, and nothing else writes them.
        w = entries_of(out)
        n = view.players_count
        me = seat if seat is not None else 0
        slots = [(s - me) % n for s in range(n)]
        self._board(w, view.top, view.symbols, view.levels, None)
        self._cell_marks(w, view, me, n)
        self._row_and_globals(w, view, slots)
        self._placed(w, view, slots)
        base = self.offsets["players"]
        for s, player in enumerate(view.players):
            self._player(w, base + slots[s] * self.player_size, player)

    def encode_changed(
        self, view: Any, seat: int | None, out: np.ndarray, kept: list[Any]
    ) -> list[tuple[int, int]]:
        """Bring ``out`` from the encoding it holds to ``view``'s: ``kept`` is the caller's
        list for that ``out`` (empty with a zeroed ``out``: everything is written), which this
        method keeps, holding what each block of ``out`` was last written from (the observer
        and the players' count, the board's troops, symbols and levels, the marks on it, the
        tiles placed, the small tiles, the banners and the strongholds' turns, each player's
        snapshot). Only what differs is written again: the board cell by cell (a tile placed
        changes two of its 80 cells), the tiles placed by adding the new ones (a game places
        one more at a time), the other blocks zeroed first (the row, phase and counters
        always are): the same entries as :meth:`encode_into` on a zeroed array. Returns the
        ``(start, stop)`` of the blocks written, in order (the board's once, whatever part of
        it changed)."""
        if not isinstance(view, GunkimonoSnapshot):
            view = _snapshot_of_view(cast(GunkimonoView, view))
        n = view.players_count
        me = seat if seat is not None else 0
        o = self.offsets
        top, symbols, levels = view.top, view.symbols, view.levels
        strongholds, pending, support = view.strongholds, view.pending, view.support_cell
        if not kept or kept[0] != (me, n):
            if kept:
                out.fill(0.0)
            self._encode(view, seat, out)
            kept[:] = [
                (me, n), top, symbols, levels, strongholds, pending, support, view.placed,
                view.placed_small, view.banner_stacks, view.built_at, *view.players,
            ]  # fmt: skip
            return [(0, len(out))]
        w = entries_of(out)
        slots = [(s - me) % n for s in range(n)]
        written: list[tuple[int, int]] = []
        board_span = (o["board"], o["row"])
        old_top: list[int] = kept[1]
        old_symbols: list[int] = kept[2]
        old_levels: list[int] = kept[3]
        if top != old_top or symbols != old_symbols or levels != old_levels:
            self._board(w, top, symbols, levels, (old_top, old_symbols, old_levels))
            kept[1], kept[2], kept[3] = top, symbols, levels
            written.append(board_span)
        old_pending: list[tuple[int, int, bool]] = kept[5]
        old_support: int = kept[6]
        if strongholds != kept[4] or pending != old_pending or support != old_support:
            # The entries the old marks set cleared (the troops, at other entries of the
            # cells, stay), then the new ones set.
            self._marks(w, kept[4], old_pending, old_support, me, n, True)
            self._marks(w, strongholds, pending, support, me, n, False)
            kept[4], kept[5], kept[6] = strongholds, pending, support
            if not written:
                written.append(board_span)
        start, stop = o["row"], o["placed"]
        clear_entries(w, start, stop)
        self._row_and_globals(w, view, slots)
        written.append((start, stop))
        placed: list[int] = view.placed
        old_placed: list[int] = kept[7]
        if placed != old_placed:
            start = o["placed"]
            known = len(old_placed)
            if len(placed) >= known and placed[:known] == old_placed:
                # Tiles added to the ones counted (a placement's): only they are counted.
                codes = self.code_entry
                for code in placed[known:]:
                    w[start + codes[code]] += 1.0
            else:
                clear_entries(w, start, start + self.CODES)
                self._placed_tiles(w, placed)
            kept[7] = placed
            written.append((start, start + self.CODES))
        small, stacks, built = view.placed_small, view.banner_stacks, view.built_at
        if small != kept[8] or stacks != kept[9] or built != kept[10]:
            start, stop = o["small"], o["players"]
            clear_entries(w, start, stop)
            self._placed_rest(w, view, slots)
            kept[8], kept[9], kept[10] = small, stacks, built
            written.append((start, stop))
        size = self.player_size
        for s, player in enumerate(view.players):
            if player != kept[11 + s]:
                start = o["players"] + slots[s] * size
                clear_entries(w, start, start + size)
                self._player(w, start, player)
                kept[11 + s] = player
                written.append((start, start + size))
        return written

    def _board(
        self,
        w: Entries,
        top: list[int],
        symbols: list[int],
        levels: list[int],
        old: tuple[list[int], list[int], list[int]] | None,
    ) -> None:
        """The board's troops, symbols and levels (the same for every observer), into a
        zeroed board (``old`` None), or brought from ``old``'s entries: only the cells whose
        troop, symbols or level differ are written."""
        top_entry = self.top_entry
        at = self.offsets["board"]
        size = self.CELL
        if old is None:
            for cell in range(self.cells):
                k = at + cell * size
                w[k + top_entry[top[cell]]] = 1.0
                w[k + 6] = symbols[cell]
                w[k + 7] = levels[cell]
            return
        old_top, old_symbols, old_levels = old
        for cell in range(self.cells):
            k = at + cell * size
            troop, was = top[cell], old_top[cell]
            if troop != was:
                w[k + top_entry[was]] = 0.0
                w[k + top_entry[troop]] = 1.0
            if symbols[cell] != old_symbols[cell]:
                w[k + 6] = symbols[cell]
            if levels[cell] != old_levels[cell]:
                w[k + 7] = levels[cell]

    def _cell_marks(self, w: Entries, view: GunkimonoSnapshot, me: int, n: int) -> None:
        """Strongholds (by owner, from the observer), the troops waiting to score and the
        support square."""
        self._marks(w, view.strongholds, view.pending, view.support_cell, me, n, False)

    def _marks(
        self,
        w: Entries,
        strongholds: list[int],
        pending: list[tuple[int, int, bool]],
        support_cell: int,
        me: int,
        n: int,
        clear: bool,
    ) -> None:
        """:meth:`_cell_marks` of these parts, or (``clear``) zeros at the same entries."""
        cell_size = self.CELL
        cell_at = self.offsets["board"]
        one = 0.0 if clear else 1.0
        if max(strongholds) >= 0:
            for cell, owner in enumerate(strongholds):
                if owner >= 0:
                    w[cell_at + cell * cell_size + 8 + (owner - me) % n] = one
        cell_entry = self.cell_entry
        for square, vp, vp_allowed in pending:
            at = cell_at + cell_entry[square] * cell_size
            w[at + 13] = one
            w[at + 14] = 0.0 if clear else vp
            w[at + 15] = 1.0 if vp_allowed and not clear else 0.0
        if support_cell >= 0:
            w[cell_at + cell_entry[support_cell] * cell_size + 16] = one

    def _row_and_globals(self, w: Entries, view: GunkimonoSnapshot, slots: list[int]) -> None:
        """The face-up row's tiles, the phase and the game's counters."""
        o = self.offsets
        at = o["row"]
        row_entry = self.row_entry
        for i, code in enumerate(view.row):
            k = at + i * (1 + self.TILE)
            a, sa, b, sb = row_entry[code]
            w[k] = 1.0
            w[k + 1 + a] = 1.0
            w[k + 6] = sa
            w[k + 7 + b] = 1.0
            w[k + 12] = sb
        at = o["globals"]
        w[at + self.PHASES.index(view.phase)] = 1.0
        at += len(self.PHASES)
        w[at] = view.turn
        w[at + 1] = view.turns
        w[at + 2] = view.decisions
        w[at + 3] = view.stack_size
        w[at + 4] = view.end_stack_size
        w[at + 5] = 1.0 if view.end_stack_in_play else 0.0
        w[at + 6] = 1.0 if view.end_triggered else 0.0
        w[at + 7] = view.removed_count
        w[at + 8] = 1.0 if view.placed_large else 0.0
        w[at + 9] = view.passes
        if view.current_player >= 0:
            w[at + 10 + slots[view.current_player]] = 1.0

    def _placed(self, w: Entries, view: GunkimonoSnapshot, slots: list[int]) -> None:
        """The tiles placed (counted), the small tiles, the banner stacks, the strongholds'
        turns."""
        self._placed_tiles(w, view.placed)
        self._placed_rest(w, view, slots)

    def _placed_tiles(self, w: Entries, placed: list[int]) -> None:
        """The large tiles on the battlefield, counted by code (into zeros)."""
        at = self.offsets["placed"]
        codes = self.code_entry
        for code in placed:
            w[at + codes[code]] += 1.0

    def _placed_rest(self, w: Entries, view: GunkimonoSnapshot, slots: list[int]) -> None:
        """The small tiles, the banner stacks, the strongholds' turns (into zeros)."""
        o = self.offsets
        at = o["small"]
        troops_n = self.troops
        for owner, troop, face_up in view.placed_small:
            k = at + (slots[owner] * troops_n + troop) * 2
            w[k] = 1.0
            w[k + 1] = face_up
        at = o["banner_stacks"]
        kinds = len(self.banner_kinds)
        kind_entry = self.kind_entry
        for column, stack in enumerate(view.banner_stacks):
            for kind in stack:
                w[at + column * kinds + kind_entry[kind]] += 1.0
        at = o["built"]
        built_count = [0] * self.SLOTS
        for owner, turn in view.built_at:
            k = slots[owner]
            w[at + k * 2 + built_count[k]] = turn + 1
            built_count[k] += 1

    def _player(self, w: Entries, at: int, player: PlayerSnapshot) -> None:
        """One player's block at ``at``: score, hand (own only), known tiles, reserve,
        honor, strongholds left, banners (values once seen)."""
        codes = self.code_entry
        letters = self.troop_entry
        troops_n = self.troops
        banner_kinds = self.kind_entry
        columns = self.column_entry
        w[at] = 1.0
        w[at + 1] = player.score
        at += 2
        if player.hand is not None:
            for code in player.hand:
                w[at + codes[code]] += 1.0
        at += self.CODES
        w[at] = player.hand_size
        at += 1
        for code in player.hand_known:
            w[at + codes[code]] += 1.0
        at += self.CODES
        for troop in player.reserve:
            w[at + letters[troop]] += 1.0
        at += troops_n
        for column, row in enumerate(player.honor):
            if row == REMOVED:
                w[at + column] = -1.0
                w[at + troops_n + column] = 1.0  # the removed flag
            else:
                w[at + column] = row
        at += 2 * troops_n
        w[at] = player.strongholds_left
        at += 1
        for kind, column, value in player.banners:
            k = at + (banner_kinds[kind] * 5 + columns[column]) * 3
            w[k] = 1.0
            if value is not None:
                w[k + 1] = 1.0
                w[k + 2] = value

    def _cell(self, name: str) -> int:
        return (int(name[1:]) - 1) * self.width + ord(name[0]) - ord("a")


#: A kept stack that no stack equals (the entries of a new key are all written).
