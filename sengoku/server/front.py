"""The front of ``sengoku serve --processes N``: one port, N worker processes, sticky by match.

The front binds ``--host/--port`` and starts N workers (``worker.py``), each the full server
as one of several processes on the one database, each joined to the front by a Unix socket
pair. For every TCP connection it accepts, it peeks (``MSG_PEEK``: nothing is consumed) until
the first request line is there, picks the worker (the owner of the match the path names,
``routing.owner``; any other path round the workers), passes the connected socket to it
(``socket.send_fds``) and closes its own copy. It never relays a byte: after the hand-over a
request costs the front nothing, and the worker sees the client's real address.

A connection that sends no complete request line within ``Settings.front_timeout`` seconds,
or more than ``MAX_LINE`` bytes without one, or a line that is not HTTP, is closed.

A worker that exits is started again (with a growing pause if it keeps failing); while it is
down its matches go to another worker, which serves them from the database as any process of
a cluster does. SIGINT or SIGTERM stops the workers (SIGTERM, then SIGKILL after
``STOP_GRACE`` seconds) and the front.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass

from sengoku.server.routing import WORKER_ENV, match_of_path, owner

log = logging.getLogger("sengoku.server")

#: The longest first request line peeked for (method, path, version). The browser's and the
#: API's paths are short; anything longer without a line end is not a request we serve.
MAX_LINE = 8192
#: Connections accepted and not yet handed over, at most: past it new ones are closed, so a
#: flood of silent connections cannot take every descriptor of the front.
MAX_PENDING = 4096
#: Seconds a stopping worker has to finish before it is killed.
STOP_GRACE = 20.0
#: How often (seconds) the front looks for workers that exited.
WATCH_EVERY = 0.5
#: Methods a first request line may start with.
METHODS = frozenset(
    b"GET HEAD POST PUT DELETE PATCH OPTIONS TRACE CONNECT".split()  # noqa: SIM905
)


class NotHttp(ValueError):
    """A first request line that is not ``METHOD target HTTP/x.y``."""


def request_target(line: bytes) -> str:
    """The path of a first request line (without its line end); NotHttp if it is not one."""
    parts = line.split(b" ")
    if len(parts) != 3 or parts[0] not in METHODS or not parts[2].startswith(b"HTTP/1."):
        raise NotHttp(line[:80])
    target = parts[1]
    # The absolute form (``GET http://host/path``) names the same path after its authority.
    for scheme in (b"http://", b"https://"):
        if target.startswith(scheme):
            slash = target.find(b"/", len(scheme))
            target = target[slash:] if slash >= 0 else b"/"
    return target.decode("latin-1")


@dataclass
class WorkerProcess:
    """One worker: its process and the front's end of its socket pair."""

    index: int
    proc: subprocess.Popen[bytes]
    channel: socket.socket
    #: Started with the front (not a restart): if it exits before it is ready, the front
    #: stops, since the cause (a bad database URL, a broken install) is no passing fault.
    first: bool
    #: The pause before the next start, should it exit before it is ready (doubles).
    backoff: float
    ready: bool = False


@dataclass
class Pending:
    """A connection whose first request line is not complete yet."""

    timer: asyncio.TimerHandle
    #: Bytes peeked at the last look (the next look must find more).
    seen: int = 0


class Front:
    """The front's state: the listener, the workers, the connections being peeked at."""

    def __init__(
        self,
        listener: socket.socket,
        processes: int,
        db_url: str,
        pubsub_url: str,
        first_line_timeout: float,
    ) -> None:
        self.listener = listener
        self.processes = processes
        self.db_url = db_url
        self.pubsub_url = pubsub_url
        self.timeout = first_line_timeout
        self.workers: list[WorkerProcess | None] = [None] * processes
        self.pending: dict[socket.socket, Pending] = {}
        self.turn = itertools.count()
        self.stopping = asyncio.Event()
        self.failed: str | None = None
        self.loop = asyncio.get_running_loop()
        self._restarts: set[asyncio.Task[None]] = set()

    # -- workers ---------------------------------------------------------------------------
    def spawn(self, index: int, first: bool = False, backoff: float = 0.5) -> WorkerProcess:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {**os.environ, WORKER_ENV: f"{index}/{self.processes}"}
        command = [sys.executable, "-m", "sengoku.server.worker", "--channel"]
        command += [str(theirs.fileno()), "--db", self.db_url, "--pubsub", self.pubsub_url]
        command += ["--parent", str(os.getpid())]  # it stops when the front dies
        proc = subprocess.Popen(command, env=env, pass_fds=[theirs.fileno()])
        theirs.close()
        mine.setblocking(False)
        worker = WorkerProcess(index, proc, mine, first, backoff)
        self.loop.add_reader(mine.fileno(), self._worker_says, worker)
        self.workers[index] = worker
        log.info("worker %d/%d started (pid %d)", index, self.processes, proc.pid)
        return worker

    def _worker_says(self, worker: WorkerProcess) -> None:
        try:
            data = worker.channel.recv(16)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:  # READY: its app has started (connections passed earlier wait in the pair)
            worker.ready = True
        else:  # it exited; the watcher starts it again
            self.loop.remove_reader(worker.channel.fileno())

    async def watch(self) -> None:
        """Start again every worker that exited; fail the front if one never started."""
        while not self.stopping.is_set():
            for i, worker in enumerate(self.workers):
                if worker is None or worker.proc.poll() is None:
                    continue
                code = worker.proc.returncode
                self._drop(worker)
                self.workers[i] = None
                if worker.first and not worker.ready:
                    self.failed = f"worker {i} exited with code {code} before it started"
                    self.stopping.set()
                    return
                log.warning("worker %d/%d exited with code %s; restarting", i, self.processes, code)
                # One that ran is started at once; one that died starting waits, longer each
                # time (a database that is down must not make the front start interpreters
                # in a tight loop).
                pause, backoff = (0.0, 0.5) if worker.ready else (worker.backoff, worker.backoff)
                task = self.loop.create_task(self._restart(i, pause, min(backoff * 2, 30.0)))
                self._restarts.add(task)
                task.add_done_callback(self._restarts.discard)
            try:
                await asyncio.wait_for(self.stopping.wait(), WATCH_EVERY)
            except TimeoutError:
                pass

    async def _restart(self, index: int, pause: float, backoff: float) -> None:
        await asyncio.sleep(pause)
        if not self.stopping.is_set():
            self.spawn(index, backoff=backoff)

    def _drop(self, worker: WorkerProcess) -> None:
        if worker.channel.fileno() >= 0:
            self.loop.remove_reader(worker.channel.fileno())
            worker.channel.close()

    # -- connections -----------------------------------------------------------------------
    def accept(self) -> None:
        """Every connection waiting on the listener (called when it is readable)."""
        while True:
            try:
                sock, _addr = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                # Out of descriptors, or the like: the listener stays readable, so look again
                # in a moment rather than spin (and log) until one is free.
                log.warning("accept failed: %s; pausing 0.1 s", exc)
                self.loop.remove_reader(self.listener.fileno())
                self.loop.call_later(0.1, self._listen)
                return
            if len(self.pending) >= MAX_PENDING:
                sock.close()
                continue
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.pending[sock] = Pending(self.loop.call_later(self.timeout, self._close, sock))
            self.loop.add_reader(sock.fileno(), self._peek, sock)

    def _listen(self) -> None:
        if not self.stopping.is_set():
            self.loop.add_reader(self.listener.fileno(), self.accept)

    def _close(self, sock: socket.socket) -> None:
        pending = self.pending.pop(sock, None)
        if pending is not None:
            pending.timer.cancel()
        self.loop.remove_reader(sock.fileno())
        sock.close()

    def _peek(self, sock: socket.socket) -> None:
        try:
            head = sock.recv(MAX_LINE, socket.MSG_PEEK)
        except BlockingIOError:
            return
        except OSError:
            self._close(sock)
            return
        if not head:  # the client left
            self._close(sock)
            return
        end = head.find(b"\n")
        if end < 0:
            pending = self.pending[sock]
            if len(head) >= MAX_LINE or len(head) <= pending.seen:
                # Too long for a request line; or woken with nothing more to read, which
                # with the low mark below means the client shut its side half-way through.
                self._close(sock)
                return
            # Not all of it yet. What was peeked stays in the buffer, so the socket stays
            # readable: wake only when more than that is there (Linux honours the low mark
            # in epoll), instead of peeking in a busy loop.
            pending.seen = len(head)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, len(head) + 1)
            return
        try:
            path = request_target(head[:end].rstrip(b"\r"))
        except NotHttp:
            self._close(sock)
            return
        match_id = match_of_path(path)
        index = owner(match_id, self.processes) if match_id else next(self.turn) % self.processes
        self.pending.pop(sock).timer.cancel()
        self.loop.remove_reader(sock.fileno())
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, 1)  # the worker reads as usual
        self._hand_over(sock, index)

    def _hand_over(self, sock: socket.socket, index: int) -> None:
        """Pass ``sock`` to worker ``index``; while that one is down or starting again, to the
        next one that is ready (any process serves any match, from the database), so a
        restart does not hold its matches' clients; at start-up, to ``index`` anyway (the
        connection waits in the pair until the worker takes connections)."""
        order = [self.workers[(index + step) % self.processes] for step in range(self.processes)]
        ready = [w for w in order if w is not None and w.ready]
        for worker in ready or [w for w in order if w is not None]:
            try:
                socket.send_fds(worker.channel, [b"c"], [sock.fileno()])
            except BlockingIOError:
                # Its pair is full: it has not read hundreds of connections; it is stuck.
                log.warning("worker %d is not taking connections", worker.index)
                continue
            except OSError:  # it exited a moment ago (the watcher will see it)
                continue
            break
        sock.close()  # the worker holds its own copy now (or none took it: the client's gone)

    # -- running ---------------------------------------------------------------------------
    async def run(self) -> None:
        for i in range(self.processes):
            self.spawn(i, first=True)
        for sig in (signal.SIGINT, signal.SIGTERM):
            self.loop.add_signal_handler(sig, self.stopping.set)
        self.listener.setblocking(False)
        self._listen()
        host, port = self.listener.getsockname()[:2]
        log.info(
            "front on http://%s:%d: %d workers (pid %d; Ctrl+C to quit)",
            host,
            port,
            self.processes,
            os.getpid(),
        )
        await self.watch()
        await self.stop()

    async def stop(self) -> None:
        self.loop.remove_reader(self.listener.fileno())
        self.listener.close()
        for sock in list(self.pending):
            self._close(sock)
        workers = [w for w in self.workers if w is not None]
        for worker in workers:
            if worker.proc.poll() is None:
                worker.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE
        while any(w.proc.poll() is None for w in workers) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        for worker in workers:
            if worker.proc.poll() is None:
                log.warning("worker %d did not stop in %.0f s: killed", worker.index, STOP_GRACE)
                worker.proc.kill()
                worker.proc.wait()
            self._drop(worker)
        log.info("front stopped")


def run_front(host: str, port: int, db_url: str, pubsub_url: str, processes: int) -> None:
    """Serve ``host:port`` with ``processes`` workers on ``db_url`` until SIGINT/SIGTERM."""
    from sengoku.server import log_to_stderr
    from sengoku.server.config import settings_from_env
    from sengoku.server.db import make_engine, migrate

    log_to_stderr()
    if pubsub_url in ("", "memory://"):
        raise SystemExit(
            "--pubsub memory:// is one process's; with --processes use none:// or redis://"
        )
    # Settings are read here too, so a bad SENGOKU_* variable stops the front, not N workers.
    settings = settings_from_env(db_url)
    # The schema is brought up to date once, before the workers start: SQLite has no lock
    # that would keep N processes from upgrading it at once.
    engine = make_engine(db_url, lock_timeout=settings.db_lock_timeout)
    migrate(engine)
    engine.dispose()
    listener = socket.create_server((host, port), backlog=2048, reuse_port=False)

    async def main() -> str | None:
        front = Front(listener, processes, db_url, pubsub_url, settings.front_timeout)
        await front.run()
        return front.failed

    failed = asyncio.run(main())
    if failed:
        raise SystemExit(f"sengoku serve: {failed}; see its log above")
