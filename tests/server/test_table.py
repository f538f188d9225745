"""The table around a match (issue 17): draw offers, who is online, spectators, claims."""

from __future__ import annotations

from collections.abc import Callable

from conftest import FakeTime, action_id, auth, new_match
from fastapi.testclient import TestClient
from test_server_websocket import hello, receive_until


def play(client: TestClient, mid: str, token: str, action: str) -> None:
    r = client.post(
        f"/api/matches/{mid}/actions",
        json={"action": action, "id": action_id()},
        headers=auth(token),
    )
    assert r.status_code == 200, r.text


def first_legal(client: TestClient, mid: str, token: str) -> str:
    return str(client.get(f"/api/matches/{mid}", headers=auth(token)).json()["legal"][0]["action"])


def test_a_draw_is_offered_declined_lapses_with_a_move_and_is_agreed(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        m = new_match(client, game="gungi")
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        url = f"/api/matches/{mid}/draw"
        assert client.get(f"/api/matches/{mid}/table").json()["draw"] == {
            "allowed": True,
            "offered_by": [],
        }
        assert client.post(url, json={"accept": False}, headers=auth(t1)).status_code == 409
        r = client.post(url, headers=auth(t0))
        assert r.status_code == 200 and r.json()["table"]["draw"]["offered_by"] == [0]
        assert client.post(url, headers=auth(t0)).json()["error"]["code"] == "already_offered"
        r = client.post(url, json={"accept": False}, headers=auth(t1))
        assert r.json()["table"]["draw"]["offered_by"] == []
        # Declined: seat 0 may offer again only 20 plies later (test_offer_limits.py).
        assert client.post(url, headers=auth(t0)).json()["error"]["code"] == "offer_too_soon"
        # An offer stands until the next move.
        assert client.post(url, headers=auth(t1)).status_code == 200
        to_act = client.get(f"/api/matches/{mid}").json()["to_act"]
        mover = [t0, t1][to_act]
        play(client, mid, mover, first_legal(client, mid, mover))
        assert client.get(f"/api/matches/{mid}/table").json()["draw"]["offered_by"] == []
        client.post(url, headers=auth(t1))
        r = client.post(url, headers=auth(t0))
        assert r.json()["status"] == "finished"
        assert r.json()["result"]["reason"] == "agreement"
        assert r.json()["result"]["winners"] == []
        assert client.post(url, headers=auth(t0)).json()["error"]["code"] == "not_active"
        record = client.get(f"/api/records/{mid}").json()
    with make_client() as client:  # stored: a restart shows the same ending
        again = client.get(f"/api/matches/{mid}").json()
        assert again["status"] == "finished" and again["result"]["reason"] == "agreement"
        # The exported record of a drawn game imports again (it replays without complaint).
        r = client.post("/api/records", json=record)
        assert r.status_code in {200, 201}, r.text


def test_games_outside_draw_games_have_no_draws(
    make_client: Callable[..., TestClient],
) -> None:
    # Matches with an AI seat take offers since issue 41 (the computer answers them:
    # test_draw_ai.py); a game that does not declare draws (provides_draws_by_agreement) takes none.
    with make_client() as client:
        m = new_match(client)  # secret nim: not one of the four games
        r = client.post(f"/api/matches/{m['id']}/draw", headers=auth(m["tokens"]["0"]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "no_draws"
        assert client.get(f"/api/matches/{m['id']}/table").json()["draw"]["allowed"] is False
        # Spectators cannot offer.
        assert client.post(f"/api/matches/{m['id']}/draw").status_code == 401


def test_online_seats_and_spectators_are_counted_and_a_claim_waits_for_the_absence(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    with make_client(claim_after=60.0) as client:
        m = new_match(client, options={"pile": 9})
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        with client.websocket_connect(f"/ws/matches/{mid}") as w0:
            hello(w0, t0)
            with client.websocket_connect(f"/ws/matches/{mid}") as spec:
                hello(spec)
                info = client.get(f"/api/matches/{mid}/table").json()
                assert info["spectators"] == 1 and info["claim_after"] == 60.0
                assert [s["online"] for s in info["seats"]] == [True, False]
                lobby = client.get("/api/matches").json()["matches"]
                assert [x["spectators"] for x in lobby if x["id"] == mid] == [1]
            with client.websocket_connect(f"/ws/matches/{mid}") as w1:
                hello(w1, t1)
                w0.send_json({"type": "action", "action": "take 1", "ply": 0})
                receive_until(w0, "ack")
                assert client.get(f"/api/matches/{mid}/table").json()["spectators"] == 0
            fake_time.advance(10)
            info = client.get(f"/api/matches/{mid}/table").json()
            assert info["seats"][1]["online"] is False and info["seats"][1]["away_for"] >= 10
            assert client.post(f"/api/matches/{mid}/claim", headers=auth(t0)).status_code == 409
            fake_time.advance(60)
            r = client.post(f"/api/matches/{mid}/claim", headers=auth(t0))
            assert r.status_code == 200 and r.json()["result"]["winners"] == [0]
