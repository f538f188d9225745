"""A server killed with ``kill -9`` leaves no process behind: its AI and replay pools'
workers and multiprocessing's resource tracker go with it, and so does every worker of a
front (``serve --processes N``) with all of theirs (issue 39)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from process_tree import Proc, alive, command, descendants, reap, wait_gone
from real_server import auth, free_port, wait_healthy

from sengoku.core.registry import load_game

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the parent's death signal is Linux's"
)


def _play_against_the_ai(http: httpx.Client) -> None:
    """Create a Gungi match against level 1, move, and wait for the AI's answer: the AI pool's
    worker has started. Then a replay: the replay pool's worker has too."""
    r = http.post(
        "/api/matches",
        json={"game": "gungi", "seats": [{"kind": "local"}, {"kind": "ai", "level": 1}]},
    )
    assert r.status_code == 201, r.text
    m: Any = r.json()
    mid, token = m["id"], m["tokens"]["0"]
    action = m["match"]["legal"][0]["action"]
    r = http.post(
        f"/api/matches/{mid}/actions", json={"action": action, "ply": 0}, headers=auth(token)
    )
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120  # a safety net: a spawned worker loads the game first
    while (snap := http.get(f"/api/matches/{mid}").json())["ply"] < 2:
        assert time.monotonic() < deadline, snap
        time.sleep(0.1)
    version = load_game("gungi").version
    body = {"game": "gungi", "version": version, "options": {}, "seed": 1, "actions": []}
    r = http.post("/api/replay", json=body)
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("processes", [1, 2], ids=["serve", "front"])
def test_kill_9_of_the_server_leaves_no_child_behind(tmp_path: Path, processes: int) -> None:
    port = free_port()
    args = [sys.executable, "-m", "sengoku", "serve", "--port", str(port)]
    args += ["--db", f"sqlite:///{tmp_path / 'kids.db'}"]
    if processes > 1:
        args += ["--processes", str(processes)]
    log_path = tmp_path / "server.log"
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        "SENGOKU_AI_WORKERS": "1",
        "SENGOKU_WORK_WORKERS": "1",
        "SENGOKU_LIMIT_EXEMPT": "127.0.0.1",
    }
    procs: list[Proc] = []
    with log_path.open("wb") as log:
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:
                wait_healthy(proc, http, time.monotonic() + 120, log_path.read_text)
                _play_against_the_ai(http)
            procs = descendants(proc.pid)
            commands = [command(pid) for pid, _start in procs]
            # What is to die: the pools' spawned workers, the resource tracker (and the
            # front's workers, which hold those).
            assert any("multiprocessing.spawn" in c for c in commands), commands
            assert any("resource_tracker" in c for c in commands), commands
            if processes > 1:
                workers = [c for c in commands if "sengoku.server.worker" in c]
                assert len(workers) == processes, commands
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
            left = wait_gone(procs)
            assert not left, [(pid, command(pid)) for pid, _start in left]
        finally:
            procs = procs or descendants(proc.pid)
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)
            reap(procs)
    assert not alive(procs)
