"""Train a policy on a two-player Sengoku game with sb3-contrib's MaskablePPO, beat random.

    pip install 'sengoku[research]'
    python examples/maskable_ppo_vs_random.py --timesteps 20000 --seed 0 --eval-games 400

The learner plays one seat of the PettingZoo AEC environment (``sengoku.interop.pettingzoo``);
the other seat plays uniformly at random among its legal actions. :class:`VsRandom` turns that
into the single-agent Gymnasium environment Stable-Baselines3 trains on: a step plays the
learner's action, then the opponent's until the learner is to act again or the game ends; the
reward is the learner's outcome return (+1 won, -1 lost, 0 drawn) at the end. The legal-action
mask goes to MaskablePPO through ``action_masks()``, so the policy only ever picks legal
actions. The learner's seat alternates between episodes, so it learns both sides.

Then the trained policy (its most probable legal action) plays ``--eval-games`` new games
against random, seats alternating, and the script prints its score (a win 1, a draw 1/2, a
loss 0) with a 95% Wilson interval; random against random scores 1/2 with seats alternating.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import gymnasium
import numpy as np

from sengoku.interop.pettingzoo import env as pettingzoo_env


class VsRandom(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a two-player PettingZoo environment against a uniformly random opponent."""

    def __init__(self, game: str, **options: Any) -> None:
        self.aec = pettingzoo_env(game, **options)
        self.aec.reset(seed=0)
        if len(self.aec.possible_agents) != 2:
            raise ValueError(f"{game} with {options} is not a two-player game")
        # The learner sees the tensor only; the mask reaches MaskablePPO via action_masks().
        self.observation_space = self.aec.observation_space("player_0")["observation"]
        self.action_space = self.aec.action_space("player_0")
        self.learner = "player_1"
        self.opponent_rng = np.random.default_rng()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.opponent_rng = np.random.default_rng(seed)
        # The learner's seat alternates from episode to episode, unless options name it.
        if options and "seat" in options:
            self.learner = f"player_{options['seat']}"
        else:
            self.learner = "player_1" if self.learner == "player_0" else "player_0"
        self.aec.reset(seed=int(self.np_random.integers(2**31)))
        self._play_opponent()
        return self._observation(), {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.aec.step(int(action))
        self._play_opponent()
        _, _, terminated, truncated, _ = self.aec.last()
        if self.aec.agents and not (terminated or truncated):
            return self._observation(), 0.0, False, False, {}
        # The game is over: the learner's return is its accumulated reward.
        reward = float(self.aec._cumulative_rewards.get(self.learner, 0.0))
        return self._observation(), reward, not truncated, truncated, {}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (the method MaskablePPO looks for)."""
        return np.asarray(self.aec.observe(self.learner)["action_mask"], dtype=bool)

    def _play_opponent(self) -> None:
        """Random moves until the learner is to act or the game is over."""
        while self.aec.agents and self.aec.agent_selection != self.learner:
            observation, _, terminated, truncated, _ = self.aec.last()
            if terminated or truncated:
                self.aec.step(None)
            else:
                legal = np.flatnonzero(observation["action_mask"].view(bool))
                self.aec.step(int(self.opponent_rng.choice(legal)))

    def _observation(self) -> np.ndarray:
        return np.asarray(self.aec.observe(self.learner)["observation"], dtype=np.float32)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``score`` over ``n`` games."""
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def evaluate(
    model: Any,
    game: str,
    games: int,
    seed: int,
    deterministic: bool = False,
    tables: int = 16,
    **options: Any,
) -> dict[str, Any]:
    """``games`` games of the trained policy against random (game ``i`` from seed ``seed +
    i``, seats alternating), played on ``tables`` boards at once so that the policy picks
    the moves of all of them in one batch."""
    envs = [VsRandom(game, **options) for _ in range(min(tables, games))]
    observations = [
        env.reset(seed=seed + i, options={"seat": i % 2})[0] for i, env in enumerate(envs)
    ]
    started = len(envs)
    playing = list(range(len(envs)))
    returns: list[float] = []
    while playing:
        actions, _ = model.predict(
            np.stack([observations[i] for i in playing]),
            action_masks=np.stack([envs[i].action_masks() for i in playing]),
            deterministic=deterministic,
        )
        for i, action in zip(list(playing), actions, strict=True):
            observations[i], reward, terminated, truncated, _ = envs[i].step(action)
            if terminated or truncated:
                returns.append(float(reward))
                if started < games:
                    observations[i] = envs[i].reset(
                        seed=seed + started, options={"seat": started % 2}
                    )[0]
                    started += 1
                else:
                    playing.remove(i)
    wins = sum(r > 0 for r in returns)
    draws = sum(r == 0 for r in returns)
    score = (wins + draws / 2) / games
    low, high = wilson(score, games)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "score": score,
        "low": low,
        "high": high,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sashimono")
    parser.add_argument("--timesteps", type=int, default=20_000, help="learner decisions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--vp", type=int, default=3, help="Sashimono's VP target")
    parser.add_argument(
        "--deterministic",
        action="store_true",
        help="evaluate the most probable legal action (default: sample the policy, so that "
        "an untrained network scores what random scores)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    # A small network on one core: more threads only contend on a busy machine.
    torch.set_num_threads(1)
    options: dict[str, Any] = {"vp": args.vp} if args.game == "sashimono" else {}
    started = time.perf_counter()

    # Eight boards at once, so that the policy picks eight moves per forward pass.
    boards = make_vec_env(
        VsRandom, n_envs=8, seed=args.seed, env_kwargs={"game": args.game, **options}
    )
    # Measured on Sashimono (docs/interop.md): a larger step than PPO's default 3e-4 and
    # shorter rollouts learn within a few thousand moves; 2e-3 was less steady.
    model = MaskablePPO(
        "MlpPolicy",
        boards,
        learning_rate=1e-3,
        n_steps=128,
        batch_size=256,
        n_epochs=4,
        policy_kwargs={"net_arch": [64, 64]},
        seed=args.seed,
        verbose=0,
    )
    model.learn(total_timesteps=args.timesteps)
    trained = time.perf_counter() - started
    result = evaluate(
        model,
        args.game,
        args.eval_games,
        seed=10**6 + args.seed,
        deterministic=args.deterministic,
        **options,
    )
    result.update(
        game=args.game,
        timesteps=args.timesteps,
        seed=args.seed,
        train_seconds=round(trained, 1),
        eval_seconds=round(time.perf_counter() - started - trained, 1),
    )
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{args.game}: MaskablePPO ({args.timesteps} steps, {trained:.0f} s) against random "
            f"over {result['games']} games: {result['wins']} won, {result['draws']} drawn, "
            f"{result['losses']} lost; score {result['score']:.3f} "
            f"(95% interval {result['low']:.3f}-{result['high']:.3f}; random scores 0.5)"
        )
    return result


if __name__ == "__main__":
    main()
