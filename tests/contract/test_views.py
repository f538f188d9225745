"""Views and JSON are copies, every registered game: what a caller does to them never
reaches the state.

A view handed to a client, or a state's JSON handed to storage, may be changed by its
holder (an encoder, a client library, a test). Scribbling over every list and dict in them
must leave the state, and every later view and JSON, exactly as they were.
"""

from __future__ import annotations

from typing import Any

import pytest

from sengoku.core.registry import load_game
from tests.contract.cases import PARAMS, SCALE, fingerprint, sample_positions


def scribble(data: Any) -> None:
    """Change every list and dict inside ``data`` in place."""
    if isinstance(data, dict):
        for key in list(data):
            value = data[key]
            scribble(value)
            if not isinstance(value, (dict, list)):
                data[key] = "scribbled"
        data["scribbled"] = True
    elif isinstance(data, list):
        for i, value in enumerate(data):
            scribble(value)
            if not isinstance(value, (dict, list)):
                data[i] = "scribbled"
        data.append("scribbled")


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_views_share_nothing_with_the_state(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    for seed in range(SCALE):
        for state in sample_positions(game, options, 400 + seed, 8):
            before = fingerprint(state)
            for seat in [*range(state.num_players), None]:
                scribble(state.view(seat))
                scribble(state.view(seat))  # twice: a view kept from the first call, if any
            assert fingerprint(state) == before, f"{name}: changing a view changed the state"


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_json_shares_nothing_with_the_state(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    for seed in range(SCALE):
        for state in sample_positions(game, options, 500 + seed, 8):
            before = fingerprint(state)
            scribble(state.to_json())
            assert fingerprint(state) == before, (
                f"{name}: changing to_json's dict changed the state"
            )
