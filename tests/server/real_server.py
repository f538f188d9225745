"""A real server process, the one launcher of the tests: ``python -m sengoku serve`` on a
free loopback port, on a temporary SQLite file (or any database URL), configured through
``SENGOKU_*`` variables. :func:`real_server` stops it as an operator would (SIGINT);
:func:`server` SIGKILLs it at the end (the fault tests: nothing acknowledged may be lost).

Attacks go over real sockets (HTTP with httpx, WebSocket with ``websockets``), so nothing
the in-process test client does differently (its fixed client address, its own JSON encoder)
can hide a hole.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.server.process_tree import interrupt_tree, kill_tree
from tests.waiting import GENEROUS, ok, wait_until

ROOT = Path(__file__).resolve().parents[2]


def wait_healthy(
    proc: subprocess.Popen[bytes], http: httpx.Client, deadline: float, logs: Callable[[], str]
) -> None:
    """Wait until the server process answers ``/healthz`` (failing with its log if it exits
    or does not answer by ``deadline``)."""

    def healthy() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited:\n{logs()}")
        try:
            return http.get("/healthz").status_code == 200
        except httpx.TransportError:
            return False

    wait_until(
        healthy, "the server to answer /healthz", max(0.0, deadline - time.monotonic()), 0.1, logs
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RealServer:
    """``sengoku serve`` in ``folder``; on ``db_url`` (default: a new SQLite file there, ``db``),
    writing its output to ``log_path`` (appended: a restarted server adds to the same log)."""

    def __init__(
        self,
        folder: Path,
        env: dict[str, str],
        args: tuple[str, ...] = (),
        db_url: str | None = None,
        log_path: Path | None = None,
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path or folder / f"server-{self.port}.log"
        self.db = folder / f"server-{self.port}.db"
        full_env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        self.log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sengoku",
                "serve",
                "--port",
                str(self.port),
                "--db",
                db_url or f"sqlite:///{self.db}",
                *args,
            ],
            cwd=folder,
            env=full_env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.http = httpx.Client(base_url=self.base, timeout=20)
        try:
            wait_healthy(self.proc, self.http, time.monotonic() + 120, self.logs)
        except BaseException:
            self.kill()  # never leave a process behind
            raise

    def logs(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self.proc.poll() is None and self.http.get("/healthz").status_code == 200

    def ws(self, match_id: str, **kwargs: Any) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}", **kwargs)

    def create(self, body: dict[str, Any], **kwargs: Any) -> httpx.Response:
        return self.http.post("/api/matches", json=body, **kwargs)

    def stop(self) -> None:
        self.http.close()
        interrupt_tree(self.proc)
        self.log.close()

    def kill(self) -> None:
        """SIGKILL, as a crash would: nothing is flushed or closed by the server."""
        self.http.close()
        kill_tree(self.proc)  # and reap what its death left behind, should anything linger
        self.log.close()


@contextlib.contextmanager
def real_server(folder: Path, args: tuple[str, ...] = (), **env: str) -> Iterator[RealServer]:
    """A server on a temporary SQLite file in ``folder``; ``args`` are more ``serve`` flags."""
    server = RealServer(folder, env, args)
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def server(db_url: str, log: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run the server on ``db_url``, appending its output to ``log``; yields its base URL;
    SIGKILLs it at the end."""
    # The test process's PYTHONPATH too: the test plugins' games (tests/conftest.py).
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    running = RealServer(log.parent, {"PYTHONPATH": path, **(env or {})}, (), db_url, log)
    try:
        yield running.base
    finally:
        running.kill()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_gungi(http: httpx.Client, seats: list[dict[str, str]] | None = None) -> dict[str, Any]:
    r = http.post(
        "/api/matches",
        json={"game": "gungi", "seats": seats or [{"kind": "local"}, {"kind": "local"}]},
    )
    data: dict[str, Any] = ok(r, 201)
    return data


def play_first_legal(http: httpx.Client, mid: str, token: str) -> httpx.Response:
    """The seat's first legal action, with the ply it saw (its answer, unchecked)."""
    snap = ok(http.get(f"/api/matches/{mid}", headers=auth(token)))
    return http.post(
        f"/api/matches/{mid}/actions",
        json={"action": snap["legal"][0]["action"], "ply": snap["ply"]},
        headers=auth(token),
    )


def receive(ws: ClientConnection, kind: str, timeout: float = GENEROUS) -> dict[str, Any]:
    """The next message of type ``kind`` (earlier ones are skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if msg.get("type") == kind or (kind == "error" and msg.get("type") == "refused"):
            return dict(msg)
