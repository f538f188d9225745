"""Many games of one Sengoku game as one batched environment, for self-play at scale.

>>> from sengoku.interop.vector import VectorEnv
>>> env = VectorEnv("gungi", num_envs=8, mode="intro")
>>> obs = env.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape
((8, 120, 9, 9), (8, 57025))
>>> obs, rewards, terminations, truncations, infos = env.step(env.sample_actions())
>>> rewards.shape
(8, 2)

Each step takes one action per game, from the seat to act in that game (``obs["agent"]``):
the same contract integers, masks and encoders as the PettingZoo environments
(:mod:`sengoku.interop.pettingzoo`), so an agent trained on one plays the other. Games are
stepped by ``Game.batch`` (:mod:`sengoku.core.batch`): each game's live in its native core
when it is built (Gungi's ``GungiBatch``, Gunkimono's, Gunshi's and Sashimono's batches);
without the cores (a pure-Python build) the games step through the contract, in the
environment's own :class:`~sengoku.interop.vector_batch.VectorBatch` (muted states, kept
legal actions, observations rewritten per seat where they changed: the same numbers as
``ContractBatch``).

* ``rewards[i]`` is game ``i``'s outcome returns (one per seat) on the step it ends, else 0.
* ``terminations[i]`` / ``truncations[i]``: game ``i`` ended on this step by the rules, or by
  the contract's length guard (``length_limit``); ``infos["outcome"][i]`` holds the outcome's
  JSON (None for games that go on).
* With ``autoreset`` (the default) a game that ended starts again at once, so the returned
  observation is already the new game's first; ``reset(seed=s)`` makes the whole sequence of
  games reproducible. Without it, a finished game keeps its final position and its mask is
  all zeros; the actions given for it are ignored.
* An illegal action raises :class:`~sengoku.core.game.IllegalAction` naming the game and
  plays nothing.
* The legal actions come twice: densely, ``obs["action_mask"]`` (``(num_envs,
  num_actions)`` int8), and sparsely, as OpenSpiel's ``legal_actions`` lists them:
  ``obs["legal_actions"]`` (int64, every game's legal integers ascending, one game after
  another) and ``obs["legal_offsets"]`` (``num_envs + 1``): game ``i``'s are
  ``legal_actions[legal_offsets[i]:legal_offsets[i + 1]]`` (:meth:`VectorEnv.legal_actions`),
  the nonzero entries of its mask row, in order.

Buffers: the environment keeps one mask and one observation array and rewrites them in
place on every step (the mask only where it changed: a step changes a few hundred of a row's
57025 Gungi entries; Gungi's observations too, only the planes' entries that changed, with
``copy=False``; there a step is one call of Gungi's native core, which checks the
actions, steps every game, restarts the finished ones, writes their mask rows and planes in
one pass and makes the seats, rewards and endings: ``GungiBatch.env_stepper``; from
:data:`SPARE_PAIR_FROM` games on, where one pair of buffers outgrows the processor's
last-level cache (:data:`SPARE_PAIR_PAST`), it keeps a second mask and observation array
and writes the two pairs in turn, each where it changed since two plies before: the same
side's moves and the same seat's planes, a tenth of the entries). With
``copy=True`` (the default, as Gymnasium's vector environments)
``reset`` and ``step`` hand out new arrays instead (written directly, not copied from the
buffers), which the caller may keep and change. With
``copy=False`` they hand out read-only views of the buffers themselves (no copy of the 25 MB
of 256 Gungi games): valid until the next ``step`` or ``reset``, which may overwrite them
(with two pairs, the step after next does); copy what must outlive that. Everything else returned (``agent``, the sparse legal actions,
rewards, terminations, truncations, infos) is new on every call in either mode.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, cast

import numpy as np

from sengoku.core.batch import ContractBatch
from sengoku.core.game import IllegalAction, Outcome
from sengoku.core.registry import load_game
from sengoku.interop.vector_batch import VectorBatch


class _OnePassBatch(Protocol):
    """A batch that steps, restarts and writes the kept mask and observations in one pass
    (Gungi's: ``GungiBatch.step_observed``)."""

    def fuses_steps(self, restart: bool) -> bool: ...
    def first_illegal(self, actions: np.ndarray) -> int: ...
    def step_observed(
        self,
        actions: np.ndarray,
        mask: np.ndarray,
        out: np.ndarray,
        restart: bool,
        strict: bool = False,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def status(self) -> np.ndarray: ...
    def outcome_of(self, outcome: int, reason: int) -> Outcome: ...
    def env_stepper(
        self,
        mask: np.ndarray,
        out: np.ndarray,
        restart: bool,
        spare: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> Callable[[np.ndarray], _EnvStep] | None: ...


#: A one-pass batch's step of the environment (Gungi's: ``GungiBatch.env_stepper``): the
#: sparse lists, seats to act, rewards, terminations, truncations, ``(i, outcome, reason)``
#: of each game that ended, and the pair of buffers written (0: the pair bound first, 1:
#: the spare).
_EnvStep = tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    tuple[tuple[int, int, int], ...],
    int,
]


#: From how many games a one-call step (Gungi's native core, ``copy=False``) may write two
#: pairs of buffers in turn (``GungiBatch.env_stepper``'s ``spare``): each game's rows then
#: change only where its last two plies changed them, about a tenth of the cache lines, but
#: the comparison costs more than it saves while a batch's buffers stay in the processor's
#: second-level cache. Measured (docs/interop.md, *Speed*, sixteenth part), plies a second
#: with two pairs over one: 32 games 0.95, 64 0.98, 128 1.25, 256 1.23.
SPARE_PAIR_FROM = 128


#: The units of a cache's size in Linux's description ("32768K").
_SIZE_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def last_level_cache_bytes(root: Path = Path("/sys/devices/system/cpu/cpu0/cache")) -> int | None:
    """The size of the processor's last-level cache (its highest level holding data), as
    Linux describes it under ``root``; None where it does not say."""
    best: tuple[int, int] | None = None
    for index in root.glob("index*"):
        try:
            level = int((index / "level").read_text())
            kind = (index / "type").read_text().strip()
            size = (index / "size").read_text().strip()
        except (OSError, ValueError):
            continue
        if kind == "Instruction" or not size[:-1].isdigit() or size[-1:] not in _SIZE_UNITS:
            continue
        if best is None or level > best[0]:
            best = (level, int(size[:-1]) * _SIZE_UNITS[size[-1]])
    return None if best is None else best[1]


#: The bytes one pair of buffers may hold and still be written alone from
#: :data:`SPARE_PAIR_FROM` games on: the last-level cache (None: unknown, two pairs). While
#: a pair fits there, its rows are in the cache at the next step and one pair is faster;
#: two pairs, twice the bytes, do not fit. Measured on a processor with 32 MB (docs/
#: interop.md, *Speed*, twenty-fifth part), plies a second with one pair over two, medians
#: of ten alternations: 128 games (12 MB a pair) 1.00, 256 (25 MB) 1.09, 512 (49 MB) 0.88.
SPARE_PAIR_PAST: int | None = last_level_cache_bytes()


def wants_spare_pair(num_envs: int, pair_bytes: int) -> bool:
    """Whether a one-call step of ``num_envs`` games, each pair of buffers ``pair_bytes``
    long, writes two pairs in turn (see :data:`SPARE_PAIR_PAST`)."""
    if num_envs < SPARE_PAIR_FROM:
        return False
    return SPARE_PAIR_PAST is None or pair_bytes > SPARE_PAIR_PAST


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


class VectorEnv:
    """``num_envs`` games of ``game`` with ``options``, stepped together."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        autoreset: bool = True,
        copy: bool = True,
        **options: Any,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.game = load_game(game)
        self.options = self.game.resolve_options(**options)
        batch = self.game.batch(**self.options)
        if type(batch) is ContractBatch:
            # The same numbers with less work a step (muted states, kept legal actions, the
            # mask in two writes, observations per seat): sengoku/interop/vector_batch.py.
            batch = VectorBatch(self.game, **self.options)
        self.batch = batch
        #: The batch again where it can step in one pass (see ``_step_observed``).
        self._one_pass = (
            cast(_OnePassBatch, self.batch) if hasattr(self.batch, "step_observed") else None
        )
        self.num_envs = num_envs
        self.autoreset = autoreset
        #: Whether ``reset`` and ``step`` hand out new observation and mask arrays (True) or
        #: read-only views of the kept buffers, valid until the next call (False).
        self.copy = copy
        self.num_actions = self.batch.num_actions
        self.num_players = self.batch.num_players
        self.observation_shape = tuple(self.batch.shape)
        self._seeds = np.random.default_rng(0)
        # The buffers every step rewrites: the mask is kept up to date entry by entry
        # (legal_sparse writes only what changed), the observations in place.
        self._mask = np.zeros((num_envs, self.num_actions), dtype=np.int8)
        self._observations = np.zeros((num_envs, *self.observation_shape), dtype=np.float32)
        self._mask_view = _read_only(self._mask)
        self._observations_view = _read_only(self._observations)
        #: The second pair of buffers of a one-call step (made with its first binding): the
        #: step writes the two pairs in turn, so each pair's rows are a game's mask and
        #: planes of two plies before, from the same seat (few entries differ), where the
        #: last ply's are the other seat's (most differ). ``_mask`` and ``_observations``
        #: always name the pair written last.
        self._spare: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        #: The pairs as the stepper was bound: (mask, observations, their read-only views).
        self._bound: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self._agent = np.full(num_envs, -1, dtype=np.int64)
        #: ``game * num_actions + action`` of every legal action now, ascending: the legality
        #: check of ``step`` after a step with copies (the caller's copies of the mask may
        #: have been changed); None after a step without: the kept mask is the check then.
        self._keys: np.ndarray | None = np.zeros(0, dtype=np.int64)
        self._started = False
        #: Whether ``_observations`` holds the planes the batch last wrote there.
        self._observed = False
        #: The Sengoku seed each game was started with (``new_state(seed=...)``): a game can
        #: be rebuilt outside the batch and replayed.
        self.game_seeds = np.zeros(num_envs, dtype=np.int64)
        #: The one-pass batch's step bound to the kept buffers (``copy=False``), from the
        #: first observation after each ``reset`` on: a step is then one native call.
        self._stepper: Callable[[np.ndarray], _EnvStep] | None = None
        #: The Outcome of each (outcome, reason) pair a one-pass batch reports (made once).
        self._outcomes: dict[tuple[int, int], Outcome] = {}

    def reset(self, seed: int | None = None) -> dict[str, np.ndarray]:
        """Start every game; ``seed`` fixes their seeds and those of the games that follow."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        first = int(self._seeds.integers(2**31))
        self._stepper = None  # bound to the batch's games, which reset makes anew
        self.batch.reset(self.num_envs, seed=first)
        self.game_seeds = np.arange(first, first + self.num_envs, dtype=np.int64)
        self._started = True
        return self._observe()

    def _observe(
        self, agent: np.ndarray | None = None, written: np.ndarray | None = None
    ) -> dict[str, np.ndarray]:
        """The observation dict; ``agent`` and ``written`` (the observations, already
        written: into the kept buffer without copies) where the batch stepped and observed
        in one pass."""
        batch = self.batch
        if agent is None:
            agent = np.where(batch.done(), -1, batch.to_move()).astype(np.int64)
        self._agent = agent
        seats = np.maximum(agent, 0)
        if self.copy:
            # New arrays written directly (cheaper than filling the buffers and copying them):
            # the observations by the batch, the mask from the sparse lists.
            ints, offsets = batch.legal_sparse(None)
            keys = self._keys_of(ints, offsets)
            if written is None:
                written = batch.observations(
                    seats, out=np.empty((self.num_envs, *self.observation_shape), np.float32)
                )
            observation = written
            mask = np.zeros((self.num_envs, self.num_actions), dtype=np.int8)
            mask.reshape(-1)[keys] = 1
        else:
            ints, offsets = batch.legal_sparse(self._mask)
            # The kept mask is the next step's legality check (handed out read-only): no
            # list of keys to build.
            keys = None
            # The buffer holds the last step's planes (handed out read-only): only what
            # changed is written.
            if written is None:
                batch.observations(seats, out=self._observations, kept=self._observed)
                self._observed = True
            one_pass = self._one_pass
            if self._stepper is None and one_pass and one_pass.fuses_steps(self.autoreset):
                self._bind(one_pass)
            observation, mask = self._observations_view, self._mask_view
        self._keys = keys
        return {
            "observation": observation,
            "action_mask": mask,
            "agent": agent.copy(),
            "legal_actions": ints,
            "legal_offsets": offsets,
        }

    def _bind(self, one_pass: _OnePassBatch) -> None:
        """Bind the one-pass batch's step to the kept buffers, and to a spare pair where
        :func:`wants_spare_pair` says (a large batch whose pair outgrows the cache)."""
        current = (self._mask, self._observations, self._mask_view, self._observations_view)
        if not wants_spare_pair(self.num_envs, self._mask.nbytes + self._observations.nbytes):
            self._stepper = one_pass.env_stepper(self._mask, self._observations, self.autoreset)
            self._bound = [current]
            return
        spare = self._spare
        if spare is None:
            mask = np.zeros_like(self._mask)
            observations = np.zeros_like(self._observations)
            spare = self._spare = (mask, observations, _read_only(mask), _read_only(observations))
        self._stepper = one_pass.env_stepper(
            self._mask, self._observations, self.autoreset, spare=(spare[0], spare[1])
        )
        self._bound = [current, spare]

    def _kept(self, agent: np.ndarray, ints: np.ndarray, offsets: np.ndarray) -> dict[str, Any]:
        """A native step's observation: the kept buffers (handed out read-only), the kept
        mask being the next step's legality check."""
        self._keys = None
        return {
            "observation": self._observations_view,
            "action_mask": self._mask_view,
            "agent": agent.copy(),
            "legal_actions": ints,
            "legal_offsets": offsets,
        }

    def _keys_of(self, ints: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """The flat mask index of every legal action (ascending, as the lists are)."""
        rows = np.repeat(np.arange(self.num_envs, dtype=np.int64), np.diff(offsets))
        keys: np.ndarray = rows * self.num_actions + ints
        return keys

    def legal_actions(self, observation: dict[str, np.ndarray], i: int) -> np.ndarray:
        """Game ``i``'s legal integers in ``observation`` (one that ``reset`` or ``step``
        returned), ascending: ``legal_actions[legal_offsets[i]:legal_offsets[i + 1]]``."""
        offsets = observation["legal_offsets"]
        return observation["legal_actions"][int(offsets[i]) : int(offsets[i + 1])]

    def sample_actions(self) -> np.ndarray:
        """One uniformly random legal action per game (-1 for a finished game)."""
        return self.batch.random_actions()

    def step(
        self, actions: np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play ``actions[i]`` in game ``i``; observations, rewards, terminations,
        truncations and infos, each with one row per game."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"one action per game: shape ({self.num_envs},), not {actions.shape}")
        if actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, not {actions.dtype}")
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        stepper = self._stepper
        if stepper is not None and not self.copy:
            return self._step_env(stepper, actions)
        one_pass = self._one_pass
        if not self.copy and self._observed and one_pass and one_pass.fuses_steps(self.autoreset):
            return self._step_observed(one_pass, actions)
        live = self._agent >= 0
        # Checked against the mask before anything is played: an illegal action changes no
        # game (one look-up per game, all at once).
        inside = (actions >= 0) & (actions < self.num_actions)
        keys = self._keys
        if keys is None:  # the kept mask holds the legal actions now: one look-up per game
            rows = np.arange(self.num_envs)
            legal = inside & (self._mask[rows, np.where(inside, actions, 0)] != 0)
        else:
            query = np.arange(self.num_envs, dtype=np.int64) * self.num_actions + actions
            at = np.minimum(np.searchsorted(keys, query), max(len(keys) - 1, 0))
            legal = inside & (keys[at] == query) if len(keys) else np.zeros_like(inside)
        bad = np.flatnonzero(live & ~legal)
        if len(bad):
            first = int(bad[0])
            raise IllegalAction(
                f"game {first}: action {int(actions[first])} is not legal there; "
                "use the action_mask"
            )
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        terminations = np.zeros(self.num_envs, dtype=bool)
        truncations = np.zeros(self.num_envs, dtype=bool)
        outcomes: list[dict[str, Any] | None] = [None] * self.num_envs
        contract = self.batch
        if isinstance(contract, VectorBatch):
            # The environment's own batch steps and observes a game at a time, in one pass
            # (VectorBatch.step_and_observe): the same numbers, the same seeds drawn in the
            # same order, as below.
            def finished(i: int, result: Outcome) -> int | None:
                rewards[i] = result.returns
                truncations[i] = result.reason == "length_limit"
                terminations[i] = not truncations[i]
                outcomes[i] = result.to_json()
                if not self.autoreset:
                    return None
                self.game_seeds[i] = self._seeds.integers(2**31)
                return int(self.game_seeds[i])

            if self.copy:
                agent, observation = contract.step_and_observe(
                    np.where(live, actions, -1), finished, None, False
                )
            else:
                agent, observation = contract.step_and_observe(
                    np.where(live, actions, -1), finished, self._observations, self._observed
                )
                self._observed = True
            observed = self._observe(agent, observation)
            return observed, rewards, terminations, truncations, {"outcome": outcomes}
        self.batch.step(np.where(live, actions, -1))
        ended = live & self.batch.done()
        if ended.any():
            returns = self.batch.returns()
            for i in np.flatnonzero(ended):
                result = self.batch.outcome(int(i))
                assert result is not None  # the game is over
                rewards[i] = returns[i]
                truncations[i] = result.reason == "length_limit"
                terminations[i] = not truncations[i]
                outcomes[i] = result.to_json()
                if self.autoreset:
                    self.game_seeds[i] = self._seeds.integers(2**31)
                    self.batch.reset_game(int(i), int(self.game_seeds[i]))
        return self._observe(), rewards, terminations, truncations, {"outcome": outcomes}

    def _step_env(
        self, stepper: Callable[[np.ndarray], _EnvStep], actions: np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """``step`` without copies in one call of a one-pass batch bound to the kept buffers
        (Gungi's native core: it checks the actions, steps, restarts, writes the buffers and
        makes the rewards, endings and seats to act); here only each finished game's
        outcome and next seed (the same numbers as ``_step_observed``)."""
        try:
            ints, offsets, agent, rewards, terminations, truncations, ended, pair = stepper(actions)
        except ValueError:  # an illegal action: nothing was played
            self._refuse(actions)
            raise
        if self._mask is not self._bound[pair][0]:  # the pair written is the current one
            written = self._bound[pair]
            self._spare = (self._mask, self._observations, self._mask_view, self._observations_view)
            self._mask, self._observations, self._mask_view, self._observations_view = written
        outcomes: list[dict[str, Any] | None] = [None] * self.num_envs
        for i, outcome, reason in ended:
            result = self._outcomes.get((outcome, reason))
            if result is None:
                result = self._outcomes[outcome, reason] = cast(
                    _OnePassBatch, self.batch
                ).outcome_of(outcome, reason)
            outcomes[i] = result.to_json()
            if self.autoreset:  # started again by the batch; the seed as step draws it
                self.game_seeds[i] = self._seeds.integers(2**31)
        self._agent = agent
        return (
            self._kept(agent, ints, offsets),
            rewards,
            terminations,
            truncations,
            {"outcome": outcomes},
        )

    def _refuse(self, actions: np.ndarray) -> None:
        """Raise IllegalAction naming the first game whose action a one-pass batch refused
        (returns when it finds none: the error was another)."""
        first = cast(_OnePassBatch, self.batch).first_illegal(actions)
        if first >= 0:
            raise IllegalAction(
                f"game {first}: action {int(actions[first])} is not legal there; "
                "use the action_mask"
            ) from None

    def _step_observed(
        self, batch: _OnePassBatch, actions: np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """``step`` without copies, for a batch that steps, restarts and writes the kept
        mask and observations in one pass (Gungi's native core: the same numbers as
        ``step`` then ``_observe``)."""
        try:
            # The batch looks every action up in its legal lists before it plays any (a
            # finished game's is not looked at): no look-up in the 14.6 MB mask.
            ints, offsets, finished = batch.step_observed(
                actions, self._mask, self._observations, self.autoreset, strict=True
            )
        except ValueError:  # an illegal action: nothing was played
            self._refuse(actions)
            raise
        ended = np.flatnonzero(finished[:, 0] >= 0)
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        terminations = np.zeros(self.num_envs, dtype=bool)
        truncations = np.zeros(self.num_envs, dtype=bool)
        outcomes: list[dict[str, Any] | None] = [None] * self.num_envs
        for i in ended:
            result = batch.outcome_of(int(finished[i, 0]), int(finished[i, 1]))
            rewards[i] = result.returns
            truncations[i] = result.reason == "length_limit"
            terminations[i] = not truncations[i]
            outcomes[i] = result.to_json()
            if self.autoreset:  # started again by the batch; the seed as step draws it
                self.game_seeds[i] = self._seeds.integers(2**31)
        agent = batch.status()[:, 0]  # the player to act, -1 once over
        self._agent = agent
        return (
            self._kept(agent, ints, offsets),
            rewards,
            terminations,
            truncations,
            {"outcome": outcomes},
        )


__all__ = ["VectorEnv"]
