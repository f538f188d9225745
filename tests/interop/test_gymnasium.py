"""The Gymnasium environment of one-player games: Sashimono's solo mode against the Kagemusha
(registered as sengoku/SashimonoSolo-v1) and, generically, the one-player Race test game."""

from __future__ import annotations

import copy
import doctest
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sengoku.core.game import IllegalAction, SengokuError
from sengoku.interop import gymnasium as gym_interop
from sengoku.interop.gymnasium import SoloEnv
from sengoku.interop.lazy import LazyObservation

ROOT = Path(__file__).resolve().parents[2]


def test_module_docstring_example_runs() -> None:
    result = doctest.testmod(gym_interop, verbose=False)
    assert result.attempted >= 3 and result.failed == 0


def test_gymnasium_env_checker_passes_on_sashimono_solo() -> None:
    env = gymnasium.make("sengoku/SashimonoSolo-v1")
    check_env(env.unwrapped, skip_render_check=False)
    assert env.unwrapped.options["mode"] == "solo"


def test_gymnasium_env_checker_passes_on_a_one_player_test_game(race: None) -> None:
    spec = gymnasium.envs.registration.EnvSpec(
        "RaceSolo-v1", entry_point=SoloEnv, kwargs={"game": "race", "goal": 6}
    )
    check_env(gymnasium.make(spec).unwrapped)


def test_episodes_end_with_the_outcome_return() -> None:
    env = SoloEnv("sashimono", mode="solo")
    rng = np.random.default_rng(3)
    for episode in range(3):
        observation, info = env.reset(seed=episode)
        assert env.observation_space.contains(observation)
        done, steps = False, 0
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            assert np.array_equal(env.action_masks(), observation["action_mask"].astype(bool))
            observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            done = terminated or truncated
            steps += 1
            if not done:
                assert reward == 0.0
        outcome = env.sengoku_state.outcome()
        assert outcome is not None and reward == outcome.returns[0]
        assert info["outcome"]["reason"] == outcome.reason and steps > 10
        with pytest.raises(SengokuError, match="reset"):
            env.step(0)


def test_same_seed_same_episode() -> None:
    a, b = SoloEnv("sashimono", mode="solo"), SoloEnv("sashimono", mode="solo")
    obs_a, _ = a.reset(seed=42)
    obs_b, _ = b.reset(seed=42)
    assert np.array_equal(obs_a["observation"], obs_b["observation"])
    assert a.sengoku_state.to_json() == b.sengoku_state.to_json()


def test_illegal_action_terminates_with_minus_one_or_raises() -> None:
    env = SoloEnv("sashimono", mode="solo")
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.sengoku_state.to_json()
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": True})
    assert env.sengoku_state.to_json() == before
    strict = SoloEnv("sashimono", mode="solo", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalAction):
        strict.step(illegal)


def test_win_loss_and_truncation_of_the_test_game(race: None) -> None:
    env = SoloEnv("race", goal=3, limit=4)
    env.reset(seed=0)
    assert env.step(2)[1:4] == (0.0, False, False)
    assert env.step(1)[1:4] == (1.0, True, False)  # exactly on the goal
    env.reset(seed=0)
    env.step(2)
    assert env.step(2)[1:4] == (-1.0, True, False)  # past it
    env.reset(seed=0)
    results = [env.step(0)[1:4] for _ in range(4)]
    assert results[-1] == (0.0, False, True)  # the length guard: a truncation


def test_only_one_player_games() -> None:
    with pytest.raises(SengokuError, match="one-player"):
        SoloEnv("sashimono", mode="duel")
    with pytest.raises(SengokuError, match="illegal_action"):
        SoloEnv("sashimono", mode="solo", illegal_action="ignore")


def test_render_ansi_shows_the_players_view() -> None:
    env = SoloEnv("sashimono", mode="solo", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "Kagemusha" in text


def test_gymnasium_1_finds_our_envs_without_entry_points() -> None:
    """Gymnasium 1.x has no plugin entry points (issue 43 item 6): ``register_envs`` and the
    ``module:env-id`` form of ``make`` are the ways in, in a fresh interpreter where nothing
    imported the module before."""
    script = (
        "import sys, gymnasium\n"
        "assert 'sengoku.interop.gymnasium' not in sys.modules\n"
        "env = gymnasium.make('sengoku.interop.gymnasium:sengoku/SashimonoSolo-v1')\n"
        "assert env.unwrapped.options['mode'] == 'solo', env\n"
        "assert env.reset(seed=1)[1] == {}\n"
        "import sengoku.interop.gymnasium as ours\n"
        "gymnasium.register_envs(ours)\n"
        "env = gymnasium.make('sengoku/SashimonoSolo-v1', challenge_corners=True)\n"
        "assert env.unwrapped.options['challenge_corners'] is True\n"
        "print('ok')\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr
    doc = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8")
    assert "gymnasium.register_envs(sengoku.interop.gymnasium)" in doc
    assert 'gymnasium.make("sengoku.interop.gymnasium:sengoku/SashimonoSolo-v1")' in doc


def test_the_environment_plays_a_muted_state_as_the_contract_plays() -> None:
    """Its own states build no events (it reads none) and play the contract's game: the
    same position after every step as an unmuted clone given the same actions."""
    env = SoloEnv("sashimono", mode="solo")
    observation, _info = env.reset(seed=4)
    state = env.sengoku_state
    if not env.native:  # a native match builds no events at all
        # Before: the environment's states told every event (State.mute never called).
        assert getattr(state, "_muted", None) is True
    twin = state.clone()  # a clone tells again
    game = twin.game
    rng = np.random.default_rng(1)
    told = 0
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        told += len(twin.apply(game.int_to_action(twin, action)))
        observation, _reward, terminated, truncated, _info = env.step(action)
        done = terminated or truncated
        assert env.sengoku_state.to_json() == twin.to_json()
    assert told > 0


def test_observations_are_made_when_read_and_hold_their_position() -> None:
    """The tensor and mask of a step's observation, read after later steps (or deep-copied),
    are those of the position it was returned at: the encoding of ``view(0)`` then and the
    legal integers then; each step's observation is a new one."""
    env = SoloEnv("sashimono", mode="solo")
    game = env.game
    rng = np.random.default_rng(6)
    observation, _info = env.reset(seed=9)
    kept: list[tuple[dict, np.ndarray, list[int]]] = []
    done = False
    while not done and len(kept) < 60:
        state = env.sengoku_state
        expected = env.encoder.encode(state.view(0), 0)
        legal = [game.action_to_int(state, a) for a in state.legal_actions()]
        kept.append((observation, expected, legal))
        action = int(rng.choice(legal))
        nxt, _reward, terminated, truncated, _info = env.step(action)
        assert nxt is not observation
        # Before: every step encoded its tensor at once (a plain dict).
        assert isinstance(nxt, LazyObservation) and not nxt.encoded
        observation = nxt
        done = terminated or truncated
    for i, (seen, expected, legal) in enumerate(kept):
        if i % 3 == 0:
            seen = copy.deepcopy(seen)
            assert type(seen) is type(observation)
        assert np.array_equal(seen["observation"], expected)
        assert np.flatnonzero(seen["action_mask"]).tolist() == legal
