"""Claims on the opponent's time, and AI seats: budgets, failures, take-backs, owners."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import FakeTime, auth, new_match
from fastapi.testclient import TestClient


def play(client: TestClient, mid: str, token: str, action: str, ply: int) -> Any:
    return client.post(
        f"/api/matches/{mid}/actions", json={"action": action, "ply": ply}, headers=auth(token)
    )


def test_claim_wins_only_on_the_opponents_time(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    with make_client(claim_after=60.0) as client:
        m = new_match(client, options={"pile": 20})
        mid, t0 = m["id"], m["tokens"]["0"]
        # seat 1 is gone for ages, but seat 0 is to move: its own time, no claim
        fake_time.advance(600)
        r = client.post(f"/api/matches/{mid}/claim", headers=auth(t0))
        assert r.status_code == 409 and r.json()["error"]["code"] == "your_turn"
        assert client.get(f"/api/matches/{mid}").json()["status"] == "active"
        assert play(client, mid, t0, "take 1", 0).status_code == 200
        # now seat 1 is to act, and seat 1 is the one that left: the claim wins
        fake_time.advance(61)
        r = client.post(f"/api/matches/{mid}/claim", headers=auth(t0))
        assert r.status_code == 200, r.text
        assert r.json()["result"]["reason"] == "abandoned" and r.json()["result"]["winners"] == [0]
        # and the one to move never wins by claiming against a player who waits
        n = new_match(client, options={"pile": 20})
        assert play(client, n["id"], n["tokens"]["0"], "take 1", 0).status_code == 200
        fake_time.advance(600)
        r = client.post(f"/api/matches/{n['id']}/claim", headers=auth(n["tokens"]["1"]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "your_turn"
