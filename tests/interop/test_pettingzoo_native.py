"""A PettingZoo environment stepping a game's native matches (``Game.native_play``) gives the
numbers of the same environment stepping contract states (``native=False``): every agent's
observation tensor and mask, the legal lists, rewards, ends and infos, step after step
through whole episodes and resets, the same seeds and actions in both."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import sengoku
from sengoku.interop import pettingzoo as pz

#: The games whose native play is built here, with options covering their player counts and
#: rulings (each core's own tests cover every option against the Python engine).
CASES = [
    ("gungi", {"mode": "intro"}),
    ("gungi", {"mode": "advanced", "self_check": "forbidden", "first_player": "random"}),
    ("gunkimono", {"players": 2}),
    ("gunkimono", {"players": 3, "own_double_stronghold": True, "link_own_formations": False}),
    ("gunkimono", {"players": 5, "empty_banner_stack": "stay", "end_tile_replacement": False}),
    ("gunshi", {}),
    ("gunshi", {"variant": "inspiration", "modification": 2, "shoot_block": "any_crossed"}),
    ("sashimono", {"mode": "duel"}),
    ("sashimono", {"mode": "duel", "army": "east", "vp": 4, "challenge_abilities": True}),
    ("sashimono", {"mode": "solo", "challenge_six_sashimono": True}),
]


def _native_built(name: str, options: dict[str, Any]) -> bool:
    return sengoku.load_game(name).native_play(**options) is not None


@pytest.mark.parametrize(("name", "options"), CASES)
def test_native_and_contract_environments_give_the_same_numbers(
    name: str, options: dict[str, Any]
) -> None:
    if not _native_built(name, options):
        pytest.skip(f"{name}'s native core is not in use")
    native = pz.env(name, **options)
    contract = pz.env(name, native=False, **options)
    assert native.unwrapped.native and not contract.unwrapped.native
    rng = random.Random(3)
    episodes = steps = 0
    for seed in (1, 2):
        native.reset(seed=seed)
        contract.reset(seed=seed)
        for agent in native.agent_iter():
            assert contract.agent_selection == agent
            got, want = native.last(), contract.last()
            for seen in (got[0], want[0]):
                assert sorted(seen) == ["action_mask", "observation"]
            assert np.array_equal(got[0]["observation"], want[0]["observation"]), steps
            assert np.array_equal(got[0]["action_mask"], want[0]["action_mask"]), steps
            assert got[1:] == want[1:]
            for other in native.agents:  # every seat's observation, not only the actor's
                assert np.array_equal(
                    native.unwrapped.observe(other)["observation"],
                    contract.unwrapped.observe(other)["observation"],
                )
            if got[2] or got[3]:
                native.step(None)
                contract.step(None)
                continue
            legal = native.legal_actions()
            assert legal == contract.legal_actions()
            action = rng.choice(legal)
            native.step(action)
            contract.step(action)
            steps += 1
            if steps % 25 == 0:
                assert (
                    native.unwrapped.sengoku_state.to_json()
                    == contract.unwrapped.sengoku_state.to_json()
                )
        assert native.rewards == contract.rewards and native.infos == contract.infos
        episodes += 1
    assert episodes == 2 and steps > 60


def test_an_illegal_action_through_the_native_environment_ends_it_as_the_contracts() -> None:
    options = {"players": 2}
    if not _native_built("gunkimono", options):
        pytest.skip("gunkimono's native core is not in use")
    envs = [pz.env("gunkimono", **options), pz.env("gunkimono", native=False, **options)]
    outcomes = []
    for env in envs:
        env.reset(seed=4)
        for _ in range(5):
            env.step(env.legal_actions()[0])
        illegal = max(env.legal_actions()) + 1
        env.step(illegal)  # PettingZoo's logger warns; the offender loses
        outcomes.append((dict(env.rewards), dict(env.terminations), env.legal_actions()))
    assert outcomes[0] == outcomes[1]
    raw = pz.raw_env("gunkimono", **options)
    raw.reset(seed=4)
    before = raw.sengoku_state.to_json()
    with pytest.raises(sengoku.core.game.IllegalAction):
        raw.step(max(raw.legal_actions()) + 1)
    assert raw.sengoku_state.to_json() == before


def test_a_position_assigned_is_played_natively_from_a_copy() -> None:
    options = {"players": 3}
    if not _native_built("gunkimono", options):
        pytest.skip("gunkimono's native core is not in use")
    game = sengoku.load_game("gunkimono")
    state = game.new_state(seed=9, players=3)
    for _ in range(12):
        state.apply(state.legal_actions()[-1])
    env = pz.raw_env("gunkimono", **options)
    env.reset(seed=0)
    env.sengoku_state = state
    assert env.sengoku_state.to_json() == state.to_json()
    assert env.legal_actions() == game.legal_action_ints(state)
    env.step(env.legal_actions()[0])
    assert env.sengoku_state.to_json() != state.to_json()  # the assigned state is untouched
    assert env.render() is None  # no render mode: a warning, nothing drawn
    ansi = pz.raw_env("gunkimono", render_mode="ansi", **options)
    ansi.reset(seed=0)
    assert ansi.render() == game.render_text(ansi.sengoku_state, None)


@pytest.mark.parametrize(("name", "options"), CASES)
def test_observations_read_after_later_steps_are_those_of_their_own_step(
    name: str, options: dict[str, Any]
) -> None:
    """A native observation takes what it needs when it is made (Gungi's a small record of
    its planes, the others their tensor): read only at the end of an episode, each is the
    Python encoder's tensor of its own step's view, for every seat."""
    if not _native_built(name, options):
        pytest.skip(f"{name}'s native core is not in use")
    env = pz.raw_env(name, **options)
    env.reset(seed=7)
    rng = random.Random(7)
    kept: list[tuple[Any, np.ndarray]] = []
    while env.agents:
        state = env.sengoku_state
        for agent in env.agents:
            seat = env.agent_seat[agent]
            kept.append((env.observe(agent), env.encoder.encode(state.view(seat), seat)))
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(rng.choice(env.legal_actions(agent)))
    assert len(kept) > 20
    for step, (observation, tensor) in enumerate(kept):
        assert np.array_equal(observation["observation"], tensor), step


def test_a_gungi_record_that_is_not_a_capture_is_refused() -> None:
    """Gungi's observation record is expanded only when it is one the core made: anything
    else is refused, naming what was expected, and the tensor is not touched."""
    play = sengoku.load_game("gungi").native_play(mode="intro")
    if play is None or play.captures is None:
        pytest.skip("Gungi's native core is not in use")
    captures = play.captures
    record = captures.capture(play.deal(1), 0)
    out = np.full(captures.shape, 7.0, dtype=np.float32)
    for bad in (b"", record[:-1], record + b"\x00\x00", b"\xff" * len(record)):
        with pytest.raises(ValueError, match="not a capture of Match.capture"):
            captures.encode_into(bad, 0, out)
        assert (out == 7.0).all()
    with pytest.raises(ValueError, match="float32 of the encoder's shape"):
        captures.encode_into(record, 0, np.zeros(10, dtype=np.float32))
    assert np.array_equal(captures.encode(record, 0), play.observe(play.deal(1), 0))
