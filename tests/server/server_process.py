"""A real server process (``python -m sengoku serve``) on a loopback port, for fault tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from process_tree import kill_tree
from test_server_persistence import free_port


@contextmanager
def server(db_url: str, log: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run the server on ``db_url``; yields its base URL; SIGKILLs it at the end."""
    port = free_port()
    out = open(log, "ab")  # noqa: SIM115 - the child owns it until it dies
    proc = subprocess.Popen(
        [sys.executable, "-m", "sengoku", "serve", "--port", str(port), "--db", db_url],
        stdout=out,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(log.read_text())
        yield base
    finally:
        kill_tree(proc)
        out.close()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_gungi(http: httpx.Client, seats: list[dict[str, str]] | None = None) -> dict[str, object]:
    r = http.post(
        "/api/matches",
        json={"game": "gungi", "seats": seats or [{"kind": "local"}, {"kind": "local"}]},
    )
    assert r.status_code == 201, r.text
    data: dict[str, object] = r.json()
    return data


def play_first_legal(http: httpx.Client, mid: str, token: str) -> httpx.Response:
    """The seat's first legal action, with the ply it saw."""
    snap = http.get(f"/api/matches/{mid}", headers=auth(token)).json()
    return http.post(
        f"/api/matches/{mid}/actions",
        json={"action": snap["legal"][0]["action"], "ply": snap["ply"]},
        headers=auth(token),
    )
