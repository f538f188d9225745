"""N games of a contract game stepped at once in its native core (Gunkimono's, Gunshi's,
Sashimono's): the batch contract of :mod:`sengoku.core.batch` with ``ContractBatch``'s
numbers, action for action.

Each game's ``batch.py`` makes a :class:`CoreBatch` of its core's ``Batch`` (``n`` matches:
``deal``, ``step``, ``legal_sparse`` with a kept mask, ``observations``, ``status``,
``returns``, outcomes, ``pick`` for the random draws), its encoder and its player count, and
says how the core deals a game from a seed (:meth:`CoreBatch._deal`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from sengoku.core.batch import mask_buffer, observation_buffer
from sengoku.core.game import Game, IllegalAction, Outcome, State
from sengoku.core.observation import Encoder
from sengoku.core.python_random import seed_key


class CoreBatch:
    """``n`` games of ``game`` with ``options`` (resolved), stepped together in the game's
    native core (``batch``: the core's ``Batch``)."""

    def __init__(
        self,
        game: Game,
        options: dict[str, Any],
        batch: Any,
        encoder: Encoder,
        num_players: int,
    ) -> None:
        self.game = game
        self.options = options
        self.encoder = encoder
        self.shape: tuple[int, ...] = tuple(encoder.shape)
        self.num_actions: int = game.num_distinct_actions(**options)
        self.num_players = num_players
        self._batch: Any = batch
        self.n = 0
        self._rng = random.Random(0)

    def _deal(self, seeds: list[int]) -> None:
        """Deal one game a seed, as ``new_state(seed=...)`` deals (the core takes each
        seed's words, and the seed itself: Gunshi's records name it)."""
        self._batch.deal([seed_key(seed) for seed in seeds], seeds)

    def _deal_game(self, i: int, seed: int) -> None:
        """Deal game ``i`` again from ``seed``."""
        self._batch.deal_game(i, seed_key(seed), seed)

    # ------------------------------------------------------------------ lifecycle
    def reset(self, n: int, seed: int = 0) -> np.ndarray:
        """Start ``n`` games (game ``i`` is ``new_state(seed=seed + i)``, dealt by the core);
        their observations from the seat to act."""
        if n < 1:
            raise ValueError(f"a batch needs at least one game, not {n}")
        self.n = n
        self._rng = random.Random(seed)
        self._deal([seed + i for i in range(n)])
        return self.observations()

    def reset_game(self, i: int, seed: int) -> None:
        """Start game ``i`` again as ``new_state(seed=seed)`` (the others go on)."""
        self._deal_game(i, seed)

    def load(self, states: Sequence[State]) -> None:
        """Hold these positions (copies: the states are not changed), one game each, in
        place of the games held (a batch of ``len(states)`` games; the draws of
        :meth:`random_actions` go on)."""
        if not states:
            raise ValueError("a batch needs at least one game, not 0")
        for state in states:
            if dict(state.options) != dict(self.options):
                raise ValueError(f"a state of other options: {state.options}, not {self.options}")
        self._batch.reset([state.to_json() for state in states])
        self.n = len(states)

    def state(self, i: int) -> State:
        """Game ``i``'s position as a contract state (a copy: playing it changes nothing
        here)."""
        return self.game.state_from_json(self._batch.match(i).to_json())

    # ------------------------------------------------------------------ queries
    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """``(n, num_actions)`` bool, True where legal (a finished game's row is all False)."""
        mask = mask_buffer(out, (self.n, self.num_actions))
        ints, offsets = self._batch.legal_sparse(None)
        rows = np.repeat(np.arange(self.n, dtype=np.int64), np.diff(offsets))
        mask[rows, ints] = True
        return mask

    def legal_sparse(self, out: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every game's legal integers, ascending, as ``(ints, offsets)`` (int64, new arrays):
        game ``i``'s are ``ints[offsets[i]:offsets[i + 1]]``. ``out`` (``(n, num_actions)``
        int8 or bool, C-contiguous) is kept equal to the dense mask: given again (unchanged
        in between), only the rows of the games that changed are rewritten; another array
        is zeroed first."""
        ints, offsets = self._batch.legal_sparse(out)
        return ints, offsets

    def legal_actions(self, i: int) -> list[int]:
        """Game ``i``'s legal action integers, ascending (empty once over)."""
        ints: list[int] = self._batch.legal_ints(i)
        return ints

    def status(self) -> np.ndarray:
        """``(n, 2)`` int64: the seat to act (-1 once over) and whether the game is over."""
        status: np.ndarray = self._batch.status()
        return status

    def to_move(self) -> np.ndarray:
        """``(n,)`` int64: the seat to act in each game (-1 when over)."""
        seats: np.ndarray = self.status()[:, 0].copy()
        return seats

    def done(self) -> np.ndarray:
        """``(n,)`` bool: which games are over."""
        over: np.ndarray = self.status()[:, 1].astype(bool)
        return over

    def returns(self) -> np.ndarray:
        """``(n, num_players)`` float32: the outcome's returns (0 while a game goes on)."""
        returns: np.ndarray = self._batch.returns()
        return returns

    def outcome(self, i: int) -> Outcome | None:
        """Game ``i``'s outcome (None while it goes on)."""
        data = self._batch.outcome(i)
        return None if data is None else Outcome.from_json(data)

    def observations(
        self, seats: np.ndarray | None = None, out: np.ndarray | None = None, kept: bool = False
    ) -> np.ndarray:
        """``(n, *shape)`` float32: each game's view encoded from ``seats[i]`` (default: the
        seat to act; a finished game is seen from seat 0), into ``out`` when given (a
        C-contiguous float32 array of that shape, overwritten) or a new array. ``kept``
        changes nothing here: every game is encoded whole."""
        if seats is None:
            seats = np.maximum(self.to_move(), 0)
        seats = np.ascontiguousarray(seats, dtype=np.int64)
        out = observation_buffer(out, (self.n, *self.shape))  # every entry is written
        self._batch.observations(seats, out.reshape(self.n, -1))
        return out

    # ------------------------------------------------------------------ stepping
    def first_illegal(self, actions: np.ndarray) -> int:
        """The first live game whose action (not -1) is not legal there; -1: none."""
        first: int = self._batch.first_illegal(np.ascontiguousarray(actions, dtype=np.int64))
        return first

    def step(self, actions: np.ndarray) -> np.ndarray:
        """Play ``actions[i]`` in game ``i`` (-1, or any action of a finished game: nothing
        happens). Returns :meth:`done`."""
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.n,):
            raise ValueError(
                f"step takes one action per game: shape ({self.n},), not {actions.shape}"
            )
        first: int = self._batch.step(actions)  # every action looked up before any moves
        if first >= 0:
            raise IllegalAction(f"game {first}: action {int(actions[first])} is not legal there")
        return self.done()

    def random_actions(self) -> np.ndarray:
        """One uniformly random legal action per game (-1 for a finished game): the draws
        of ``ContractBatch.random_actions`` (the same generator, seeded by ``reset``:
        ``choice`` of a list draws the index ``choice`` of a range of its length draws)."""
        choice = self._rng.choice
        picks = [
            choice(range(count)) if count else -1 for count in self._batch.legal_counts().tolist()
        ]
        actions: np.ndarray = self._batch.pick(np.array(picks, dtype=np.int64))
        return actions


__all__ = ["CoreBatch"]
