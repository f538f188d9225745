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
stepped by ``Game.batch`` (:mod:`sengoku.core.batch`): Gungi's live in its native core when
it is built, every other game steps through the contract.

* ``rewards[i]`` is game ``i``'s outcome returns (one per seat) on the step it ends, else 0.
* ``terminations[i]`` / ``truncations[i]``: game ``i`` ended on this step by the rules, or by
  the contract's length guard (``length_limit``); ``infos["outcome"][i]`` holds the outcome's
  JSON (None for games that go on).
* With ``autoreset`` (the default) a game that ended starts again at once, so the returned
  observation is already the new game's first; ``reset(seed=s)`` makes the whole sequence of
  games reproducible. Without it, a finished game keeps its final position and its mask is
  all zeros; the actions given for it are ignored.
* An illegal action raises :class:`~sengoku.core.game.IllegalAction` naming the game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sengoku.core.game import IllegalAction
from sengoku.core.registry import load_game


class VectorEnv:
    """``num_envs`` games of ``game`` with ``options``, stepped together."""

    def __init__(self, game: str, num_envs: int, autoreset: bool = True, **options: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.game = load_game(game)
        self.options = self.game.resolve_options(**options)
        self.batch = self.game.batch(**self.options)
        self.num_envs = num_envs
        self.autoreset = autoreset
        self.num_actions = self.batch.num_actions
        self.num_players = self.batch.num_players
        self.observation_shape = tuple(self.batch.shape)
        self._seeds = np.random.default_rng(0)
        self._mask = np.zeros((num_envs, self.num_actions), dtype=bool)
        self._started = False
        #: The Sengoku seed each game was started with (``new_state(seed=...)``): a game can
        #: be rebuilt outside the batch and replayed.
        self.game_seeds = np.zeros(num_envs, dtype=np.int64)

    def reset(self, seed: int | None = None) -> dict[str, np.ndarray]:
        """Start every game; ``seed`` fixes their seeds and those of the games that follow."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        first = int(self._seeds.integers(2**31))
        self.batch.reset(self.num_envs, seed=first)
        self.game_seeds = np.arange(first, first + self.num_envs, dtype=np.int64)
        self._started = True
        return self._observe()

    def _observe(self) -> dict[str, np.ndarray]:
        done = self.batch.done()
        agent = np.where(done, -1, self.batch.to_move())
        self.batch.legal_mask(out=self._mask)
        return {
            "observation": self.batch.observations(np.maximum(agent, 0)),
            "action_mask": self._mask.astype(np.int8),
            "agent": agent.astype(np.int64),
        }

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
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"one action per game: shape ({self.num_envs},), not {actions.shape}")
        live = ~self.batch.done()
        # Checked against the mask before anything is played: an illegal action changes no game.
        for i in np.flatnonzero(live):
            a = int(actions[i])
            if not (0 <= a < self.num_actions and self._mask[i, a]):
                raise IllegalAction(f"game {i}: action {a} is not legal there; use the action_mask")
        self.batch.step(np.where(live, actions, -1))
        ended = live & self.batch.done()
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        terminations = np.zeros(self.num_envs, dtype=bool)
        truncations = np.zeros(self.num_envs, dtype=bool)
        outcomes: list[dict[str, Any] | None] = [None] * self.num_envs
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


__all__ = ["VectorEnv"]
