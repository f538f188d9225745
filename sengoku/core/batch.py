"""N games of one game stepped together: numpy legal masks, observations, outcomes.

Research code (self-play, the vectorised environments of :mod:`sengoku.interop.vector`)
steps many games at once. ``Game.batch(**options)`` returns an object with this module's
:class:`GameBatch` interface; :class:`ContractBatch` implements it for every game over the
contract (one ``State`` a game), and a game with a compiled core returns its own (Gungi's
:class:`~sengoku.games.gungi.batch.GungiBatch` keeps its games in C++) with the same numbers.

Actions are the contract's integers (``Game.action_to_int``), observations come from
``view(seat)`` through the game's encoder (:func:`sengoku.core.encoding.encoder_for`), so a
batch shows a seat no more than its view does.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from itertools import chain
from typing import Any, Protocol

import numpy as np

from sengoku.core.encoding import encoder_for
from sengoku.core.game import TERMINAL, Game, IllegalAction, Outcome, State


class GameBatch(Protocol):
    """What every batch offers (see :class:`ContractBatch` for the meaning of each)."""

    n: int
    num_actions: int
    num_players: int
    shape: tuple[int, ...]

    def reset(self, n: int, seed: int = 0) -> np.ndarray: ...
    def reset_game(self, i: int, seed: int) -> None: ...
    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray: ...
    def legal_sparse(self, out: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]: ...
    def legal_actions(self, i: int) -> list[int]: ...
    def step(self, actions: np.ndarray) -> np.ndarray: ...
    def random_actions(self) -> np.ndarray: ...
    def observations(
        self, seats: np.ndarray | None = None, out: np.ndarray | None = None, kept: bool = False
    ) -> np.ndarray: ...
    def done(self) -> np.ndarray: ...
    def returns(self) -> np.ndarray: ...
    def outcome(self, i: int) -> Outcome | None: ...
    def to_move(self) -> np.ndarray: ...


def mask_buffer(out: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray:
    """The array a batch's ``legal_mask`` fills: ``out`` (a bool array of ``shape``) cleared,
    or a new one."""
    if out is None:
        return np.zeros(shape, dtype=bool)
    if out.shape != shape or out.dtype != np.bool_:
        raise ValueError(f"out must be a bool array of shape {shape}")
    out[:] = False
    return out


def observation_buffer(out: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray:
    """The array a batch's ``observations`` writes: ``out`` checked (a C-contiguous float32
    array of ``shape``, left as it is), or a new one (not zeroed: the caller writes it)."""
    if out is None:
        return np.empty(shape, dtype=np.float32)
    if out.shape != shape or out.dtype != np.float32 or not out.flags.c_contiguous:
        raise ValueError(f"out must be a C-contiguous float32 array of shape {shape}")
    return out


class ContractBatch:
    """``n`` games of ``game`` with the same options, each a contract ``State``.

    >>> from sengoku.core.registry import load_game
    >>> batch = load_game("sashimono").batch()
    >>> obs = batch.reset(4, seed=1)
    >>> while not batch.done().all():
    ...     _ = batch.step(batch.random_actions())
    >>> batch.returns().shape
    (4, 2)

    A finished game stays finished (its action is ignored) until :meth:`reset` or
    :meth:`reset_game`. An illegal action raises :class:`~sengoku.core.game.IllegalAction` (a ``ValueError``) naming the game and changes
    nothing in the batch: every action is checked before any is played.
    """

    def __init__(self, game: Game, obs_size: int | None = None, **options: Any) -> None:
        self.game = game
        self.options = game.resolve_options(**options)
        self.encoder = encoder_for(game, self.options, obs_size)
        self.shape: tuple[int, ...] = tuple(self.encoder.shape)
        self.num_actions = game.num_distinct_actions(**self.options)
        self.num_players = game.new_state(seed=0, **self.options).num_players
        self.n = 0
        self._states: list[State] = []
        #: Per game: its legal integers, ascending (empty when over), kept until it moves.
        self._legal: list[list[int] | None] = []
        #: The mask legal_sparse keeps up to date, and the integers it set in each row.
        self._marked: np.ndarray | None = None
        self._marked_rows: list[list[int]] = []
        self._rng = random.Random(0)

    # ------------------------------------------------------------------ lifecycle
    def reset(self, n: int, seed: int = 0) -> np.ndarray:
        """Start ``n`` games (game ``i`` is ``new_state(seed=seed + i)``); their observations
        from the seat to act."""
        if n < 1:
            raise ValueError(f"a batch needs at least one game, not {n}")
        self.n = n
        self._rng = random.Random(seed)
        self._states = [self.game.new_state(seed=seed + i, **self.options) for i in range(n)]
        self._legal = [None] * n
        self._marked = None
        return self.observations()

    def reset_game(self, i: int, seed: int) -> None:
        """Start game ``i`` again as ``new_state(seed=seed)`` (the others go on)."""
        self._states[i] = self.game.new_state(seed=seed, **self.options)
        self._legal[i] = None

    def state(self, i: int) -> State:
        """Game ``i``'s contract state (read it; it is the batch's own)."""
        return self._states[i]

    # ------------------------------------------------------------------ queries
    def _ints(self, i: int) -> list[int]:
        """Game ``i``'s legal integers, ascending (empty when over), kept until it moves."""
        ints = self._legal[i]
        if ints is None:
            state = self._states[i]
            # A list of the batch's own (a game may hand out a list it keeps): legal_sparse
            # tells a game that moved by this list's identity.
            ints = [] if state.current_player == TERMINAL else [*self.game.legal_action_ints(state)]
            self._legal[i] = ints
        return ints

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """``(n, num_actions)`` bool, True where legal (a finished game's row is all False)."""
        mask = mask_buffer(out, (self.n, self.num_actions))
        for i in range(self.n):
            ints = self._ints(i)
            if ints:
                mask[i, ints] = True
        return mask

    def legal_sparse(self, out: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every game's legal integers, ascending, as ``(ints, offsets)`` (int64, new arrays):
        game ``i``'s are ``ints[offsets[i]:offsets[i + 1]]``; the sparse form of
        :meth:`legal_mask`. ``out`` (``(n, num_actions)`` int8 or bool, C-contiguous) is kept
        equal to the dense mask: given again (unchanged in between), only the rows of the
        games that moved are rewritten, at their old and new entries; another array is zeroed
        first."""
        lists = [self._ints(i) for i in range(self.n)]
        counts = np.fromiter(map(len, lists), dtype=np.int64, count=self.n)
        offsets = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        ints = np.fromiter(chain.from_iterable(lists), dtype=np.int64, count=int(offsets[-1]))
        if out is None:
            self._marked = None  # whatever mask was kept is no longer followed
        else:
            shape = (self.n, self.num_actions)
            if (
                out.shape != shape
                or out.dtype not in (np.int8, np.bool_)
                or not out.flags.c_contiguous
            ):
                raise ValueError(f"out must be a C-contiguous int8 or bool array of shape {shape}")
            dense = out.view(np.int8)
            if out is not self._marked or len(self._marked_rows) != self.n:
                dense.fill(0)
                self._marked = out
                self._marked_rows = [[] for _ in range(self.n)]
            rows = self._marked_rows
            for i, now in enumerate(lists):
                before = rows[i]
                if before is not now:  # the game moved or restarted: its list is a new one
                    row = dense[i]
                    if before:
                        row[before] = 0
                    if now:
                        row[now] = 1
                    rows[i] = now
        return ints, offsets

    def legal_actions(self, i: int) -> list[int]:
        """Game ``i``'s legal action integers, ascending."""
        return self._ints(i)[:]

    def to_move(self) -> np.ndarray:
        """``(n,)`` int64: the seat to act in each game (-1 when over)."""
        return np.array([s.current_player for s in self._states], dtype=np.int64)

    def done(self) -> np.ndarray:
        """``(n,)`` bool: which games are over."""
        return np.array([s.is_terminal() for s in self._states], dtype=bool)

    def returns(self) -> np.ndarray:
        """``(n, num_players)`` float32: the outcome's returns (0 while a game goes on)."""
        out = np.zeros((self.n, self.num_players), dtype=np.float32)
        for i, state in enumerate(self._states):
            result = state.outcome()
            if result is not None:
                out[i] = result.returns
        return out

    def outcome(self, i: int) -> Outcome | None:
        return self._states[i].outcome()

    def observations(
        self, seats: np.ndarray | None = None, out: np.ndarray | None = None, kept: bool = False
    ) -> np.ndarray:
        """``(n, *shape)`` float32: each game's view encoded from ``seats[i]`` (default: the
        seat to act; a finished game is seen from seat 0), into ``out`` when given (a
        C-contiguous float32 array of that shape, overwritten) or a new array. ``kept``
        (``out`` unchanged since the last call wrote it) changes nothing here: every game
        is encoded whole."""
        if seats is None:
            seats = np.maximum(self.to_move(), 0)
        out = observation_buffer(out, (self.n, *self.shape))
        out.fill(0.0)  # each game's encoding writes only its nonzero entries
        encoder = self.encoder
        for i, (state, seat) in enumerate(zip(self._states, seats.tolist(), strict=True)):
            encoder.encode_into(encoder.capture(state, seat), seat, out[i])
        return out

    # ------------------------------------------------------------------ stepping
    def step(self, actions: np.ndarray) -> np.ndarray:
        """Play ``actions[i]`` in game ``i`` (-1, or any action of a finished game: nothing
        happens). Returns :meth:`done`."""
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != (self.n,):
            raise ValueError(
                f"step takes one action per game: shape ({self.n},), not {actions.shape}"
            )
        chosen: list[tuple[int, int]] = []
        for i, number in enumerate(actions.tolist()):
            if number < 0 or self._states[i].is_terminal():
                continue
            legal = self._ints(i)
            k = bisect_left(legal, number)
            if k == len(legal) or legal[k] != number:
                raise IllegalAction(f"game {i}: action {number} is not legal there")
            chosen.append((i, number))
        game = self.game
        for i, number in chosen:
            state = self._states[i]
            state.apply(game.int_to_action(state, number))
            self._legal[i] = None
        return self.done()

    def random_actions(self) -> np.ndarray:
        """One uniformly random legal action per game (-1 for a finished game)."""
        out = np.full(self.n, -1, dtype=np.int64)
        choice = self._rng.choice
        for i in range(self.n):
            ints = self._ints(i)
            if ints:
                out[i] = choice(ints)
        return out


__all__ = ["ContractBatch", "GameBatch", "mask_buffer", "observation_buffer"]
