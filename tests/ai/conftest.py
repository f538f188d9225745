from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import toygames


@pytest.fixture
def toys() -> Iterator[None]:
    """The test games, in the registry for the duration of one test."""
    toygames.register_toys()
    yield
    toygames.unregister_toys()
