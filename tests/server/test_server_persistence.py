"""Persistence: a restarted server resumes every match from its seed and moves.

One test restarts the app in-process on the same SQLite file; another runs the real server
(``python -m sengoku serve``) on 127.0.0.1 at a free port, kills it with SIGKILL mid-game,
restarts it and plays on.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from conftest import action_id, auth, new_match
from fastapi.testclient import TestClient
from real_server import server

from tests.waiting import ok


def test_restart_resumes_every_match(make_client: Callable[..., TestClient], db_url: str) -> None:
    with make_client() as client:
        a = new_match(client, options={"pile": 40, "peek": True}, seed=3)
        b = new_match(client, seats=[{"kind": "local"}, {"kind": "invite"}])
        aid, a0, a1 = a["id"], a["tokens"]["0"], a["tokens"]["1"]
        for i, action in enumerate(["take 1", "draw", "peek", "take 2", "take 1"]):
            token = a0 if i % 2 == 0 else a1
            r = client.post(
                f"/api/matches/{aid}/actions",
                json={"action": action, "id": action_id()},
                headers=auth(token),
            )
            assert r.status_code == 200, r.text
        before = {t: client.get(f"/api/matches/{aid}", headers=auth(t)).json() for t in (a0, a1)}
        events_before = client.get(f"/api/matches/{aid}/events", headers=auth(a1)).json()
        waiting = client.get(f"/api/matches/{b['id']}").json()
    with make_client() as client:
        for t in (a0, a1):
            assert client.get(f"/api/matches/{aid}", headers=auth(t)).json() == before[t]
        assert client.get(f"/api/matches/{aid}/events", headers=auth(a1)).json() == events_before
        assert client.get(f"/api/matches/{b['id']}").json() == waiting
        # the game goes on, and the invitation still works
        r = client.post(
            f"/api/matches/{aid}/actions",
            json={"action": "take 1", "id": action_id()},
            headers=auth(a1),
        )
        assert r.status_code == 200 and r.json()["ply"] == 6
        r = client.post(f"/api/matches/{b['id']}/join", json={"invite": b["invites"][0]["invite"]})
        assert r.status_code == 200


def test_a_match_whose_rules_version_changed_is_closed(
    make_client: Callable[..., TestClient], db_url: str
) -> None:
    with make_client() as client:
        m = new_match(client)
        mid, t0 = m["id"], m["tokens"]["0"]
        client.post(
            f"/api/matches/{mid}/actions",
            json={"action": "take 1", "id": action_id()},
            headers=auth(t0),
        )
        done = new_match(client)
        client.post(f"/api/matches/{done['id']}/resign", headers=auth(done["tokens"]["0"]))
    path = db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE matches SET version = 0")
    with make_client() as client:
        snap = client.get(f"/api/matches/{mid}", headers=auth(t0)).json()
        assert snap["status"] == "closed" and snap["view"] is None
        assert "rules version 0" in snap["close_reason"]
        r = client.post(
            f"/api/matches/{mid}/actions",
            json={"action": "take 1", "id": action_id()},
            headers=auth(t0),
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "match_closed"
        assert "version" in r.json()["error"]["message"]
        events = client.get(f"/api/matches/{mid}/events").json()["events"]
        assert events[-1]["event"]["type"] == "closed"
        # the finished one keeps its status and record, with the reason it cannot replay
        old = client.get(f"/api/matches/{done['id']}").json()
        assert old["status"] == "finished" and "version" in old["close_reason"]
        assert client.get(f"/api/records/{done['id']}").json()["version"] == 0


def test_tokens_are_stored_hashed(make_client: Callable[..., TestClient], db_url: str) -> None:
    with make_client() as client:
        m = new_match(client, seats=[{"kind": "local"}, {"kind": "invite"}])
        invite = m["invites"][0]["invite"]
        joined = client.post(f"/api/matches/{m['id']}/join", json={"invite": invite}).json()
    secrets_ = [m["tokens"]["0"], invite, joined["token"]]
    dump = "\n".join(sqlite3.connect(db_url.removeprefix("sqlite:///")).iterdump())
    for s in secrets_:
        assert s not in dump
    import hashlib

    assert hashlib.sha256(m["tokens"]["0"].encode()).hexdigest() in dump


def test_kill_9_mid_game_loses_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'kill.db'}"
    log = tmp_path / "server.log"
    rng = random.Random(5)
    with server(url, log) as base, httpx.Client(base_url=base, timeout=30) as http:
        r = http.post(
            "/api/matches",
            json={"game": "gungi", "seats": [{"kind": "local"}, {"kind": "local"}], "seed": 1},
        )
        m = ok(r, 201)
        mid, tokens = m["id"], [m["tokens"]["0"], m["tokens"]["1"]]
        snap = m["match"]
        played = []
        for _ in range(12):
            seat = snap["to_act"]
            snap = ok(http.get(f"/api/matches/{mid}", headers=auth(tokens[seat])))
            action = rng.choice(snap["legal"])["action"]
            r = http.post(
                f"/api/matches/{mid}/actions",
                json={"action": action, "ply": snap["ply"]},
                headers=auth(tokens[seat]),
            )
            snap = ok(r)
            played.append(action)
        views = [ok(http.get(f"/api/matches/{mid}", headers=auth(t))) for t in tokens]
    # the server was SIGKILLed on leaving the block
    with server(url, log) as base, httpx.Client(base_url=base, timeout=30) as http:
        again = [ok(http.get(f"/api/matches/{mid}", headers=auth(t))) for t in tokens]
        for old, new in zip(views, again, strict=True):
            old.pop("clocks"), new.pop("clocks")
            assert new == old
        seat = again[0]["to_act"]
        action = again[seat]["legal"][0]["action"]
        r = http.post(
            f"/api/matches/{mid}/actions",
            json={"action": action, "ply": 12},
            headers=auth(tokens[seat]),
        )
        assert ok(r)["ply"] == 13
        ok(http.post(f"/api/matches/{mid}/resign", headers=auth(tokens[0])))
        record = ok(http.get(f"/api/records/{mid}"))
        assert record["actions"] == played + [action]
    text = log.read_text()
    assert "POST /api/matches/" in text  # the access log is on, and holds no secret
    for token in tokens:
        assert token not in text


def test_a_match_that_no_longer_replays_is_closed_without_quoting_moves(
    make_client: Callable[..., TestClient], db_url: str
) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 20})
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        client.post(
            f"/api/matches/{mid}/actions",
            json={"action": "take 1", "id": action_id()},
            headers=auth(t0),
        )
        client.post(
            f"/api/matches/{mid}/actions",
            json={"action": "take 2", "id": action_id()},
            headers=auth(t1),
        )
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as conn:
        conn.execute("UPDATE moves SET action = 'take 7 SECRET' WHERE seq = 1")
    with make_client() as client:
        snap = client.get(f"/api/matches/{mid}", headers=auth(t0)).json()
        assert snap["status"] == "closed"
        assert (
            snap["close_reason"] == "this match no longer replays on this server's rules at move 2"
        )
        events = client.get(f"/api/matches/{mid}/events").json()
        assert "SECRET" not in json.dumps(events) and "SECRET" not in json.dumps(snap)


def test_a_match_that_is_over_is_replayed_in_the_work_pool_when_loaded_again(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone may make the server load a finished (or imported) match again by asking for
    it: its replay runs in the work pool, bounded in time and number, and a busy pool is a
    503 that leaves the match as it was stored."""
    from sengoku.server import service as service_mod
    from sengoku.server.work import WorkPool, WorkRefused

    with make_client() as client:
        m = new_match(client, options={"pile": 5}, seed=4)
        mid, tokens = m["id"], [m["tokens"]["0"], m["tokens"]["1"]]
        snap = client.get(f"/api/matches/{mid}", headers=auth(tokens[0])).json()
        while snap["status"] == "active":
            token = tokens[snap["to_act"]]
            snap = client.get(f"/api/matches/{mid}", headers=auth(token)).json()
            r = client.post(
                f"/api/matches/{mid}/actions",
                json={"action": snap["legal"][0]["action"], "ply": snap["ply"]},
                headers=auth(token),
            )
            assert r.status_code == 200, r.text
            snap = r.json()
        finished = client.get(f"/api/matches/{mid}", headers=auth(tokens[0])).json()
        assert finished["status"] == "finished"
    replayed: list[int] = []
    real = service_mod.replayed_state

    def counted(data: dict[str, object]) -> dict[str, object]:
        replayed.append(len(data["actions"]))  # type: ignore[arg-type]
        return real(data)

    monkeypatch.setattr(service_mod, "replayed_state", counted)

    async def busy(self: WorkPool, fn: object, *args: object) -> object:
        raise WorkRefused("busy", "the server is busy with other replays; try again soon")

    with make_client() as client, monkeypatch.context() as busy_pool:  # nothing in memory
        busy_pool.setattr(WorkPool, "run", busy)
        r = client.get(f"/api/matches/{mid}", headers=auth(tokens[0]))
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy", r.text
    with make_client(work_mode="thread") as client:  # (a counting job cannot be pickled)
        assert client.get(f"/api/matches/{mid}", headers=auth(tokens[0])).json() == finished
        assert replayed == [finished["ply"]]
    monkeypatch.undo()
    with make_client() as client:  # and in the worker processes the server runs by default
        assert client.get(f"/api/matches/{mid}", headers=auth(tokens[1])).json()["view"]
