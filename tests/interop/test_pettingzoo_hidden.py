"""A PettingZoo observation holds only what its seat may see (issue 15 item 7).

An agent that walks an observation's object graph (``gc.get_referents``, ``vars``) must find
no game state, no random generator, no seed and no view other than its own: before, the
observation's ``_source`` held an episode with the live true state (``obs._source[1].live``)
and the seed and every seat's actions, which replay it.
"""

from __future__ import annotations

import gc
import json
import random
import types
from typing import Any

import numpy as np
import pytest

from sengoku.core.game import State
from sengoku.interop import pettingzoo as pz
from sengoku.interop.encoders import Encoder

GAMES = [
    ("gunshi", {}),
    ("sashimono", {"mode": "duel"}),
    ("sashimono", {"mode": "solo"}),
    ("gunkimono", {"players": 3}),
    ("gungi", {"mode": "intro"}),
]


def _reachable(root: object, stop: tuple[type, ...] = ()) -> list[object]:
    """Every object reachable from ``root`` (classes, modules and functions left out: they
    are code, shared by everyone), not walking into instances of ``stop``."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type | types.ModuleType | types.FunctionType):
            continue
        seen[id(obj)] = obj
        if obj is not root and isinstance(obj, stop):
            continue
        todo.extend(gc.get_referents(obj))
        if hasattr(obj, "__dict__") and not isinstance(obj, type):
            todo.extend(vars(obj).values())
    return list(seen.values())


def _plain(obj: Any) -> Any:
    return json.loads(json.dumps(obj, sort_keys=True, default=str))


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_observations_reach_no_state_and_no_other_view(name: str, options: dict) -> None:
    env = pz.raw_env(name, **options)
    env.reset(seed=5)
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        if not env.agents:
            break
        state = env.sengoku_state
        for agent in env.agents:
            seat = env.agent_seat[agent]
            observation = env.observe(agent)
            everything = _reachable(observation)
            assert not [o for o in everything if isinstance(o, State)], "a State is reachable"
            assert not [o for o in everything if isinstance(o, random.Random)]
            # Apart from the encoder (static tables shared by every seat), the observation's
            # data is its mask and the seat's own view (or the encoder's snapshot of it, as
            # Gungi's: the view's fields as integers), nothing else.
            own = _reachable(observation, stop=(Encoder,))
            dicts = [o for o in own if isinstance(o, dict) and o is not observation]
            views = [d for d in dicts if not any(d is x for x in _nested(dicts))]
            captured = env.encoder.capture(state, seat)
            if env.native:
                # A native match's observation holds what the core took when it was made:
                # the tensor it encoded, or its small record of it (Gungi's planes), which
                # makes the Python encoder's tensor of the seat's view; nothing else.
                assert views == []
                tensors = [o for o in own if isinstance(o, np.ndarray) and o.dtype == np.float32]
                records = [o for o in own if isinstance(o, bytes)]
                assert len(tensors) + len(records) == 1
                tensor = env.encoder.encode(state.view(seat), seat)
                assert np.array_equal(tensors[0] if tensors else observation["observation"], tensor)
            elif isinstance(captured, dict):
                # The view, or the part of it the encoder reads (Sashimono's snapshot): every
                # entry one of the view's, and the view's tensor.
                assert [_plain(v) for v in views] == [_plain(captured)]
                assert _within(_plain(captured), _plain(state.view(seat)))
                tensor = env.encoder.encode(state.view(seat), seat)
                assert np.array_equal(env.encoder.encode(views[0], seat), tensor)
            else:
                assert views == []
                snapshots = [o for o in own if type(o) is type(captured)]
                assert snapshots == [captured]
                tensor = env.encoder.encode(state.view(seat), seat)
                assert np.array_equal(env.encoder.encode(snapshots[0], seat), tensor)
            arrays = [o for o in own if isinstance(o, np.ndarray)]
            assert all(a is observation["action_mask"] for a in arrays if a.dtype == np.int8)
            checked += 1
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask).tolist())))
    assert checked >= 20


def _within(part: Any, whole: Any) -> bool:
    """Whether ``part`` is ``whole`` less some keys of its dicts (at any depth)."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(
            k in whole and _within(v, whole[k]) for k, v in part.items()
        )
    if isinstance(part, list):
        return (
            isinstance(whole, list)
            and len(part) == len(whole)
            and all(_within(x, y) for x, y in zip(part, whole, strict=True))
        )
    return bool(part == whole)


def _nested(dicts: list[dict]) -> list[object]:
    """The dicts found inside the values of ``dicts`` (so only top-level dicts remain)."""
    inner: list[object] = []
    for d in dicts:
        todo = list(d.values())
        while todo:
            value = todo.pop()
            if isinstance(value, dict):
                inner.append(value)
                todo.extend(value.values())
            elif isinstance(value, list | tuple):
                todo.extend(value)
    return inner


def test_the_encoder_holds_no_state() -> None:
    env = pz.raw_env("gunkimono", players=3)
    env.reset(seed=1)
    for _ in range(10):
        env.observe(env.agent_selection)["observation"]  # noqa: B018 - fills the encoder's caches
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert not [o for o in _reachable(env.encoder) if isinstance(o, State | random.Random)]


def _raw_card(obj: object) -> bool:
    """A Gunshi card as its state holds it, ``(code, known, up)`` or ``(code, known, up, bag
    id)`` (a snapshot holds codes, or None where the seat may not see the card)."""
    return (
        isinstance(obj, tuple)
        and len(obj) in (3, 4)
        and isinstance(obj[0], str)
        and isinstance(obj[2], bool)
    )


def test_gunshi_observations_reach_no_kept_snapshot_part() -> None:
    """Gunshi's environment keeps the parts of its last snapshots, with the state fields they
    were made from (both hands among them), to reuse them (``GunshiEncoder.capturer``). An
    observation must reach none of that, not even through the encoder it holds: walking
    everything reachable from it, encoder included, finds no card as the state holds it and
    no side snapshot but the two of its own snapshot, with both seats observed every ply (the
    environment stepping contract states: a native match's observation holds only its
    tensor and mask, test_observations_reach_no_state_and_no_other_view)."""
    from sengoku.games.gunshi.encoder import SideSnapshot

    env = pz.raw_env("gunshi", native=False)
    env.reset(seed=3)
    rng = random.Random(3)
    checked = 0
    for _ in range(120):
        if not env.agents:
            break
        for agent in env.agents:
            observation = env.observe(agent)
            everything = _reachable(observation)
            assert not [o for o in everything if _raw_card(o)], "a state's card is reachable"
            sides = [o for o in everything if isinstance(o, SideSnapshot)]
            (snapshot,) = [o for o in everything if type(o).__name__ == "GunshiSnapshot"]
            assert sorted(map(id, sides)) == sorted(map(id, snapshot.sides))
            checked += 1
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask).tolist())))
    assert checked >= 100


def test_a_seats_observations_reach_only_its_own_encoders_memory() -> None:
    """Encoders keep parts of the views they encoded, to be fast: Sashimono's keeps the Sonae
    stacks it was last shown, per observer, and the owner of a face-down stack is shown its
    types. An observation holds its encoder (to encode its tensor when read), so an encoder
    shared by both seats let one seat's observation reach the other seat's face-down types
    once that seat's tensor had been read. Along a duel where both seats' tensors are read
    every ply, the encoder each observation reaches has kept stacks for its seat alone (the
    environment stepping contract states: a native match's observation holds only its
    tensor and mask, test_observations_reach_no_state_and_no_other_view)."""
    env = pz.raw_env("sashimono", mode="duel", native=False)
    env.reset(seed=2)
    rng = random.Random(2)
    kept_for_other_seat = 0
    checked = 0
    for _ in range(150):
        if not env.agents:
            break
        for agent in env.agents:
            seat = env.agent_seat[agent]
            observation = env.observe(agent)  # its tensor not read yet: it holds the encoder
            (encoder,) = [o for o in _reachable(observation) if isinstance(o, Encoder)]
            observers = {observer for observer, _whose in encoder._stack_cache}
            kept_for_other_seat += len(observers - {seat})
            checked += 1
            observation["observation"]  # noqa: B018 - encodes the tensor: the encoder keeps
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask).tolist())))
    assert checked >= 100
    assert kept_for_other_seat == 0, "an observation reaches stacks shown to another seat"
