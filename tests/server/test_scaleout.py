"""Three server processes on one PostgreSQL database and one Redis (real components: a
throw-away cluster and ``redis-server`` on private loopback ports).

Players of one game are connected to different processes over WebSocket and a spectator to
a third; two processes are sent conflicting moves at once; Redis restarts; and the process
that runs a game's clock and AI turn is killed with SIGKILL while the AI thinks.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from scaleout_cluster import Balancer, Node, Redis, Watcher, nodes
from test_server_postgres import cluster
from websockets.exceptions import ConnectionClosed

from sengoku.core.registry import load_game
from tests.waiting import GENEROUS, ok, wait_until


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    with cluster(fsync=False) as url:
        yield url


@pytest.fixture(scope="module")
def redis_server() -> Iterator[Redis]:
    server = Redis()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="module")
def clock_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seconds the three processes' clocks are moved by (the test-only hook
    ``SENGOKU_TEST_CLOCK_FILE``): days of a turn-based game pass at once."""
    path = tmp_path_factory.mktemp("clock") / "offset"
    move_clock(path, 0)
    return path


def move_clock(path: Path, seconds: float) -> None:
    part = path.with_suffix(".part")
    part.write_text(str(seconds))
    os.replace(part, path)  # a process never reads half a number


@pytest.fixture(scope="module")
def three(pg: str, redis_server: Redis, clock_file: Path) -> Iterator[list[Node]]:
    with nodes(
        pg,
        redis_server.url,
        3,
        SENGOKU_NODE_BEAT="0.3",
        SENGOKU_NODE_TTL="2",
        SENGOKU_LIMIT_EXEMPT="127.0.0.1",
        SENGOKU_AI_WORKERS="1",
        # for the shared limits: clients named by a trusted proxy's header are not exempt
        SENGOKU_TRUSTED_PROXIES="127.0.0.1",
        SENGOKU_CREATE_RATE="0.001",
        SENGOKU_CREATE_BURST="4",
        SENGOKU_MAX_SPECTATORS="2",
        SENGOKU_CLAIM_AFTER="1",
        SENGOKU_TEST_CLOCK_FILE=str(clock_file),
        SENGOKU_FLAG_SWEEP="0.2",
    ) as started:
        yield started


def _create(node: Node, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = node.http.post("/api/matches", json={"game": "gungi", "seats": seats, **extra})
    data: dict[str, Any] = ok(r, 201)
    return data


def _consecutive(events: list[dict[str, Any]]) -> None:
    numbers = [e["n"] for e in events]
    assert numbers == list(range(1, len(numbers) + 1)), numbers


def test_players_on_two_processes_and_a_spectator_on_a_third(three: list[Node]) -> None:
    a, b, c = three
    created = _create(a, [{"kind": "local"}, {"kind": "local"}])
    mid, tokens = created["match"]["id"], created["tokens"]
    seats = [Watcher(a, mid, tokens["0"]), Watcher(b, mid, tokens["1"])]
    spectator = Watcher(c, mid, None)
    try:
        for ply in range(8):
            mover = next(s for s in seats if s.until(lambda st, p=ply: st["ply"] == p)["legal"])
            state = mover.state
            assert state["to_act"] == state["you"]
            reply = mover.act(state["legal"][0]["action"], ply, f"p{ply}")
            assert reply["type"] == "ack", reply
            # the other seat, on the other process, sees the move
            other = seats[1 - state["you"]]
            other.until(lambda st, p=ply: st["ply"] == p + 1)
        final = spectator.until(lambda st: st["ply"] == 8)
        _consecutive(spectator.events)
        assert spectator.events[-1]["n"] == final["last_event"]
        stored = ok(c.http.get(f"/api/matches/{mid}"))
        assert stored["ply"] == 8
        # Chat written on one process reaches the connections held by the others.
        posted = a.http.post(
            f"/api/matches/{mid}/chat", json={"text": "well played"}, headers=_auth(tokens["0"])
        )
        assert posted.status_code == 201, posted.text
        for watcher in (seats[1], spectator):
            assert watcher.chat_until("well played")["channel"] == "players"
    finally:
        for w in [*seats, spectator]:
            w.close()


def test_conflicting_moves_on_two_processes_one_wins(three: list[Node]) -> None:
    a, b, c = three
    created = _create(a, [{"kind": "local"}, {"kind": "local"}])
    mid, tokens = created["match"]["id"], created["tokens"]
    wins = 0
    for ply in range(6):
        # The third process learns the last move through the pub/sub: wait until it has it,
        # else the seat it names to act may be the one before (a read racing the news).
        def caught_up(ply: int = ply) -> dict[str, Any] | None:
            got: dict[str, Any] = ok(c.http.get(f"/api/matches/{mid}", headers=_auth(tokens["0"])))
            return got if got["ply"] == ply else None

        snap = wait_until(caught_up, f"the third process at ply {ply}")
        if snap["to_act"] != 0:
            snap = ok(c.http.get(f"/api/matches/{mid}", headers=_auth(tokens["1"])))
        token = tokens[str(snap["to_act"])]
        assert snap["ply"] == ply and len(snap["legal"]) >= 2, snap
        moves = [snap["legal"][0]["action"], snap["legal"][-1]["action"]]
        results: list[httpx.Response] = []
        go = threading.Barrier(2)

        def send(
            node: Node,
            action: str,
            token: str = token,
            ply: int = ply,
            go: threading.Barrier = go,
            results: list[httpx.Response] = results,
        ) -> None:
            go.wait()
            results.append(
                node.http.post(
                    f"/api/matches/{mid}/actions",
                    json={"action": action, "ply": ply},
                    headers=_auth(token),
                )
            )

        threads = [
            threading.Thread(target=send, args=(node, action))
            for node, action in zip((a, b), moves, strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(r.status_code for r in results)
        assert codes == [200, 409], [r.text for r in results]
        loser = next(r for r in results if r.status_code == 409)
        assert loser.json()["error"]["code"] in {"stale", "conflict"}
        wins += 1

    # Every process ends at the one line of six moves. The third learns the last one through
    # the pub/sub, as it learned each before (CI once read it a moment before the news came).
    def after_the_last(node: Node) -> dict[str, Any] | None:
        got: dict[str, Any] = ok(node.http.get(f"/api/matches/{mid}"))
        return got if got["ply"] >= wins else None

    for node in (a, b, c):
        record = wait_until(partial(after_the_last, node), "every process at the end")
        assert record is not None and record["ply"] == wins == 6, record


def test_limits_and_spectator_caps_count_over_every_process(three: list[Node]) -> None:
    proxied = {"X-Forwarded-For": "203.0.113.9"}
    codes = []
    for i in range(7):
        r = three[i % 3].http.post(
            "/api/matches",
            json={"game": "gungi", "seats": [{"kind": "local"}, {"kind": "local"}]},
            headers=proxied,
        )
        codes.append(r.status_code)
    # a burst of 4 creations for that client in all, not 4 per process
    assert codes == [201] * 4 + [429] * 3, codes
    created = _create(three[0], [{"kind": "local"}, {"kind": "local"}])
    mid = created["match"]["id"]
    watchers = [Watcher(three[0], mid, None), Watcher(three[1], mid, None)]
    try:
        for w in watchers:
            w.until(lambda st: st["status"] == "active")
        with three[2].ws(mid) as third:
            third.send('{"type": "hello", "after": 0}')
            refusal = json.loads(third.recv(timeout=GENEROUS))
            assert refusal["code"] == "too_many_spectators", refusal
        watchers.pop().close()

        def spectates() -> bool:
            late = Watcher(three[2], mid, None)
            try:  # refused (and closed) until the closed connection is noticed
                return bool(late.until(lambda st: st["status"] == "active"))
            except ConnectionClosed:
                return False
            finally:
                late.close()

        wait_until(spectates, "the spectator slot to be given back", interval=0.2)
    finally:
        for w in watchers:
            w.close()


def test_a_claim_sees_the_opponent_connected_to_another_process(three: list[Node]) -> None:
    a, b, _c = three
    created = _create(a, [{"kind": "local"}, {"kind": "local"}])
    mid, tokens = created["match"]["id"], created["tokens"]
    snap = ok(a.http.get(f"/api/matches/{mid}", headers=_auth(tokens["0"])))
    mover = "0" if snap["legal"] else "1"
    waiting = "1" if mover == "0" else "0"
    snap = ok(a.http.get(f"/api/matches/{mid}", headers=_auth(tokens[mover])))
    r = a.http.post(
        f"/api/matches/{mid}/actions",
        json={"action": snap["legal"][0]["action"], "ply": 0},
        headers=_auth(tokens[mover]),
    )
    assert r.status_code == 200, r.text
    # the seat to act is connected to b only; a must not let its opponent claim the win
    opponent = Watcher(b, mid, tokens[waiting])
    try:
        opponent.until(lambda st: st["ply"] == 1)
        # The behaviour under test, not a wait for something: the claim is refused even once
        # SENGOKU_CLAIM_AFTER (1 s) has passed, for the opponent is connected (to b).
        time.sleep(1.5)
        r = a.http.post(f"/api/matches/{mid}/claim", headers=_auth(tokens[mover]))
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "opponent_connected"
    finally:
        opponent.close()

    def claimed() -> dict[str, Any] | None:
        r = a.http.post(f"/api/matches/{mid}/claim", headers=_auth(tokens[mover]))
        if r.status_code == 200:
            return dict(r.json())
        assert r.json()["error"]["code"] in {"opponent_connected", "too_soon"}, r.text
        return None

    # once the opponent has been gone long enough, the claim wins
    won = wait_until(claimed, "the claim to win", interval=0.3)
    assert won["result"]["reason"] == "abandoned"


#: Each clock kind with about 2 s of thinking time in all (real time: real processes); a
#: turn-based game's day passes when the processes' clocks are moved (``clock_file``).
SHORT_CLOCKS: dict[str, dict[str, Any]] = {
    "fischer": {"type": "fischer", "initial": 2, "increment": 0},
    "byoyomi": {"type": "byoyomi", "main": 1, "periods": 1, "period": 1},
    "sudden_death": {"type": "sudden_death", "initial": 2},
    "tournament": {"type": "tournament", "initial": 2},
    "correspondence": {"type": "correspondence", "days": 1},
}


def _stored_status(pg: str, mid: str) -> str:
    with psycopg.connect(pg.replace("postgresql+psycopg://", "postgresql://")) as conn:
        row = conn.execute("SELECT status FROM matches WHERE id = %s", (mid,)).fetchone()
    assert row is not None, f"match {mid} is not stored"
    return str(row[0])


def test_every_clock_kind_runs_out_in_every_game_across_processes(
    pg: str, three: list[Node], clock_file: Path
) -> None:
    """Every clock kind of every game, created on one process and played on another: the
    flag falls on the owner's timer with nobody asking (the database is polled, not a
    server), and a third process reports the loss on time. Turn-based games (a day per
    move) end once the processes' clocks are moved a day on (the test-only clock file):
    at the processes' looks at their running clocks."""
    a, b, c = three
    games: list[tuple[str, str, str, int]] = []  # game, kind, match id, seat that loses
    listed = a.http.get("/api/games")
    assert listed.status_code == 200, listed.text
    for game in sorted(g["name"] for g in listed.json()["games"]):
        n = load_game(game).new_state(1).num_players
        for kind, clock in SHORT_CLOCKS.items():
            r = a.http.post(
                "/api/matches",
                json={"game": game, "seats": [{"kind": "local"}] * n, "clock": clock},
            )
            assert r.status_code == 201, r.text
            created = r.json()
            mid, tokens = created["match"]["id"], created["tokens"]
            if kind == "tournament":
                # The first decision is untimed (Gunshi: the whole first placement): play on
                # another process until a clock runs.
                for _ in range(3):
                    snap = b.http.get(f"/api/matches/{mid}").json()
                    if snap["clocks"]["running"] is not None:
                        break
                    mover = str(snap["to_act"])
                    mine = b.http.get(f"/api/matches/{mid}", headers=_auth(tokens[mover]))
                    assert mine.status_code == 200, mine.text
                    played = b.http.post(
                        f"/api/matches/{mid}/actions",
                        json={"action": mine.json()["legal"][0]["action"], "ply": snap["ply"]},
                        headers=_auth(tokens[mover]),
                    )
                    assert played.status_code == 200, played.text
            snap = b.http.get(f"/api/matches/{mid}").json()
            assert snap["clocks"]["running"] == snap["to_act"], (game, kind, snap["clocks"])
            games.append((game, kind, mid, snap["to_act"]))
    deadline = time.monotonic() + 60  # a safety net only: each flag falls after about 2 s
    waiting = {mid for _g, kind, mid, _s in games if kind != "correspondence"}
    while waiting:
        waiting = {mid for mid in waiting if _stored_status(pg, mid) == "active"}
        assert time.monotonic() < deadline, f"no flag fell in {len(waiting)} matches"
        time.sleep(0.2)
    days = {mid for _g, kind, mid, _s in games if kind == "correspondence"}
    assert all(_stored_status(pg, mid) == "active" for mid in days)  # a day is long
    move_clock(clock_file, 86_400 + 60)
    deadline = time.monotonic() + 60  # a safety net only
    while days:
        days = {mid for mid in days if _stored_status(pg, mid) == "active"}
        assert time.monotonic() < deadline, f"no day-per-move flag fell in {len(days)} matches"
        time.sleep(0.2)
    for game, kind, mid, loser in games:
        r = c.http.get(f"/api/matches/{mid}")
        assert r.status_code == 200, r.text
        final = r.json()
        assert final["status"] == "finished", (game, kind, final)
        assert final["result"]["reason"] == "timeout", (game, kind, final["result"])
        assert loser not in final["result"]["winners"], (game, kind, final["result"])


def _signed_in(node: Node, name: str) -> httpx.Client:
    """A browser of ``name`` (a new account) on ``node``: its session and CSRF cookies."""
    browser = httpx.Client(base_url=node.base, timeout=30)
    me = browser.get("/api/account/me")
    assert me.status_code == 200, me.text
    browser.headers.update({"Origin": node.base, "X-CSRF-Token": browser.cookies["sengoku_csrf"]})
    r = browser.post("/api/account/signup", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return browser


def test_a_rated_timeout_on_the_owners_timer_is_rated_once(pg: str, three: list[Node]) -> None:
    """A rated game created on one process, its players connected to the two others: the
    flag falls on the creator's process's timer, and the players' ratings are stored once,
    with the result, and reach both players' connections (docs/ratings.md)."""
    a, b, c = three
    ann, ben = _signed_in(a, "ann_scale"), _signed_in(b, "ben_scale")
    watchers: list[Watcher] = []
    try:
        r = ann.post(
            "/api/matches",
            json={
                "game": "gungi",
                "seats": [{"kind": "local"}, {"kind": "invite"}],
                "clock": {"type": "fischer", "initial": 3, "increment": 0},
                "rated": True,
            },
        )
        assert r.status_code == 201, r.text
        created = r.json()
        mid = created["id"]
        r = ben.post(f"/api/matches/{mid}/join", json={"invite": created["invites"][0]["invite"]})
        assert r.status_code == 200, r.text
        # Ann (white, to move) on process b, Ben on c: her clock runs on a's timer
        watchers = [Watcher(b, mid, created["tokens"]["0"]), Watcher(c, mid, r.json()["token"])]
        deadline = time.monotonic() + 60  # a safety net only: the flag falls after 3 s
        while _stored_status(pg, mid) == "active":
            assert time.monotonic() < deadline, "the flag never fell"
            time.sleep(0.2)
        for w in watchers:
            final = w.until(lambda st: st["status"] == "finished" and st["ratings"] is not None)
            assert final["result"]["reason"] == "timeout" and final["result"]["winners"] == [1]
            lost, won = final["ratings"]["seats"]
            assert lost["delta"] < 0 < won["delta"], final["ratings"]
        for node in three:
            r = node.http.get(f"/api/matches/{mid}")
            assert r.status_code == 200, r.text
            assert r.json()["ratings"] == final["ratings"]
        with psycopg.connect(pg.replace("postgresql+psycopg://", "postgresql://")) as conn:
            changes = conn.execute(
                "SELECT count(*) FROM rating_changes WHERE match_id = %s", (mid,)
            ).fetchone()
            games = conn.execute(
                "SELECT r.games FROM ratings r JOIN accounts a ON a.id = r.account_id "
                "WHERE a.name IN ('ann_scale', 'ben_scale') ORDER BY a.name"
            ).fetchall()
            rated_events = conn.execute(
                "SELECT count(*) FROM events WHERE match_id = %s AND payload LIKE %s",
                (mid, '%"type":"ratings"%'),
            ).fetchone()
        assert changes == (2,) and games == [(1,), (1,)] and rated_events == (1,)
    finally:
        for w in watchers:
            w.close()
        ann.close()
        ben.close()


def test_redis_restart_processes_recover_and_resync(three: list[Node], redis_server: Redis) -> None:
    a, b, c = three
    created = _create(b, [{"kind": "local"}, {"kind": "local"}])
    mid, tokens = created["match"]["id"], created["tokens"]
    spectator = Watcher(c, mid, None)
    try:
        spectator.until(lambda st: st["status"] == "active")

        def play(node: Node, ply: int) -> None:
            for seat in ("0", "1"):
                snap = ok(node.http.get(f"/api/matches/{mid}", headers=_auth(tokens[seat])))
                if snap["legal"]:
                    r = node.http.post(
                        f"/api/matches/{mid}/actions",
                        json={"action": snap["legal"][0]["action"], "ply": ply},
                        headers=_auth(tokens[seat]),
                    )
                    assert r.status_code == 200, r.text
                    return
            raise AssertionError("nobody is to act")

        play(a, 0)
        spectator.until(lambda st: st["ply"] == 1)
        redis_server.stop()
        play(a, 1)  # while Redis is down: the spectator's process finds it in the database
        spectator.until(lambda st: st["ply"] == 2)
        redis_server.start()
        wait_until(
            lambda: redis_server.command("PUBSUB", "NUMSUB", "sengoku:changes")[1] == 3,
            "the processes to subscribe again",
        )
        play(b, 2)
        seen = spectator.until(lambda st: st["ply"] == 3)
        _consecutive(spectator.events)
        assert spectator.events[-1]["n"] == seen["last_event"]
        for node in three:  # each process has it (a read may lag a message by a moment)
            wait_until(
                lambda node=node: ok(node.http.get(f"/api/matches/{mid}"))["ply"] == 3,
                f"the process on port {node.port} to catch up",
            )
    finally:
        spectator.close()


def _node_of(pg: str, mid: str) -> str:
    with psycopg.connect(pg.replace("postgresql+psycopg://", "postgresql://")) as conn:
        row = conn.execute("SELECT node FROM matches WHERE id = %s", (mid,)).fetchone()
    assert row is not None and row[0], "nobody runs the match"
    return str(row[0])


def test_sigkill_of_the_process_running_clocks_and_ai(pg: str, three: list[Node]) -> None:
    a, b, c = three
    # A human against an AI that thinks 2 s per decision, on a 12 s clock each.
    created = _create(
        a,
        [{"kind": "local"}, {"kind": "ai", "agent": "mcts:seconds=2"}],
        clock={"type": "fischer", "initial": 12, "increment": 0},
    )
    mid, token = created["match"]["id"], created["tokens"]["0"]
    owner_node = wait_until(lambda: _node_of(pg, mid), "a process to run the match")
    owner = next(n for n in three if f"-{n.proc.pid}-" in owner_node)
    others = [n for n in three if n is not owner]
    human = Watcher(others[0], mid, token)
    spectator = Watcher(others[1], mid, None)
    acked = []
    try:
        state = human.until(lambda st: st["status"] == "active" and st["to_act"] == 0)
        reply = human.act(state["legal"][0]["action"], state["ply"], "h0")
        assert reply["type"] == "ack", reply
        acked.append(state["legal"][0]["action"])
        human_ply = state["ply"] + 1
        # Not a wait for a condition (none is visible from outside): a moment for the owner to
        # hear of the move, so that it is likely killed while its AI thinks (2 s). If it were
        # killed before, the takeover below is the same, and the check after says so.
        time.sleep(0.5)
        owner.kill()
        assert human.state["ply"] == human_ply, "the AI answered before its process was killed"
        # Another process takes the match over, and its AI plays.
        after_ai = spectator.until(lambda st: st["ply"] > human_ply and st["to_act"] == 0)
        assert _node_of(pg, mid) != owner_node
        # The human's clock runs on: nobody touches the match, yet its flag falls (on the
        # new owner's timer) within the 12 s the human had.
        assert after_ai["clocks"]["remaining"][0] > 0  # the human had time left
        final = spectator.until(lambda st: st["status"] == "finished")
        assert "timeout" in str(final["result"]), final["result"]
        _consecutive(spectator.events)

        # The human's process learns the end through the pub/sub (the spectator's is another).
        def finished_there() -> dict[str, Any] | None:
            got: dict[str, Any] = ok(others[0].http.get(f"/api/matches/{mid}"))
            return got if got["status"] == "finished" else None

        record = wait_until(finished_there, "the end to reach the human's process")
        assert record is not None and record["ply"] >= human_ply + 1
    finally:
        human.close()
        spectator.close()


def test_haproxy_from_the_shipped_config_in_front_of_three_processes(
    pg: str, redis_server: Redis
) -> None:
    """docs/deploy/haproxy.cfg, as shipped, in front of three processes: two players and a
    spectator play over WebSocket through it, its requests reach several processes, the
    processes believe the client address it forwards, and its health check (GET /health)
    takes a killed process out."""
    with nodes(
        pg,
        redis_server.url,
        3,
        SENGOKU_NODE_BEAT="0.3",
        SENGOKU_NODE_TTL="2",
        SENGOKU_AI_WORKERS="1",
        SENGOKU_LIMIT_EXEMPT="127.0.0.1",
        SENGOKU_TRUSTED_PROXIES="127.0.0.1",
        SENGOKU_CREATE_RATE="0.001",
        SENGOKU_CREATE_BURST="2",
    ) as started:
        folder = Path(tempfile.mkdtemp(prefix="sengoku-haproxy-"))
        balancer = Balancer(started, folder)
        watchers: list[Watcher] = []
        try:
            balancer.wait_status({"s1": "UP", "s2": "UP", "s3": "UP"})
            served: list[str] = []

            def via(r: httpx.Response) -> httpx.Response:
                served.append(r.headers.get("x-sengoku-backend", "?"))
                return r

            created = via(
                balancer.http.post(
                    "/api/matches",
                    json={"game": "gungi", "seats": [{"kind": "local"}, {"kind": "local"}]},
                )
            )
            assert created.status_code == 201, created.text
            mid, tokens = created.json()["match"]["id"], created.json()["tokens"]
            watchers = [
                Watcher(balancer, mid, tokens["0"]),
                Watcher(balancer, mid, tokens["1"]),
                Watcher(balancer, mid, None),
            ]
            seats, spectator = watchers[:2], watchers[2]
            # the WebSocket upgrade went through, each answered by a named process
            served.extend(w.conn.response.headers.get("x-sengoku-backend", "?") for w in watchers)
            for ply in range(4):
                mover = next(s for s in seats if s.until(lambda st, p=ply: st["ply"] == p)["legal"])
                reply = mover.act(mover.state["legal"][0]["action"], ply, f"h{ply}")
                assert reply["type"] == "ack", reply
                seats[1 - mover.state["you"]].until(lambda st, p=ply: st["ply"] == p + 1)
            final = spectator.until(lambda st: st["ply"] == 4)
            _consecutive(spectator.events)
            assert spectator.events[-1]["n"] == final["last_event"]
            for _ in range(9):
                r = via(balancer.http.get(f"/api/matches/{mid}"))
                assert r.status_code == 200 and r.json()["ply"] == 4, r.text
            assert set(served) <= {"s1", "s2", "s3"}, served
            assert len(set(served)) >= 2, f"every request reached one process: {served}"
            stats = balancer.servers()
            assert sum(1 for row in stats.values() if int(row["stot"]) > 0) >= 2, stats
            # Prometheus scrapes each process itself; the balancer does not expose it.
            assert balancer.http.get("/metrics").status_code == 404

            # A client behind the balancer is known by its own address (127.0.0.3 here, not
            # exempt), forwarded by HAProxy and believed from it alone: its burst of 2
            # creations counts over all three processes.
            outside = httpx.Client(
                base_url=balancer.base,
                transport=httpx.HTTPTransport(local_address="127.0.0.3"),
                timeout=30,
            )
            with outside:
                codes = []
                for _ in range(3):
                    r = via(
                        outside.post(
                            "/api/matches",
                            json={"game": "gungi", "seats": [{"kind": "local"}] * 2},
                            headers={"Connection": "close"},
                        )
                    )
                    codes.append(r.status_code)
            assert codes == [201, 201, 429], codes

            # The health check takes a killed process out; the others answer everything.
            started[1].kill()
            balancer.wait_status({"s1": "UP", "s2": "DOWN", "s3": "UP"})
            after: list[str] = []
            for _ in range(6):
                r = balancer.http.get(f"/api/matches/{mid}")
                assert r.status_code == 200, r.text
                after.append(r.headers["x-sengoku-backend"])
            assert "s2" not in after and set(after) <= {"s1", "s3"}, after
        finally:
            for w in watchers:
                w.close()
            balancer.close()
            shutil.rmtree(folder, ignore_errors=True)
