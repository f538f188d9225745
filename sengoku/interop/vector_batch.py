"""The contract batch as :class:`~sengoku.interop.vector.VectorEnv` steps it (every game but
Gungi, whose batch is native).

:class:`VectorBatch` is :class:`~sengoku.core.batch.ContractBatch` with the same numbers
(masks, sparse lists, observations, outcomes, random draws) and less work per step:

* its states are muted (``State.mute``): a ply builds no events (the sentences of a Gunshi
  or Sashimono ply are a third of it), which the environment would drop unread;
* each game keeps its legal actions beside their integers (the contract lists both in the
  same order), so the action played is the one listed, found by a binary search of the
  integers, not rebuilt by ``int_to_action``;
* the kept mask is rewritten in two numpy writes for the whole batch (the entries set last
  time cleared, the new ones set), not row by row;
* observations are rewritten per seat, only where they changed (see
  :meth:`VectorBatch.observations`);
* the environment's step is one pass over the games (:meth:`VectorBatch.step_and_observe`):
  each game is stepped, restarted if it ended, listed and observed in one go, while its data
  are in the cache.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable
from itertools import chain
from typing import Any

import numpy as np

from sengoku.core.batch import ContractBatch, observation_buffer
from sengoku.core.game import TERMINAL, Action, Game, IllegalAction, Outcome, State
from sengoku.interop.encoders import capturer_of


class VectorBatch(ContractBatch):
    """``n`` games of ``game`` (not Gungi's native batch), stepped for a ``VectorEnv``."""

    def __init__(self, game: Game, obs_size: int | None = None, **options: Any) -> None:
        super().__init__(game, obs_size, **options)
        #: Per game: its legal actions, in the order of its legal integers (None: not made).
        self._actions: list[list[Action] | None] = []
        #: The game's integers of a legal list: its own ``legal_action_ints`` where it has
        #: one (Gunkimono's stored integers), else ``action_int`` mapped over the actions
        #: (Gunshi's), else ``action_to_int`` of each.
        self._own_ints = type(game).legal_action_ints is not Game.legal_action_ints
        self._action_int: Callable[[Action], int] | None = game.action_int
        #: Flat indices (``game * num_actions + action``) legal_sparse set in the kept mask.
        self._marked_keys: np.ndarray = np.zeros(0, dtype=np.intp)
        #: Each game's capture (the encoder's ``capturer``, which reuses parts of its own
        #: last snapshots of that game: Gunshi's), made with the games.
        self._captures: list[Callable[[State, int | None], Any]] = []
        #: The encoder's ``encode_changed`` (Gunshi's, Gunkimono's, Sashimono's), or None:
        #: then every observation is encoded whole. One encoder for every game (32 encoders,
        #: one a game, measured slower: their tables crowd the caches).
        self._encode_changed: Callable[[Any, int | None, np.ndarray, list[Any]], Any] | None = (
            getattr(self.encoder, "encode_changed", None)
        )
        #: ``(n, num_players, *shape)``: each game's last observation from each seat, kept
        #: up to date block by block (``encode_changed``), and what each was written from.
        self._seat_rows = np.zeros((0, self.num_players, *self.shape), np.float32)
        self._seat_parts: list[list[list[Any]]] = []
        #: The array of the last ``kept`` observations, whose row ``i`` is the row of seat
        #: ``_in_place_seats[i]`` of game ``i`` (-1: none yet), kept there instead.
        self._in_place: np.ndarray | None = None
        self._in_place_seats: list[int] = []
        #: Made once per array (numpy's indexing makes a view each call, about a
        #: microsecond with the copy): each game's row of ``_in_place`` as an array and as
        #: a flat memoryview, and each game's seat rows alike (rows are moved between the
        #: two by memoryview slices, a plain copy).
        self._in_place_rows: list[np.ndarray] = []
        self._in_place_views: list[Any] = []
        self._seat_arrays: list[list[np.ndarray]] = []
        self._seat_views: list[list[Any]] = []

    # ------------------------------------------------------------------ lifecycle
    def _new_state(self, seed: int) -> State:
        state = self.game.new_state(seed=seed, **self.options)
        state.mute()  # the environment reads no events: none are told
        return state

    def reset(self, n: int, seed: int = 0) -> np.ndarray:
        if n < 1:
            raise ValueError(f"a batch needs at least one game, not {n}")
        self.n = n
        self._rng = random.Random(seed)
        self._states = [self._new_state(seed + i) for i in range(n)]
        self._legal = [None] * n
        self._actions = [None] * n
        self._marked = None
        self._captures = [capturer_of(self.encoder) for _ in range(n)]
        self._put_aside()
        if self._encode_changed is not None and len(self._seat_rows) != n:
            self._seat_rows = np.zeros((n, self.num_players, *self.shape), np.float32)
            self._seat_parts = [[[] for _ in range(self.num_players)] for _ in range(n)]
            self._seat_arrays = [list(game) for game in self._seat_rows]
            self._seat_views = [[_flat_view(row) for row in game] for game in self._seat_arrays]
        return self.observations()

    def reset_game(self, i: int, seed: int) -> None:
        self._states[i] = self._new_state(seed)
        self._legal[i] = None
        self._actions[i] = None

    # ------------------------------------------------------------------ queries
    def _ints(self, i: int) -> list[int]:
        ints = self._legal[i]
        if ints is None:
            state = self._states[i]
            if state.current_player == TERMINAL:
                actions: list[Action] = []
                ints = []
            else:
                actions = state.legal_actions()
                if self._own_ints:
                    # A new list each call (Gunkimono's): the batch never changes it.
                    ints = self.game.legal_action_ints(state)
                elif self._action_int is not None:
                    ints = list(map(self._action_int, actions))
                else:
                    to_int = self.game.action_to_int
                    ints = [to_int(state, action) for action in actions]
            self._legal[i] = ints
            self._actions[i] = actions
        return ints

    def legal_sparse(self, out: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        lists = [self._ints(i) for i in range(self.n)]
        counts = np.fromiter(map(len, lists), dtype=np.int64, count=self.n)
        offsets = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        ints = np.fromiter(chain.from_iterable(lists), dtype=np.int64, count=int(offsets[-1]))
        if out is None:
            self._marked = None  # whatever mask was kept is no longer followed
            return ints, offsets
        shape = (self.n, self.num_actions)
        if out.shape != shape or out.dtype not in (np.int8, np.bool_) or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous int8 or bool array of shape {shape}")
        flat = out.view(np.int8).reshape(-1)
        if out is not self._marked:
            flat.fill(0)
            self._marked = out
        else:
            # The whole batch at once: the entries set last time cleared, the new ones set
            # (a game that did not move gets its own entries back).
            flat[self._marked_keys] = 0
        rows = np.repeat(np.arange(self.n, dtype=np.intp), counts)
        keys = rows * self.num_actions + ints
        flat[keys] = 1
        self._marked_keys = keys
        return ints, offsets

    def observations(
        self, seats: np.ndarray | None = None, out: np.ndarray | None = None, kept: bool = False
    ) -> np.ndarray:
        """``ContractBatch.observations``'s arrays, made per seat: each game keeps one row
        per seat, holding that seat's last observation of the game, and the encoder's
        ``encode_changed`` rewrites only the blocks of it whose part of the snapshot changed
        since (a Gunshi ply moves a unit or a card: the other side's block, the Fences,
        often the Field stay). A restarted game needs nothing: its parts differ, and are
        written.

        With ``kept`` (``out`` is the array of the previous ``kept`` call, unchanged since:
        the environment's buffer without copies), ``out``'s row of a game is its seat's own
        row while that seat acts again (most plies: a turn is several decisions): the blocks
        are rewritten there, and rows are copied only when the seat to act changes (the
        last seat's row put aside, the new one's brought in). Otherwise the seats' rows are
        written and copied into ``out`` in one gather."""
        if self._encode_changed is None:
            return super().observations(seats, out, kept)
        if seats is None:
            seats = np.maximum(self.to_move(), 0)
        out = self._observing(out, kept)
        observe = self._observe_game
        for i, (state, seat) in enumerate(zip(self._states, seats.tolist(), strict=True)):
            observe(i, state, seat, out, kept)
        self._observed(seats, out, kept)
        return out

    def _observing(self, out: np.ndarray | None, kept: bool) -> np.ndarray:
        """``out`` checked (or a new array), and taken up as the array whose rows are the
        seats' own (``kept``) or let go."""
        out = observation_buffer(out, (self.n, *self.shape))  # every row is copied in
        if not kept or out is not self._in_place:
            self._put_aside()
        if kept and out is not self._in_place:
            self._in_place = out  # adopted: no row of it is a seat's yet
            self._in_place_seats = [-1] * self.n
            self._in_place_rows = list(out)
            self._in_place_views = [_flat_view(row) for row in self._in_place_rows]
        return out

    def _observe_game(self, i: int, state: State, seat: int, out: np.ndarray, kept: bool) -> None:
        """Game ``i``'s observation from ``seat``: in ``out``'s row (``kept``) or its seat's."""
        encode_changed = self._encode_changed
        assert encode_changed is not None
        if kept:
            row = self._in_place_rows[i]
            held = self._in_place_seats
            before = held[i]
            if before != seat:
                here = self._in_place_views[i]
                seat_views = self._seat_views[i]
                if before >= 0:
                    seat_views[before][:] = here
                here[:] = seat_views[seat]
                held[i] = seat
        else:
            row = self._seat_arrays[i][seat]
        encode_changed(self._captures[i](state, seat), seat, row, self._seat_parts[i][seat])

    def _observed(self, seats: np.ndarray, out: np.ndarray, kept: bool) -> None:
        """Without ``kept``, the seats' rows copied into ``out`` in one gather."""
        if kept:
            return
        players = self.num_players
        np.take(
            self._seat_rows.reshape(self.n * players, -1),
            np.arange(self.n, dtype=np.intp) * players + seats,
            axis=0,
            out=out.reshape(self.n, -1),
        )

    def _put_aside(self) -> None:
        """The seats' rows held in the ``kept`` array copied back to their own rows; the
        array is no longer followed (a caller may write it, or pass another)."""
        if self._in_place is None:
            return
        games = [i for i, seat in enumerate(self._in_place_seats) if seat >= 0]
        if games:
            held = [self._in_place_seats[i] for i in games]
            self._seat_rows[games, held] = self._in_place[games]
        self._in_place = None
        self._in_place_seats = []
        self._in_place_rows = []
        self._in_place_views = []

    # ------------------------------------------------------------------ stepping
    def _chosen(self, actions: np.ndarray) -> list[int]:
        """Each game's action's position in its legal list (-1: none played), every action
        checked before any is played."""
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != (self.n,):
            raise ValueError(
                f"step takes one action per game: shape ({self.n},), not {actions.shape}"
            )
        chosen = [-1] * self.n
        for i, number in enumerate(actions.tolist()):
            if number < 0:
                continue
            legal = self._ints(i)
            if not legal:  # finished
                continue
            k = bisect_left(legal, number)
            if k == len(legal) or legal[k] != number:
                raise IllegalAction(f"game {i}: action {number} is not legal there")
            chosen[i] = k
        return chosen

    def step(self, actions: np.ndarray) -> np.ndarray:
        """Play ``actions[i]`` in game ``i`` (-1, or any action of a finished game: nothing
        happens); every action is checked before any is played. Returns :meth:`done`."""
        chosen = self._chosen(actions)
        states, listed, legal_lists = self._states, self._actions, self._legal
        for i, k in enumerate(chosen):
            if k >= 0:
                actions_i = listed[i]
                assert actions_i is not None  # made with the integers
                states[i].apply(actions_i[k])
                legal_lists[i] = None
                listed[i] = None
        return self.done()

    def step_and_observe(
        self,
        actions: np.ndarray,
        ended: Callable[[int, Outcome], int | None],
        out: np.ndarray | None,
        kept: bool,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`step`, then :meth:`observations` from each game's seat to act, one game at
        a time (its state, legal list and snapshot read while they are in the cache: as
        separate passes over the batch, each pass found every game cold). A game that ends
        is told to ``ended(i, outcome)`` (in the order of the games), which returns the seed
        to start it again with, or None to leave it finished. Returns the seats to act
        (-1 once over) and the observations (``out``, or a new array)."""
        chosen = self._chosen(actions)
        out = self._observing(out, kept)
        encode_changed = self._encode_changed
        assert encode_changed is not None  # the three games' encoders have it
        states, listed, legal_lists = self._states, self._actions, self._legal
        ints_of, captures, parts = self._ints, self._captures, self._seat_parts
        # ``_observe_game`` written out in the loop (a method call and its reads a game
        # cost about a tenth of a Gunshi ply here); the seats gathered in lists, made arrays
        # once (numpy's item writes cost more).
        rows, views, held = self._in_place_rows, self._in_place_views, self._in_place_seats
        seat_arrays, seat_views = self._seat_arrays, self._seat_views
        agent: list[int] = []
        seats: list[int] = []
        for i, k in enumerate(chosen):
            state = states[i]
            if k >= 0:
                actions_i = listed[i]
                assert actions_i is not None  # made with the integers
                state.apply(actions_i[k])
                legal_lists[i] = None
                listed[i] = None
                result = state.outcome()
                if result is not None:
                    seed = ended(i, result)
                    if seed is not None:
                        self.reset_game(i, seed)
                        state = states[i]
            ints_of(i)  # the next step's legal list, made now
            seat = state.current_player
            agent.append(seat)
            seen = seat if seat >= 0 else 0  # a finished game is seen from seat 0
            seats.append(seen)
            if kept:  # the row of ``out`` is the seat's own (see ``_observe_game``)
                before = held[i]
                if before != seen:
                    here, own = views[i], seat_views[i]
                    if before >= 0:
                        own[before][:] = here
                    here[:] = own[seen]
                    held[i] = seen
                row = rows[i]
            else:
                row = seat_arrays[i][seen]
            encode_changed(captures[i](state, seen), seen, row, parts[i][seen])
        self._observed(np.array(seats, np.intp), out, kept)
        return np.array(agent, np.int64), out


def _flat_view(row: np.ndarray) -> Any:
    """A flat memoryview of a C-contiguous row (a memoryview slice copies only in one
    dimension)."""
    return row.reshape(-1).data


__all__ = ["VectorBatch"]
