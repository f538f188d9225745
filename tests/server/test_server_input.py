"""What the server takes in (issue 39): each route's body cap, the byte budget, strict
request models and record imports, and the id of a WebSocket message refused for its rate.

A body over its route's cap is ``413 too_large`` before any of it is parsed; the bytes of
bodies and WebSocket messages come out of a per-client byte budget; every request model is
strict (no value of another JSON type read as the field's); a record import is held to the
rules of match creation. Every refusal names the field or the cap, and changes nothing.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import action_id, auth, new_match
from fastapi.testclient import TestClient
from real_server import RealServer, real_server, receive
from websockets.exceptions import ConnectionClosed

from sengoku.core.registry import load_game
from sengoku.server.guard import body_cap
from sengoku.server.settings import Settings

DEFAULTS = Settings(db_url="")


def error(r: Any) -> dict[str, Any]:
    assert r.headers.get("content-type", "").startswith("application/json"), r.text[:300]
    out: dict[str, Any] = r.json()["error"]
    return out


def numbers(size: int) -> bytes:
    """A JSON array of numbers of exactly ``size`` bytes (the costly shape of issue 39)."""
    head = b"[" + b"1," * ((size - 2) // 2)
    body = head + b"1" * (size - len(head) - 1) + b"]"
    assert len(body) == size
    return body


def body_routes(mid: str) -> list[str]:
    """Every POST route that takes a body, on the match ``mid``."""
    return [
        "/api/matches",
        "/api/records",
        "/api/replay",
        f"/api/matches/{mid}/actions",
        f"/api/matches/{mid}/join",
        f"/api/matches/{mid}/draw",
        f"/api/matches/{mid}/takeback",
        f"/api/matches/{mid}/chat",
        f"/api/matches/{mid}/chat/mute",
        f"/api/matches/{mid}/resign",
        f"/api/matches/{mid}/abort",
        f"/api/matches/{mid}/claim",
        f"/api/matches/{mid}/rematch",
    ]


def test_the_caps_are_what_each_route_can_need() -> None:
    """An action is well under 4 KiB; a new match some KiB; a record up to 2 MB."""
    assert body_cap(DEFAULTS, "POST", "/api/matches/abc/actions") == 4096
    assert body_cap(DEFAULTS, "POST", "/api/matches/abc/join") == 4096
    assert body_cap(DEFAULTS, "POST", "/api/matches/abc/chat") == 8192
    assert body_cap(DEFAULTS, "POST", "/api/matches") == 65_536
    assert body_cap(DEFAULTS, "POST", "/api/records") == 2_000_000
    assert body_cap(DEFAULTS, "POST", "/api/replay") == 2_000_000
    # the largest action body a client can need fits: 500 characters of notation, each
    # escaped (6 bytes), a ply and an id
    biggest = json.dumps({"action": "\u00e9" * 500, "ply": 2**62, "id": "x" * 64})
    assert len(biggest.encode()) < body_cap(DEFAULTS, "POST", "/api/matches/abc/actions")


def test_a_body_over_its_route_cap_is_refused_before_parsing(
    make_client: Callable[..., TestClient],
) -> None:
    """1.8 MB of numbers cost 1.5 s of CPU before its 422 on every route: now each route
    refuses a body one byte over its cap with 413, naming the cap, and nothing changes."""
    with make_client(bytes_burst=1e9) as client:
        m = new_match(client)
        mid, token = m["id"], m["tokens"]["0"]
        before = client.get(f"/api/matches/{mid}", headers=auth(token)).json()
        records = client.get("/api/records").json()
        for path in body_routes(mid):
            cap = body_cap(DEFAULTS, "POST", path)
            for body in (numbers(cap + 1), numbers(1_800_000)):
                if len(body) <= cap:  # a record's cap is above 1.8 MB
                    continue
                r = client.post(
                    path,
                    content=body,
                    headers={"content-type": "application/json", **auth(token)},
                )
                assert r.status_code == 413, (path, len(body), r.status_code, r.text[:300])
                e = error(r)
                assert e["code"] == "too_large" and f"limited to {cap} bytes" in e["message"]
            if cap > 65_536 or path.endswith(("/resign", "/abort", "/claim", "/rematch")):
                # a record at its cap is read (test_server_security.py); those four routes
                # act on any body
                continue
            # a body at the cap is read (and refused by the route's model)
            r = client.post(
                path,
                content=numbers(cap),
                headers={"content-type": "application/json", **auth(token)},
            )
            assert r.status_code == 422, (path, r.text[:300])
        after = client.get(f"/api/matches/{mid}", headers=auth(token)).json()
        assert after["ply"] == before["ply"] and after["status"] == before["status"]
        assert client.get("/api/records").json() == records


def test_a_streamed_body_is_counted_as_it_comes(make_client: Callable[..., TestClient]) -> None:
    """A chunked body declares no length: its bytes are counted, and it is refused once it
    passes the cap."""
    with make_client(bytes_burst=1e9) as client:
        m = new_match(client)
        mid, token = m["id"], m["tokens"]["0"]

        def chunks() -> Iterator[bytes]:
            yield b'{"action": "take 1", "id": "'
            for _ in range(8):
                yield b"x" * 1000
            yield b'"}'

        r = client.post(
            f"/api/matches/{mid}/actions",
            content=chunks(),
            headers={"content-type": "application/json", **auth(token)},
        )
        assert r.status_code == 413, r.text
        assert "limited to 4096 bytes" in error(r)["message"]
        assert client.get(f"/api/matches/{mid}").json()["ply"] == 0


def test_bytes_count_in_the_client_budget(make_client: Callable[..., TestClient]) -> None:
    """Besides its requests, a client has a byte budget: bodies under their caps still run
    it out, then 429 with Retry-After."""
    with make_client(bytes_rate=1.0, bytes_burst=10_000) as client:
        m = new_match(client)  # a small body: 60 bytes of the budget
        mid, token = m["id"], m["tokens"]["0"]
        body = json.dumps({"action": "x" * 480, "id": action_id()}).encode()
        padded = body[:-1] + b" " * (3000 - len(body)) + b"}"
        statuses = []
        for _ in range(4):
            r = client.post(
                f"/api/matches/{mid}/actions",
                content=padded,
                headers={"content-type": "application/json", **auth(token)},
            )
            statuses.append(r.status_code)
        assert statuses[:3] == [422, 422, 422] and statuses[3] == 429, statuses
        assert error(r)["code"] == "rate_limited" and "bytes" in error(r)["message"]
        assert int(r.headers["retry-after"]) >= 1
        # requests without a body still go through
        assert client.get(f"/api/matches/{mid}").status_code == 200


# -- item 2: a WebSocket refusal for its rate carries the message's id ----------------------
def test_a_message_refused_for_its_rate_carries_its_id(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client(ws_burst=2, ws_rate=0.001) as client:
        m = new_match(client)
        mid, token = m["id"], m["tokens"]["0"]
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.send_json({"type": "hello", "token": token})
            while ws.receive_json()["type"] != "state":
                pass
            ws.send_json({"type": "ping", "id": "a"})
            ws.send_json({"type": "ping", "id": 7})
            ws.send_json({"type": "action", "action": "take 1", "ply": 0, "id": "move-3"})
            ws.send_json({"type": "ping", "id": {"n": 4}})
            ws.send_json({"type": "ping"})
            replies = [ws.receive_json() for _ in range(5)]
        assert [r["type"] for r in replies] == ["pong", "pong", "refused", "refused", "refused"]
        assert [r["id"] for r in replies] == ["a", 7, "move-3", {"n": 4}, None]
        assert all(r["code"] == "rate_limited" for r in replies[2:]), replies
        assert "messages" in replies[2]["reason"]
        assert client.get(f"/api/matches/{mid}").json()["ply"] == 0  # the action was not played


def test_websocket_bytes_count_in_the_client_budget(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client(bytes_burst=5000, bytes_rate=0.001) as client:
        m = new_match(client)
        mid, token = m["id"], m["tokens"]["0"]
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.send_json({"type": "hello", "token": token})
            while ws.receive_json()["type"] != "state":
                pass
            for n in range(3):
                ws.send_text(json.dumps({"type": "ping", "id": n, "pad": "x" * 2000}))
            replies = [ws.receive_json() for _ in range(3)]
        assert [r["type"] for r in replies] == ["pong", "pong", "refused"], replies
        assert replies[2]["code"] == "rate_limited" and replies[2]["id"] == 2
        assert "bytes" in replies[2]["reason"]


# -- item 3: a record import is held to the rules of match creation --------------------------
def gungi_record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "game": "gungi",
        "version": load_game("gungi").version,
        "options": {"mode": "beginner"},
        "seed": 3,
        "players": ["Gon", "Killua"],
        "actions": [],
    }
    record.update(changes)
    return record


BAD_RECORDS: list[tuple[str, dict[str, Any], str]] = [
    ("negative seed", gungi_record(seed=-1), "'seed'"),
    ("seed as text of a negative", gungi_record(seed="-1"), "'seed'"),
    ("seed true", gungi_record(seed=True), "'seed'"),
    ("seed 1.0", gungi_record(seed=1.0), "'seed'"),
    ("unknown field", gungi_record(comment="hi"), "'comment'"),
    ("long name", gungi_record(players=["G" * 65, "K"]), "'players.0'"),
    ("10,000 players", gungi_record(players=[f"p{i}" for i in range(10_000)]), "'players'"),
    ("more players than seats", gungi_record(players=["a", "b", "c"]), "'players'"),
    ("version true", gungi_record(version=True), "'version'"),
    ("version as text", gungi_record(version="1"), "'version'"),
    ("a number for an action", gungi_record(actions=[5]), "'actions.0'"),
    ("a name that is a number", gungi_record(players=[1, 2]), "'players.0'"),
    ("concession ply as text", gungi_record(concessions=[{"ply": "0", "seat": 0}]), "ply"),
    ("concession's extra field", gungi_record(concessions=[{"ply": 0, "seat": 0, "x": 1}]), "x"),
    ("options not an object", gungi_record(options=[]), "'options'"),
    ("long option text", gungi_record(options={"mode": "m" * 2000}), "'options'"),
]


@pytest.mark.parametrize(("label", "record", "field"), BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS])
def test_a_lax_record_is_refused_naming_the_field(
    make_client: Callable[..., TestClient], label: str, record: dict[str, Any], field: str
) -> None:
    with make_client() as client:
        assert client.post("/api/records", json=gungi_record()).status_code == 201
        before = client.get("/api/records").json()
        r = client.post("/api/records", json=record)
        assert r.status_code == 422, (label, r.status_code, r.text[:300])
        e = error(r)
        assert e["code"] == "bad_record" and field in e["message"], (label, e)
        assert client.get("/api/records").json() == before  # nothing stored


def test_a_record_the_server_published_imports_as_it_is(
    make_client: Callable[..., TestClient],
) -> None:
    """``GET /api/records/{id}`` adds the match's id and status: the web client's export
    holds them, and importing it still works (they are set aside)."""
    with make_client() as client:
        r = client.post("/api/records", json=gungi_record(seed=2**100))
        assert r.status_code == 201, r.text
        published = client.get(f"/api/records/{r.json()['id']}").json()
        assert {"id", "status"} <= published.keys() and published["seed"] == str(2**100)
        again = client.post("/api/records", json=published)
        assert again.status_code == 201, again.text
        assert again.json()["id"] != published["id"]
        assert again.json()["record"]["players"] == ["Gon", "Killua"]


# -- item 4: strict request models -----------------------------------------------------------
def test_a_draw_is_not_agreed_by_a_yes_in_words(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        m = new_match(client, game="gungi", options={"mode": "beginner"}, seed=1)
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        r = client.post(f"/api/matches/{mid}/draw", json={}, headers=auth(t0))
        assert r.status_code == 200, r.text
        for accept in ("yes", 1, "true", None, 1.0):
            r = client.post(f"/api/matches/{mid}/draw", json={"accept": accept}, headers=auth(t1))
            assert r.status_code == 422, (accept, r.text)
            assert error(r)["code"] == "bad_request" and "accept" in error(r)["message"]
        snap = client.get(f"/api/matches/{mid}", headers=auth(t1)).json()
        assert snap["status"] == "active" and snap["result"] is None
        table = client.get(f"/api/matches/{mid}/table").json()
        assert table["draw"]["offered_by"] == [0], table["draw"]


STRICT_CASES: list[tuple[str, str, dict[str, Any], str]] = [
    # (route, token of seat, body, field named)
    ("create", "", {"game": "secretnim", "seats": [{}, {}], "seed": True}, "seed"),
    ("create", "", {"game": "secretnim", "seats": [{}, {}], "seed": 1.0}, "seed"),
    ("create", "", {"game": "secretnim", "seats": [{}, {}], "seed": "1"}, "seed"),
    ("create", "", {"game": 5, "seats": [{}, {}]}, "game"),
    ("create", "", {"game": "secretnim", "seats": [{"kind": "ai", "level": "1"}, {}]}, "level"),
    ("create", "", {"game": "secretnim", "seats": [{"kind": "ai", "level": 1.0}, {}]}, "level"),
    ("create", "", {"game": "secretnim", "seats": [{"name": 5}, {}]}, "name"),
    ("create", "", {"game": "secretnim", "seats": [{}, {}], "options": [1]}, "options"),
    ("join", "", {"name": 5}, "name"),
    ("join", "", {"invite": 12345678901}, "invite"),
    ("actions", "0", {"action": "take 1", "ply": True}, "ply"),
    ("actions", "0", {"action": "take 1", "ply": 0.0}, "ply"),
    ("actions", "0", {"action": "take 1", "ply": "0"}, "ply"),
    ("actions", "0", {"action": 1, "ply": 0}, "action"),
    ("actions", "0", {"action": "take 1", "id": 5}, "id"),
    ("takeback", "0", {"accept": "yes"}, "accept"),
    ("takeback", "0", {"accept": 0}, "accept"),
    ("chat", "0", {"text": 5}, "text"),
    ("chat", "", {"text": "hi", "name": True}, "name"),
    ("chat/mute", "0", {"muted": "yes"}, "muted"),
    ("chat/mute", "0", {"muted": 1}, "muted"),
    ("draw", "0", {"accept": "no"}, "accept"),
]


@pytest.mark.parametrize(("route", "seat", "body", "field"), STRICT_CASES)
def test_wrongly_typed_values_are_refused(
    make_client: Callable[..., TestClient],
    route: str,
    seat: str,
    body: dict[str, Any],
    field: str,
) -> None:
    with make_client() as client:
        m = new_match(client, seats=[{"kind": "local"}, {"kind": "open"}])
        mid = m["id"]
        path = "/api/matches" if route == "create" else f"/api/matches/{mid}/{route}"
        headers = auth(m["tokens"][seat]) if seat else {}
        chat = f"/api/matches/{mid}/chat"
        before = client.get(f"/api/matches/{mid}").json()
        lobby = client.get("/api/matches").json()
        chat_before = client.get(chat, headers=auth(m["tokens"]["0"])).json()
        r = client.post(path, json=body, headers=headers)
        assert r.status_code == 422, (route, body, r.status_code, r.text[:300])
        e = error(r)
        assert e["code"] == "bad_request" and field in e["message"], (route, body, e)
        assert client.get(f"/api/matches/{mid}").json() == before
        assert client.get("/api/matches").json() == lobby
        assert client.get(chat, headers=auth(m["tokens"]["0"])).json() == chat_before
        assert client.get(f"/api/matches/{mid}/table").json()["draw"]["offered_by"] == []


# -- on a real server process: a flood of large bodies --------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealServer]:
    env = {f"SENGOKU_{kind}_BURST": "100000" for kind in ("HTTP", "ACTION", "CREATE")}
    with real_server(tmp_path_factory.mktemp("input"), **env) as s:
        yield s


def raw_request(server: RealServer, head: bytes, body: bytes = b"") -> tuple[int, bytes]:
    """Send ``head`` (and ``body``, maybe only part of what ``head`` announces) on a fresh
    socket; the status and body of the answer. The server must answer without more."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(head + body)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, f"the server closed without answering: {data!r}"
            data += chunk
        head_out, _, rest = data.partition(b"\r\n\r\n")
        length = next(
            int(line.split(b":", 1)[1])
            for line in head_out.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        while len(rest) < length:
            chunk = sock.recv(65536)
            assert chunk, "the answer was cut short"
            rest += chunk
        return int(head_out.split(b" ")[1]), rest[:length]


def test_a_flood_of_large_bodies_is_refused_unread(server: RealServer, tmp_path: Path) -> None:
    """Forty requests that announce 2 MB bodies are each answered 413 after their headers
    alone (not a byte of the body is needed, so none is parsed), and the server goes on
    answering: a new match, an action, a record."""
    m = server.create({"game": "gungi", "seats": [{}, {}], "seed": 1}).json()
    mid, token = m["id"], m["tokens"]["0"]
    for n in range(40):
        path = [f"/api/matches/{mid}/actions", "/api/matches", f"/api/matches/{mid}/chat"][n % 3]
        head = (
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {token}\r\nContent-Length: 2000000\r\n\r\n"
        ).encode()
        status, body = raw_request(server, head, numbers(2_000_000)[:4096])
        assert status == 413, body[:300]
        assert json.loads(body)["error"]["code"] == "too_large"
    # chunked: refused once the counted bytes pass the cap, the rest never sent
    head = (
        f"POST /api/matches/{mid}/actions HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    chunk = numbers(8192)
    status, body = raw_request(server, head, b"%x\r\n%s\r\n" % (len(chunk), chunk))
    assert status == 413 and b"limited to 4096 bytes" in body, body[:300]
    # the server still answers normal requests
    assert server.alive()
    mover = m["tokens"][str(server.http.get(f"/api/matches/{mid}").json()["to_act"])]
    snap = server.http.get(f"/api/matches/{mid}", headers=auth(mover)).json()
    assert snap["ply"] == 0
    action = snap["legal"][0]["action"]
    r = server.http.post(
        f"/api/matches/{mid}/actions", json={"action": action, "ply": 0}, headers=auth(mover)
    )
    assert r.status_code == 200, r.text
    r = server.http.post("/api/records", json=gungi_record())
    assert r.status_code == 201, r.text
    assert "Traceback" not in server.logs()


def test_a_websocket_frame_past_the_longest_message_closes_the_connection(
    server: RealServer,
) -> None:
    """A message over 16,384 characters is refused (the connection stays); a frame over the
    UTF-8 bytes of the longest message (64 KiB) is not buffered: the connection closes."""
    m = server.create({"game": "gungi", "seats": [{}, {}], "seed": 1}).json()
    with server.ws(m["id"]) as ws:
        ws.send(json.dumps({"type": "hello", "token": m["tokens"]["0"]}))
        receive(ws, "state")
        ws.send(json.dumps({"type": "ping", "id": 1, "pad": "x" * 20_000}))
        assert receive(ws, "refused")["code"] == "bad_message"
        ws.send(json.dumps({"type": "ping", "id": 2}))
        assert receive(ws, "pong")["id"] == 2
        ws.send(json.dumps({"type": "ping", "id": 3, "pad": "x" * 70_000}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert server.alive()
