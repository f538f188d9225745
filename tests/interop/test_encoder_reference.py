"""The encoders give exactly the tensors of the reference (unoptimised) encoders."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import sengoku
from sengoku.interop.encoders import encoder_for
from tests.interop import reference_encoders

CASES: list[tuple[str, dict[str, Any]]] = [
    ("gungi", {"mode": "intro"}),
    ("gunkimono", {"players": 2}),
    ("gunkimono", {"players": 4}),
    ("gunshi", {}),
    ("sashimono", {"mode": "duel"}),
    ("sashimono", {"mode": "solo"}),
]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_same_tensors_as_the_reference(name: str, options: dict[str, Any]) -> None:
    """Every seat's and the spectator's view along random games, one encoder for all (as an
    environment shares it), encodes to the reference's tensor, entry for entry."""
    game = sengoku.load_game(name)
    encoder = encoder_for(game, options)
    reference = reference_encoders.encoder_for(game, options)
    assert encoder.shape == reference.shape
    rng = random.Random(7)
    compared = 0
    for seed in range(3):
        state = game.new_state(seed=seed, **options)
        plies = 0
        while not state.is_terminal() and plies < 150:
            for seat in [*range(state.num_players), None]:
                view = state.view(seat)
                got = encoder.encode(view, seat)
                want = reference.encode(view, seat)
                assert got.dtype == want.dtype == np.float32
                assert np.array_equal(got, want), (name, seed, plies, seat)
                compared += 1
            state.apply(rng.choice(state.legal_actions()))
            plies += 1
    assert compared > 300


def test_gunkimono_board_cache_follows_a_changed_view() -> None:
    """The Gunkimono encoder keeps the last board's indices: a caller that changes the lists
    of a view it encoded, or encodes another game's views in between, still gets the
    reference's tensors."""
    game = sengoku.load_game("gunkimono")
    encoder = encoder_for(game, {"players": 2})
    reference = reference_encoders.encoder_for(game, {"players": 2})
    state = game.new_state(seed=3, players=2)
    rng = random.Random(3)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(0)
    first = encoder.encode(view, 0)
    board = view["board"]
    board["levels"][0] += 1
    board["symbols"][1] = 2
    board["troops"][2] = "?"
    changed = encoder.encode(view, 0)
    assert not np.array_equal(first, changed)
    assert np.array_equal(changed, reference.encode(view, 0))
    other = game.new_state(seed=4, players=2).view(1)
    assert np.array_equal(encoder.encode(other, 1), reference.encode(other, 1))
    assert np.array_equal(encoder.encode(view, 0), changed)


def test_sashimono_stack_cache_follows_a_changed_view() -> None:
    """The Sashimono encoder keeps the last stacks' indices per observer: a caller that
    changes a stack of a view it encoded, or a spectator after a seat, still gets the
    reference's tensors."""
    game = sengoku.load_game("sashimono")
    encoder = encoder_for(game, {"mode": "duel"})
    reference = reference_encoders.encoder_for(game, {"mode": "duel"})
    state = game.new_state(seed=1, mode="duel")
    rng = random.Random(1)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(0)
    first = encoder.encode(view, 0)
    stack = next(s for s in view["sides"][0]["sonae"] if s is not None)
    stack["attack"] += 3
    changed = encoder.encode(view, 0)
    assert not np.array_equal(first, changed)
    assert np.array_equal(changed, reference.encode(view, 0))
    spectator = state.view(None)
    assert np.array_equal(encoder.encode(spectator, None), reference.encode(spectator, None))
    assert np.array_equal(encoder.encode(view, 0), changed)


@pytest.mark.parametrize(
    ("name", "options", "seeds"),
    [
        # The Sashimono encoder's kept stack blocks (per observer and side, rewritten stack
        # by stack), in both modes.
        ("sashimono", {"mode": "duel"}, range(10, 16)),
        ("sashimono", {"mode": "solo"}, range(10, 16)),
        ("gunshi", {}, (31, 32)),
        ("gunkimono", {"players": 5}, (31, 32)),
    ],
)
def test_whole_games_every_seat(name: str, options: dict[str, Any], seeds: Any) -> None:
    """Whole random games (not only their openings), every seat and the spectator: the
    encoder gives the reference's tensors."""
    game = sengoku.load_game(name)
    encoder = encoder_for(game, options)
    reference = reference_encoders.encoder_for(game, options)
    rng = random.Random(21)
    compared = 0
    for seed in seeds:
        state = game.new_state(seed=seed, **options)
        while not state.is_terminal():
            for seat in [*range(state.num_players), None]:
                view = state.view(seat)
                assert np.array_equal(encoder.encode(view, seat), reference.encode(view, seat))
                compared += 1
            state.apply(rng.choice(state.legal_actions()))
    assert compared > 600
