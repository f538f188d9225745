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

import functools
import random
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
    def legal_actions(self, i: int) -> list[int]: ...
    def step(self, actions: np.ndarray) -> np.ndarray: ...
    def random_actions(self) -> np.ndarray: ...
    def observations(self, seats: np.ndarray | None = None) -> np.ndarray: ...
    def done(self) -> np.ndarray: ...
    def returns(self) -> np.ndarray: ...
    def outcome(self, i: int) -> Outcome | None: ...
    def to_move(self) -> np.ndarray: ...


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
        self._legal: list[dict[int, Any] | None] = []
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
        return self.observations()

    def reset_game(self, i: int, seed: int) -> None:
        """Start game ``i`` again as ``new_state(seed=seed)`` (the others go on)."""
        self._states[i] = self.game.new_state(seed=seed, **self.options)
        self._legal[i] = None

    def state(self, i: int) -> State:
        """Game ``i``'s contract state (read it; it is the batch's own)."""
        return self._states[i]

    # ------------------------------------------------------------------ queries
    def _table(self, i: int) -> dict[int, Any]:
        """Game ``i``'s legal actions by integer (empty when over), kept until it moves."""
        table = self._legal[i]
        if table is None:
            state = self._states[i]
            if state.current_player == TERMINAL:
                table = {}
            else:
                to_int = functools.partial(self.game.action_to_int, state)
                table = {to_int(a): a for a in state.legal_actions()}
            self._legal[i] = table
        return table

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """``(n, num_actions)`` bool, True where legal (a finished game's row is all False)."""
        shape = (self.n, self.num_actions)
        if out is None:
            mask = np.zeros(shape, dtype=bool)
        else:
            if out.shape != shape or out.dtype != np.bool_:
                raise ValueError(f"out must be a bool array of shape {shape}")
            mask = out
            mask[:] = False
        for i in range(self.n):
            ints = list(self._table(i))
            if ints:
                mask[i, ints] = True
        return mask

    def legal_actions(self, i: int) -> list[int]:
        """Game ``i``'s legal action integers, ascending."""
        return sorted(self._table(i))

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

    def observations(self, seats: np.ndarray | None = None) -> np.ndarray:
        """``(n, *shape)`` float32: each game's view encoded from ``seats[i]`` (default: the
        seat to act; a finished game is seen from seat 0)."""
        if seats is None:
            seats = np.maximum(self.to_move(), 0)
        out = np.zeros((self.n, *self.shape), dtype=np.float32)
        for i, state in enumerate(self._states):
            seat = int(seats[i])
            self.encoder.encode_into(state.view(seat), seat, out[i])
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
        chosen: list[tuple[int, Any]] = []
        for i, number in enumerate(actions.tolist()):
            if number < 0 or self._states[i].is_terminal():
                continue
            action = self._table(i).get(number)
            if action is None:
                raise IllegalAction(f"game {i}: action {number} is not legal there")
            chosen.append((i, action))
        for i, action in chosen:
            self._states[i].apply(action)
            self._legal[i] = None
        return self.done()

    def random_actions(self) -> np.ndarray:
        """One uniformly random legal action per game (-1 for a finished game)."""
        out = np.full(self.n, -1, dtype=np.int64)
        for i in range(self.n):
            ints = list(self._table(i))
            if ints:
                out[i] = self._rng.choice(ints)
        return out


__all__ = ["ContractBatch", "GameBatch"]
