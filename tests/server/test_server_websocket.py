"""The WebSocket: hello, numbered events with audiences, resume, refusals, limits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import action_id, auth, new_match
from fastapi.testclient import TestClient


def receive_until(ws: Any, kind: str, limit: int = 50) -> list[dict[str, Any]]:
    """Messages up to and including the first of type ``kind``."""
    got = []
    for _ in range(limit):
        msg = ws.receive_json()
        got.append(msg)
        if msg["type"] == kind:
            return got
    raise AssertionError(f"no {kind} message")


def hello(ws: Any, token: str | None = None, after: int = 0) -> list[dict[str, Any]]:
    msg: dict[str, Any] = {"type": "hello", "after": after}
    if token is not None:
        msg["token"] = token
    ws.send_json(msg)
    return receive_until(ws, "state")


def test_events_are_numbered_and_filtered_by_audience(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 9})
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        secret0 = m["match"]["view"]["my_secret"]
        with (
            client.websocket_connect(f"/ws/matches/{mid}") as w0,
            client.websocket_connect(f"/ws/matches/{mid}") as w1,
            client.websocket_connect(f"/ws/matches/{mid}") as spec,
        ):
            first0 = hello(w0, t0)
            assert first0[0] == {"type": "welcome", "seat": 0, "last_event": 2}
            assert [e["n"] for e in first0 if e["type"] == "event"] == [1, 2]
            hello(w1, t1)
            welcome = hello(spec)
            assert welcome[0]["seat"] is None and welcome[-1]["view"]["my_secret"] is None

            w0.send_json({"type": "action", "action": "take 1", "ply": 0, "id": "a1"})
            got0 = receive_until(w0, "ack")
            got1 = receive_until(w1, "state")
            gots = receive_until(spec, "state")
            ev0 = [(e["n"], e["event"]["type"], e["event"]["audience"]) for e in got0 if "n" in e]
            ev1 = [(e["n"], e["event"]["type"], e["event"]["audience"]) for e in got1 if "n" in e]
            evs = [(e["n"], e["event"]["type"], e["event"]["audience"]) for e in gots if "n" in e]
            assert ev0 == [(3, "took", None), (4, "reminder", [0])]
            assert ev1 == [(3, "took", None)] and evs == ev1
            assert got0[-1] == {"type": "ack", "id": "a1", "ply": 1}
            assert got1[-1]["to_act"] == 1 and got1[-1]["legal"]
            # seat 0's secret reached seat 0 only
            assert secret0 in str(got0)
            assert secret0 not in str(got1) and secret0 not in str(gots)


def test_resume_from_the_last_event_number(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 20})
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        with client.websocket_connect(f"/ws/matches/{mid}") as w1:
            got = hello(w1, t1)
            last = max(e["n"] for e in got if e["type"] == "event")
        # seat 1 is away while two actions are played
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
        with client.websocket_connect(f"/ws/matches/{mid}") as w1:
            got = hello(w1, t1, after=last)
            missed = [(e["n"], e["event"]["type"]) for e in got if e["type"] == "event"]
            assert missed == [(3, "took"), (5, "took"), (6, "reminder")]  # 4 was seat 0's
            assert got[-1]["ply"] == 2 and got[-1]["last_event"] == 6
        with client.websocket_connect(f"/ws/matches/{mid}") as w1:
            got = hello(w1, t1, after=6)
            assert [e["type"] for e in got] == ["welcome", "state"]


def test_stale_out_of_turn_and_spectator_refusals(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 20})
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        with (
            client.websocket_connect(f"/ws/matches/{mid}") as w0,
            client.websocket_connect(f"/ws/matches/{mid}") as w1,
            client.websocket_connect(f"/ws/matches/{mid}") as spec,
        ):
            hello(w0, t0)
            hello(w1, t1)
            hello(spec)
            w1.send_json({"type": "action", "action": "take 1", "id": 1})
            r = receive_until(w1, "refused")[-1]
            assert r["code"] == "not_your_turn" and "seat 0" in r["reason"] and r["id"] == 1
            w0.send_json({"type": "action", "action": "take 1", "ply": 5})
            assert receive_until(w0, "refused")[-1]["code"] == "stale"
            w0.send_json({"type": "action", "action": "fly away"})
            r = receive_until(w0, "refused")[-1]
            assert r["code"] == "illegal_action" and "take 1" in r["reason"]
            spec.send_json({"type": "action", "action": "take 1"})
            assert receive_until(spec, "refused")[-1]["code"] == "spectator"
            spec.send_json({"type": "resign"})
            assert receive_until(spec, "refused")[-1]["code"] == "spectator"
            for bad, code in [
                ("not json", "bad_message"),
                ("[1, 2]", "bad_message"),
                ('{"type": "dance"}', "bad_message"),
                ('{"type": "action", "action": 5}', "bad_message"),
                ('{"type": "action", "action": "take 1", "ply": "x"}', "bad_message"),
                ("x" * 20_000, "bad_message"),
            ]:
                w0.send_text(bad)
                assert receive_until(w0, "refused")[-1]["code"] == code
            w0.send_bytes(b'{"type": "ping"}')
            assert "binary" in receive_until(w0, "refused")[-1]["reason"]
            w0.send_json({"type": "ping", "id": 9})
            assert receive_until(w0, "pong")[-1] == {"type": "pong", "id": 9}
            # nothing above changed the match
            snap = client.get(f"/api/matches/{mid}").json()
            assert snap["ply"] == 0 and snap["last_event"] == 2
            w1.send_json({"type": "resign"})
            assert receive_until(w1, "ack")[-2]["result"]["winners"] == [0]


def test_hello_is_required_and_tokens_checked(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client)
        mid = m["id"]
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.send_json({"type": "action", "action": "take 1"})
            assert ws.receive_json()["code"] == "no_hello"
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.send_json({"type": "hello", "token": "z" * 43})
            assert ws.receive_json()["code"] == "bad_token"
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.send_json({"type": "hello", "after": -3})
            assert ws.receive_json()["code"] == "bad_message"
        with client.websocket_connect("/ws/matches/nothing") as ws:
            assert ws.receive_json()["code"] == "no_such_match"
        # a non-browser client may send the token in the handshake's Authorization header
        with client.websocket_connect(f"/ws/matches/{mid}", headers=auth(m["tokens"]["1"])) as ws:
            assert hello(ws)[0]["seat"] == 1


def test_rate_limit_per_client(make_client: Callable[..., TestClient]) -> None:
    with make_client(ws_rate=0.001, ws_burst=3) as client:
        m = new_match(client)
        with client.websocket_connect(f"/ws/matches/{m['id']}") as ws:
            hello(ws, m["tokens"]["0"])
            for i in range(6):
                ws.send_json({"type": "ping", "id": i})
            replies = [ws.receive_json() for _ in range(6)]
            assert [r["type"] for r in replies].count("pong") == 3
            assert {r.get("code") for r in replies if r["type"] == "refused"} == {"rate_limited"}
        # a new connection from the same address shares the budget (issue 14, item 5)
        with client.websocket_connect(f"/ws/matches/{m['id']}") as ws:
            hello(ws)
            ws.send_json({"type": "ping", "id": 0})
            assert ws.receive_json()["code"] == "rate_limited"


def test_short_notation_on_request(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client, game="gungi")
        mid, t0 = m["id"], m["tokens"]["0"]
        full = client.get(f"/api/matches/{mid}", headers=auth(t0)).json()["legal"]
        assert full and all({"action", "short", "kind", "label", "text"} <= set(x) for x in full)
        lean = client.get(f"/api/matches/{mid}?short=false", headers=auth(t0)).json()["legal"]
        assert lean == [{k: v for k, v in x.items() if k != "short"} for x in full]
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.send_json({"type": "hello", "token": t0, "short": False})
            assert receive_until(ws, "state")[-1]["legal"] == lean
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.send_json({"type": "hello", "token": t0})
            assert receive_until(ws, "state")[-1]["legal"] == full


def test_every_server_event_reaches_subscribers(make_client: Callable[..., TestClient]) -> None:
    """join, start, takeback offer/decline/accept, resignation, rematch, abort: each is a
    numbered event every subscriber receives, in order, with a message."""
    with make_client() as client:
        m = new_match(client, seats=[{"kind": "local"}, {"kind": "invite"}], options={"pile": 30})
        mid, t0 = m["id"], m["tokens"]["0"]
        with client.websocket_connect(f"/ws/matches/{mid}") as spec:
            hello(spec)
            t1 = client.post(
                f"/api/matches/{mid}/join", json={"invite": m["invites"][0]["invite"]}
            ).json()["token"]
            client.post(
                f"/api/matches/{mid}/actions",
                json={"action": "take 1", "id": action_id()},
                headers=auth(t0),
            )
            client.post(f"/api/matches/{mid}/takeback", headers=auth(t0))
            client.post(f"/api/matches/{mid}/takeback", json={"accept": False}, headers=auth(t1))
            client.post(
                f"/api/matches/{mid}/actions",
                json={"action": "take 1", "id": action_id()},
                headers=auth(t1),
            )
            client.post(f"/api/matches/{mid}/takeback", headers=auth(t1))
            client.post(f"/api/matches/{mid}/takeback", headers=auth(t0))
            client.post(f"/api/matches/{mid}/resign", headers=auth(t1))
            client.post(f"/api/matches/{mid}/rematch", headers=auth(t0))
            r = client.post(f"/api/matches/{mid}/rematch", headers=auth(t1)).json()
            types = []
            while "rematch" not in types:
                msg = spec.receive_json()
                if msg["type"] == "event":
                    assert msg["event"]["message"]
                    types.append(msg["event"]["type"])
            assert types == [
                "player_joined",
                "match_started",
                "took",
                "takeback_offered",
                "takeback_declined",
                "took",
                "takeback_offered",
                "takeback",
                "game_over",
                "rematch_offered",
                "rematch",
            ]
        new_id = r["rematch_id"]
        r = client.post(f"/api/matches/{new_id}/abort", headers=auth(t0))
        assert r.status_code == 200
        events = client.get(f"/api/matches/{new_id}/events").json()["events"]
        assert [e["event"]["type"] for e in events] == ["match_created", "match_started", "aborted"]
        assert [e["n"] for e in events] == [1, 2, 3]


def test_a_connection_that_reads_nothing_is_dropped(
    make_client: Callable[..., TestClient], monkeypatch: Any
) -> None:
    from sengoku.server import broadcast as broadcast_mod

    monkeypatch.setattr(broadcast_mod, "MAX_QUEUED", 5)
    with make_client() as client:
        m = new_match(client, options={"pile": 40})
        mid, tokens = m["id"], [m["tokens"]["0"], m["tokens"]["1"]]
        svc = client.app.state.service  # type: ignore[attr-defined]
        live = svc.live[mid]
        sub = client.portal.call(_subscribe, svc, live)  # type: ignore[union-attr]
        for ply in range(4):
            r = client.post(
                f"/api/matches/{mid}/actions",
                json={"action": "take 1", "ply": ply},
                headers=auth(tokens[ply % 2]),
            )
            assert r.status_code == 200
        assert sub not in live.subscribers
        queued = [sub.queue.get_nowait() for _ in range(sub.queue.qsize())]
        assert queued[-1] is None and len(queued) <= 5 + 4


async def _subscribe(svc: Any, live: Any) -> Any:
    async with live.lock:
        return svc.subscribe(live, None, 0)
