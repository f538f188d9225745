"""The HTTP API end to end: every endpoint, its refusals, and that refusals change nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import FakeTime, action_id, auth, new_match
from fastapi.testclient import TestClient

from tests.waiting import ok, wait_until


def play(client: TestClient, mid: str, token: str, action: str, ply: int | None = None) -> Any:
    body: dict[str, Any] = {"action": action}
    if ply is not None:
        body["ply"] = ply
    else:
        body["id"] = action_id()
    return client.post(f"/api/matches/{mid}/actions", json=body, headers=auth(token))


def error_code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def test_openapi_and_games(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        spec = client.get("/openapi.json").json()
        for path in (
            "/api/games",
            "/api/matches",
            "/api/matches/{match_id}",
            "/api/matches/{match_id}/actions",
            "/api/records",
        ):
            assert path in spec["paths"]
        games = client.get("/api/games").json()
        names = {g["name"] for g in games["games"]}
        assert {"secretnim", "gungi"} <= names
        nim = client.get("/api/games/secretnim").json()
        assert {o["name"] for o in nim["options"]} == {"pile", "peek"}
        assert games["ai_levels"][0]["level"] == 1
        r = client.get("/api/games/chess")
        assert r.status_code == 404 and error_code(r) == "unknown_game"


def test_create_get_and_play(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 5}, seed=7)
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        assert m["match"]["you"] == 0 and m["match"]["status"] == "active"
        assert [a["action"] for a in m["match"]["legal"]] == ["take 1", "take 2"]
        # each seat sees its own view; a spectator sees the public one
        v0 = client.get(f"/api/matches/{mid}", headers=auth(t0)).json()
        v1 = client.get(f"/api/matches/{mid}", headers=auth(t1)).json()
        spec = client.get(f"/api/matches/{mid}").json()
        assert v0["you"] == 0 and v1["you"] == 1 and spec["you"] is None
        assert v0["view"]["my_secret"] != v1["view"]["my_secret"]
        assert spec["view"]["my_secret"] is None
        assert v1["legal"] == [] and spec["legal"] == []
        assert "seed" not in spec and "seed" not in v0  # the seed decides hidden draws
        r = play(client, mid, t0, "take 2", ply=0)
        assert r.status_code == 200 and r.json()["view"]["pile"] == 3 and r.json()["ply"] == 1
        r = play(client, mid, t1, "TAKE  1")  # notation is case and space tolerant
        assert r.status_code == 200 and r.json()["ply"] == 2
        assert play(client, mid, t0, "take 2").json()["status"] == "finished"
        final = client.get(f"/api/matches/{mid}").json()
        assert final["result"]["winners"] == [0] and final["result"]["reason"] == "last_stone"
        assert final["to_act"] == -1


def test_refusals_change_nothing(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 5})
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        before = client.get(f"/api/matches/{mid}", headers=auth(t0)).json()
        cases = [
            (play(client, mid, t1, "take 1"), 409, "not_your_turn"),
            (play(client, mid, t0, "take 1", ply=3), 409, "stale"),
            (play(client, mid, t0, "take 7"), 422, "illegal_action"),
            (play(client, mid, t0, "peek"), 422, "illegal_action"),
            (
                client.post(
                    f"/api/matches/{mid}/actions", json={"action": "take 1", "id": action_id()}
                ),
                401,
                "no_token",
            ),
            (
                client.post(
                    f"/api/matches/{mid}/actions",
                    json={"action": "take 1", "id": action_id()},
                    headers=auth("x" * 43),
                ),
                401,
                "bad_token",
            ),
            (
                client.post(
                    f"/api/matches/{mid}/actions",
                    json={"action": "take 1", "id": action_id()},
                    headers={"Authorization": "Basic abc"},
                ),
                401,
                "bad_token",
            ),
            (client.post(f"/api/matches/{mid}/actions", json={"action": ""}), 422, "bad_request"),
            (
                client.post(f"/api/matches/{mid}/actions", json={"action": "take 1", "x": 1}),
                422,
                "bad_request",
            ),
            (
                client.post(
                    f"/api/matches/{mid}/actions",
                    content=b"{not json",
                    headers={**auth(t0), "content-type": "application/json"},
                ),
                422,
                "bad_request",
            ),
            (play(client, "nope", t0, "take 1"), 404, "no_such_match"),
            (play(client, "bad%20id!", t0, "take 1"), 404, "no_such_match"),
        ]
        for r, status, code in cases:
            assert r.status_code == status, r.text
            assert error_code(r) == code, r.text
            assert r.json()["error"]["message"]
        after = client.get(f"/api/matches/{mid}", headers=auth(t0)).json()
        assert after == before


def test_create_refusals(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        two = [{"kind": "local"}, {"kind": "local"}]
        cases = [
            ({"game": "chess", "seats": two}, 404, "unknown_game"),
            ({"game": "secretnim", "seats": two, "options": {"pile": 0}}, 422, "bad_option"),
            ({"game": "secretnim", "seats": two, "options": {"colour": 1}}, 422, "bad_option"),
            ({"game": "secretnim", "seats": two[:1]}, 422, "bad_seats"),
            ({"game": "secretnim", "seats": [{"kind": "robot"}] * 2}, 422, "bad_request"),
            (
                {"game": "secretnim", "seats": [{"kind": "ai", "level": 9}, {"kind": "local"}]},
                422,
                "bad_seats",
            ),
            (
                {"game": "secretnim", "seats": [{"kind": "ai", "agent": "god"}, {"kind": "local"}]},
                422,
                "bad_seats",
            ),
            ({"game": "secretnim", "seats": two, "clock": {"type": "hourglass"}}, 422, "bad_clock"),
            (
                {"game": "secretnim", "seats": two, "clock": {"type": "fischer", "initial": -5}},
                422,
                "bad_clock",
            ),
            ({"game": "secretnim", "seats": two, "seed": -1}, 422, "bad_request"),
            ({"seats": two}, 422, "bad_request"),
        ]
        for body, status, code in cases:
            r = client.post("/api/matches", json=body)
            assert r.status_code == status, (body, r.text)
            assert error_code(r) == code, (body, r.text)
        assert client.get("/api/matches").json()["matches"] == []


def test_invites_open_seats_and_lobby(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client, seats=[{"kind": "local", "name": "Gon"}, {"kind": "invite"}])
        mid = m["id"]
        invite = m["invites"][0]
        assert invite["seat"] == 1 and invite["url"] == f"/play/{mid}#invite={invite['invite']}"
        assert m["match"]["status"] == "waiting"
        r = play(client, mid, m["tokens"]["0"], "take 1")
        assert r.status_code == 409 and error_code(r) == "match_waiting"
        lobby = client.get("/api/matches", params={"status": "waiting"}).json()["matches"]
        assert [x["id"] for x in lobby] == [mid]
        r = client.post(f"/api/matches/{mid}/join", json={"invite": "y" * 43})
        assert r.status_code == 403 and error_code(r) == "bad_invite"
        r = client.post(f"/api/matches/{mid}/join", json={})
        assert r.status_code == 409 and error_code(r) == "no_open_seat"
        r = client.post(
            f"/api/matches/{mid}/join", json={"invite": invite["invite"], "name": "Killua"}
        )
        assert r.status_code == 200
        joined = r.json()
        assert joined["seat"] == 1 and joined["token"] != invite["invite"]
        assert joined["match"]["status"] == "active"
        assert joined["match"]["seats"][1]["name"] == "Killua"
        # the invitation is spent
        r = client.post(f"/api/matches/{mid}/join", json={"invite": invite["invite"]})
        assert r.status_code == 409 and error_code(r) == "not_waiting"
        assert play(client, mid, m["tokens"]["0"], "take 1").status_code == 200
        assert play(client, mid, joined["token"], "take 1").status_code == 200

        o = new_match(client, seats=[{"kind": "open"}, {"kind": "local"}])
        r = client.post(f"/api/matches/{o['id']}/join", json={"name": "Anyone"})
        assert r.status_code == 200 and r.json()["seat"] == 0
        assert client.get(f"/api/matches/{o['id']}").json()["status"] == "active"


def test_resign_and_abort(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client)
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        assert client.post(f"/api/matches/{mid}/resign").status_code == 401
        r = client.post(f"/api/matches/{mid}/resign", headers=auth(t1))
        assert r.status_code == 200
        assert r.json()["result"] == {
            "reason": "resignation",
            "winners": [0],
            "scores": [1.0, 0.0],
            "returns": [1.0, -1.0],
        }
        # a match that is over and watched by nobody leaves memory; it is replayed if asked for
        assert mid not in client.app.state.service.live  # type: ignore[attr-defined]
        assert client.get(f"/api/matches/{mid}").json()["result"]["reason"] == "resignation"
        assert mid not in client.app.state.service.live  # type: ignore[attr-defined]
        assert client.post(f"/api/matches/{mid}/resign", headers=auth(t0)).status_code == 409

        a = new_match(client)
        aid, a0, a1 = a["id"], a["tokens"]["0"], a["tokens"]["1"]
        assert a["match"]["can_abort"] is True
        assert play(client, aid, a0, "take 1").status_code == 200
        assert client.get(f"/api/matches/{aid}").json()["can_abort"] is True
        assert play(client, aid, a1, "take 1").status_code == 200
        r = client.post(f"/api/matches/{aid}/abort", headers=auth(a0))
        assert r.status_code == 409 and error_code(r) == "cannot_abort"

        b = new_match(client)
        r = client.post(f"/api/matches/{b['id']}/abort", headers=auth(b["tokens"]["1"]))
        assert r.status_code == 200 and r.json()["status"] == "aborted"
        assert r.json()["result"] is None
        r = play(client, b["id"], b["tokens"]["0"], "take 1")
        assert r.status_code == 409 and error_code(r) == "match_aborted"


def test_claim_after_the_opponent_left(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    with make_client(claim_after=60.0) as client:
        m = new_match(client)
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        assert play(client, mid, t0, "take 1", ply=0).status_code == 200  # seat 1's time now
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.send_json({"type": "hello", "token": t1})
            assert ws.receive_json()["type"] == "welcome"
            fake_time.advance(120)
            r = client.post(f"/api/matches/{mid}/claim", headers=auth(t0))
            assert r.status_code == 409 and error_code(r) == "opponent_connected"
        fake_time.advance(30)
        r = client.post(f"/api/matches/{mid}/claim", headers=auth(t0))
        assert r.status_code == 409 and error_code(r) == "too_soon"
        assert "30 s" in r.json()["error"]["message"]
        fake_time.advance(31)
        r = client.post(f"/api/matches/{mid}/claim", headers=auth(t0))
        assert r.status_code == 200
        assert r.json()["result"]["reason"] == "abandoned"
        assert r.json()["result"]["winners"] == [0]


def test_takeback_against_ai_and_with_consent(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        # against the AI: granted at once, back to before my last move
        m = new_match(client, seats=[{"kind": "local"}, {"kind": "ai"}], options={"pile": 30})
        mid, t0 = m["id"], m["tokens"]["0"]
        assert play(client, mid, t0, "take 2", ply=0).status_code == 200
        snap = wait_for(client, mid, t0, lambda s: s["ply"] == 2)
        assert snap["view"]["pile"] < 28
        r = client.post(f"/api/matches/{mid}/takeback", headers=auth(t0))
        assert r.status_code == 200, r.text
        assert r.json()["ply"] == 0 and r.json()["view"]["pile"] == 30
        assert r.json()["to_act"] == 0
        assert play(client, mid, t0, "take 1", ply=0).status_code == 200

        # between humans: the opponent must accept; a decline keeps everything
        h = new_match(client, options={"pile": 30})
        hid, h0, h1 = h["id"], h["tokens"]["0"], h["tokens"]["1"]
        r = client.post(f"/api/matches/{hid}/takeback", headers=auth(h0))
        assert r.status_code == 409 and error_code(r) == "nothing_to_take_back"
        assert play(client, hid, h0, "take 2").status_code == 200
        r = client.post(f"/api/matches/{hid}/takeback", headers=auth(h0))
        assert r.status_code == 200 and r.json()["offers"]["takeback"] == {"by": 0, "to_ply": 0}
        assert r.json()["ply"] == 1
        r = client.post(f"/api/matches/{hid}/takeback", json={"accept": False}, headers=auth(h1))
        assert r.status_code == 200 and r.json()["offers"]["takeback"] is None
        assert r.json()["ply"] == 1
        # declined: the same seat asks again only some plies later (test_offer_limits.py)
        r = client.post(f"/api/matches/{hid}/takeback", headers=auth(h0))
        assert r.status_code == 409 and error_code(r) == "offer_too_soon", r.text
        assert play(client, hid, h1, "take 1").status_code == 200
        assert client.post(f"/api/matches/{hid}/takeback", headers=auth(h1)).status_code == 200
        r = client.post(f"/api/matches/{hid}/takeback", headers=auth(h0))
        assert r.status_code == 200 and r.json()["ply"] == 1
        assert r.json()["view"]["pile"] == 28


def test_takeback_never_across_revealed_or_random(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 30, "peek": True})
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        assert play(client, mid, t0, "peek").status_code == 200  # reveals a hidden word
        r = client.post(f"/api/matches/{mid}/takeback", headers=auth(t0))
        assert r.status_code == 409 and error_code(r) == "cannot_take_back"
        assert play(client, mid, t1, "draw").status_code == 200  # a random draw
        r = client.post(f"/api/matches/{mid}/takeback", headers=auth(t1))
        assert r.status_code == 409 and error_code(r) == "cannot_take_back"
        assert play(client, mid, t0, "take 1").status_code == 200  # nothing hidden: fine
        r = client.post(f"/api/matches/{mid}/takeback", headers=auth(t0))
        assert r.status_code == 200 and r.json()["offers"]["takeback"]["to_ply"] == 2


def test_rematch_swaps_seats_and_keeps_tokens(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(
            client, seats=[{"kind": "local", "name": "A"}, {"kind": "local", "name": "B"}]
        )
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        r = client.post(f"/api/matches/{mid}/rematch", headers=auth(t0))
        assert r.status_code == 409 and error_code(r) == "not_finished"
        client.post(f"/api/matches/{mid}/resign", headers=auth(t0))
        r = client.post(f"/api/matches/{mid}/rematch", headers=auth(t0))
        assert r.status_code == 200 and r.json()["offers"]["rematch"] == [0]
        assert r.json()["rematch_id"] is None
        r = client.post(f"/api/matches/{mid}/rematch", headers=auth(t0))
        assert r.status_code == 409 and error_code(r) == "already_offered"
    with make_client() as client:  # an offer outlives a restart
        assert client.get(f"/api/matches/{mid}").json()["offers"]["rematch"] == [0]
        r = client.post(f"/api/matches/{mid}/rematch", headers=auth(t1))
        new_id = r.json()["rematch_id"]
        assert new_id and r.json()["rematch_seat"] == 0
        # made: no offer is left open, in memory as after a reload
        assert r.json()["offers"]["rematch"] == []
        assert client.get(f"/api/matches/{mid}").json()["offers"]["rematch"] == []
        new = client.get(f"/api/matches/{new_id}", headers=auth(t0)).json()
        assert new["you"] == 1 and new["rematch_of"] == mid and new["status"] == "active"
        assert [s["name"] for s in new["seats"]] == ["B", "A"]
        assert client.get(f"/api/matches/{new_id}", headers=auth(t1)).json()["you"] == 0
        assert play(client, new_id, t1, "take 1").status_code == 200


def test_records_list_fetch_and_import(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 3}, seed=11)
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        r = client.get(f"/api/records/{mid}")
        assert r.status_code == 409 and error_code(r) == "in_progress"
        play(client, mid, t0, "take 1")
        play(client, mid, t1, "take 2")
        rec = client.get(f"/api/records/{mid}").json()
        assert rec["actions"] == ["take 1", "take 2"] and rec["seed"] == 11
        assert rec["result"]["winners"] == [1]
        listed = client.get("/api/records").json()["records"]
        assert [x["id"] for x in listed] == [mid]
        assert client.get("/api/records", params={"game": "gungi"}).json()["records"] == []

        body = {k: rec[k] for k in ("game", "version", "options", "seed", "players", "actions")}
        body["result"] = rec["result"]
        r = client.post("/api/records", json=body)
        assert r.status_code == 201, r.text
        assert r.json()["status"] == "finished"
        again = client.get(f"/api/records/{r.json()['id']}").json()
        assert again["actions"] == rec["actions"] and again["result"] == rec["result"]
        # a record that does not replay is refused, naming the move
        bad = dict(body, actions=["take 1", "take 5"], result=None)
        r = client.post("/api/records", json=bad)
        assert r.status_code == 422 and "move 2" in r.json()["error"]["message"]
        r = client.post("/api/records", json=dict(body, version=99))
        assert r.status_code == 422 and "version" in r.json()["error"]["message"]
        r = client.post("/api/records", json=dict(body, actions=["take 1"] * 20_001))
        assert r.status_code == 422 and "limited" in r.json()["error"]["message"]
        r = client.post("/api/records", content=b"[1,2")
        assert r.status_code == 422 and error_code(r) == "bad_record"
        assert len(client.get("/api/records").json()["records"]) == 2


def test_oversized_body_and_rate_limit(make_client: Callable[..., TestClient]) -> None:
    with make_client(max_body=1000, http_rate=0.01, http_burst=5) as client:
        r = client.post("/api/records", content=b"x" * 5000)
        assert r.status_code == 413 and error_code(r) == "too_large"
        codes = [client.get("/api/games").status_code for _ in range(10)]
        assert 429 in codes and codes[0] == 200


def wait_for(
    client: TestClient, mid: str, token: str, cond: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Poll until the AI has moved (it thinks in a worker, off the event loop)."""

    def look() -> dict[str, Any] | None:
        snap: dict[str, Any] = ok(client.get(f"/api/matches/{mid}", headers=auth(token)))
        return snap if cond(snap) else None

    return wait_until(look, "the AI to move")


def test_gungi_takeback_with_consent(make_client: Callable[..., TestClient]) -> None:
    """Gungi has no hidden information and no chance: a takeback between humans needs only
    the opponent's consent."""
    with make_client() as client:
        m = new_match(client, game="gungi", options={"mode": "beginner"}, seed=1)
        mid, tokens = m["id"], [m["tokens"]["0"], m["tokens"]["1"]]
        views = []
        for ply in range(3):
            snap = client.get(f"/api/matches/{mid}", headers=auth(tokens[ply % 2])).json()
            views.append(snap["view"])
            r = play(client, mid, tokens[ply % 2], snap["legal"][-1]["action"], ply)
            assert r.status_code == 200, r.text
        r = client.post(f"/api/matches/{mid}/takeback", headers=auth(tokens[1]))
        assert r.status_code == 200 and r.json()["offers"]["takeback"]["to_ply"] == 1
        r = client.post(f"/api/matches/{mid}/takeback", headers=auth(tokens[0]))
        assert r.status_code == 200 and r.json()["ply"] == 1
        assert client.get(f"/api/matches/{mid}", headers=auth(tokens[1])).json()["view"] == views[1]
