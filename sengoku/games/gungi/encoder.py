"""Gungi's observation encoder for research tools: Gungi planes per tier, owner and piece kind, plus hand counts and the flags
of the position, from the observing seat's side of the board.

Gungi.observation_encoder() declares it. It reads ``view(seat)`` and nothing else (see
:mod:`sengoku.core.observation`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

import sengoku.games.gungi.native_core as native_core
import sengoku.games.gungi.state as gungi_state
from sengoku.core.game import TERMINAL
from sengoku.core.observation import Encoder


class GungiSnapshot(NamedTuple):
    """What :meth:`GungiEncoder.capture` keeps of a position: the view's fields that the planes
    read, as the state's integers (the 81 towers of ``kind * 2 + colour`` bottom to top, empty
    ones included: the state's own tower tuples; hands by kind, colours 0 White / 1 Black).
    The view's ``marshal_capturable``: ``capturable`` where it is known when the snapshot is
    taken ((False, False) in the setup), else None: then it is worked out from the board when
    the snapshot is encoded (most snapshots never are), from ``marshal_at`` and ``blockers``
    (the game's ``archer_blockers`` option, which picks the attack tables). Gungi hides
    nothing, so none of it is more than the view shows."""

    board: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    current_player: int
    to_move: int
    setup: bool
    drafting: tuple[bool, ...]
    marshal_at: tuple[int, ...]
    blockers: str
    ply: int
    capturable: tuple[bool, bool] | None = None


_new_tuple = tuple.__new__
#: The native core's snapshot (native/core.cpp): the copies and the tuple of
#: :meth:`GungiEncoder.capture` in one call; None without the core (or with a core built
#: before it), where capture makes them in Python.
_native_snapshot: Any = native_core.native_function("snapshot")
#: The native core's encoding of a snapshot (native/core.cpp: the same planes as
#: :meth:`GungiEncoder._encode_snapshot` writes in Python, about thirty times faster); None
#: without the core (or with a core built before it had one).
_native_encode: Any = native_core.native_function("encode_snapshot")
#: The native core's tables per ``archer_blockers`` option, for encode_snapshot's question
#: whether a Marshal can be captured (kept here, not on an encoder: an encoder is copied and
#: pickled with the observations that hold it, and the core's tables are neither).
#: native_core.tables keeps them too, but asking it imports two modules and builds a key
#: each call, and this is asked for every tensor.
_ATTACK_TABLES: dict[str, Any] = {}
#: Neither Marshal can be captured during the setup (the view says so).
_NOT_CAPTURABLE = (False, False)


class _Towers:
    """A snapshot's board in the shape :func:`~sengoku.games.gungi.mate.marshal_capturable`
    reads (the fields it takes from a state)."""

    __slots__ = ("board", "marshal_at", "attacks", "attack_sources")

    def __init__(self, snap: GungiSnapshot, board: Sequence[Sequence[int]]) -> None:
        from sengoku.games.gungi.mate import ATTACK_SOURCES
        from sengoku.games.gungi.pieces import ATTACK_TABLES

        self.board = board
        self.marshal_at = snap.marshal_at
        self.attacks = ATTACK_TABLES[snap.blockers]
        self.attack_sources = ATTACK_SOURCES[snap.blockers]


class GungiEncoder(Encoder):
    """Gungi planes, ``(CHANNELS, 9, 9)``, from the observing seat's side of the board.

    The board is turned so that the observer's forward is towards row index 0 (White as
    printed, Black rotated by 180 degrees); a spectator (``seat`` None) sees White's side.
    "Own" is the observer's colour (White for a spectator). Channels:

    * ``0 .. 83``: one plane per tier (1-3), owner (own, opponent) and piece kind (14, in
      ``pieces.json`` order): 1 where that piece stands at that tier;
    * ``84 .. 111``: hand counts per owner and kind, the count repeated over the plane;
    * ``112``: 1 when the observer is to act; ``113``: 1 during the setup phase;
      ``114``/``115``: own / opponent still placing in the setup;
      ``116``/``117``: own / opponent Marshal capturable; ``118``: 1 when the observer plays
      Black; ``119``: the ply divided by ``max_game_length`` (the length guard comes closer).

    Faithful: everything in the view except the FEN (which repeats the board, hands and side
    to move) and the outcome (terminal states have no decision to make) is in the planes.
    """

    TIERS = 3

    def __init__(self, max_game_length: int) -> None:
        from sengoku.games.gungi.pieces import PIECES

        self.kinds = {p.name: p.kind for p in PIECES}
        # A hand never holds more of a kind than the set has (4 Pawns).
        self.high = float(max(p.count for p in PIECES))
        self.num_kinds = len(PIECES)
        k = self.num_kinds
        self.hand_base = self.TIERS * 2 * k
        self.flags_base = self.hand_base + 2 * k
        self.channels = self.flags_base + 8
        #: Channels from here on hold one number spread over the whole plane (hand counts,
        #: flags): a learner may read one square of each instead of 81.
        self.uniform_from = self.hand_base
        self.shape = (self.channels, 9, 9)
        self.max_game_length = max_game_length
        self._int_tables: tuple[tuple[list[int], list[tuple[int, ...]]], ...] | None = None
        # "c-r" square names -> flat index in a 9x9 plane, for White's and Black's side.
        self.squares: tuple[dict[str, int], dict[str, int]] = ({}, {})
        for col in range(1, 10):
            for row in range(1, 10):
                x, y = 9 - col, row - 1
                self.squares[0][f"{col}-{row}"] = y * 9 + x
                self.squares[1][f"{col}-{row}"] = (8 - y) * 9 + 8 - x
        # (tier, own?, piece name) -> the flat offset of its plane, per observer colour.
        self.plane_of: tuple[dict[tuple[int, str, str], int], dict[tuple[int, str, str], int]]
        self.plane_of = ({}, {})
        for me, own in enumerate(("white", "black")):
            for tier in range(self.TIERS):
                for color in ("white", "black"):
                    for name, kind in self.kinds.items():
                        owner = 0 if color == own else 1
                        channel = tier * 2 * k + owner * k + kind
                        self.plane_of[me][(tier, color, name)] = channel * 81
        # The same as nested look-ups, per observer colour: colour -> piece name -> the offset
        # of its plane at each tier (no tuple key to build per piece).
        self.planes: tuple[dict[str, dict[str, tuple[int, ...]]], ...] = tuple(
            {
                color: {
                    name: tuple(plane_of[(tier, color, name)] for tier in range(self.TIERS))
                    for name in self.kinds
                }
                for color in ("white", "black")
            }
            for plane_of in self.plane_of
        )

    def capture(self, state: Any, seat: int | None) -> Any:
        """The parts of ``view(seat)`` the planes read, as the state's own integers: Gungi hides
        nothing, and building the view's dicts, names and FEN costs several times this.

        The state's board is a list of towers that are tuples, replaced (never changed in
        place) by a move, in both engines: a tuple of that list is the board as it is now
        (a copy of 81 references, no tower rebuilt). The Marshal flags are left to the
        encoding (``capturable`` None): asking the core for them cost more than the rest of
        the snapshot (two calls through its binding), and most snapshots are never encoded.
        """
        if not isinstance(state, gungi_state.GungiState):
            return state.view(seat)
        hands = state.hands
        setup = state.phase == "setup"
        if _native_snapshot is not None:  # the same snapshot, made in one call
            return _native_snapshot(
                GungiSnapshot,
                state.board,
                hands[0],
                hands[1],
                TERMINAL if state.is_terminal() else state.to_move,
                state.to_move,
                setup,
                state.drafting,
                state.marshal_at,
                state.options["archer_blockers"],
                state.ply,
                _NOT_CAPTURABLE if setup else None,
            )
        # GungiSnapshot(...) without the NamedTuple's Python-level __new__ (one frame fewer
        # on every observation an environment takes).
        return _new_tuple(
            GungiSnapshot,
            (
                tuple(state.board),
                (tuple(hands[0]), tuple(hands[1])),
                # current_player, written out (a property call fewer)
                TERMINAL if state.is_terminal() else state.to_move,
                state.to_move,
                setup,
                tuple(state.drafting),
                tuple(state.marshal_at),
                state.options["archer_blockers"],
                state.ply,
                _NOT_CAPTURABLE if setup else None,
            ),
        )

    def _encode_snapshot(self, snap: GungiSnapshot, seat: int | None, out: np.ndarray) -> None:
        me = 1 if seat == 1 else 0
        if _native_encode is not None:
            tables = _ATTACK_TABLES.get(snap.blockers)
            if tables is None:  # the attack tables of its archer_blockers option, once
                tables = _ATTACK_TABLES[snap.blockers] = native_core.tables(snap.blockers)
            _native_encode(tables, snap, me, out, self.max_game_length)
            return
        self._encode_snapshot_in_python(snap, me, out)

    def _encode_snapshot_in_python(self, snap: GungiSnapshot, me: int, out: np.ndarray) -> None:
        """What the native core's ``encode_snapshot`` writes, in Python (the build without the
        core; ``tests/gungi/test_native_encoder.py`` holds the two to the same entries)."""
        tables = self._int_tables
        if tables is None:
            tables = self._int_tables = self._make_int_tables()
        square_of, plane_of = tables[me]
        board = snap.board
        out.reshape(-1)[
            [
                plane_of[piece][tier] + square_of[sq]
                for sq, tower in enumerate(board)
                for tier, piece in enumerate(tower)
            ]
        ] = 1.0
        k = self.num_kinds
        values = [0.0] * (self.channels - self.hand_base)
        for color in (0, 1):
            base = (0 if color == me else 1) * k
            for kind, count in enumerate(snap.hands[color]):
                if count:
                    values[base + kind] = count
        f = 2 * k
        if snap.current_player >= 0 and snap.to_move == me:
            values[f] = 1.0
        if snap.setup:
            values[f + 1] = 1.0
        for color in (0, 1):
            if snap.drafting[color]:
                values[f + 2 + (0 if color == me else 1)] = 1.0
        if snap.capturable is not None:
            if snap.capturable[me]:
                values[f + 4] = 1.0
            if snap.capturable[1 - me]:
                values[f + 5] = 1.0
        elif not snap.setup:  # the view's marshal_capturable, as GungiState works it out
            from sengoku.games.gungi.mate import marshal_capturable

            towers = _Towers(snap, board)
            if marshal_capturable(towers, me):  # type: ignore[arg-type]
                values[f + 4] = 1.0
            if marshal_capturable(towers, 1 - me):  # type: ignore[arg-type]
                values[f + 5] = 1.0
        if me == 1:
            values[f + 6] = 1.0
        values[f + 7] = min(1.0, snap.ply / self.max_game_length)
        out[self.hand_base :] = np.asarray(values, np.float32)[:, None, None]

    def _make_int_tables(self) -> tuple[tuple[list[int], list[tuple[int, ...]]], ...]:
        """Per observer colour: square index -> plane offset, piece integer -> plane offsets."""
        from sengoku.games.gungi.state import PIECE_JSON, SQUARE_NAMES

        return tuple(
            (
                [self.squares[me][name] for name in SQUARE_NAMES],
                [self.planes[me][color][name] for name, _kanji, color in PIECE_JSON],
            )
            for me in (0, 1)
        )

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        if isinstance(view, GungiSnapshot):  # from capture(): no dicts to read
            self._encode_snapshot(view, seat, out)
            return
        me = 1 if seat == 1 else 0
        own_color = ("white", "black")[me]
        squares = self.squares[me]
        planes = self.planes[me]
        # One scattered write for every piece on the board (numpy's per-item writes are slow).
        index = [
            planes[piece["color"]][piece["piece"]][tier] + squares[entry["square"]]
            for entry in view["board"]
            for tier, piece in enumerate(entry["tower"])
        ]
        out.reshape(-1)[index] = 1.0
        k = self.num_kinds
        kinds = self.kinds
        # Hand counts and flags: one value per channel, spread over its plane at once.
        values = [0.0] * (self.channels - self.hand_base)
        for color, hand in view["hands"].items():
            owner = 0 if color == own_color else 1
            for name, count in hand.items():
                values[owner * k + kinds[name]] = count
        f = 2 * k
        if view["current_player"] >= 0 and view["to_move"] == own_color:
            values[f] = 1.0
        if view["phase"] == "setup":
            values[f + 1] = 1.0
        for color in view["drafting"]:
            values[f + 2 + (0 if color == own_color else 1)] = 1.0
        capturable = view["marshal_capturable"]
        if capturable[me]:
            values[f + 4] = 1.0
        if capturable[1 - me]:
            values[f + 5] = 1.0
        if me == 1:
            values[f + 6] = 1.0
        values[f + 7] = min(1.0, view["ply"] / self.max_game_length)
        out[self.hand_base :] = np.asarray(values, np.float32)[:, None, None]
