"""Fixtures: a server app on a temporary SQLite file, a fake clock, and the test game."""

from __future__ import annotations

import os
import sys
import tempfile
import uuid
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    # Starlette suggests another HTTP client for its test client; httpx works as it is.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))
# Hypothesis keeps its files out of the work tree.
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY", str(Path(tempfile.gettempdir()) / "sengoku-hypothesis")
)

from sengoku.server import Settings, create_app  # noqa: E402
from tests import toygames  # noqa: E402


class FakeTime:
    """A time source the tests move by hand."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture(autouse=True)
def toy_game() -> Iterator[None]:
    """Secret Nim is in the registry for each server test, and only then."""
    toygames.register_secretnim()
    yield
    toygames.unregister_secretnim()


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.db'}"


@pytest.fixture
def make_client(db_url: str, fake_time: FakeTime) -> Callable[..., TestClient]:
    """``with make_client() as client:`` a fresh app on the same database each call."""

    def make(**overrides: Any) -> TestClient:
        settings = Settings(
            db_url=db_url,
            now=fake_time,
            ai_mode="thread",
            ai_initializer=toygames.register_secretnim,
            timers=False,
        )
        for key, value in overrides.items():
            setattr(settings, key, value)
        return TestClient(create_app(settings))

    return make


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_match(
    client: TestClient,
    game: str = "secretnim",
    seats: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    body = {"game": game, "seats": seats or [{"kind": "local"}, {"kind": "local"}], **extra}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def action_id() -> str:
    """A fresh client id for an action (``POST .../actions`` needs ``ply`` or ``id``)."""
    return uuid.uuid4().hex
