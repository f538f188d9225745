from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The test games live with the AI tests.
sys.path.insert(0, str(Path(__file__).parent.parent / "ai"))

import sengoku_toygames  # noqa: E402


@pytest.fixture
def toys() -> Iterator[None]:
    """The test games, in the registry for the duration of one test."""
    sengoku_toygames.register_toys()
    yield
    sengoku_toygames.unregister_toys()
