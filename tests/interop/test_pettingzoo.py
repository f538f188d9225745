"""The PettingZoo AEC environments: PettingZoo's api_test and seed_test, rewards, masks,
illegal actions as PettingZoo's wrappers expect, truncation at the length guard."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

import sengoku
from sengoku.core.game import IllegalAction, SengokuError
from sengoku.interop import pettingzoo as pz

CASES = [
    ("gungi", {"mode": "beginner"}),
    ("gunkimono", {"players": 2}),
    ("gunkimono", {"players": 5}),
    ("sashimono", {}),
    ("sashimono", {"mode": "solo"}),
    ("gunshi", {}),
]


def test_module_docstring_example_runs() -> None:
    result = doctest.testmod(pz, verbose=False)
    assert result.attempted >= 4 and result.failed == 0


@pytest.mark.parametrize(("name", "options"), CASES)
def test_pettingzoo_api_test(name: str, options: dict, quiet: None) -> None:
    api_test(pz.env(name, **options), num_cycles=200)


@pytest.mark.parametrize(("name", "options"), [CASES[0], CASES[1], CASES[3]])
def test_pettingzoo_seed_test(name: str, options: dict, quiet: None) -> None:
    seed_test(lambda: pz.env(name, **options), num_cycles=60)


def _play_out(env: pz.AECEnv, rng: np.random.Generator) -> dict[str, float]:
    """Random masked play to the end; the rewards each agent collected."""
    totals: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _info = env.last()
        totals[agent] = totals.get(agent, 0.0) + float(reward)
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


@pytest.mark.parametrize(("name", "options"), [CASES[0], CASES[2]])
def test_masks_observations_and_rewards_follow_the_contract(name: str, options: dict) -> None:
    env = pz.raw_env(name, **options)
    env.reset(seed=1)
    contract = sengoku.load_game(name)
    rng = np.random.default_rng(0)
    for _ in range(30):
        agent = env.agent_selection
        seat = env.agent_seat[agent]
        state = env.sengoku_state
        assert seat == state.current_player
        observation = env.observe(agent)
        legal = [contract.action_to_int(state, a) for a in state.legal_actions()]
        assert np.flatnonzero(observation["action_mask"]).tolist() == legal
        assert np.array_equal(
            observation["observation"], env.encoder.encode(state.view(seat), seat)
        )
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(legal)))
    totals = _play_out(env, rng)
    outcome = env.sengoku_state.outcome()
    assert outcome is not None
    assert totals == {
        agent: float(outcome.returns[seat]) for seat, agent in enumerate(env.possible_agents)
    }
    assert env.agents == []


def test_illegal_action_in_the_wrapped_env_ends_the_game_with_minus_one(quiet: None) -> None:
    env = pz.env("gungi")
    env.reset(seed=0)
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    offender = env.agent_selection
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1


def test_illegal_action_in_the_raw_env_raises_and_changes_nothing() -> None:
    env = pz.raw_env("gunkimono")
    env.reset(seed=0)
    before = env.sengoku_state.to_json()
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalAction, match="action_mask"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.sengoku_state.to_json() == before


def test_length_guard_is_a_truncation(race: None) -> None:
    env = pz.raw_env("race", players=2, goal=40, limit=6)
    env.reset(seed=0)
    for _ in range(6):
        env.step(0)  # wait
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.infos["player_0"]["outcome"]["reason"] == "length_limit"
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


def test_win_rewards_and_render(race: None) -> None:
    env = pz.raw_env("race", render_mode="ansi", players=2, goal=3)
    env.reset(seed=0)
    env.step(2)  # player_0: 2
    env.step(1)  # player_1: 3, the goal
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert all(env.terminations.values())
    assert isinstance(env.render(), str)


def test_bad_arguments_are_named() -> None:
    with pytest.raises(SengokuError, match="render_mode"):
        pz.raw_env("gungi", render_mode="rgb_array")
    with pytest.raises(SengokuError, match="option 'mode'"):
        pz.raw_env("gungi", mode="expert")


def _classic_chain(name: str, **options: object) -> pz.AECEnv:
    """PettingZoo's own wrapper chain for its classic games, around the same raw env."""
    raw = pz.raw_env(name, **options)
    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def _snapshot(env: pz.AECEnv) -> tuple:
    return (
        list(env.agents),
        env.agent_selection if env.agents else None,
        dict(env.rewards),
        dict(env.terminations),
        dict(env.truncations),
        dict(env._cumulative_rewards),
    )


@pytest.mark.parametrize("illegal_at", [0, 7])
def test_one_wrapper_does_what_the_classic_chain_does(illegal_at: int, quiet: None) -> None:
    ours, theirs = pz.env("gunkimono", players=3), _classic_chain("gunkimono", players=3)
    assert isinstance(ours, wrappers.OrderEnforcingWrapper)
    for env in (ours, theirs):
        env.reset(seed=5)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in ours.agent_iter():
        assert agent == theirs.agent_selection
        mine, reward, termination, truncation, _ = ours.last()
        other = theirs.last()
        assert np.array_equal(mine["action_mask"], other[0]["action_mask"])
        assert (reward, termination, truncation) == other[1:4]
        if termination or truncation:
            action = None
        elif steps == illegal_at:
            action = int(np.flatnonzero(mine["action_mask"] == 0)[0])
        else:
            action = int(rng.choice(np.flatnonzero(mine["action_mask"])))
        for env in (ours, theirs):
            env.step(action)
        steps += 1
        assert _snapshot(ours) == _snapshot(theirs)
    assert ours.agents == theirs.agents == []
    for env in (ours, theirs):
        env.reset(seed=6)
        with pytest.raises(AssertionError, match="action space"):
            env.step(env.unwrapped.num_actions)


def test_wrapped_env_enforces_order() -> None:
    env = pz.env("gungi")
    with pytest.raises(AttributeError, match="before reset"):
        _ = env.agent_selection
    env.reset(seed=0)
    assert env.agent_selection == "player_0"


def test_an_observation_is_built_once_per_step() -> None:
    env = pz.raw_env("sashimono")
    env.reset(seed=3)
    agent = env.agent_selection
    first = env.observe(agent)
    assert env.observe(agent) is first and env.last()[0] is first
    legal = int(np.flatnonzero(first["action_mask"])[0])
    env.step(legal)
    after = env.observe(env.agent_selection)
    assert after is not first
    seat = env.agent_seat[env.agent_selection]
    state = env.sengoku_state
    assert np.array_equal(after["observation"], env.encoder.encode(state.view(seat), seat))


@pytest.mark.parametrize(("name", "options"), CASES)
def test_legal_actions_are_the_mask_nonzero_entries(name: str, options: dict) -> None:
    """``legal_actions()`` is the sparse mask: the agent to act's nonzero mask entries in
    order, nothing for the others; a new list each call (the caller may change it)."""
    env = pz.env(name, **options)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            if not env.agents:
                break
            continue
        for other in env.agents:
            mask = env.observe(other)["action_mask"]
            assert env.legal_actions(other) == np.flatnonzero(mask).tolist()
        legal = env.legal_actions()
        assert legal and legal == env.legal_actions(agent)
        legal.append(-5)
        assert -5 not in env.legal_actions()
        env.step(int(rng.choice(legal[:-1])))


def test_the_mask_is_made_on_first_read_and_holds_the_position_it_was_given_at() -> None:
    env = pz.raw_env("gungi", mode="intro")
    env.reset(seed=1)
    agent = env.agent_selection
    observation = env.observe(agent)
    legal = env.legal_actions()
    assert dict.__getitem__(observation, "action_mask") is None  # not made yet
    env.step(legal[0])
    assert np.flatnonzero(observation["action_mask"]).tolist() == legal


@pytest.mark.parametrize(
    ("name", "options"),
    [("gunshi", {}), ("gunkimono", {"players": 2}), ("sashimono", {"mode": "duel"})],
)
def test_the_environment_plays_a_muted_state_as_the_contract_plays(
    name: str, options: dict
) -> None:
    """The environment's own states build no events (it reads none; they were a quarter to a
    third of a ply) and play the contract's game: the same position after every step as an
    unmuted clone given the same actions, through an episode and a reset."""
    env = pz.env(name, **options)
    rng = np.random.default_rng(2)
    contract = sengoku.load_game(name)
    for seed in (5, 6):
        env.reset(seed=seed)
        state = env.unwrapped.sengoku_state
        if not env.unwrapped.native:  # a native match builds no events at all
            # Before: the environment's states told every event (State.mute never called).
            assert getattr(state, "_muted", getattr(state, "muted", None)) is True
        twin = state.clone()  # a clone tells again
        told = 0
        for agent in env.agent_iter(max_iter=400):
            _obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            action = int(rng.choice(env.legal_actions()))
            told += len(twin.apply(contract.int_to_action(twin, action)))
            env.step(action)
            assert env.unwrapped.sengoku_state.to_json() == twin.to_json(), agent
        assert told > 0
