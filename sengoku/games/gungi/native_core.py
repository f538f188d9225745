"""Gungi's native core (C++, ``native/core.cpp``), and the pure-Python engine as fallback.

The native core mirrors :mod:`sengoku.games.gungi.state` on the same integer move codes, with
the same movement tables, attack paths and Zobrist keys: they are handed to it from Python
here (built from ``pieces.json``), never re-typed in C++. ``GungiState`` asks this module for
its legal codes, noisy codes, mate test and perft when the core is available, and, through the
contract, for its legal ``Move`` list (made in the core) and for ``apply``'s position part (the
core checks, plays and judges the move and writes the change into the state's own lists);
notation, events, views and records stay in Python.

The research adapters play whole games in the core (:class:`GungiPlay`, ``Gungi.native_play``):
a ``Match`` keeps its legal list and its pieces' moves from ply to ply, as a batch's game does,
and writes :class:`~sengoku.games.gungi.encoder.GungiEncoder`'s planes itself.

``SENGOKU_PURE_PYTHON=1`` in the environment forces the Python engine (differential tests,
debugging). When the extension was not built, importing this module warns once and the Python
engine is used; :func:`native_available` says which one runs.
"""

from __future__ import annotations

import importlib
import os
import threading
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from sengoku.core.game import Outcome
from sengoku.core.observation import Encoder
from sengoku.games.gungi.pieces import (
    ARCHER,
    ATTACK_TABLES,
    CAPTAIN,
    MARSHAL,
    NUM_KINDS,
    RAY_TABLES,
)
from sengoku.games.gungi.zobrist import BLACK_TO_MOVE_KEY, HAND_KEYS, PIECE_KEYS, SETUP_KEYS

if TYPE_CHECKING:
    from sengoku.core.game import State
    from sengoku.games.gungi.features import Evaluation
    from sengoku.games.gungi.game import Gungi
    from sengoku.games.gungi.move import Move
    from sengoku.games.gungi.state import GungiState

_native: Any = None
#: The core's reason for a game that ends with a Marshal taken (native/core.cpp, Reason).
MARSHAL_CAPTURED = 1
#: Why the native core is not in use (None when it is).
UNAVAILABLE_REASON: str | None = None

if os.environ.get("SENGOKU_PURE_PYTHON", "") not in ("", "0"):
    UNAVAILABLE_REASON = "SENGOKU_PURE_PYTHON is set"
else:
    try:
        _native = importlib.import_module("sengoku.games.gungi._gungi_native")
    except ImportError as exc:  # the optional extension was not built
        UNAVAILABLE_REASON = f"the extension is not built ({exc})"
        warnings.warn(
            "Gungi's native core is not available "
            f"({UNAVAILABLE_REASON}); using the pure-Python engine (slower). "
            "Reinstall with a C++17 compiler (`pip install -e .`) to build it.",
            RuntimeWarning,
            stacklevel=2,
        )


if _native is not None:
    from sengoku.games.gungi.move import INTERNED, Move

    # The core makes the contract's legal lists from codes: each code's interned Move.
    _native.set_move_class(Move, INTERNED)


def native_function(name: str) -> Any:
    """The core's function ``name``, or None without the core (or with a core built before
    it had one)."""
    return getattr(_native, name, None)


def native_available() -> bool:
    """Whether Gungi's move generation, perft and search run in the native core."""
    return _native is not None


def module() -> Any:
    """The compiled extension module (raises when it is not available)."""
    if _native is None:
        raise RuntimeError(f"Gungi's native core is not available: {UNAVAILABLE_REASON}")
    return _native


_TABLES: dict[tuple[str, str], Any] = {}


def tables(blockers: str, evaluation: Evaluation | None = None) -> Any:
    """The native tables for one ``archer_blockers`` option and one evaluation (the
    hand-made one by default), built once from Python's."""
    import sengoku.games.gungi.features as features
    import sengoku.games.gungi.mate as mate

    evaluation = evaluation or features.HAND_MADE
    cached = _TABLES.get((blockers, evaluation.name))
    if cached is not None:
        return cached
    top = [
        evaluation.top[piece][height][sq]
        for piece in range(2 * NUM_KINDS)
        for height in range(4)
        for sq in range(81)
    ]
    built = module().make_tables(
        RAY_TABLES[blockers],
        ATTACK_TABLES[blockers],
        mate.ATTACK_SOURCES[blockers],
        PIECE_KEYS,
        HAND_KEYS,
        BLACK_TO_MOVE_KEY,
        SETUP_KEYS,
        {"marshal": MARSHAL, "captain": CAPTAIN, "archer": ARCHER},
        top,
        evaluation.value,
        {
            "hand_factor": evaluation.hand_factor,
            "buried": evaluation.buried,
            "scale": evaluation.scale,
        },
    )
    _TABLES[(blockers, evaluation.name)] = built
    return built


def new_position(state: GungiState, evaluation: Evaluation | None = None) -> Any:
    """A native position for the rules ``state`` plays by (its board not loaded yet), whose
    search evaluates with ``evaluation`` (the hand-made one by default)."""
    options = state.options
    return module().Position(
        tables(options["archer_blockers"], evaluation),
        state.mode.stack_limit,
        state.mode.marshal_may_stack,
        options["self_check"] == "forbidden",
        options["betrayal"] == "all_or_nothing",
        state.max_length,
    )


def _rules_key(state: GungiState) -> tuple[Any, ...]:
    o = state.options
    return (
        o["archer_blockers"],
        state.mode.stack_limit,
        state.mode.marshal_may_stack,
        o["self_check"],
        o["betrayal"],
        state.max_length,
    )


class _Scratch(threading.local):
    """Per thread (a load and the question that follows must not interleave with another
    thread's): one reusable native position per rule set, reloaded when the Python position
    changed, and the entry of each options dict (shared by a game's clones) by its id; the
    dict itself is kept too, so an id is never taken for another dict's."""

    def __init__(self) -> None:
        self.by_rules: dict[tuple[Any, ...], list[Any]] = {}
        self.by_options: dict[int, tuple[dict[str, Any], list[Any]]] = {}


_SCRATCH = _Scratch()
#: The thread's id as a scratch entry is kept with it (state.py's apply reads it too).
get_ident = threading.get_ident
_get_ident = get_ident


def load(position: Any, state: GungiState) -> None:
    """Copy ``state``'s position (not its history of positions) into ``position``."""
    position.load(
        state.board,
        state.hands,
        state.to_move,
        state.phase == "setup",
        state.drafting,
        state.first,
        state.move_number,
        state.ply,
        state.hash,
        state.marshal_at,
    )


def mark(state: GungiState) -> tuple[int, int, int, int]:
    """What tells a scratch position it holds ``state``: the hash covers board, hands, side
    to move and setup progress; the ply tells a position from its own repetition."""
    return (state.hash, state.ply, state.move_number, state.first)


class Kept(tuple[int, list[Any]]):
    """(thread id, scratch entry) as a state keeps it: a copy, deep copy or pickle of the
    state keeps nothing (None; the entry is found again), as a native position cannot be
    copied or pickled."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(None), ())

    def __deepcopy__(self, memo: dict[int, Any]) -> None:
        return None


def scratch_entry(state: GungiState) -> list[Any]:
    """This thread's scratch entry for ``state``'s rules; the state keeps it with the thread's
    id, so the contract finds it with one comparison on every move."""
    ident = threading.get_ident()
    kept = state.memo.native
    if kept is not None and kept[0] == ident:
        return kept[1]
    options = state.options
    local = _SCRATCH
    hit = local.by_options.get(id(options))
    if hit is not None and hit[0] is options:
        entry = hit[1]
    else:
        key = _rules_key(state)
        found = local.by_rules.get(key)
        if found is None:
            found = local.by_rules[key] = [new_position(state), None]
        entry = found
        if len(local.by_options) >= 1024:
            local.by_options.clear()
        local.by_options[id(options)] = (options, entry)
    state.memo.native = Kept((ident, entry))
    return entry


def scratch(state: GungiState) -> Any:
    """The scratch native position holding ``state``'s position (loaded if it differs)."""
    # scratch_entry's and mark's common case written out: this runs on every ply of every game.
    kept = state.memo.native
    entry = kept[1] if kept is not None and kept[0] == _get_ident() else scratch_entry(state)
    position = entry[0]
    now = (state.hash, state.ply, state.move_number, state.first)
    if entry[1] != now:
        load(position, state)
        entry[1] = now
    return position


def legal_codes(state: GungiState) -> list[int]:
    """The legal codes of a live ``state`` (ascending), from the native core."""
    codes: list[int] = scratch(state).legal_codes()
    return codes


#: Whether the built core has the adapters' queries below (a core built before them has
#: not: the callers then take the Python way, to the same answers).
HAS_ADAPTER_QUERIES = _native is not None and hasattr(_native.Position, "legal_ints")


def legal_ints(state: GungiState) -> list[int]:
    """``Gungi.legal_action_ints`` of a live ``state``: each legal code's action integer,
    ascending, made in the core from its kept legal list."""
    ints: list[int] = scratch(state).legal_ints()
    return ints


def code_of(state: GungiState, action: int) -> int:
    """The legal code of a live ``state`` whose action integer is ``action`` (-1: none)."""
    code: int = scratch(state).code_of(action)
    return code


def towers(state: GungiState) -> tuple[tuple[int, ...], ...]:
    """``state``'s 81 towers as tuples, pieces bottom to top (``tuple(map(tuple, board))``)."""
    board: tuple[tuple[int, ...], ...] = scratch(state).towers()
    return board


def legal_moves(state: GungiState) -> list[Move]:
    """``legal_actions`` of a live ``state``: the interned Move of each legal code, ascending,
    made in the core (no list of codes in between)."""
    # scratch() written out: this runs on every ply of every game.
    kept = state.memo.native
    found = kept[1] if kept is not None and kept[0] == _get_ident() else scratch_entry(state)
    now = (state.hash, state.ply, state.move_number, state.first)
    if found[1] != now:
        load(found[0], state)
        found[1] = now
    moves: list[Move] = found[0].legal_moves()
    return moves


def apply_to(state: GungiState, code: int) -> tuple[list[Any], tuple[Any, ...] | None]:
    """Play ``code`` on ``state``'s board, hands, drafting, Marshal squares and ``seen`` (in
    place, in the core) when it is legal there; returns the scratch entry (the caller marks it
    once the state is whole again) and the core's answer, None for an illegal code: (hash,
    side to move, still in setup, ply, pieces that left the game, why the game may end)."""
    kept = state.memo.native
    entry = kept[1] if kept is not None and kept[0] == _get_ident() else scratch_entry(state)
    position = entry[0]
    now = (state.hash, state.ply, state.move_number, state.first)
    if entry[1] != now:
        load(position, state)
        entry[1] = now
    played = position.apply_to(
        code, state.board, state.hands, state.drafting, state.marshal_at, state.seen
    )
    if played is not None:
        entry[1] = None  # holds the position after the move; the caller marks it
    return entry, played


def noisy_codes(state: GungiState) -> list[int]:
    codes: list[int] = scratch(state).noisy_codes()
    return codes


def is_mate(state: GungiState, color: int) -> bool:
    return bool(scratch(state).is_mate(color))


def perft(state: GungiState, depth: int) -> int:
    """Perft of a live (not terminal) ``state``, repetitions judged with its history."""
    position = new_position(state)
    load(position, state)
    position.load_seen(state.seen)
    return int(position.perft(depth))


def full_position(state: GungiState, evaluation: Evaluation | None = None) -> Any:
    """A fresh native copy of ``state`` with its history (for search and playouts)."""
    position = new_position(state, evaluation)
    load(position, state)
    position.load_seen(state.seen)
    return position


#: Native outcome reasons (native/core.cpp's Reason) as the Outcome's reason strings.
REASONS = ("", "marshal_captured", "repetition", "mate", "length_limit")


def outcome_of(winner: int, reason: int) -> Outcome:
    """The contract's Outcome of a finished native game: its winner (0 or 1; 2 for none) and
    reason (an index of :data:`REASONS`)."""
    if winner == 2:
        return Outcome.no_winner(2, REASONS[reason])
    return Outcome.win(winner, 2, REASONS[reason])


#: Whether the built core has ``Match`` (a core built before it has not: Gungi's adapters then
#: step contract states, to the same numbers).
HAS_MATCH = _native is not None and hasattr(_native, "Match")


class PlaneCaptures(Encoder):
    """``GungiEncoder``'s planes of a native match's position, kept small until read (a
    :class:`~sengoku.core.native_play.NativePlay`'s ``captures``): ``capture(match, seat)``
    is the core's record of them (``Match.capture``: the value of each filled plane and the
    board entries set to 1, a few hundred bytes, taken at once, so later play does not
    change it), and ``encode`` writes the planes from it (``expand_planes``), entry for entry
    the encoder's (tests/interop/test_pettingzoo_native.py)."""

    def __init__(self, shape: tuple[int, ...], max_length: int) -> None:
        self.shape = shape
        self._max_length = max_length
        self._expand = module().expand_planes

    def capture(self, state: Any, seat: int | None) -> bytes:
        record: bytes = state.capture(self._max_length, -1 if seat is None else seat)
        return record

    def encode_into(self, view: Any, seat: int | None, out: Any) -> None:
        self._expand(view, out)

    def encode(self, view: Any, seat: int | None) -> np.ndarray:
        out = np.empty(self.shape, dtype=np.float32)  # every entry written
        self._expand(view, out)
        return out


class GungiPlay:
    """Gungi's :class:`~sengoku.core.native_play.NativePlay` (``Gungi.native_play``): whole
    games in the core for the research adapters. A match keeps the contract state it was made
    from (``origin``, never changed) and the codes played since (``played``): its contract state
    is that state with those moves played, made only when asked for (rendering,
    ``sengoku_state``)."""

    __slots__ = (
        "game",
        "options",
        "_max_length",
        "_stochastic",
        "_start",
        "_shape",
        "mask_of",
        "captures",
    )

    def __init__(self, game: Gungi, options: Mapping[str, Any]) -> None:
        from sengoku.games.gungi.encoder import GungiEncoder

        self.game = game
        self.options = dict(options)
        self._max_length = game.max_game_length(**self.options)
        self._shape = tuple(GungiEncoder(self._max_length).shape)
        #: Whether the seed decides the start (a random first player): else every match
        #: starts as a copy of one, made once (reading the start FEN costs many plies).
        self._stochastic = game.traits(**self.options).stochastic
        self._start: Any = None
        #: The core makes the masks: for Gungi's 57,025 actions, numpy's index array of the
        #: legal list was two thirds of a mask.
        self.mask_of: Callable[[list[int], int], np.ndarray] | None = module().mask_of
        #: Observations kept small until read (a core built before ``Match.capture`` has
        #: none: its observations are encoded when made).
        self.captures: Encoder | None = (
            PlaneCaptures(self._shape, self._max_length)
            if native_function("expand_planes") is not None
            else None
        )

    def deal(self, seed: int) -> Any:
        if not self._stochastic and self._start is not None:
            return self._start.clone()
        match = self._match_of(self.game.new_state(seed=seed, **self.options))
        if not self._stochastic:
            self._start = match.clone()
        return match

    def load(self, state: State) -> Any:
        if dict(state.options) != self.options:
            raise ValueError(f"a state of other options: {state.options}, not {self.options}")
        return self._match_of(cast("GungiState", state).clone())

    @staticmethod
    def _match_of(state: GungiState) -> Any:
        """A match holding ``state`` (kept as its origin: not to be changed)."""
        match = module().Match(full_position(state))
        match.origin = state
        result = state.outcome()
        if result is not None:  # over as the state is (the outcome is read from the state)
            winner = result.winners[0] if result.winners else 2
            match.end(winner, REASONS.index(result.reason) if result.reason in REASONS else 0)
        return match

    def state_of(self, match: Any) -> GungiState:
        from sengoku.games.gungi.move import Move

        state: GungiState = match.origin.clone()
        for code in match.played:
            state.apply(Move(code))
        return state

    def outcome(self, match: Any) -> Outcome | None:
        result = match.result()
        if result is None:
            return None
        if not match.played:  # over from the start: the contract state's own outcome
            origin: Outcome | None = match.origin.outcome()
            return origin
        return outcome_of(*result)

    def observe(self, match: Any, seat: int) -> np.ndarray:
        out = np.empty(self._shape, dtype=np.float32)
        match.encode(self._max_length, seat, out)
        return out

    def observe_into(self, match: Any, seat: int | None, out: np.ndarray) -> None:
        match.encode(self._max_length, -1 if seat is None else seat, out)
