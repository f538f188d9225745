"""N Gungi games stepped at once, for research: numpy legal-action masks and observations.

The actions are the contract's integers (``Gungi.action_to_int``, ``0 .. 57024``); the
observations are :class:`~sengoku.games.gungi.encoder.GungiEncoder`'s planes, ``(n, 120, 9, 9)``
float32, each from the seat to move (or the seats given). With Gungi's native core built, the
games live in C++ and a step costs a few microseconds per game; without it the same API runs
on the Python engine (slower, same numbers)::

    batch = GungiBatch(mode="intro")
    batch.reset(64, seed=1)
    while not batch.done().all():
        mask = batch.legal_mask()                 # (64, 57025) bool
        batch.step(batch.random_actions())        # or the argmax of a policy over mask
    batch.returns()                               # (64, 2) float32

A finished game stays finished (its action is ignored); ``reset`` starts all games again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import chain
from typing import Any

import numpy as np

import sengoku.games.gungi.native_core as native_core
from sengoku.core.game import Outcome
from sengoku.games.gungi.encoder import GungiEncoder
from sengoku.games.gungi.game import Gungi
from sengoku.games.gungi.move import NUM_DISTINCT_ACTIONS, Move
from sengoku.games.gungi.state import GungiState

#: Whether the built core writes only what changed into a kept observation buffer (a core
#: built before it writes every plane, to the same numbers).
_OBSERVATIONS_KEPT = native_core.native_available() and bool(
    getattr(native_core.module(), "OBSERVATIONS_KEPT", False)
)
#: Whether the built core's ``step_observed`` looks every action up before it plays any and
#: takes ``strict`` (a core built before it checks game by game as it plays: see
#: :meth:`GungiBatch.step_observed`).
_STEP_CHECKS_FIRST = native_core.native_available() and bool(
    getattr(native_core.module(), "STEP_CHECKS_FIRST", False)
)
#: Whether the built core has ``Batch.bind_env`` and ``Batch.env_step`` (VectorEnv's step in
#: one call: :meth:`GungiBatch.env_stepper`; a core built before steps through
#: :meth:`GungiBatch.step_observed`).
_ENV_STEP = native_core.native_available() and bool(
    getattr(native_core.module(), "ENV_STEP", False)
)
#: Whether the built core's ``Batch.bind_env`` takes a spare pair of buffers, written in turn
#: (its ``env_step`` then says which pair it wrote; a core built before writes one pair).
_ENV_SPARE_PAIR = native_core.native_available() and bool(
    getattr(native_core.module(), "ENV_SPARE_PAIR", False)
)
#: Native outcome reasons (native/core.cpp's Reason) as the Outcome's reason strings.
REASONS = native_core.REASONS


#: What :meth:`GungiBatch.env_stepper`'s function returns.
EnvStep = tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    tuple[tuple[int, int, int], ...],
    int,
]


class GungiBatch:
    """``n`` Gungi games with the same options, stepped together."""

    num_actions = NUM_DISTINCT_ACTIONS
    num_players = 2

    def __init__(self, native: bool | None = None, **options: Any) -> None:
        self.game = Gungi()
        self.options = self.game.resolve_options(**options)
        self.native = native_core.native_available() if native is None else native
        if self.native and not native_core.native_available():
            raise RuntimeError(
                f"Gungi's native core is not available: {native_core.UNAVAILABLE_REASON}"
            )
        self.encoder = GungiEncoder(self.game.max_game_length(**self.options))
        self.shape = self.encoder.shape
        self._rng = random.Random(0)
        self._batch: Any = None
        self._states: list[GungiState] = []
        self.n = 0
        #: The mask legal_sparse keeps up to date (only its changed entries are written).
        self._marked: np.ndarray | None = None
        self._stochastic = self.game.traits(**self.options).stochastic
        self._start: Any = None

    # ------------------------------------------------------------------ lifecycle
    def reset(self, n: int, seed: int = 0) -> np.ndarray:
        """Start ``n`` games (game ``i`` is ``new_state(seed=seed + i)``); their observations."""
        if n < 1:
            raise ValueError(f"a batch needs at least one game, not {n}")
        self.n = n
        self._rng = random.Random(seed)
        self._marked = None
        starts = [self.game.new_state(seed=seed + i, **self.options) for i in range(n)]
        if self.native:
            positions = [native_core.full_position(s) for s in starts]
            self._batch = native_core.module().Batch(positions, seed)
        else:
            self._states = starts
        return self.observations()

    def reset_game(self, i: int, seed: int) -> None:
        """Start game ``i`` again as ``new_state(seed=seed)`` (the others go on)."""
        if self.native:
            self._batch.reset_game(i, self._native_start(seed))  # copied into the batch
        else:
            self._states[i] = self.game.new_state(seed=seed, **self.options)

    def _native_start(self, seed: int) -> Any:
        """The native position of ``new_state(seed=seed)``. Where the seed decides nothing
        (every configuration but ``first_player=random``) one is made and kept: making it
        reads the start FEN, which costs more than many plies."""
        if self._stochastic:
            return native_core.full_position(self.game.new_state(seed=seed, **self.options))
        if self._start is None:
            self._start = native_core.full_position(self.game.new_state(seed=0, **self.options))
        return self._start

    # ------------------------------------------------------------------ queries
    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """``(n, num_actions)`` bool: True where the action is legal (all False when over).

        ``out`` (C-contiguous bool of that shape) is filled and returned instead of a new
        array: a step of a large batch then allocates nothing."""
        shape = (self.n, self.num_actions)
        if out is None:
            mask = np.zeros(shape, dtype=bool)
        else:
            if out.shape != shape or out.dtype != np.bool_ or not out.flags.c_contiguous:
                raise ValueError(f"out must be a C-contiguous bool array of shape {shape}")
            mask = out
        if self.native:
            self._batch.legal_mask(mask)  # clears it first
        else:
            mask[:] = False
            for i, state in enumerate(self._states):
                mask[i, [code >> 14 for code in state.legal_codes()]] = True
        return mask

    def legal_sparse(self, out: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every game's legal action integers, ascending, as ``(ints, offsets)`` (int64, new
        arrays): game ``i``'s are ``ints[offsets[i]:offsets[i + 1]]`` (none when over), the
        sparse form of :meth:`legal_mask`.

        ``out``, an ``(n, num_actions)`` int8 (or bool) C-contiguous array, is kept equal to
        the dense mask: given again on the next call (unchanged in between), only the entries
        that changed are written (the mask of 256 games is 14.6 MB; a step changes a few
        hundred entries of a game's row). Another array, or one after :meth:`reset`, is
        zeroed first."""
        shape = (self.n, self.num_actions)
        dense: np.ndarray | None = None
        clear = True
        if out is None:
            self._marked = None  # whatever mask was kept is no longer followed
        else:
            if (
                out.shape != shape
                or out.dtype not in (np.int8, np.bool_)
                or not out.flags.c_contiguous
            ):
                raise ValueError(f"out must be a C-contiguous int8 or bool array of shape {shape}")
            dense = out.view(np.int8)
            clear = out is not self._marked
            self._marked = out
        if self.native and hasattr(self._batch, "legal_sparse"):
            ints, offsets = self._batch.legal_sparse(dense, clear)
            return ints, offsets
        lists = [self.legal_actions(i) for i in range(self.n)]
        counts = np.array([len(x) for x in lists], dtype=np.int64)
        offsets = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        ints = np.fromiter(chain.from_iterable(lists), dtype=np.int64, count=int(offsets[-1]))
        if dense is not None:
            dense.fill(0)
            dense.reshape(-1)[np.repeat(np.arange(self.n) * self.num_actions, counts) + ints] = 1
        return ints, offsets

    def legal_actions(self, i: int) -> list[int]:
        """Game ``i``'s legal action integers, ascending."""
        codes = self._batch.legal_codes(i) if self.native else self._states[i].legal_codes()
        return [code >> 14 for code in codes]

    def status(self) -> np.ndarray:
        """``(n, 5)`` int64: current player (-1 over), outcome (-1 none, 0/1 winner, 2 no
        winner), reason (an index of :data:`REASONS`), ply, side to move."""
        out = np.zeros((self.n, 5), dtype=np.int64)
        if self.native:
            self._batch.status(out)
            return out
        for i, state in enumerate(self._states):
            result = state.outcome()
            outcome = -1
            reason = 0
            if result is not None:
                outcome = result.winners[0] if result.winners else 2
                reason = REASONS.index(result.reason) if result.reason in REASONS else 0
            out[i] = (state.current_player, outcome, reason, state.ply, state.to_move)
        return out

    def done(self) -> np.ndarray:
        """``(n,)`` bool: which games are over."""
        return np.asarray(self.status()[:, 1] >= 0)

    def returns(self) -> np.ndarray:
        """``(n, 2)`` float32: +1 / -1 for a win / loss, 0 for no winner or not over."""
        outcome = self.status()[:, 1]
        out = np.zeros((self.n, 2), dtype=np.float32)
        won = np.flatnonzero((outcome == 0) | (outcome == 1))  # at once, not game by game
        out[won, outcome[won]] = 1.0
        out[won, 1 - outcome[won]] = -1.0
        return out

    def outcome(self, i: int) -> Outcome | None:
        """Game ``i``'s result as the contract's Outcome (None while it goes on)."""
        outcome, reason = (int(v) for v in self.status()[i, 1:3])
        if outcome < 0:
            return None
        return self.outcome_of(outcome, reason)

    @staticmethod
    def outcome_of(outcome: int, reason: int) -> Outcome:
        """The Outcome of a finished game's :meth:`status` outcome and reason."""
        return native_core.outcome_of(outcome, reason)

    def to_move(self) -> np.ndarray:
        """``(n,)`` int64: the seat to move in each game (the last mover's opponent when over)."""
        return np.asarray(self.status()[:, 4])

    def observations(
        self,
        seats: np.ndarray | None = None,
        out: np.ndarray | None = None,
        kept: bool = False,
    ) -> np.ndarray:
        """``(n, 120, 9, 9)`` float32 GungiEncoder planes, from ``seats`` (default: to move),
        into ``out`` when given (C-contiguous float32 of that shape, overwritten: a large
        batch's step then allocates no 10 MB array) or a new array.

        ``kept=True`` says that ``out`` is the array of the previous call, also made with
        ``kept=True``, and holds what that call wrote, unchanged: the native core then writes
        only what differs (a few hundred of a game's 9720 floats, where the whole array is
        10 MB for 256 games). After a call without ``kept``, or into another array, the
        array is written whole all the same."""
        if seats is None:
            seats = self.to_move()
        seats = np.ascontiguousarray(seats, dtype=np.int64)
        shape = (self.n, *self.shape)
        if out is None:
            out = np.zeros(shape, dtype=np.float32)
        elif out.shape != shape or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous float32 array of shape {shape}")
        if self.native:
            if kept and _OBSERVATIONS_KEPT:
                self._batch.observations(seats, out, self.encoder.max_game_length, True)
            else:  # written whole
                self._batch.observations(seats, out, self.encoder.max_game_length)
            return out
        out.fill(0.0)
        encoder = self.encoder
        for i, state in enumerate(self._states):
            seat = int(seats[i])
            encoder.encode_into(encoder.capture(state, seat), seat, out[i])
        return out

    # ------------------------------------------------------------------ stepping
    def step(self, actions: np.ndarray) -> np.ndarray:
        """Play ``actions[i]`` in game ``i`` (-1 or a finished game: nothing happens).

        An illegal action raises ``ValueError`` naming the game; games before it in the
        batch have already moved. Returns :meth:`status`.
        """
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.n,):
            raise ValueError(
                f"step takes one action per game: shape ({self.n},), not {actions.shape}"
            )
        if self.native:
            outcomes = np.zeros(self.n, dtype=np.int8)
            self._batch.step(actions, outcomes)
        else:
            for i, state in enumerate(self._states):
                action = int(actions[i])
                if state.is_terminal() or action < 0:
                    continue
                legal = [code for code in state.legal_codes() if code >> 14 == action]
                if not legal:
                    raise ValueError(f"game {i}: action {action} is not legal there")
                state.apply(Move(legal[0]))
        return self.status()

    def fuses_steps(self, restart: bool) -> bool:
        """Whether :meth:`step_observed` can serve (the native core has it; with
        ``restart``, every game of these options starts from the same position)."""
        return (
            self.native
            and hasattr(self._batch, "step_observed")
            and not (restart and self._stochastic)
        )

    def first_illegal(self, actions: np.ndarray) -> int:
        """The first game whose action (``(n,)`` int64) is not one of its legal actions
        (-1 for a live game included; a finished game's is not looked at), or -1. Native core
        only (:meth:`fuses_steps`): a binary search in each game's kept legal list."""
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.n,):
            raise ValueError(f"one action per game: shape ({self.n},), not {actions.shape}")
        first: int = self._batch.first_illegal(actions)
        return first

    def _check_buffers(self, mask: np.ndarray, out: np.ndarray) -> None:
        """Refuse a mask or an observation buffer the native pass cannot write in place."""
        shape = (self.n, self.num_actions)
        if mask.shape != shape or mask.dtype != np.int8 or not mask.flags.c_contiguous:
            raise ValueError(f"mask must be a C-contiguous int8 array of shape {shape}")
        if (
            out.shape != (self.n, *self.shape)
            or out.dtype != np.float32
            or not out.flags.c_contiguous
        ):
            raise ValueError(
                f"out must be a C-contiguous float32 array of shape {(self.n, *self.shape)}"
            )

    def step_observed(
        self,
        actions: np.ndarray,
        mask: np.ndarray,
        out: np.ndarray,
        restart: bool,
        strict: bool = False,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`step`, then :meth:`legal_sparse` into ``mask`` and
        ``observations(seats, out, kept=True)`` with each game's seat to act (seat 0 once it
        is over), in one pass over the games (native core only: :meth:`fuses_steps`).

        Returns ``(ints, offsets, finished)``: ``finished`` is ``(n, 2)`` int64, the outcome
        (as :meth:`status`) and reason of each game that ended on this step, ``-1`` else. With
        ``restart`` a game that ended starts again at once, as ``reset_game`` would start it;
        its mask row and planes are the new game's. ``mask`` and ``out`` are followed as
        ``legal_sparse`` and ``observations(kept=True)`` follow them (written only where they
        changed when they are the arrays of the last call). An illegal action raises
        ``ValueError`` naming the game, and no game moves: every action is looked up in its
        game's legal list before any is played. A live game's ``-1`` leaves it as it is,
        unless ``strict`` (then it is illegal, as :meth:`first_illegal` counts it)."""
        if not self.fuses_steps(restart):
            raise RuntimeError(
                "step_observed needs the native core (and, with restart, a fixed start)"
            )
        self._check_buffers(mask, out)
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.n,):
            raise ValueError(
                f"step takes one action per game: shape ({self.n},), not {actions.shape}"
            )
        finished = np.empty((self.n, 2), dtype=np.int64)
        start = self._native_start(0) if restart else None
        max_length = self.encoder.max_game_length
        if _STEP_CHECKS_FIRST:
            ints, offsets = self._batch.step_observed(
                actions, mask, mask is not self._marked, out, max_length, start, finished, strict
            )
        else:  # a core built before: it checks each action as it plays
            first = self.first_illegal(actions) if strict else -1
            if first >= 0:
                raise ValueError(f"game {first}: action {int(actions[first])} is not legal there")
            ints, offsets = self._batch.step_observed(
                actions, mask, mask is not self._marked, out, max_length, start, finished
            )
        self._marked = mask
        return ints, offsets, finished

    def env_stepper(
        self,
        mask: np.ndarray,
        out: np.ndarray,
        restart: bool,
        spare: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> Callable[[np.ndarray], EnvStep] | None:
        """The native core's step of :class:`~sengoku.interop.vector.VectorEnv` on its kept
        ``mask`` and ``out`` (as :meth:`step_observed` takes them), or None where the
        built core has none (or :meth:`fuses_steps` says no).

        The function returned takes the actions (an int64 C-contiguous ``(n,)`` array; with
        ``strict``: a live game's -1 is illegal) and makes :meth:`step_observed`'s one pass
        into ``mask`` and ``out``, then returns ``(ints, offsets, agent, rewards,
        terminations, truncations, ended)``: the sparse lists, each game's seat to act (-1
        over), the ``(n, 2)`` float32 returns of the games that ended on this step (0 for
        the others), which ended by the rules and which by the length guard (bool), and
        ``(i, outcome, reason)`` of each game that ended, in order (as :meth:`status` and
        :meth:`outcome_of` take them), and which pair of buffers it wrote (0: ``mask`` and
        ``out``). Everything but the buffers is new each call. It holds until the next
        :meth:`reset` (a new native batch): ask again after one. An illegal action raises
        ``ValueError`` naming its game, and no game moves.

        With ``spare`` (a second mask and a second ``out``, as those), the steps write the two
        pairs in turn, the spare first: each pair then holds a game's mask row and planes of
        two plies before (the same side's moves, the same seat's planes), and only the
        entries that changed since are written, a few where the pair of the ply before (the
        other side's) differs in nearly all. ``mask`` and ``out`` must hold what the batch
        last wrote into them (:meth:`legal_sparse` and ``observations(kept=True)``, as
        :class:`~sengoku.interop.vector.VectorEnv` leaves them); the spare pair is written
        whole the first time."""
        if not (_ENV_STEP and self.fuses_steps(restart)):
            return None
        self._check_buffers(mask, out)
        start = self._native_start(0) if restart else None
        if spare is not None and _ENV_SPARE_PAIR:
            self._check_buffers(*spare)
            if np.shares_memory(spare[0], mask) or np.shares_memory(spare[1], out):
                raise ValueError("the spare pair must be other arrays than mask and out")
            self._batch.bind_env(mask, out, self.encoder.max_game_length, start, spare[0], spare[1])
            stepper: Callable[[np.ndarray], EnvStep] = self._batch.env_step
            return stepper
        self._batch.bind_env(mask, out, self.encoder.max_game_length, start)
        step: Callable[[np.ndarray], Any] = self._batch.env_step
        if _ENV_SPARE_PAIR:
            return step

        def one_pair(actions: np.ndarray) -> EnvStep:
            # A core built before the spare pair: one pair, written every step.
            written: EnvStep = (*step(actions), 0)
            return written

        return one_pair

    def random_actions(self) -> np.ndarray:
        """One uniformly random legal action per game (-1 for a finished game)."""
        out = np.full(self.n, -1, dtype=np.int64)
        if self.native:
            self._batch.random_actions(out)
            return out
        for i, state in enumerate(self._states):
            codes = state.legal_codes()
            if codes and not state.is_terminal():
                out[i] = self._rng.choice(codes) >> 14
        return out

    def position(self, i: int) -> dict[str, Any]:
        """Game ``i``'s board (towers of ``kind * 2 + color``), hands, side to move, hash."""
        if self.native:
            data: dict[str, Any] = self._batch.state(i)
            return data
        s = self._states[i]
        return {
            "board": list(s.board),
            "hands": [list(s.hands[0]), list(s.hands[1])],
            "to_move": s.to_move,
            "setup": s.phase == "setup",
            "ply": s.ply,
            "hash": s.hash,
        }
