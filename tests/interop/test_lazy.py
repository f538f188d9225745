"""PettingZoo observations encode their tensor on first read: whenever and however it is read,
it is the tensor of the position the observation was returned at."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import sengoku
from sengoku.interop import pettingzoo as pz
from sengoku.interop.encoders import LegalInts
from sengoku.interop.lazy import LazyObservation


def _episode(
    env: pz.raw_env, rng: np.random.Generator, plies: int
) -> tuple[list[dict[str, Any]], list[np.ndarray]]:
    """Random plies; every agent's observation (unread) and, beside it, its tensor encoded
    eagerly from the position of that moment."""
    kept: list[dict[str, Any]] = []
    want: list[np.ndarray] = []
    for _ in range(plies):
        if not env.agents:
            break
        state = env.sengoku_state
        for agent in env.agents:
            seat = env.agent_seat[agent]
            observation = env.observe(agent)
            assert isinstance(observation, LazyObservation) and not observation.encoded
            kept.append(observation)
            want.append(env.encoder.encode(state.view(seat), seat))
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return kept, want


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("gungi", {"mode": "intro"}),
        ("gunkimono", {"players": 3}),
        ("sashimono", {"mode": "duel"}),
        ("sashimono", {"mode": "solo"}),
        ("gunshi", {}),
    ],
)
def test_late_reads_give_the_tensor_of_their_position(name: str, options: dict) -> None:
    env = pz.raw_env(name, **options)
    env.reset(seed=11)
    rng = np.random.default_rng(1)
    kept, want = _episode(env, rng, 60)
    second, second_want = _episode(env, rng, 10)  # still in the same episode
    assert np.array_equal(kept[3]["observation"], want[3])  # read while the episode goes on
    env.reset(seed=12)  # a new episode: the first one's observations keep their views
    _episode(env, rng, 5)
    assert sum(o.encoded for o in kept) == 1
    # Out of order first, then in order.
    for i in (len(kept) - 1, 0, len(kept) // 2):
        assert np.array_equal(kept[i]["observation"], want[i])
    for observation, tensor in zip(kept + second, want + second_want, strict=True):
        assert np.array_equal(observation["observation"], tensor)
        assert observation.encoded


READS: dict[str, Callable[[dict[str, Any]], np.ndarray]] = {
    "getitem": lambda o: o["observation"],
    "get": lambda o: o.get("observation"),
    "items": lambda o: dict(o.items())["observation"],
    "values": lambda o: next(iter(o.values())),
    "dict": lambda o: dict(o)["observation"],
    "unpack": lambda o: {**o}["observation"],
    "iterate": lambda o: [o[k] for k in o][0],
    "copy": lambda o: o.copy()["observation"],
    "copy.copy": lambda o: copy.copy(o)["observation"],
    "deepcopy": lambda o: copy.deepcopy(o)["observation"],
    "pickle": lambda o: pickle.loads(pickle.dumps(o))["observation"],
    "or": lambda o: ({} | o)["observation"],
    "pop": lambda o: o.pop("observation"),
    "popitem": lambda o: dict([o.popitem(), o.popitem()])["observation"],
    "setdefault": lambda o: o.setdefault("observation"),
}


@pytest.mark.parametrize("how", sorted(READS))
def test_every_way_of_reading_the_dict_gives_the_tensor(how: str) -> None:
    env = pz.raw_env("sashimono", mode="duel")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    kept, want = _episode(env, rng, 12)
    observation, tensor = kept[5], want[5]
    assert observation.keys() == {"observation", "action_mask"}
    assert "observation" in observation and len(observation) == 2
    got = READS[how](observation)
    assert isinstance(got, np.ndarray) and got.dtype == np.float32
    assert np.array_equal(got, tensor)


def test_a_written_tensor_is_kept_and_repr_shows_the_tensor() -> None:
    env = pz.raw_env("gungi", mode="intro")
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)
    assert "array" in repr(observation) and observation.encoded
    other = env.observe(env.possible_agents[1])
    mine = np.ones(3, np.float32)
    other["observation"] = mine
    assert other["observation"] is mine


@pytest.mark.parametrize(("name", "options"), [("gungi", {"mode": "intro"}), ("gunshi", {})])
def test_legal_ints_are_the_contract_integers(name: str, options: dict) -> None:
    game = sengoku.load_game(name)
    num_actions = game.num_distinct_actions(**game.resolve_options(**options))
    legal = LegalInts(game, num_actions)
    state = game.new_state(seed=2, **options)
    rng = random.Random(2)
    for _ in range(40):
        legal.update(state)
        want = [game.action_to_int(state, a) for a in state.legal_actions()]
        assert legal.ints.tolist() == want and len(legal) == len(want)
        wanted = set(want)
        for n in [*rng.sample(range(num_actions), 50), *want, -1, num_actions, 10**30]:
            assert (n in legal) == (n in wanted)
        state.apply(rng.choice(state.legal_actions()))
    legal.update(None)
    assert len(legal) == 0 and want[0] not in legal


def test_a_position_set_from_outside_keeps_the_tensor_of_that_position() -> None:
    """A state assigned to the environment: its observations are still the tensor of that
    position when read later."""
    game = sengoku.load_game("sashimono")
    position = game.new_state(seed=9, mode="duel")
    rng = random.Random(9)
    for _ in range(20):
        position.apply(rng.choice(position.legal_actions()))
    env = pz.raw_env("sashimono", mode="duel")
    env.reset(seed=0)
    env.sengoku_state = position
    seat = position.current_player
    agent = env.possible_agents[seat]
    assert env.agent_selection == agent
    observation = env.observe(agent)
    assert not observation.encoded
    want = env.encoder.encode(position.view(seat), seat)
    legal = [game.action_to_int(position, a) for a in position.legal_actions()]
    assert np.flatnonzero(observation["action_mask"]).tolist() == legal
    env.step(legal[0])
    assert np.array_equal(observation["observation"], want)


@pytest.mark.parametrize("count", [0, 1, 4, 31, 32, 33, 200])
def test_a_mask_has_ones_at_the_legal_integers_only_and_is_the_callers(count: int) -> None:
    """``mask_of`` (short lists set byte by byte, long ones through an index array): an
    ``int8`` vector of ``num_actions`` with 1 exactly at the integers given, new and writable
    each call (the caller may change it), and an observation's mask is that vector."""
    from sengoku.interop.encoders import mask_of

    rng = random.Random(count)
    for num_actions in (559, 57025):
        ints = sorted(rng.sample(range(num_actions), count))
        mask = mask_of(ints, num_actions)
        assert mask.dtype == np.int8 and mask.shape == (num_actions,)
        assert np.flatnonzero(mask).tolist() == ints and set(mask.tolist()) <= {0, 1}
        again = mask_of(ints, num_actions)
        mask[:] = 1  # writable, and apart from the next one
        assert np.flatnonzero(again).tolist() == ints
        assert pickle.loads(pickle.dumps(again)).tolist() == again.tolist()
        observation = LazyObservation(pz.raw_env("gunshi").encoder, None, 0, ints, num_actions)
        assert np.array_equal(observation["action_mask"], again)


@pytest.mark.parametrize("first", ["observation", "action_mask"])
def test_either_array_read_first_and_the_encoder_let_go_once_both_are_made(first: str) -> None:
    """An observation keeps its seat's (encoder, seat, num_actions) while an array is still
    to be made, whichever is read first; once both are made it holds the arrays only (an
    environment of contract states: a native one's tensor is made with the observation)."""
    import gc

    env = pz.raw_env("gungi", mode="intro", native=False)
    env.reset(seed=6)
    rng = random.Random(6)
    for _ in range(30):
        env.step(rng.choice(env.legal_actions()))
    agent = env.agent_selection
    seat = env.agent_seat[agent]
    state = env.sengoku_state
    want = {
        "observation": env.encoder.encode(state.view(seat), seat),
        "action_mask": np.isin(np.arange(env.num_actions), env.legal_actions()).astype(np.int8),
    }
    observation = env.observe(agent)
    env.step(env.legal_actions()[0])  # later play changes neither array
    second = "action_mask" if first == "observation" else "observation"
    assert np.array_equal(observation[first], want[first])
    assert any(
        x is env._seat_encoders[seat] for x in gc.get_referents(*gc.get_referents(observation))
    )
    assert np.array_equal(observation[second], want[second])
    assert observation.encoded
    reachable = gc.get_referents(observation)
    assert not any(isinstance(x, tuple) for x in reachable)  # no (encoder, seat, n) kept
    assert not any(x is env._seat_encoders[seat] for x in reachable)
