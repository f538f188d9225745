"""Nim through a real server process: ``python -m sengoku serve`` on a loopback port with a
temporary SQLite file lists the plugin game, plays a hot-seat match over HTTP while a
WebSocket spectator receives the numbered events, and replays its record. The server finds
the game by its entry point alone (this folder is on ``PYTHONPATH``, see tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection

from tests.server.real_server import ROOT, real_server
from tests.waiting import GENEROUS, ok

#: Heaps 1-3-5-7: seat 0 empties a heap per turn-pair until the last stone (16 stones).
OPTIONS = {"heaps": "classic"}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def events_until_over(ws: ClientConnection, timeout: float = GENEROUS) -> list[dict[str, Any]]:
    """Every event message up to the ``game_over`` one (other messages are skipped)."""
    deadline = time.monotonic() + timeout
    got: list[dict[str, Any]] = []
    while True:
        msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if msg.get("type") == "event":
            got.append(msg)
            if msg["event"]["type"] == "game_over":
                return got


def test_nim_plays_through_a_real_server(tmp_path: Path) -> None:
    path = os.pathsep.join([*os.environ.get("PYTHONPATH", "").split(os.pathsep), str(ROOT)])
    with real_server(tmp_path, PYTHONPATH=path) as server:
        http = server.http
        listed = ok(http.get("/api/games"))["games"]
        nim = next(g for g in listed if g["name"] == "nim")
        assert nim["renderer"] == "generic"
        assert nim["min_players"] == nim["max_players"] == 2
        heaps = next(o for o in nim["options"] if o["name"] == "heaps")
        assert heaps["default"] == "long" and set(heaps["allowed"]) == {"long", "classic", "tiny"}
        assert ok(http.get("/api/games/nim"))["name"] == "nim"

        r = server.create(
            {"game": "nim", "options": OPTIONS, "seats": [{"kind": "local"}, {"kind": "local"}]}
        )
        assert r.status_code == 201, r.text
        created = r.json()
        mid, tokens = created["id"], created["tokens"]
        assert set(tokens) == {"0", "1"} and created["match"]["status"] == "active"
        assert created["match"]["view"]["heaps"] == [1, 3, 5, 7]

        with server.ws(mid) as spectator:
            spectator.send(json.dumps({"type": "hello", "after": 0}))
            played: list[str] = []
            while True:
                snap = ok(http.get(f"/api/matches/{mid}"))
                if snap["status"] != "active":
                    break
                seat = snap["to_act"]
                mine = ok(http.get(f"/api/matches/{mid}", headers=auth(tokens[str(seat)])))
                legal = [x["action"] for x in mine["legal"]]
                # Always the largest take from the first heap with stones.
                action = max((a for a in legal if a[0] == legal[0][0]), key=lambda a: a[1])
                r = http.post(
                    f"/api/matches/{mid}/actions",
                    json={"action": action, "ply": snap["ply"]},
                    headers=auth(tokens[str(seat)]),
                )
                assert r.status_code == 200, r.text
                played.append(action)
                # A stale ply is refused, never played twice.
                stale = http.post(
                    f"/api/matches/{mid}/actions",
                    json={"action": action, "ply": snap["ply"]},
                    headers=auth(tokens[str(1 - seat)]),
                )
                assert stale.status_code >= 400
            events = events_until_over(spectator)

        # a1; b3; c3 c2; d3 d3 d1: seven takes, seat 0 takes the last stone.
        assert played == ["a1", "b3", "c3", "c2", "d3", "d3", "d1"]
        numbers = [e["n"] for e in events]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
        took = [e["event"] for e in events if e["event"]["type"] == "took"]
        assert [t["action"] for t in took] == played
        assert [t["seat"] for t in took] == [0, 1, 0, 1, 0, 1, 0]
        over = events[-1]["event"]
        assert over["reason"] == "last_stone" and over["winners"] == [0]

        final = ok(http.get(f"/api/matches/{mid}"))
        assert final["status"] == "finished" and final["view"]["heaps"] == [0, 0, 0, 0]
        result = final["result"]
        winner = final["seats"][result["winners"][0]]["name"]
        words = f"{winner} wins: {result['reason'].replace('_', ' ')}"
        assert words == "Player 1 wins: last stone"

        record = ok(http.get(f"/api/records/{mid}"))
        assert record["game"] == "nim" and record["options"] == OPTIONS
        assert record["actions"] == played and record["result"] == result
        assert mid in [x["id"] for x in ok(http.get("/api/records?game=nim"))["records"]]

        r = http.post("/api/replay", json=record)
        assert r.status_code == 200, r.text
        replay = r.json()
        assert [p["action"] for p in replay["plies"][1:]] == played
        assert replay["plies"][0]["view"]["heaps"] == [1, 3, 5, 7]
        assert replay["plies"][-1]["view"]["heaps"] == [0, 0, 0, 0]
        assert replay["result"] == result
        assert server.alive(), server.logs()
