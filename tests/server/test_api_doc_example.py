"""docs/api.md's create-match example is a request the server accepts as written (issue 40:
it once carried a seed beside an invited seat, which the server refuses)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _create_example() -> dict[str, object]:
    text = API_MD.read_text(encoding="utf-8")
    section = text.split("### Create: `POST /api/matches`", 1)[1]
    body = re.search(r"^```json\n(.*?)^```", section, re.S | re.M)
    assert body is not None, "docs/api.md: no JSON block under 'Create'"
    data: dict[str, object] = json.loads(body.group(1))
    return data


def test_the_create_match_example_is_accepted(make_client: Callable[..., TestClient]) -> None:
    body = _create_example()
    with make_client() as client:
        r = client.post("/api/matches", json=body)
        assert r.status_code == 201, r.text
        created = r.json()
        assert set(created["tokens"]) == {"0"} and len(created["invites"]) == 1, created
        match = created["match"]
        assert match["game"] == "gungi" and match["options"]["mode"] == "beginner"
        # A seed beside an invited seat is refused, as the page says.
        r = client.post("/api/matches", json={**body, "seed": 42})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "seed_not_allowed", r.text
