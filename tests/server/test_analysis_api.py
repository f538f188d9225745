"""Post-game analysis on the server (issue 38): queued, counted, stored once, served from
storage, and refused for a match in play (sengoku/server/analyses.py, docs/analysis.md)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import action_id, auth, new_match
from fastapi.testclient import TestClient

from sengoku.analysis import analyse as real_analyse
from sengoku.server import analyses as analyses_module
from sengoku.server.analyses import AnalysisStore, compute
from sengoku.server.db import make_engine
from tests import waiting
from tests.analysis.clock import IterationClock, searches, used
from tests.waiting import ok


class Counted:
    """``sengoku.analysis.analyse`` as the jobs call it, counting the calls; ``gate`` (when
    set) holds each call until the test opens it, so the test sees the job running."""

    def __init__(self) -> None:
        self.calls = 0
        self.gate: threading.Event | None = None
        self.started = threading.Event()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        self.started.set()
        if self.gate is not None:
            assert self.gate.wait(120), "the test never opened the gate"
        return real_analyse(*args, **kwargs)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    spy = Counted()
    monkeypatch.setattr(analyses_module, "analyse", spy)
    yield spy
    if spy.gate is not None:
        spy.gate.set()


def analysis_client(make_client: Callable[..., TestClient]) -> TestClient:
    # thread mode: the job runs in this process, where the spy counts it
    return make_client(analysis_mode="thread", analysis_iterations=24, http_burst=1e9)


def finished_match(client: TestClient, pile: int = 7) -> tuple[str, list[str]]:
    """A Secret Nim match played to its end (take 1 each time); its id and tokens."""
    m = new_match(client, options={"pile": pile})
    tokens = [m["tokens"]["0"], m["tokens"]["1"]]
    snap = m["match"]
    while snap["status"] == "active":
        seat = snap["to_act"]
        r = client.post(
            f"/api/matches/{m['id']}/actions",
            json={"action": "take 1", "id": action_id()},
            headers=auth(tokens[seat]),
        )
        snap = ok(r)
    assert snap["status"] == "finished", snap
    return m["id"], tokens


def wait_done(client: TestClient, mid: str, kind: str = "mover") -> dict[str, Any]:
    def look() -> Any:
        got = ok(client.get(f"/api/matches/{mid}/analysis", params={"kind": kind}))
        assert got["status"] != "failed", got
        return got if got["status"] == "done" else None

    return waiting.wait_until(look, "the analysis to be stored")


def test_an_analysis_is_queued_counted_stored_and_then_served_from_storage(
    make_client: Callable[..., TestClient], counted: Counted
) -> None:
    counted.gate = threading.Event()
    with analysis_client(make_client) as client:
        mid, _ = finished_match(client)
        assert ok(client.get(f"/api/matches/{mid}/analysis"))["status"] == "none"
        first = ok(client.post(f"/api/matches/{mid}/analysis", json={"kind": "mover"}))
        assert first["status"] in ("queued", "running"), first
        assert first["progress"] == {"done": 0, "total": 7}, first
        assert counted.started.wait(120)
        # asked again while it runs: the same job, not a second one
        again = ok(client.post(f"/api/matches/{mid}/analysis"))
        assert again["status"] in ("queued", "running"), again
        running = ok(client.get(f"/api/matches/{mid}/analysis"))
        assert running["status"] == "running" and running["result"] is None, running
        counted.gate.set()
        done = wait_done(client, mid)
        assert done["progress"] == {"done": 7, "total": 7}, done
        result = done["result"]
        assert result["information"] == "mover"
        assert [p["ply"] for p in result["plies"]] == list(range(1, 8))
        assert [p["played"] for p in result["plies"]] == ["take 1"] * 7
        assert {p["seat"] for p in result["players"]} == {0, 1}
        # the engine's move as data, for a board to draw
        assert all(p["best_described"]["notation"] == p["best"] for p in result["plies"])
        # served from storage: asking again computes nothing
        stored = ok(client.post(f"/api/matches/{mid}/analysis"))
        assert stored["status"] == "done" and stored["result"] == result
    with analysis_client(make_client) as client:  # a restarted server: still stored
        assert ok(client.post(f"/api/matches/{mid}/analysis"))["result"] == result
        assert ok(client.get(f"/api/matches/{mid}/analysis"))["result"] == result
    assert counted.calls == 1


def test_no_analysis_of_a_match_in_play(
    make_client: Callable[..., TestClient], counted: Counted
) -> None:
    with analysis_client(make_client) as client:
        m = new_match(client, options={"pile": 7})
        for method in (client.post, client.get):
            r = method(f"/api/matches/{m['id']}/analysis")
            assert r.status_code == 409, r.text
            assert r.json()["error"]["code"] == "not_finished", r.text
        # nor once a seat has moved: still in play
        ok(
            client.post(
                f"/api/matches/{m['id']}/actions",
                json={"action": "take 1", "id": action_id()},
                headers=auth(m["tokens"]["0"]),
            )
        )
        r = client.post(f"/api/matches/{m['id']}/analysis")
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished", r.text
    assert counted.calls == 0


def test_the_request_is_held_to_its_fields(
    make_client: Callable[..., TestClient], counted: Counted
) -> None:
    with analysis_client(make_client) as client:
        mid, _ = finished_match(client)
        for body in ({"kind": "oracle"}, {"kind": "mover", "budget": 10**9}, {"kind": 1}):
            r = client.post(f"/api/matches/{mid}/analysis", json=body)
            assert r.status_code == 422, r.text
            assert r.json()["error"]["code"] == "bad_request", r.text
        r = client.get(f"/api/matches/{mid}/analysis", params={"kind": "oracle"})
        assert r.status_code == 422, r.text
        r = client.post("/api/matches/no-such-match/analysis")
        assert r.status_code == 404, r.text
        # a body past the small cap is refused before it is read
        r = client.post(
            f"/api/matches/{mid}/analysis",
            content=b'{"kind": "' + b"m" * 10_000 + b'"}',
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 413, r.text
        assert ok(client.get(f"/api/matches/{mid}/analysis"))["status"] == "none"
    assert counted.calls == 0


def test_asking_for_analyses_draws_on_the_import_budget(
    make_client: Callable[..., TestClient], counted: Counted
) -> None:
    """Each analysis asked for costs the engine a whole record, as an import does: a client
    asks for them at the import rate (``SENGOKU_IMPORT_RATE`` / ``_BURST``)."""
    with make_client(
        analysis_mode="thread",
        analysis_iterations=24,
        http_burst=1e9,
        import_burst=2,
        import_rate=1e-6,
    ) as client:
        mid, _ = finished_match(client, pile=3)
        ok(client.post(f"/api/matches/{mid}/analysis"))
        ok(client.post(f"/api/matches/{mid}/analysis", json={"kind": "hindsight"}))
        r = client.post(f"/api/matches/{mid}/analysis")
        assert r.status_code == 429, r.text
        assert "analyses" in r.json()["error"]["message"], r.text
        # following one is a plain look
        assert client.get(f"/api/matches/{mid}/analysis").status_code == 200
        # (the jobs end here, not in the next test's spy)
        wait_done(client, mid)
        wait_done(client, mid, "hindsight")
    assert counted.calls == 2


def test_hindsight_is_for_finished_games_only_and_labelled(
    make_client: Callable[..., TestClient], counted: Counted
) -> None:
    with analysis_client(make_client) as client:
        mid, _ = finished_match(client, pile=4)
        ok(client.post(f"/api/matches/{mid}/analysis", json={"kind": "hindsight"}))
        done = wait_done(client, mid, "hindsight")
        assert done["kind"] == "hindsight" and done["result"]["information"] == "hindsight"
        # the mover's analysis is another row
        assert ok(client.get(f"/api/matches/{mid}/analysis"))["status"] == "none"
        # an imported record that did not end: its mover analysis yes, hindsight no
        record = ok(client.get(f"/api/records/{mid}"))
        unfinished = {
            k: record[k] for k in ("game", "version", "options", "seed", "players", "actions")
        }
        unfinished["actions"] = unfinished["actions"][:2]
        r = client.post("/api/records", json=unfinished)
        assert r.status_code == 201, r.text
        imported = r.json()["id"]
        r = client.post(f"/api/matches/{imported}/analysis", json={"kind": "hindsight"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished", r.text
        ok(client.post(f"/api/matches/{imported}/analysis"))
        assert wait_done(client, imported)["progress"]["total"] == 2
    assert counted.calls == 2


def test_a_result_is_stored_once_and_a_second_completion_discarded(
    db_url: str, make_client: Callable[..., TestClient], counted: Counted
) -> None:
    with analysis_client(make_client) as client:
        mid, _ = finished_match(client, pile=3)
        record = ok(client.get(f"/api/records/{mid}"))
    store = AnalysisStore(make_engine(db_url))
    assert store.ask(mid, "mover", 3, 1.0)[1] is True
    assert store.ask(mid, "mover", 3, 2.0)[1] is False  # one row per match and kind
    # two jobs of one analysis (the first was thought dead) both start
    assert store.start(mid, "mover", 3, 3.0) and store.start(mid, "mover", 3, 4.0)
    assert store.finish(mid, "mover", '{"first": true}', 3, 5.0) is True
    assert store.finish(mid, "mover", '{"second": true}', 3, 6.0) is False
    row = store.get(mid, "mover")
    assert row is not None and row["result"] == '{"first": true}' and row["tries"] == 2
    # a job that finds its analysis stored computes nothing
    assert compute(store, mid, "mover", record, analyses_module.job_budget({})) == "stored"
    assert counted.calls == 0


def test_a_job_lost_with_its_server_runs_at_the_next_start(
    db_url: str, make_client: Callable[..., TestClient], counted: Counted
) -> None:
    with analysis_client(make_client) as client:
        mid, _ = finished_match(client, pile=3)
    store = AnalysisStore(make_engine(db_url))
    store.ask(mid, "mover", 3, 1.0)
    store.start(mid, "mover", 3, 2.0)  # then the server died (no process runs it)
    with analysis_client(make_client) as client:
        assert wait_done(client, mid)["progress"] == {"done": 3, "total": 3}
    assert counted.calls == 1


def test_a_job_stops_at_its_cpu_budget(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's job (its own pool, here a thread) searches until the CPU budget of the
    settings is spent, counted on the analysis's CPU clock (one second an iteration here),
    not until its 10,000 iterations a move."""
    clock = IterationClock(monkeypatch)
    clock.install()
    with make_client(
        analysis_mode="thread",
        analysis_iterations=10_000,
        analysis_cpu_seconds=400.0,
        http_burst=1e9,
    ) as client:
        mid, _ = finished_match(client, pile=9)
        ok(client.post(f"/api/matches/{mid}/analysis"))
        result = wait_done(client, mid)["result"]
    budget = result["budget"]
    assert budget["cpu_seconds"] == 400.0
    plies = result["plies"]
    assert result["cpu_seconds"] == used(plies)
    # searched beyond the floor, then stopped: the budget, and no more than the floor of
    # iterations each search runs however little is left
    assert max(p["iterations"][0] for p in plies) > budget["floor"]
    assert all(p["iterations"][0] < 10_000 for p in plies)
    assert used(plies) <= 400 + budget["floor"] * searches(plies), [p["iterations"] for p in plies]


def test_a_job_budget_is_cut_to_its_workers_cap() -> None:
    """``sengoku worker`` cuts a job's CPU budget and its wall-clock cap to its own cap
    (half of ``--job-timeout``); a smaller budget stands."""
    cut = analyses_module.job_budget(
        {"iterations": 50, "cpu_seconds": 300.0, "seconds": 900.0}, max_seconds=60.0
    )
    assert (cut.iterations, cut.cpu_seconds, cut.seconds) == (50, 60.0, 60.0)
    small = analyses_module.job_budget({"cpu_seconds": 5.0, "seconds": 900.0}, max_seconds=60.0)
    assert (small.cpu_seconds, small.seconds) == (5.0, 60.0)
    free = analyses_module.job_budget({"cpu_seconds": 5.0})
    assert (free.cpu_seconds, free.seconds) == (5.0, None)
