"""No adapter hands out what decides hidden information (issue 40 item 1).

Solo Sashimono's Gymnasium environment returned ``info={"seed": ...}`` at reset, and that
seed rebuilds the whole hidden state (the Kagemusha's decks and Army card): an agent could
read its future. The worlds compared here are made with the game's own API, not with the
adapters: a dealt state and its ``determinize``d twins, which show seat 0 the same view and
differ in the hidden cards. Whatever an adapter returns for them (observation, info,
``render``, ``str``) must be the same, and no info may hold a number, a generator or a state
from which the deal follows.
"""

from __future__ import annotations

import gc
import random
import re
import types
from typing import Any

import numpy as np
import pytest

import sengoku
from sengoku.core.game import State
from sengoku.interop import gymnasium as gym_interop
from sengoku.interop import openspiel as osp
from sengoku.interop import pettingzoo as pz
from sengoku.interop.vector import VectorEnv

SOLO: dict[str, Any] = {"mode": "solo"}


def _hidden(state: State) -> Any:
    """Sashimono's sides in full: decks, hands, the Kagemusha's Army card."""
    return state.to_json()["sides"]


def _twins(seed: int, count: int = 3) -> list[State]:
    """A dealt solo Sashimono and worlds seat 0 cannot tell from it, by the game's own API."""
    game = sengoku.load_game("sashimono")
    state = game.new_state(seed=seed, **SOLO)
    worlds = [state] + [state.determinize(0, random.Random(k)) for k in range(count - 1)]
    assert all(w.view(0) == state.view(0) for w in worlds)
    # They differ in hidden cards, or the comparisons below would prove nothing.
    assert len({repr(_hidden(w)) for w in worlds}) == len(worlds)
    return worlds


def _shown(obj: object) -> str:
    """``repr(obj)`` without object addresses (they differ between any two objects)."""
    return re.sub(r"0x[0-9a-f]+", "0x", repr(obj))


def _leaves(obj: object) -> list[object]:
    """Every object reachable from ``obj`` (code left out), its own contents included."""
    seen: dict[int, object] = {}
    todo = [obj]
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, type | types.ModuleType | types.FunctionType):
            continue
        seen[id(item)] = item
        todo.extend(gc.get_referents(item))
        if hasattr(item, "__dict__"):
            todo.extend(vars(item).values())
    return list(seen.values())


def assert_reveals_no_deal(info: dict[str, Any], start: State) -> None:
    """``info`` names no seed or generator and holds no state, generator or number from which
    the deal of the episode that began at ``start`` follows (each integer is tried as a
    Sengoku seed)."""
    game, truth = start.game, start.to_json()
    for item in _leaves(info):
        if isinstance(item, str):
            assert "seed" not in item.lower() and "rng" not in item.lower(), info
        assert not isinstance(
            item, State | random.Random | np.random.Generator | np.random.BitGenerator
        ), info
        if isinstance(item, int | np.integer) and not isinstance(item, bool):
            dealt = game.new_state(seed=int(item), **dict(start.options))
            assert dealt.to_json() != truth, f"{info} holds the seed {item} of the deal"


def test_gymnasium_reset_and_step_infos_reveal_no_deal() -> None:
    env = gym_interop.SoloEnv("sashimono", **SOLO)
    rng = np.random.default_rng(0)
    for episode in range(2):
        observation, info = env.reset(seed=episode)
        start = env.sengoku_state.clone()
        # Before: {"seed": s}, and new_state(seed=s) was the Kagemusha's whole deal.
        assert_reveals_no_deal(info, start)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _reward, terminated, truncated, info = env.step(action)
            assert set(info) <= {"outcome", "illegal_action"}
            assert_reveals_no_deal(info, start)
            done = terminated or truncated


def test_gymnasium_answers_the_same_for_worlds_that_differ_only_in_hidden_cards() -> None:
    worlds = _twins(seed=3)
    envs = [gym_interop.SoloEnv("sashimono", render_mode="ansi", **SOLO) for _ in worlds]
    for env, world in zip(envs, worlds, strict=True):
        env.reset(seed=0)
        env.sengoku_state = world
    rng = random.Random(1)
    steps = 0
    # The environments' positions (a native environment plays a copy of the world assigned),
    # as long as seat 0 cannot tell them apart.
    while True:
        states = [env.sengoku_state for env in envs]
        if states[0].outcome() is not None or any(s.view(0) != states[0].view(0) for s in states):
            break
        seen = [env._observe() for env in envs]
        for other in seen[1:]:
            assert np.array_equal(other["observation"], seen[0]["observation"])
            assert np.array_equal(other["action_mask"], seen[0]["action_mask"])
        assert len({env.render() for env in envs}) == 1
        assert len({str(env) for env in envs}) == 1 and len({_shown(env) for env in envs}) == 1
        legal = np.flatnonzero(seen[0]["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        answers = [env.step(action) for env in envs]
        for answer in answers[1:]:
            assert answer[1:] == answers[0][1:]  # reward, terminated, truncated, info
        steps += 1
    assert steps >= 3  # the setup's choices at least, before the Kagemusha shows a card


def test_pettingzoo_answers_the_same_for_worlds_that_differ_only_in_hidden_cards() -> None:
    worlds = _twins(seed=4)
    envs = [pz.env("sashimono", render_mode="ansi", **SOLO) for _ in worlds]
    for env, world in zip(envs, worlds, strict=True):
        env.reset(seed=0)
        env.unwrapped.sengoku_state = world
    first = [env.last() for env in envs]
    for observation, *rest in first[1:]:
        assert np.array_equal(observation["observation"], first[0][0]["observation"])
        assert np.array_equal(observation["action_mask"], first[0][0]["action_mask"])
        assert rest == list(first[0][1:])
    assert len({env.render() for env in envs}) == 1
    assert len({str(env) for env in envs}) == 1 and len({_shown(env) for env in envs}) == 1
    for env, world in zip(envs, worlds, strict=True):
        assert_reveals_no_deal(env.infos, world)  # (the worlds are fresh deals)


@pytest.mark.parametrize("game", ["sashimono", "gunshi"])
def test_pettingzoo_and_vector_infos_reveal_no_deal(game: str) -> None:
    options: dict[str, Any] = SOLO if game == "sashimono" else {}
    env = pz.env(game, **options)
    env.reset(seed=5)
    start = env.unwrapped.sengoku_state.clone()
    rng = np.random.default_rng(5)
    for step, _agent in enumerate(env.agent_iter()):
        observation, _reward, termination, truncation, info = env.last()
        assert_reveals_no_deal(info, start)
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        if step > 150:
            break
    vector = VectorEnv(game, 2, **options)
    vector.reset(seed=5)
    for _ in range(150):
        _obs, _rewards, _terms, _truncs, infos = vector.step(vector.sample_actions())
        assert set(infos) == {"outcome"}
        for outcome in infos["outcome"]:
            assert outcome is None or set(outcome) == {"reason", "winners", "scores", "returns"}


def test_openspiel_answers_the_same_for_worlds_that_differ_only_in_hidden_cards() -> None:
    game = osp.load("sashimono", **SOLO)
    states = [game.new_initial_state(world) for world in _twins(seed=6)]
    for state in states[1:]:
        assert state.observation_string(0) == states[0].observation_string(0)
        assert state.observation_tensor(0) == states[0].observation_tensor(0)
        assert state.information_state_string(0) == states[0].information_state_string(0)
        assert state.legal_actions() == states[0].legal_actions()
        assert str(state) == str(states[0])
