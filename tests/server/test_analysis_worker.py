"""``sengoku worker`` on a real Redis (issue 38): an analysis job whose worker is killed with
``kill -9`` mid-job is run again by another worker and stored once (docs/server.md,
"Analysis jobs")."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import action_id, auth, new_match
from fastapi.testclient import TestClient
from process_tree import alive, descendants, interrupt_tree, kill_tree, reap
from real_server import ROOT
from scaleout_cluster import Redis

from sengoku.server.analyses import QUEUE_NAME, AnalysisStore
from sengoku.server.db import make_engine
from tests.waiting import ok, wait_until

#: The workers' time limit: a job's claim expires JOB_TIMEOUT + 10 s after a worker took it,
#: and each run's analysis stops by itself within its time cap (sengoku/server/analysis_worker.py).
JOB_TIMEOUT = 12


@pytest.fixture
def redis_server() -> Iterator[Redis]:
    server = Redis()
    try:
        yield server
    finally:
        server.close()


class Worker:
    """One ``sengoku worker`` process, its output in a file."""

    def __init__(self, redis_url: str, db_url: str, folder: Path, name: str) -> None:
        self.log_path = folder / f"{name}.log"
        self.log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sengoku", "worker", "--redis", redis_url, "--db", db_url]
            + ["--job-timeout", str(JOB_TIMEOUT)],
            cwd=folder,
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def logs(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        interrupt_tree(self.proc)
        self.log.close()


def finished_gungi(client: TestClient, plies: int = 8) -> str:
    """A Gungi match: ``plies`` moves (each seat's first legal one), then a resignation."""
    m = new_match(client, game="gungi", seed=7)
    tokens = [m["tokens"]["0"], m["tokens"]["1"]]
    snap = m["match"]
    for _ in range(plies):
        seat = snap["to_act"]
        r = client.post(
            f"/api/matches/{m['id']}/actions",
            json={"action": snap["legal"][0]["action"], "id": action_id()},
            headers=auth(tokens[seat]),
        )
        snap = ok(r)
        if snap["to_act"] != seat:  # a look as the other seat: its legal actions
            snap = ok(client.get(f"/api/matches/{m['id']}", headers=auth(tokens[snap["to_act"]])))
    ok(client.post(f"/api/matches/{m['id']}/resign", headers=auth(tokens[0])))
    return str(m["id"])


def test_a_job_whose_worker_is_killed_runs_on_another_and_is_stored_once(
    redis_server: Redis, make_client: Callable[..., TestClient], db_url: str
) -> None:
    folder = Path(tempfile.mkdtemp(prefix="sengoku-workers-"))
    workers: list[Worker] = []
    store = AnalysisStore(make_engine(db_url))
    # A budget the time cap bounds (half of JOB_TIMEOUT over the game): slow enough to be
    # killed mid-job, short enough for the next worker's try.
    with make_client(
        analysis_queue=redis_server.url, analysis_iterations=100_000, http_burst=1e9
    ) as client:
        mid = finished_gungi(client)
        first = ok(client.post(f"/api/matches/{mid}/analysis"))
        assert first["status"] == "queued" and first["progress"]["total"] == 8, first
        # asked twice, queued once (arq's job id is the match and kind)
        assert ok(client.post(f"/api/matches/{mid}/analysis"))["status"] == "queued"
        assert int(redis_server.command("ZCARD", QUEUE_NAME)) == 1

        def row() -> dict[str, Any]:
            got = store.get(mid, "mover")
            assert got is not None
            return got

        try:
            workers = [Worker(redis_server.url, db_url, folder, f"w{i}") for i in (1, 2)]

            def detail() -> str:
                return "\n".join(f"--- {w.log_path.name}\n{w.logs()}" for w in workers)

            def running_somewhere() -> Worker | None:
                if row()["status"] != "running" or row()["done"] < 1:
                    return None
                return next((w for w in workers if "try 1" in w.logs()), None)

            victim = wait_until(running_somewhere, "a worker to be mid-job", detail=detail)
            assert row()["done"] < row()["total"], row()
            survivor = next(w for w in workers if w is not victim)
            children = descendants(victim.proc.pid)
            assert children, "the job runs in a process of the worker's pool"
            victim.proc.kill()  # kill -9, mid-job
            victim.proc.wait(30)
            # its pool's process dies with it (it would otherwise finish the job unseen)
            wait_until(lambda: not alive(children), "the killed worker's job process to die")
            reap(children)

            done = wait_until(
                lambda: row() if row()["status"] == "done" else None,
                "the job to finish on the other worker",
                detail=detail,
            )
            assert done["tries"] == 2, done
            assert "try 2" in survivor.logs(), detail()
            # The pool process stores the row, then the worker logs the job's outcome: the
            # line may come a moment after the row.
            wait_until(
                lambda: f"analysis {mid}/mover: done" in survivor.logs(),
                "the surviving worker to log the job as done",
                detail=detail,
            )
            assert "TimeoutError" not in survivor.logs(), detail()
            assert "done" not in victim.logs().split("try 1", 1)[1], victim.logs()
            result = ok(client.get(f"/api/matches/{mid}/analysis"))
            assert result["status"] == "done", result
            assert [p["ply"] for p in result["result"]["plies"]] == list(range(1, 9))
            assert result["progress"] == {"done": 8, "total": 8}, result
            for ply in result["result"]["plies"]:  # Gungi's preferred moves name squares
                assert ply["best_described"]["to"], ply
            # nothing left in the queue; asking again serves the stored result
            assert int(redis_server.command("ZCARD", QUEUE_NAME)) == 0
            again = ok(client.post(f"/api/matches/{mid}/analysis"))
            assert again["result"] == result["result"]
            assert int(redis_server.command("ZCARD", QUEUE_NAME)) == 0
        finally:
            for w in workers:
                if w.proc.poll() is None:
                    w.stop()
                else:
                    kill_tree(w.proc)
                    w.log.close()
