"""A real server process for the security tests: ``python -m sengoku serve`` on a free
loopback port with a temporary SQLite file, configured through ``SENGOKU_*`` variables.

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
from process_tree import interrupt_tree
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]


def wait_healthy(
    proc: subprocess.Popen[bytes], http: httpx.Client, deadline: float, logs: Callable[[], str]
) -> None:
    """Wait until the server process answers ``/healthz`` (failing with its log if it exits
    or does not answer by ``deadline``)."""
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited:\n{logs()}")
        try:
            if http.get("/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start:\n{logs()}")
        time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RealServer:
    def __init__(self, folder: Path, env: dict[str, str], args: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / f"server-{self.port}.log"
        self.db = folder / f"server-{self.port}.db"
        full_env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        self.log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sengoku",
                "serve",
                "--port",
                str(self.port),
                "--db",
                f"sqlite:///{self.db}",
                *args,
            ],
            cwd=folder,
            env=full_env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.http = httpx.Client(base_url=self.base, timeout=20)
        wait_healthy(self.proc, self.http, time.monotonic() + 60, self.logs)

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


@contextlib.contextmanager
def real_server(folder: Path, args: tuple[str, ...] = (), **env: str) -> Iterator[RealServer]:
    """A server on a temporary SQLite file in ``folder``; ``args`` are more ``serve`` flags."""
    server = RealServer(folder, env, args)
    try:
        yield server
    finally:
        server.stop()


def receive(ws: ClientConnection, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next message of type ``kind`` (earlier ones are skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if msg.get("type") == kind or (kind == "error" and msg.get("type") == "refused"):
            return dict(msg)
