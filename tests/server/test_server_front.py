"""``sengoku serve --processes N``: the front hands each connection to the worker that owns
the match its first request names (sengoku/server/front.py, worker.py, routing.py).

The unit tests check the routing and the ids; the others run the real front and two workers
on a temporary SQLite file and talk to the one port over real sockets."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from real_server import RealServer, real_server, receive

from sengoku.server.front import NotHttp, request_target
from sengoku.server.limits import worker_share
from sengoku.server.routing import Worker, match_of_path, owner, parse_worker, this_worker
from sengoku.server.settings import Settings
from sengoku.server.tokens import new_match_id
from tests.waiting import GENEROUS, ok, wait_until

PLAYERS = [{"kind": "local"}, {"kind": "local"}]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- routing, without a server ----------------------------------------------------------------
def test_owner_is_stable_and_spreads_ids_evenly() -> None:
    # fixed values: the load generator and every worker must agree, run after run
    # blake2b of the id (8 bytes, big-endian) modulo N
    assert [owner("abc", 2), owner("abc", 3), owner("wvf5iGEO1ut9", 2)] == [1, 1, 0]
    assert owner("wvf5iGEO1ut9", 64) == 4
    assert owner("x", 1) == 0
    ids = [new_match_id(None) for _ in range(4000)]
    for n in (2, 3, 5):
        counts = Counter(owner(i, n) for i in ids)
        assert set(counts) == set(range(n))
        assert min(counts.values()) > 0.8 * len(ids) / n


def test_owner_is_the_same_in_another_process() -> None:
    """Python salts ``hash`` of strings per process; ``owner`` must not depend on it."""
    import subprocess
    import sys

    code = "from sengoku.server.routing import owner; print([owner(f'm{i}', 7) for i in range(50)])"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    assert out.stdout.strip() == str([owner(f"m{i}", 7) for i in range(50)])


def test_a_worker_draws_only_ids_it_owns(monkeypatch: pytest.MonkeyPatch) -> None:
    for index in range(3):
        worker = Worker(index, 3)
        assert all(worker.owns(new_match_id(worker)) for _ in range(200))
    monkeypatch.setenv("SENGOKU_WORKER", "1/4")
    assert this_worker() == Worker(1, 4)
    assert all(owner(new_match_id(), 4) == 1 for _ in range(200))
    monkeypatch.delenv("SENGOKU_WORKER")
    assert this_worker() is None
    assert len({owner(new_match_id(), 4) for _ in range(200)}) == 4  # alone: any id


def test_worker_places_are_checked() -> None:
    assert parse_worker("0/2") == Worker(0, 2) and str(Worker(3, 4)) == "3/4"
    for bad in ("2/2", "-1/2", "1", "a/b", "0/0", "0/65", ""):
        with pytest.raises(ValueError, match="SENGOKU_WORKER"):
            parse_worker(bad)


def test_every_match_route_names_its_match() -> None:
    for path in (
        "/api/matches/AbC-_9",
        "/api/matches/AbC-_9/actions",
        "/api/matches/AbC-_9/events?after=3",
        "/api/matches/AbC-_9/chat/mute",
        "/api/matches/AbC-_9/table",
        "/ws/matches/AbC-_9",
        "/api/records/AbC-_9",
        "/play/AbC-_9",
        "/replay/AbC-_9",
    ):
        assert match_of_path(path) == "AbC-_9", path
    for path in ("/api/matches", "/api/matches?game=gungi", "/api/records", "/healthz", "/"):
        assert match_of_path(path) is None, path
    assert match_of_path("/api/matches/" + "x" * 65) is None  # no id is that long


def test_the_front_reads_only_request_lines() -> None:
    assert request_target(b"GET /api/matches/ab/events?after=2 HTTP/1.1") == (
        "/api/matches/ab/events?after=2"
    )
    assert request_target(b"POST http://example.org/ws/matches/ab HTTP/1.1") == "/ws/matches/ab"
    for bad in (b"HELLO", b"GET / SPDY/3", b"get / HTTP/1.1", b"GET  / HTTP/1.1", b"\x16\x03\x01"):
        with pytest.raises(NotHttp):
            request_target(bad)


# -- a real front and two workers ---------------------------------------------------------------
@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealServer]:
    # The front closes a connection that names nothing within 3 s; a request sent in two
    # parts (the trickle below) must still get through on a busy machine.
    env = {"SENGOKU_FRONT_TIMEOUT": "3", "SENGOKU_LIMIT_EXEMPT": "127.0.0.1"}
    with real_server(tmp_path_factory.mktemp("front"), ("--processes", "2"), **env) as s:
        both_ready(s)
        yield s


def worker_pids(server: RealServer) -> dict[int, int]:
    """Each worker's newest pid, from the front's log."""
    found = re.findall(r"worker (\d+)/2 \(pid (\d+)\) takes connections", server.logs())
    return {int(i): int(pid) for i, pid in found}


def both_ready(server: RealServer) -> dict[int, int]:
    """Wait until both workers take connections (the front answers once one does)."""
    wait_until(
        lambda: len(worker_pids(server)) == 2,
        "both workers to take connections",
        detail=server.logs,
    )
    return worker_pids(server)


def create_on_fresh_connection(server: RealServer) -> tuple[dict[str, Any], int]:
    """A new match, and the worker that served its creation (asked on the same connection)."""
    with httpx.Client(base_url=server.base, timeout=20) as http:
        made = ok(http.post("/api/matches", json={"game": "gungi", "seats": PLAYERS}), 201)
        worker = ok(http.get("/healthz"))["worker"]
    return made, int(worker.split("/")[0])


def raw_request(sock: socket.socket, path: str) -> tuple[int, dict[str, str], bytes]:
    """One keep-alive GET on ``sock``: status, headers, body."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    while len(body) < int(headers["content-length"]):
        body += sock.recv(65536)
    return int(lines[0].split()[1]), headers, body


def closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def node_pid(server: RealServer, match_id: str) -> int:
    """The pid of the process that runs the match's clock and AI (``matches.node``)."""
    with sqlite3.connect(server.db) as db:
        (node,) = db.execute("select node from matches where id = ?", (match_id,)).fetchone()
    return int(node.rsplit("-", 2)[1])  # host-pid-random


def test_each_match_is_made_by_the_worker_that_owns_it(front: RealServer) -> None:
    made_by: Counter[int] = Counter()
    pids = worker_pids(front)
    for _ in range(6):  # fresh connections go round the workers
        m, worker = create_on_fresh_connection(front)
        assert owner(m["id"], 2) == worker
        # its clock and AI turns run there too: the creator is its node from the first row
        assert node_pid(front, m["id"]) == pids[worker]
        made_by[worker] += 1
        # and every later request for it reaches that worker, which holds it in memory
        with httpx.Client(base_url=front.base, timeout=20) as http:
            ok(http.get(f"/api/matches/{m['id']}"))
            assert ok(http.get("/healthz"))["worker"] == f"{worker}/2"
    assert set(made_by) == {0, 1}


def test_a_game_plays_through_the_one_port(front: RealServer) -> None:
    """HTTP and WebSocket actions, both seats' sockets and a spectator's, to its end."""
    m, _ = create_on_fresh_connection(front)
    mid, tokens = m["id"], m["tokens"]
    with front.ws(mid) as one, front.ws(mid) as two, front.ws(mid) as watcher:
        seats = [one, two]
        for seat, ws in enumerate(seats):
            ws.send(json.dumps({"type": "hello", "token": tokens[str(seat)], "after": 0}))
            assert receive(ws, "welcome")["seat"] == seat
            receive(ws, "state")
        watcher.send(json.dumps({"type": "hello", "after": 0}))
        assert receive(watcher, "welcome")["seat"] is None
        with httpx.Client(base_url=front.base, timeout=20) as http:
            for ply in range(6):
                snap = ok(http.get(f"/api/matches/{mid}", headers=auth(tokens["0"])))
                seat = snap["to_act"]
                mine = ok(http.get(f"/api/matches/{mid}", headers=auth(tokens[str(seat)])))
                action = mine["legal"][0]["action"]
                if ply % 2:  # every other action over the seat's socket
                    seats[seat].send(
                        json.dumps({"type": "action", "action": action, "ply": ply, "id": ply})
                    )
                    assert receive(seats[seat], "ack")["id"] == ply
                else:
                    r = http.post(
                        f"/api/matches/{mid}/actions",
                        json={"action": action, "ply": ply},
                        headers=auth(tokens[str(seat)]),
                    )
                    assert r.status_code == 200, r.text
                while receive(watcher, "state")["ply"] != ply + 1:
                    pass
            seats[0].send(json.dumps({"type": "resign"}))
            while (state := receive(watcher, "state"))["status"] == "active":
                pass  # each receive waits for the next state (with a safety timeout)
            done = ok(http.get(f"/api/matches/{mid}"))
            assert done["status"] == state["status"] and done["ply"] == 6


def test_a_keep_alive_request_for_another_workers_match_is_answered_then_closed(
    front: RealServer,
) -> None:
    made: dict[int, str] = {}
    while len(made) < 2:
        m, worker = create_on_fresh_connection(front)
        made[worker] = m["id"]
    with socket.create_connection(("127.0.0.1", front.port), timeout=10) as sock:
        status, headers, body = raw_request(sock, f"/api/matches/{made[0]}")
        assert status == 200 and json.loads(body)["id"] == made[0]
        assert headers.get("connection") != "close"  # its own match: the connection stays
        status, headers, body = raw_request(sock, f"/api/matches/{made[1]}")
        # worker 0 answers for worker 1's match from the database, and closes the connection
        assert status == 200 and json.loads(body)["id"] == made[1]
        assert headers["connection"] == "close"
        assert closed_by_server(sock, GENEROUS)
    # a request that names no match stays on its connection
    with socket.create_connection(("127.0.0.1", front.port), timeout=10) as sock:
        raw_request(sock, f"/api/matches/{made[1]}")
        status, headers, _ = raw_request(sock, "/api/games")
        assert status == 200 and headers.get("connection") != "close"


def test_the_front_closes_what_is_not_a_request_and_serves_the_rest(front: RealServer) -> None:
    port = front.port
    silent = socket.create_connection(("127.0.0.1", port))
    garbage = socket.create_connection(("127.0.0.1", port))
    garbage.sendall(b"HELLO THERE\r\n\r\n")
    huge = socket.create_connection(("127.0.0.1", port))
    huge.sendall(b"GET " + b"A" * 9000)  # no path, no line end, past the cap
    half = socket.create_connection(("127.0.0.1", port))
    half.sendall(b"GET /api/ma")
    half.shutdown(socket.SHUT_WR)  # the line can never be completed
    trickle = socket.create_connection(("127.0.0.1", port))
    trickle.sendall(b"GET /heal")
    try:
        # meanwhile other clients are served
        ok(httpx.get(f"{front.base}/healthz", timeout=GENEROUS))
        trickle.sendall(b"thz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert trickle.recv(12) == b"HTTP/1.1 200"
        # Each is closed (the safety net is generous: how soon is a benchmark's figure).
        assert closed_by_server(garbage, GENEROUS) and closed_by_server(huge, GENEROUS)
        assert closed_by_server(half, GENEROUS)
        assert closed_by_server(silent, GENEROUS)  # after SENGOKU_FRONT_TIMEOUT
    finally:
        for s in (silent, garbage, huge, half, trickle):
            s.close()
    assert front.alive()


def test_a_killed_worker_is_started_again(front: RealServer) -> None:
    before = worker_pids(front)
    os.kill(before[1], signal.SIGKILL)
    wait_until(
        lambda: worker_pids(front).get(1) != before[1],
        "worker 1 to be started again",
        detail=front.logs,
    )
    assert "worker 1/2 exited with code -9; restarting" in front.logs()
    mine = None
    while mine is None:  # a match the new worker 1 makes and serves
        m, worker = create_on_fresh_connection(front)
        mine = m["id"] if worker == 1 else None
    with httpx.Client(base_url=front.base, timeout=20) as http:
        ok(http.get(f"/api/matches/{mine}"))
        assert ok(http.get("/healthz"))["worker"] == "1/2"


def test_sigterm_stops_the_front_and_its_workers(tmp_path: Path) -> None:
    with real_server(tmp_path, ("--processes", "2")) as server:
        pids = both_ready(server)
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(GENEROUS) == 0
        for pid in pids.values():
            assert (
                not Path(f"/proc/{pid}").exists()
                or "zombie" in Path(f"/proc/{pid}/status").read_text()
            )
        assert "front stopped" in server.logs()
        assert "Traceback" not in server.logs()


# -- per-client limits over the workers -------------------------------------------------------
def test_each_worker_applies_its_share_of_a_budget_unless_they_count_together() -> None:
    settings = Settings(db_url="sqlite://", pubsub_url="none://", ws_per_client=5)
    share = worker_share(settings, 2)
    assert (share.create_rate, share.create_burst) == (settings.create_rate / 2, 10.0)
    assert (share.action_rate, share.action_burst) == (10.0, 50.0)
    assert share.ws_per_client == 2 and share.max_spectators == settings.max_spectators
    assert worker_share(Settings(db_url="sqlite://", create_burst=1.0), 4).create_burst == 1.0
    assert worker_share(settings, 1) == settings
    redis = Settings(db_url="sqlite://", pubsub_url="redis://127.0.0.1:6379/0")
    assert worker_share(redis, 2) == redis  # the budget is counted whole, in Redis


def test_a_client_spread_over_the_workers_gets_the_budget_once(tmp_path: Path) -> None:
    """Creations go round the workers, each on a fresh connection: the client still gets the
    configured four, not four from each worker."""
    env = {"SENGOKU_CREATE_BURST": "4", "SENGOKU_CREATE_RATE": "0.001"}
    with real_server(tmp_path, ("--processes", "2"), **env) as server:
        both_ready(server)
        statuses, workers = [], set()
        for _ in range(8):
            with httpx.Client(base_url=server.base, timeout=20) as http:
                r = http.post("/api/matches", json={"game": "gungi", "seats": PLAYERS})
                statuses.append(r.status_code)
                workers.add(ok(http.get("/healthz"))["worker"])
    assert workers == {"0/2", "1/2"}
    assert statuses.count(201) == 4 and statuses.count(429) == 4, statuses
