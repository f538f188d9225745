"""OpenSpiel's legal lists and observation tensors of a game with native play
(``Game.native_play``: every game's core) come from a native match played
along with the contract state (``_Match.shadow``): they must be the contract's legal integers
and the Python encoder's tensors of ``view(seat)`` (built here without the core), for every
player and the public observer, through play, clones that go their own ways, serialization
and resampled worlds."""

from __future__ import annotations

import random

import numpy as np
import pyspiel  # type: ignore[import-not-found]
import pytest
from open_spiel.python.observation import make_observation  # type: ignore[import-untyped]

import sengoku
from sengoku.interop import openspiel as osp


def _native_built(name: str) -> bool:
    return sengoku.load_game(name).native_play() is not None


PUBLIC = pyspiel.IIGObservationType(
    perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
)


def _check(game: osp.SengokuSpielGame, state: osp.SengokuSpielState) -> None:
    """Every player's tensor and the public one against the Python encoder's, and the legal
    integers (the core's list) against the contract's."""
    encoder = game.encoder
    contract = state.sengoku_state
    assert state.legal_actions() == (
        [] if contract.is_terminal() else game.sengoku_game.legal_action_ints(contract)
    )
    players = make_observation(game)
    public = make_observation(game, PUBLIC)
    for seat in range(game.num_players()):
        players.set_from(state, seat)
        want = encoder.encode(contract.view(seat), seat)
        assert np.array_equal(players.tensor.reshape(want.shape), want), seat
    public.set_from(state, 0)
    want = encoder.encode(contract.view(None), None)
    assert np.array_equal(public.tensor.reshape(want.shape), want)


def _deal(game: osp.SengokuSpielGame, rng: random.Random) -> osp.SengokuSpielState:
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.randrange(osp.CHANCE_OUTCOMES))
    return state


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("gungi", {"mode": "intro"}),
        ("gungi", {"mode": "advanced", "archer_blockers": "front_and_wing"}),
        ("gunkimono", {"players": 2}),
        ("gunkimono", {"players": 3}),
        ("gunkimono", {"players": 5}),
        ("gunshi", {}),
        ("gunshi", {"variant": "custom", "sanryaku": True}),
        ("sashimono", {"mode": "duel"}),
        ("sashimono", {"mode": "duel", "army": "east", "challenge_corners": True}),
        ("sashimono", {"mode": "solo"}),
    ],
)
def test_native_tensors_are_the_encoders_through_play_and_clones(
    name: str, options: dict[str, object]
) -> None:
    if not _native_built(name):
        pytest.skip(f"{name}'s native core is not in use")
    game = osp.load(name, **options)
    assert game.context.native is not None
    rng = random.Random(len(options))
    state = _deal(game, rng)
    plies = 0
    while not state.is_terminal():
        if plies % 3 == 0:
            _check(game, state)
        if plies % 40 == 20:  # a clone goes its own way; the original must not follow it
            twin = state.clone()
            for _ in range(5):
                if twin.is_terminal():
                    break
                twin.apply_action(rng.choice(twin.legal_actions()))
            _check(game, twin)
            _check(game, state)
        if plies == 50:  # a serialized state is observed as the one it came from
            copy = game.deserialize_state(state.serialize())
            _check(game, copy)
        state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    _check(game, state)
    assert plies > 50


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("gungi", {"mode": "beginner"}),
        ("gunkimono", {"players": 3}),
        ("gunshi", {}),
        ("sashimono", {}),
    ],
)
def test_resampled_worlds_and_loaded_positions_are_observed_as_theirs(
    name: str, options: dict[str, object]
) -> None:
    if not _native_built(name):
        pytest.skip(f"{name}'s native core is not in use")
    game = osp.load(name, **options)
    rng = random.Random(7)
    state = _deal(game, rng)
    for _ in range(30):
        _check(game, state)  # the shadow is made, then played along
        state.apply_action(rng.choice(state.legal_actions()))
    world = state.resample_from_infostate(1, random.Random(1).random)
    _check(game, world)
    world.apply_action(world.legal_actions()[0])
    _check(game, world)
    position = game.new_initial_state(state.sengoku_state)
    _check(game, position)
