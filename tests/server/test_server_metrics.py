"""``GET /health`` (a balancer's health check) and ``GET /metrics`` (Prometheus' text format,
through prometheus-client): what they count, and that they name no match and no secret."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from conftest import auth, new_match
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.exc import OperationalError
from test_server_websocket import hello, receive_until

from sengoku.server.ai import AiPool
from sengoku.server.metrics import Metrics


def samples(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``, by name and labels."""
    r = client.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    found = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            found[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return found


def test_health_answers_while_the_database_does(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client() as client:
        r = client.get("/health")
        assert r.status_code == 200, r.text
        assert r.json() == {"ok": True}
        service = client.app.state.service  # type: ignore[attr-defined]

        def unreachable() -> None:
            raise OperationalError("SELECT 1", {}, Exception("connection refused"))

        monkeypatch.setattr(service.store, "ping", unreachable)
        r = client.get("/health")
        assert r.status_code == 503, r.text
        assert r.json() == {"ok": False, "database": "unreachable"}


def test_metrics_count_actions_sockets_and_matches(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        before = samples(client)
        assert before[("sengoku_matches_in_memory", ())] == 0
        assert before[("sengoku_websockets_open", ())] == 0
        assert before[("sengoku_action_seconds_count", ())] == 0
        m = new_match(client, options={"pile": 9})
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        secret0 = m["match"]["view"]["my_secret"]
        with client.websocket_connect(f"/ws/matches/{mid}") as w1:
            hello(w1, t1)
            during = samples(client)
            assert during[("sengoku_websockets_open", ())] == 1
            # one action over HTTP, one over the WebSocket, one refused (not counted)
            r = client.post(
                f"/api/matches/{mid}/actions", json={"action": "take 1", "ply": 0}, headers=auth(t0)
            )
            assert r.status_code == 200, r.text
            receive_until(w1, "state")
            w1.send_json({"type": "action", "action": "take 2", "ply": 1, "id": "x"})
            assert receive_until(w1, "ack")[-1]["type"] == "ack"
            r = client.post(
                f"/api/matches/{mid}/actions", json={"action": "take 9", "ply": 2}, headers=auth(t0)
            )
            assert r.status_code >= 400, r.text
        text = client.get("/metrics").text
        after = samples(client)
        assert after[("sengoku_websockets_open", ())] == 0
        assert after[("sengoku_matches_in_memory", ())] == 1
        played = (("by", "player"), ("game", "secretnim"))
        assert after[("sengoku_actions_total", played)] == 2
        assert after[("sengoku_action_seconds_count", ())] == 2
        assert after[("sengoku_action_seconds_sum", ())] > 0
        assert after[("sengoku_work_jobs", (("pool", "ai"),))] == 0
        assert after[("sengoku_work_jobs", (("pool", "replay"),))] == 0
        # nothing that names a match, a seat or a secret
        for private in (mid, t0, t1, secret0):
            assert private not in text


def test_the_ai_queue_depth_counts_waiting_and_running_decisions() -> None:
    metrics = Metrics()
    pool = AiPool("thread", 1, None, timeout=30)
    metrics.watch(lambda: 0, {"ai": pool.jobs})
    go = threading.Event()

    def depth() -> float:
        for family in text_string_to_metric_families(metrics.text().decode()):
            for s in family.samples:
                if s.name == "sengoku_work_jobs" and s.labels == {"pool": "ai"}:
                    return s.value
        raise AssertionError("no sengoku_work_jobs{pool='ai'}")

    def think() -> str:
        go.wait(30)
        return "take 1"

    async def scenario() -> list[Any]:
        jobs = [asyncio.ensure_future(pool.run(think, interactive=True)) for _ in range(3)]
        for _ in range(100):  # let the three reach the pool: one runs, two wait
            await asyncio.sleep(0)
        seen = [depth()]
        go.set()
        await asyncio.gather(*jobs)
        seen.append(depth())
        return seen

    try:
        assert asyncio.run(scenario()) == [3, 0]
    finally:
        go.set()
        pool.shutdown()
