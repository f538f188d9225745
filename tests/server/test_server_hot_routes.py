"""The move's two requests answered without FastAPI's routing (sengoku/server/hot.py) give
exactly the answers the FastAPI routes give: the same status, headers and bytes, for plays
that succeed, every refusal, and the shapes the hot path leaves to the routes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from conftest import auth, new_match
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from sengoku.server import broadcast
from sengoku.server.hot import HotRoutes

#: (method, path after /api/matches/{id}, token seat or None or a raw header, body, type)
Step = tuple[str, str, Any, Any, str | None]

STEPS: list[Step] = [
    ("GET", "/events", 0, None, None),
    ("POST", "/actions", 0, {"action": "take 1", "ply": 0}, "application/json"),
    ("GET", "/events?after=0", 0, None, None),
    ("GET", "/events?after=1", 1, None, None),
    ("GET", "/events", None, None, None),  # a spectator
    ("GET", "/events?after=0&x=1", 1, None, None),  # left to the route
    ("GET", "/events?after=-1", 1, None, None),
    ("GET", "/events?after=abc", 1, None, None),
    ("GET", "/events", "Basic abc", None, None),
    ("POST", "/actions", 0, {"action": "take 1", "ply": 1}, "application/json"),  # not yours
    ("POST", "/actions", 1, {"action": "take 1", "ply": 0}, "application/json"),  # stale
    ("POST", "/actions", 1, {"action": "take 7", "ply": 1}, "application/json"),  # illegal
    ("POST", "/actions", 1, {"action": "take 1"}, "application/json"),  # no ply, no id
    ("POST", "/actions", 1, {"action": "take 1", "ply": 1, "x": 2}, "application/json"),
    ("POST", "/actions", 1, {"action": "", "ply": 1}, "application/json"),
    ("POST", "/actions", 1, {"action": "t" * 501, "ply": 1}, "application/json"),
    ("POST", "/actions", 1, {"action": 5, "ply": 1}, "application/json"),
    ("POST", "/actions", 1, {"action": "take 1", "ply": True}, "application/json"),
    ("POST", "/actions", 1, {"action": "take 1", "ply": -1}, "application/json"),
    ("POST", "/actions", 1, {"action": "take 1", "id": "bad id!"}, "application/json"),
    ("POST", "/actions", 1, {"action": "täke 1", "ply": 1}, "application/json"),
    ("POST", "/actions", 1, '{"action": "take \\ud800", "ply": 1}', "application/json"),
    ("POST", "/actions", 1, [1, 2], "application/json"),
    ("POST", "/actions", 1, "not json", "application/json"),
    ("POST", "/actions", 1, {"action": "take 1", "ply": 1}, "text/plain"),
    ("POST", "/actions", None, {"action": "take 1", "ply": 1}, "application/json"),
    ("POST", "/actions", "Basic abc", {"action": "take 1", "ply": 1}, "application/json"),
    (
        "POST",
        "/actions",
        1,
        {"action": "take 1", "ply": "1"},
        "application/json",
    ),  # strict: refused
    ("POST", "/actions", 0, {"action": "TAKE  1", "id": "move-3"}, "application/json"),
    ("POST", "/actions", 0, {"action": "take 1", "id": "move-3"}, "application/json"),  # again
    ("POST", "/actions", 1, {"action": "take 1", "id": "move-3"}, "application/json"),  # taken
    ("GET", "/events?after=1", 0, None, None),
]


def _run(client: TestClient, match: dict[str, Any], steps: list[Step]) -> list[Any]:
    mid = match["id"]
    answers = []
    for method, path, who, body, content_type in steps:
        headers: dict[str, str] = {}
        if isinstance(who, int):
            headers.update(auth(match["tokens"][str(who)]))
        elif isinstance(who, str):
            headers["Authorization"] = who
        content = None
        if body is not None:
            content = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            headers["Content-Type"] = content_type or "application/json"
        r = client.request(method, f"/api/matches/{mid}{path}", content=content, headers=headers)
        kept = {k: v for k, v in r.headers.items() if k not in {"date", "content-length"}}
        answers.append((r.status_code, kept, r.content.replace(mid.encode(), b"MID")))
    return answers


@pytest.mark.parametrize("unknown", ["nope", "bad%20id!"])
def test_unknown_matches_alike(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch, unknown: str
) -> None:
    with make_client() as client:
        answers = []
        for enabled in (True, False):
            monkeypatch.setattr(HotRoutes, "enabled", enabled)
            answers.append(_run(client, {"id": unknown, "tokens": {"0": "t" * 20}}, STEPS[:2]))
        assert answers[0] == answers[1]
        assert answers[0][0][0] == 404


def test_hot_routes_answer_as_the_fastapi_routes(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client() as client:
        answers = []
        for enabled in (True, False):
            monkeypatch.setattr(HotRoutes, "enabled", enabled)
            match = new_match(client, options={"pile": 9}, seed=3)
            answers.append(_run(client, match, STEPS))
        fast, routed = answers
        for step, a, b in zip(STEPS, fast, routed, strict=True):
            assert a == b, step
        statuses = [a[0] for a in fast]
        # the script covers successes, refusals by the service and refusals of the shape
        assert statuses.count(200) >= 8 and {401, 409, 422} <= set(statuses)
        assert json.loads(fast[-1][2])["events"], "the events after the plays are listed"


def test_hot_routes_are_taken(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The well-formed requests do not reach FastAPI's router (the point of the module)."""
    with make_client() as client:
        match = new_match(client, options={"pile": 9}, seed=3)
        routed: list[str] = []
        handle = APIRoute.handle

        async def spy(route: APIRoute, scope: Any, receive: Any, send: Any) -> None:
            routed.append(scope["path"])
            await handle(route, scope, receive, send)

        monkeypatch.setattr(APIRoute, "handle", spy)
        kanji: Step = ("POST", "/actions", 1, {"action": "兵 7-7", "ply": 1}, "application/json")
        _run(client, match, [*STEPS[:3], kanji])  # a Gungi move is written in kanji
        assert routed == []
        _run(client, match, [STEPS[5]])  # a query the hot path leaves to the route
        assert routed == [f"/api/matches/{match['id']}/events"]


@pytest.mark.parametrize("game", ["gungi", "gunshi", "gunkimono", "sashimono"])
@pytest.mark.parametrize("hot", [True, False])
def test_an_actions_answer_is_the_match_as_its_seat_sees_it(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch, game: str, hot: bool
) -> None:
    """The answer to a move is made from the state message the mover's own connection got
    (when it asked for short forms): byte for byte what ``GET /api/matches/{id}`` answers the
    seat then, and that message less its type, with no second view or legal list made."""
    monkeypatch.setattr(HotRoutes, "enabled", hot)
    made = []  # the seats whose view of the match was made, in order
    parts = broadcast._snapshot_parts

    def counted(live: Any, seat: int | None, now: float) -> Any:
        made.append(seat)
        return parts(live, seat, now)

    monkeypatch.setattr(broadcast, "_snapshot_parts", counted)
    with make_client() as client:
        match = new_match(client, game=game, seed=5)
        mid, tokens = match["id"], match["tokens"]
        with (
            client.websocket_connect(f"/ws/matches/{mid}") as w0,
            client.websocket_connect(f"/ws/matches/{mid}") as w1,
        ):
            w0.send_json({"type": "hello", "after": 0, "token": tokens["0"]})
            w1.send_json({"type": "hello", "after": 0, "token": tokens["1"], "short": False})
            sockets = [w0, w1]
            state = [_state_message(w) for w in sockets]
            reused = 0
            for _ in range(30):
                seat = state[0]["to_act"]
                if state[0]["status"] != "active" or seat is None:
                    break
                mine = state[seat]
                head = auth(tokens[str(seat)])
                made.clear()
                r = client.post(
                    f"/api/matches/{mid}/actions",
                    json={"action": mine["legal"][-1]["action"], "ply": mine["ply"]},
                    headers=head,
                )
                assert r.status_code == 200, r.text
                if seat == 0:  # its connection asked for short forms: nothing made again
                    assert sorted(made, key=str) == [0, 1]
                    reused += 1
                state = [_state_message(w) for w in sockets]
                again = client.get(f"/api/matches/{mid}", headers=head)
                assert r.content == again.content
                answer = r.json()
                if seat == 0:
                    assert {"type": "state", **answer} == state[0]
                else:  # its connection has no short forms; the answer has them
                    long = {**answer, "legal": [_long(a) for a in answer["legal"]]}
                    assert {"type": "state", **long} == state[1]
            assert reused >= 3


def _state_message(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            return msg


def _long(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "short"}
