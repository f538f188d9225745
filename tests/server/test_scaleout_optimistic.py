"""Two server instances on one database without pub/sub (``none://``): each one's copy of a
match falls behind the other's moves, and the numbered events are the optimistic check.

In-process and deterministic: every conflict here is staged, where the three-process test
(``test_scaleout.py``) races real processes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import FakeTime, auth, new_match
from fastapi.testclient import TestClient

from tests.waiting import ok


def _snap(client: TestClient, mid: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/matches/{mid}", headers=auth(token))
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _to_act(client: TestClient, mid: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    for token in tokens.values():
        snap = _snap(client, mid, token)
        if snap["legal"]:
            return token, snap
    raise AssertionError("nobody is to act")


def test_a_process_behind_the_database_conflicts_cleanly_and_catches_up(
    make_client: Callable[..., TestClient],
) -> None:
    shared = {"pubsub_url": "none://", "node_beat": 3600.0}  # no rounds: only the checks
    with make_client(**shared) as a, make_client(**shared) as b:
        created = new_match(a)
        mid, tokens = created["match"]["id"], created["tokens"]
        token, snap = _to_act(a, mid, tokens)
        moves = [x["action"] for x in snap["legal"]]
        assert len(moves) >= 2
        # b plays ply 0; a still holds the match at ply 0 and is sent another move for ply 0
        r = b.post(
            f"/api/matches/{mid}/actions", json={"action": moves[0], "ply": 0}, headers=auth(token)
        )
        assert r.status_code == 200, r.text
        assert len(a.app.state.service.live[mid].actions) == 0  # a is behind
        r = a.post(
            f"/api/matches/{mid}/actions", json={"action": moves[1], "ply": 0}, headers=auth(token)
        )
        # its commit found event numbers taken: it caught up, and the move is stale
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "stale"
        assert a.app.state.service.live[mid].actions == b.app.state.service.live[mid].actions
        # a client that saw ply 1 elsewhere is served by a (caught up), and b is now behind
        token, snap = _to_act(a, mid, tokens)
        r = a.post(
            f"/api/matches/{mid}/actions",
            json={"action": snap["legal"][0]["action"], "ply": 1},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text
        # b is behind, and a client that saw ply 2 makes it catch up before judging the move
        token2, snap2 = _to_act(a, mid, tokens)
        assert len(b.app.state.service.live[mid].actions) == 1
        r = b.post(
            f"/api/matches/{mid}/actions",
            json={"action": snap2["legal"][0]["action"], "ply": 2},
            headers=auth(token2),
        )
        assert r.status_code == 200, r.text
        r = a.post(
            f"/api/matches/{mid}/actions",
            json={"action": snap2["legal"][0]["action"], "id": "retry-elsewhere"},
            headers=auth(token2),
        )
        # a was behind: it caught up on the conflict and judged the move on ply 3
        assert r.status_code in (409, 422), r.text
        assert len(a.app.state.service.live[mid].actions) == 3
        # both send the same numbered events (a caught up from the database)
        for token in tokens.values():
            seen = [ok(c.get(f"/api/matches/{mid}/events", headers=auth(token))) for c in (a, b)]
            assert seen[0] == seen[1]
            assert seen[0]["last_event"] == len(b.app.state.service.live[mid].events)


def test_a_takeback_offered_on_one_process_is_accepted_on_another(
    make_client: Callable[..., TestClient],
) -> None:
    shared = {"pubsub_url": "none://", "node_beat": 3600.0}
    with make_client(**shared) as a, make_client(**shared) as b:
        h = new_match(a, options={"pile": 30})
        mid, h0, h1 = h["id"], h["tokens"]["0"], h["tokens"]["1"]
        r = a.post(
            f"/api/matches/{mid}/actions", json={"action": "take 2", "ply": 0}, headers=auth(h0)
        )
        assert r.status_code == 200, r.text
        r = a.post(f"/api/matches/{mid}/takeback", headers=auth(h0))
        assert r.status_code == 200, r.text
        assert r.json()["offers"]["takeback"] == {"by": 0, "to_ply": 0}
        # b reads the match (and the offer, from its event) and the other seat accepts there
        r = b.post(f"/api/matches/{mid}/takeback", headers=auth(h1))
        assert r.status_code == 200, r.text
        assert r.json()["ply"] == 0 and r.json()["view"]["pile"] == 30
        # a still holds ply 1: a move for ply 0 makes it reload the match (a takeback is not
        # a simple continuation) and play it
        assert len(a.app.state.service.live[mid].actions) == 1
        r = a.post(
            f"/api/matches/{mid}/actions", json={"action": "take 1", "ply": 0}, headers=auth(h0)
        )
        assert r.status_code == 200, r.text
        assert r.json()["ply"] == 1 and r.json()["view"]["pile"] == 29
        assert a.app.state.service.live[mid].actions == ["take 1"]
        # and b, behind again, catches up on the next move made there
        r = b.post(
            f"/api/matches/{mid}/actions", json={"action": "take 1", "ply": 1}, headers=auth(h1)
        )
        assert r.status_code == 200, r.text
        assert b.app.state.service.live[mid].actions == ["take 1", "take 1"]


def test_a_flag_fall_stored_by_another_process_first_is_read_not_refused(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    """Both processes see the same clock run out; the other one stores the ending first. A
    GET on this one (which ends the game on time as it reads) catches up and answers with
    the finished match, not a 409 (the three-process test once raced into it)."""
    shared = {"pubsub_url": "none://", "node_beat": 3600.0}
    with make_client(**shared) as a, make_client(**shared) as b:
        clock = {"type": "fischer", "initial": 10, "increment": 0}
        m = new_match(a, options={"pile": 50}, clock=clock)
        mid = m["id"]
        for client in (a, b):  # both hold the match, seat 0's clock running
            assert ok(client.get(f"/api/matches/{mid}"))["status"] == "active"
        fake_time.advance(11)
        first = b.get(f"/api/matches/{mid}")
        assert first.status_code == 200, first.text
        assert first.json()["result"]["reason"] == "timeout"
        assert a.app.state.service.live[mid].status == "active"  # a is behind
        r = a.get(f"/api/matches/{mid}")
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "finished"
        assert r.json()["result"] == first.json()["result"]
        # one ending stored, the same numbered events on both
        seen = [ok(c.get(f"/api/matches/{mid}/events")) for c in (a, b)]
        assert seen[0] == seen[1]
