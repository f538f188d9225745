"""The batched environment: the same observations, masks and rewards as one game at a time.

Each game of a :class:`VectorEnv` is rebuilt outside the batch from its seed and replayed
with the same actions through the PettingZoo environment; every step, both must show the
seat to act the same tensor and mask, and end with the same rewards.
"""

from __future__ import annotations

import numpy as np
import pytest

from sengoku.core.game import IllegalAction
from sengoku.interop.openspiel import load as load_spiel
from sengoku.interop.pettingzoo import raw_env, vector_env
from sengoku.interop.vector import VectorEnv

CASES = [
    ("gungi", {"mode": "intro"}),
    ("gungi", {"mode": "advanced"}),
    ("sashimono", {}),
    ("gunshi", {}),
    ("gunkimono", {"players": 3}),
]


class Twin:
    """Game ``i`` of the batch, played one action at a time in a PettingZoo environment."""

    def __init__(self, game: str, options: dict[str, object], seed: int) -> None:
        self.env = raw_env(game, **options)
        self.env.sengoku_state = self.env.game.new_state(seed=seed, **self.env.options)

    def check(self, obs: dict[str, np.ndarray], i: int) -> None:
        agent = self.env.agent_selection
        seat = self.env.agent_seat[agent]
        assert obs["agent"][i] == seat
        mine = self.env.observe(agent)
        assert np.array_equal(obs["action_mask"][i], mine["action_mask"])
        assert np.array_equal(obs["observation"][i], mine["observation"])


@pytest.mark.parametrize(("game", "options"), CASES)
def test_each_game_of_the_batch_is_the_game_played_alone(
    game: str, options: dict[str, object]
) -> None:
    env = vector_env(game, 3, **options)
    obs = env.reset(seed=11)
    twins = [Twin(game, options, int(s)) for s in env.game_seeds]
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(400):
        for i, twin in enumerate(twins):
            twin.check(obs, i)
        # A random legal action of each game, from its mask.
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminations, truncations, infos = env.step(actions)
        for i, twin in enumerate(twins):
            twin.env.step(int(actions[i]))
            result = twin.env.sengoku_state.outcome()
            if result is None:
                assert not terminations[i] and not truncations[i]
                assert not rewards[i].any()
                continue
            ended += 1
            assert terminations[i] == (result.reason != "length_limit")
            assert rewards[i].tolist() == list(result.returns)
            assert infos["outcome"][i] == result.to_json()
            # Autoreset: a new game, whose seed the batch tells.
            twins[i] = Twin(game, options, int(env.game_seeds[i]))
    if game == "gungi" and options["mode"] == "intro":
        assert ended, "no game ended in 400 steps: the rewards were never checked"


def test_an_illegal_action_names_the_game_and_changes_nothing() -> None:
    env = VectorEnv("sashimono", 2)
    obs = env.reset(seed=3)
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalAction, match="game 1"):
        env.step(np.array([legal[0], illegal]))
    again = env._observe()
    assert np.array_equal(again["observation"], obs["observation"])
    assert np.array_equal(again["action_mask"], obs["action_mask"])
    with pytest.raises(ValueError, match="one action per game"):
        env.step(np.array(legal[:1]))


def test_without_autoreset_a_finished_game_waits_with_an_empty_mask() -> None:
    env = VectorEnv("gungi", 2, autoreset=False, mode="intro")
    obs = env.reset(seed=0)
    for _ in range(3000):
        if (obs["agent"] < 0).all():
            break
        obs, *_ = env.step(env.sample_actions())
    assert (obs["agent"] < 0).all(), "random intro games end within 3000 plies"
    assert not obs["action_mask"].any()
    # Actions given for finished games are ignored.
    obs2, rewards, terminations, _, _ = env.step(np.array([5, 7]))
    assert not rewards.any() and not terminations.any()
    assert np.array_equal(obs2["observation"], obs["observation"])


def test_the_same_seed_plays_the_same_games() -> None:
    def run() -> list[float]:
        env = VectorEnv("gunshi", 2)
        env.reset(seed=9)
        totals: list[float] = []
        for _ in range(300):
            _, rewards, *_ = env.step(env.sample_actions())
            totals.append(float(rewards.sum()))
        return [*totals, *env.game_seeds.tolist()]

    first, second = run(), run()
    assert first == second


def test_the_openspiel_game_gives_the_same_batch() -> None:
    spiel = load_spiel("gungi", mode="intro")
    env = spiel.vector_env(2)
    assert env.options == VectorEnv("gungi", 2, mode="intro").options
    obs = env.reset(seed=1)
    assert obs["observation"].shape == (2, *spiel.encoder.shape)
