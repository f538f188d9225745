"""Real components for the scale-out tests: a Redis server on a private loopback port,
several ``sengoku serve`` processes on one PostgreSQL database with ``--pubsub redis://``, and
HAProxy in front of them, started from the shipped ``docs/deploy/haproxy.cfg``.

Redis and HAProxy come from Debian's ``redis-server`` and ``haproxy`` packages (``make
system-packages`` installs them); when one is missing the tests fail with a message saying
so, they never skip.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import httpx
from process_tree import interrupt_tree, kill_tree
from real_server import ROOT, free_port, wait_healthy
from websockets.sync.client import ClientConnection, connect

from tests.waiting import GENEROUS, wait_until


def redis_binary() -> str:
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )
    if found is None:
        raise AssertionError(
            "redis-server is missing: run `make system-packages` (it installs Debian's "
            "redis-server package) before the scale-out tests"
        )
    return found


class Redis:
    """``redis-server`` on a free loopback port, without persistence; restartable."""

    def __init__(self) -> None:
        self.binary = redis_binary()
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="sengoku-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no", "--dir", str(self.folder), "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        proc = self.proc

        def answers() -> bool:
            if proc.poll() is not None:
                raise AssertionError("redis-server exited")
            return self.command("PING") in ("PONG", True)

        try:
            wait_until(answers, "redis-server to answer PING")
        except BaseException:
            self.close()  # never leave a server behind
            raise

    def command(self, *args: str) -> Any:
        import redis

        try:
            with redis.Redis(port=self.port, socket_timeout=2, decode_responses=True) as r:
                return r.execute_command(*args)
        except redis.exceptions.ConnectionError:
            return None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class Node:
    """One ``sengoku serve`` process of the cluster."""

    def __init__(self, db_url: str, pubsub_url: str, folder: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / f"node-{self.port}.log"
        self.log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sengoku", "serve", "--port", str(self.port)]
            + ["--db", db_url, "--pubsub", pubsub_url],
            cwd=folder,
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **env},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.http = httpx.Client(base_url=self.base, timeout=GENEROUS)

    def wait_ready(self, deadline: float) -> None:
        wait_healthy(self.proc, self.http, deadline, self.logs)

    def logs(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    def ws(self, match_id: str) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}", open_timeout=20)

    def kill(self) -> None:
        kill_tree(self.proc)

    def stop(self) -> None:
        self.http.close()
        interrupt_tree(self.proc)
        self.log.close()


@contextmanager
def nodes(db_url: str, pubsub_url: str, count: int, **env: str) -> Iterator[list[Node]]:
    """``count`` server processes started together (their migrations race: one runs them)."""
    folder = Path(tempfile.mkdtemp(prefix="sengoku-nodes-"))
    started = [Node(db_url, pubsub_url, folder, env) for _ in range(count)]
    try:
        deadline = time.monotonic() + GENEROUS
        for node in started:
            node.wait_ready(deadline)
        yield started
    finally:
        for node in started:
            node.stop()
        shutil.rmtree(folder, ignore_errors=True)


def haproxy_binary() -> str:
    found = shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )
    if found is None:
        raise AssertionError(
            "haproxy is missing: run `make system-packages` (it installs Debian's haproxy "
            "package) before the scale-out tests"
        )
    return found


#: The balancer's configuration, as shipped (docs/deploy/README.md).
HAPROXY_CFG = ROOT / "docs" / "deploy" / "haproxy.cfg"


def haproxy_env(bind: str, servers: list[str], stats_bind: str) -> dict[str, str]:
    """The variables ``docs/deploy/haproxy.cfg`` reads: where it listens and its servers."""
    # maxconn within this machine's file descriptor limit (HAProxy needs two per connection)
    env = {"SENGOKU_BIND": bind, "SENGOKU_STATS_BIND": stats_bind, "SENGOKU_MAXCONN": "2000"}
    env.update({f"SENGOKU_NODE{i}": server for i, server in enumerate(servers, 1)})
    return env


class Balancer:
    """HAProxy from ``docs/deploy/haproxy.cfg`` on free loopback ports, in front of ``nodes``
    (the config's servers s1, s2, s3 in that order)."""

    def __init__(self, nodes: list[Node], folder: Path) -> None:
        self.port = free_port()
        self.stats_port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "haproxy.log"
        self.log = self.log_path.open("wb")
        env = haproxy_env(
            f"127.0.0.1:{self.port}",
            [f"127.0.0.1:{n.port}" for n in nodes],
            f"127.0.0.1:{self.stats_port}",
        )
        # -db: in the foreground, not as a daemon (its access log goes to our file)
        self.proc = subprocess.Popen(
            [haproxy_binary(), "-db", "-f", str(HAPROXY_CFG)],
            env={**os.environ, **env},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.http = httpx.Client(base_url=self.base, timeout=30)

    def logs(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    def servers(self) -> dict[str, dict[str, str]]:
        """HAProxy's own view of each server (its stats CSV): ``status`` (UP, DOWN, ...),
        ``stot`` (connections it sent there), ..."""
        if self.proc.poll() is not None:
            raise AssertionError(f"haproxy exited:\n{self.logs()}")
        r = httpx.get(f"http://127.0.0.1:{self.stats_port}/stats;csv", timeout=10)
        assert r.status_code == 200, r.text
        rows = csv.DictReader(io.StringIO(r.text.lstrip("# ")))
        return {
            row["svname"]: row
            for row in rows
            if row["pxname"] == "sengoku" and row["svname"] not in ("FRONTEND", "BACKEND")
        }

    def wait_status(self, wanted: dict[str, str], timeout: float = 30) -> None:
        """Wait until each named server's status starts with the wanted one (UP, DOWN)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                seen = {name: row["status"] for name, row in self.servers().items()}
            except httpx.TransportError:  # still starting
                seen = {}
            if seen and all(seen.get(n, "").startswith(s) for n, s in wanted.items()):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"haproxy's servers: {seen}, wanted {wanted}\n{self.logs()}")
            time.sleep(0.1)

    def ws(self, match_id: str) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}", open_timeout=20)

    def close(self) -> None:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


class Reachable(Protocol):
    """Where a WebSocket to a match can be opened: a node, or the balancer."""

    def ws(self, match_id: str) -> ClientConnection: ...


class Watcher:
    """A WebSocket connection (a seat's, or a spectator's) and everything it received."""

    def __init__(self, node: Reachable, match_id: str, token: str | None) -> None:
        self.conn = node.ws(match_id).__enter__()  # a plain connection, not a with block
        self.conn.send(json.dumps({"type": "hello", "token": token, "after": 0}))
        self.events: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.replies: list[dict[str, Any]] = []
        self.chats: list[dict[str, Any]] = []

    def pump(self, timeout: float) -> bool:
        """Read one message (False if none came within ``timeout``)."""
        try:
            msg = json.loads(self.conn.recv(timeout=timeout))
        except TimeoutError:
            return False
        if msg["type"] == "event":
            self.events.append(msg)
        elif msg["type"] == "state":
            self.state = msg
        elif msg["type"] in ("ack", "refused"):
            self.replies.append(msg)
        elif msg["type"] == "chat":
            self.chats.append(msg["message"])
        return True

    def chat_until(self, text: str, timeout: float = GENEROUS) -> dict[str, Any]:
        """The first chat message received with ``text``."""
        deadline = time.monotonic() + timeout
        while True:
            for message in self.chats:
                if message.get("text") == text:
                    return message
            if time.monotonic() > deadline:
                raise AssertionError(f"no chat message {text!r} in {timeout} s: {self.chats}")
            self.pump(0.5)

    def until(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = GENEROUS
    ) -> dict[str, Any]:
        """The first state (the current one included) that passes ``test``."""
        deadline = time.monotonic() + timeout
        while not (self.state and test(self.state)):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such state in {timeout} s; last: {self.state}")
            self.pump(min(left, 1.0))
        return self.state

    def act(self, action: str, ply: int, ref: str) -> dict[str, Any]:
        """Send an action and wait for its ack (or refusal)."""
        self.conn.send(json.dumps({"type": "action", "action": action, "ply": ply, "id": ref}))
        deadline = time.monotonic() + GENEROUS
        while True:
            for reply in self.replies:
                if reply.get("id") == ref:
                    self.replies.remove(reply)
                    return reply
            if time.monotonic() > deadline:
                raise AssertionError(f"no reply to action {ref}")
            self.pump(1.0)

    def close(self) -> None:
        self.conn.close()
