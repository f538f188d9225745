"""Clocks enforced by the server (with a fake time source) and AI seats in workers."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

import pytest
from conftest import FakeTime, action_id, auth, new_match
from fastapi.testclient import TestClient

from sengoku.server.clocks import ClockError, Clocks, ClockSpec
from tests import waiting
from tests.waiting import ok


def play(client: TestClient, mid: str, token: str, action: str = "take 1") -> Any:
    return client.post(
        f"/api/matches/{mid}/actions",
        json={"action": action, "id": action_id()},
        headers=auth(token),
    )


def test_fischer_increment_and_timeout(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    with make_client() as client:
        clock = {"type": "fischer", "initial": 10, "increment": 2}
        m = new_match(client, options={"pile": 50}, clock=clock)
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        assert m["match"]["clocks"]["running"] == 0
        fake_time.advance(3)
        snap = play(client, mid, t0).json()
        assert snap["clocks"]["remaining"] == [9.0, 10.0] and snap["clocks"]["running"] == 1
        fake_time.advance(4)
        assert client.get(f"/api/matches/{mid}").json()["clocks"]["remaining"] == [9.0, 6.0]
        fake_time.advance(6.5)
        # seat 1's flag fell before its action arrived: refused, and the game is over on time
        r = play(client, mid, t1)
        assert r.status_code == 409 and r.json()["error"]["code"] == "match_finished"
        snap = client.get(f"/api/matches/{mid}").json()
        assert snap["result"]["reason"] == "timeout" and snap["result"]["winners"] == [0]
        assert snap["clocks"]["running"] is None


def test_byoyomi_periods(make_client: Callable[..., TestClient], fake_time: FakeTime) -> None:
    with make_client() as client:
        clock = {"type": "byoyomi", "main": 5, "periods": 2, "period": 10}
        m = new_match(client, options={"pile": 50}, clock=clock)
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        fake_time.advance(12)  # main time gone, 7 s into the first period: it is kept
        snap = play(client, mid, t0).json()
        assert snap["clocks"]["remaining"][0] == 0 and snap["clocks"]["periods"] == [2, 2]
        play(client, mid, t1)
        fake_time.advance(15)  # one period runs out, the move is made in the next
        snap = play(client, mid, t0).json()
        assert snap["clocks"]["periods"] == [1, 2]
        play(client, mid, t1)
        fake_time.advance(9.9)
        assert client.get(f"/api/matches/{mid}").json()["status"] == "active"
        fake_time.advance(0.2)
        snap = client.get(f"/api/matches/{mid}").json()
        assert snap["status"] == "finished" and snap["result"]["winners"] == [1]


def test_tournament_clock_first_decision_untimed(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 50}, clock={"type": "tournament"})
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        assert m["match"]["clocks"]["running"] is None
        fake_time.advance(5000)  # the first placement is not timed (Gunshi tournament rules)
        snap = play(client, mid, t0).json()
        assert snap["clocks"]["remaining"] == [1200.0, 1200.0]
        assert snap["clocks"]["running"] == 1
        fake_time.advance(1199)
        play(client, mid, t1)
        fake_time.advance(1200)
        # the sweep (what the timers run) ends it without anybody asking
        client.portal.call(client.app.state.service.sweep)  # type: ignore[union-attr,attr-defined]
        snap = client.get(f"/api/matches/{mid}").json()
        assert snap["result"] == {
            "reason": "timeout",
            "winners": [1],
            "scores": [0.0, 1.0],
            "returns": [-1.0, 1.0],
        }


def test_clocks_survive_a_restart(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 50}, clock={"type": "sudden_death", "initial": 60})
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        fake_time.advance(10)
        play(client, mid, t0)
        fake_time.advance(5)
    fake_time.advance(20)  # the server is down; wall-clock time still runs
    with make_client() as client:
        snap = client.get(f"/api/matches/{mid}").json()
        assert snap["clocks"]["remaining"] == [50.0, 35.0] and snap["clocks"]["running"] == 1
        fake_time.advance(35)
        assert play(client, mid, t1).status_code == 409
        assert client.get(f"/api/matches/{mid}").json()["result"]["reason"] == "timeout"


def test_clock_spec_validation() -> None:
    for bad in (
        None,
        {"type": "fischer"},
        {"type": "fischer", "initial": "5"},
        {"type": "fischer", "initial": 5, "delay": 3},
        {"type": "byoyomi", "main": 5, "periods": 1.5},
        {"type": "sudden_death", "initial": float("nan")},
        {"type": "tournament", "period": 5},
    ):
        with pytest.raises(ClockError):
            ClockSpec.from_json(bad)
    spec = ClockSpec.from_json({"type": "byoyomi", "main": 0, "periods": 3, "period": 30})
    clocks = Clocks(spec, 2)
    clocks.start(0, 0.0)
    assert clocks.deadline() == 90.0 and clocks.flagged(89.9) is None and clocks.flagged(90) == 0
    assert Clocks.from_json(spec, clocks.to_json()).to_json() == clocks.to_json()
    for data in (
        {"type": "fischer", "initial": 60, "increment": 2},
        {"type": "byoyomi", "main": 0, "periods": 3, "period": 30},
        {"type": "sudden_death", "initial": 60},
        {"type": "tournament"},
    ):
        spec = ClockSpec.from_json(data)
        assert ClockSpec.from_json(spec.to_json()) == spec  # stored specs load back


def wait_until(client: TestClient, mid: str, cond: Callable[[dict[str, Any]], bool]) -> Any:
    def look() -> Any:
        snap = ok(client.get(f"/api/matches/{mid}"))
        return snap if cond(snap) else None

    return waiting.wait_until(look, "the AI to move")


def test_ai_plays_a_whole_game_in_a_worker(make_client: Callable[..., TestClient]) -> None:
    with make_client(http_burst=1e9) as client:
        m = new_match(
            client,
            seats=[{"kind": "ai", "level": 2}, {"kind": "ai", "agent": "random"}],
            options={"pile": 15},
        )
        snap = wait_until(client, m["id"], lambda s: s["status"] == "finished")
        assert snap["result"]["reason"] == "last_stone"
        assert snap["seats"][0]["kind"] == "ai" and snap["seats"][0]["level"] == 2
        # the AI moves first when it holds seat 0; the human answers; the AI answers back
        h = new_match(client, seats=[{"kind": "ai"}, {"kind": "local"}], options={"pile": 40})
        wait_until(client, h["id"], lambda s: s["ply"] >= 1)
        assert play(client, h["id"], h["tokens"]["1"]).status_code == 200
        wait_until(client, h["id"], lambda s: s["ply"] >= 3)


def test_ai_in_a_process_pool_plays_gungi(
    make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    """The real set-up: agents in a spawned worker process, the event loop never blocked."""
    with make_client(ai_mode="process", http_burst=1e9) as client:
        m = new_match(client, game="gungi", seats=[{"kind": "local"}, {"kind": "ai", "level": 1}])
        mid, t0 = m["id"], m["tokens"]["0"]
        for ply in (0, 2):
            snap = client.get(f"/api/matches/{mid}", headers=auth(t0)).json()
            assert snap["to_act"] == 0 and snap["ply"] == ply
            action = snap["legal"][0]["action"]
            r = client.post(
                f"/api/matches/{mid}/actions",
                json={"action": action, "ply": ply},
                headers=auth(t0),
            )
            assert r.status_code == 200
            # while the worker thinks, the server answers (how soon: a benchmark's figure)
            ok(client.get("/healthz"))
            wait_until(client, mid, lambda s, p=ply: s["ply"] == p + 2)
        # a worker that dies (killed, out of memory) is replaced: the AI still answers
        service = client.app.state.service  # type: ignore[attr-defined]
        for pid in service.ai.pool.worker_pids():
            os.kill(pid, signal.SIGKILL)
        snap = client.get(f"/api/matches/{mid}", headers=auth(t0)).json()
        action = snap["legal"][0]["action"]
        r = client.post(
            f"/api/matches/{mid}/actions", json={"action": action, "ply": 4}, headers=auth(t0)
        )
        assert r.status_code == 200
        wait_until(client, mid, lambda s: s["ply"] == 6)
        assert "pool broke" in caplog.text


def test_gunshi_tournament_clock_follows_the_game(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    """Gunshi's own ``time_control`` option sets the clock; its state says whose clock runs."""
    from sengoku.core.registry import load_game

    options = {"time_control": "tournament"}
    ref = load_game("gunshi").new_state(3, **options)
    with make_client() as client:
        m = new_match(client, game="gunshi", options=options, seed=3)
        mid, tokens = m["id"], [m["tokens"]["0"], m["tokens"]["1"]]
        clocks = m["match"]["clocks"]
        assert clocks["spec"] == {"type": "tournament", "initial": 1200.0}
        assert clocks["running"] == ref.clock_seat  # type: ignore[attr-defined]
        used = [0.0, 0.0]
        for ply in range(30):
            running = ref.clock_seat  # type: ignore[attr-defined]
            fake_time.advance(7)
            if running is not None:
                used[running] += 7
            seat = ref.current_player
            action = ref.legal_actions()[ply % len(ref.legal_actions())]
            r = client.post(
                f"/api/matches/{mid}/actions",
                json={"action": str(action), "ply": ply},
                headers=auth(tokens[seat]),
            )
            assert r.status_code == 200, r.text
            ref.apply(action)
            clocks = r.json()["clocks"]
            assert clocks["running"] == ref.clock_seat  # type: ignore[attr-defined]
            assert clocks["remaining"] == [1200.0 - used[0], 1200.0 - used[1]]
        assert used[0] > 0 and used[1] > 0
