"""Gunkimono test configuration: the soak marker (``make soak`` selects it)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "soak: long random-play runs; make soak runs thousands")
