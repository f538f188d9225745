from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from tests.toygames import register_race, unregister_race


@pytest.fixture
def race() -> Iterator[None]:
    """The Race test game, in the registry for the duration of one test."""
    register_race()
    yield
    unregister_race()


@pytest.fixture
def quiet() -> Iterator[None]:
    """PettingZoo's api_test warns that dict observations are not arrays (as for its own
    classic games, which use the same {"observation", "action_mask"} dicts): silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
