"""Load test of the game server: many concurrent games, played the way the web client plays.

    python benchmarks/server_load.py --db sqlite --games 500 --interval 2 --seconds 60
    python benchmarks/server_load.py --db postgres --games 500 --interval 2 --seconds 60

starts ``sengoku serve`` on 127.0.0.1 at a free port, on a fresh SQLite file or a throw-away
PostgreSQL cluster (Debian's ``initdb``/``pg_ctl``, run as the ``postgres`` user when this
runs as root, fsync on unless ``--pg-fsync off``, removed at the end), or uses ``--url``.

Each game (the four games in turn, ``--mix``) holds one WebSocket per seat and
``--spectators`` more, all saying ``hello`` with ``short: true`` (as the browser does, so
every state message carries the legal actions' short forms). About every ``--interval``
seconds (random phase) the seat to act does what the browser does on a click: ``POST .../actions``
``{"action", "ply"}`` with its token (``--short-share`` of the actions in their short form,
as typed into the notation box), then ``GET .../events?after=N`` for its private events. A
finished game is replaced by a new one. Between two actions a game waits ``--interval``
seconds on average: by default a time drawn evenly from half to one and a half times it, as
players' thinking varies (``--think varied``); ``--think fixed`` waits exactly
``--interval``, which makes the games that one stall delayed together click together from
then on, so the requests arrive in bursts (the report's ``arrivals`` line shows how bursty:
the requests sent in each 50 ms, against Poisson arrivals' spread). Measured:

* ``action``: the POST's round trip (checked, committed to the database, broadcast, answered);
* ``seen``: from sending the POST to the opponent's WebSocket receiving the new state;
* ``events``: the GET's round trip;
* the server's CPU per action (and PostgreSQL's, for ``--db postgres``), apart from the load
  generator's own, and the load average before and after.

``--processes N`` starts N server processes on the one database (PostgreSQL, or an SQLite
file they share), telling each other of changes through a ``redis-server`` this starts on a
free loopback port (``--pubsub redis``, the default for N > 1; ``--pubsub none``: they find each
other's changes in the database at each heartbeat). Each game is spread over them as a
deployment without sticky sessions would spread it: created on one process, each seat's
WebSocket and its requests on another, the spectators on a third; the opponent's ``seen``
then includes the trip through Redis. ``--sticky`` keeps each game, its creation included,
on one process, as a proxy that routes by the match's id would (nginx's ``hash`` on the id in
the path): then no process follows another's matches. The CPU of every server process (and
of Redis) counts.

``--front`` starts one ``sengoku serve --processes N`` instead (N from ``--processes``; its
front routes each connection by the match its first request names, its workers tell each
other nothing: ``--pubsub none`` unless told otherwise) and sends every part of every game
to its one port. The per-action requests' pooled connections are kept one client per
worker, a game's requests going through the client of ``owner(match id)``, so a pooled
keep-alive connection is dispatched once and always reaches the match's worker. The CPU of
the front, its workers and their children counts.

``--haproxy`` (with ``--processes 3``: the config's three servers) starts the processes as
for a spread game and HAProxy in front of them from the shipped ``docs/deploy/haproxy.cfg``,
and sends every part of every game to HAProxy's port, which spreads them (least
connections, no stickiness). HAProxy's CPU counts with the servers'.

``--json`` prints one machine-readable line. Only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets

from sengoku.server.routing import owner

try:  # pydantic-core (FastAPI's) parses a large state message ~25% faster than json
    from pydantic_core import from_json as parse_json
except ImportError:  # pragma: no cover - the server's dependencies bring it
    parse_json = json.loads

GAMES = ("gungi", "gunshi", "gunkimono", "sashimono")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(
    sqlite_synchronous: str | None = None, pg_synchronous_commit: str | None = None
) -> dict[str, str]:
    """The environment of the server this starts: the load generator is its only client, so
    its loopback address skips the per-client rate limits (unless set otherwise); with
    ``sqlite_synchronous``, SQLite's durability (``SENGOKU_SQLITE_SYNCHRONOUS``), with
    ``pg_synchronous_commit`` PostgreSQL's (``SENGOKU_PG_SYNCHRONOUS_COMMIT``)."""
    env = {"SENGOKU_LIMIT_EXEMPT": "127.0.0.1", **os.environ, "PYTHONUNBUFFERED": "1"}
    if sqlite_synchronous:
        env["SENGOKU_SQLITE_SYNCHRONOUS"] = sqlite_synchronous
    if pg_synchronous_commit:
        env["SENGOKU_PG_SYNCHRONOUS_COMMIT"] = pg_synchronous_commit
    return env


def start_server(
    port: int,
    db_url: str,
    log: Path,
    profile: str | None = None,
    pubsub: str | None = None,
    sqlite_synchronous: str | None = None,
    pg_synchronous_commit: str | None = None,
    processes: int = 1,
) -> subprocess.Popen[bytes]:
    """``sengoku serve`` on ``port``; with ``processes`` > 1 a front and that many workers."""
    command = [sys.executable, "-m", "sengoku", "serve", "--port", str(port), "--db", db_url]
    if pubsub:
        command += ["--pubsub", pubsub]
    if processes > 1:
        command += ["--processes", str(processes)]
    if profile:  # the server's own functions, written when it stops
        # (timed by the wall clock: on a shared machine a function is also charged for the
        # time other processes held the core; the thread's CPU clock costs a system call a
        # function and slows the server several times over)
        code = (
            "import cProfile,signal,sys;from sengoku.server import serve;p=cProfile.Profile();"
            "signal.signal(signal.SIGTERM,lambda *a:sys.exit(0));"
            "p.enable()\ntry: serve(port=int(sys.argv[1]),db_url=sys.argv[2])\n"
            "finally: p.disable();p.dump_stats(sys.argv[3])"
        )
        command = [sys.executable, "-c", code, str(port), db_url, profile]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=open(log, "ab"),  # noqa: SIM115 - the child owns it
        env=server_env(sqlite_synchronous, pg_synchronous_commit),
    )
    deadline = time.monotonic() + 120
    # A front answers once one worker is up; wait until every worker has answered (each
    # request on a fresh connection goes to the next ready worker), so none starts late.
    workers: set[str] = set()
    while time.monotonic() < deadline:
        try:
            r = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            workers.add(r.json().get("worker", ""))
            if r.status_code == 200 and len(workers) >= processes:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
        if proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit(f"the server did not start; see {log}")


@contextmanager
def redis_server() -> Iterator[tuple[str, int]]:
    """``redis-server`` on a free loopback port, without persistence: (URL, its pid)."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():
        raise SystemExit("redis-server is missing (make system-packages installs it)")
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


# -- a throw-away PostgreSQL cluster ------------------------------------------------------
def _pg_bin() -> Path:
    if "SENGOKU_PG_BIN" in os.environ:
        return Path(os.environ["SENGOKU_PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parts[-3])
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


def _as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as the ``postgres`` user then."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextmanager
def postgres_cluster(fsync: bool, socket: bool = False) -> Iterator[tuple[str, Path]]:
    """A fresh cluster on a free loopback port; yields (SQLAlchemy URL, data directory). With
    ``socket`` the URL names the cluster's Unix-domain socket instead of its TCP port (what a
    server on the database's own machine would use)."""
    pg = _pg_bin()
    folder = Path(tempfile.mkdtemp(prefix="sengoku-bench-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data = folder / "data"
    port = free_port()
    subprocess.run(
        _as_postgres([str(pg / "initdb"), "-D", str(data), "-A", "trust", "-U", "sengoku"]),
        check=True,
        capture_output=True,
    )
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync={'on' if fsync else 'off'}"
        " -c max_connections=200"
    )
    subprocess.run(
        _as_postgres(
            [str(pg / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log")]
            + ["-w", "start"]
        ),
        check=True,
        capture_output=True,
    )
    try:
        if socket:
            yield f"postgresql+psycopg://sengoku@/postgres?host={folder}&port={port}", data
        else:
            yield f"postgresql+psycopg://sengoku@127.0.0.1:{port}/postgres", data
    finally:
        subprocess.run(
            _as_postgres([str(pg / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


# -- CPU accounting (Linux /proc) --------------------------------------------------------
def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of processes (exited children of theirs included)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            f = _stat(pid)
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += sum(int(x) for x in f[11:15]) / tick
    return total


def cluster_pids(data: Path | None) -> list[int]:
    """The postmaster and its children (the backends serving the server)."""
    if data is None:
        return []
    try:
        master = int((data / "postmaster.pid").read_text().split()[0])
    except (FileNotFoundError, ValueError, IndexError):
        return []
    pids = [master]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int(_stat(int(entry.name))[1]) == master:
                    pids.append(int(entry.name))
            except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                continue
    return pids


def start_haproxy(port: int, bases: list[str], logs: Path) -> subprocess.Popen[bytes]:
    """HAProxy from the shipped config on ``port``, in front of the three servers ``bases``;
    returned once it finds all three up."""
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(binary).exists():
        raise SystemExit("haproxy is missing (make system-packages installs it)")
    stats = free_port()
    env = {**os.environ, "SENGOKU_BIND": f"127.0.0.1:{port}", "SENGOKU_MAXCONN": "4000"}
    env["SENGOKU_STATS_BIND"] = f"127.0.0.1:{stats}"
    for i, base in enumerate(bases, 1):
        env[f"SENGOKU_NODE{i}"] = base.removeprefix("http://")
    config = Path(__file__).resolve().parents[1] / "docs" / "deploy" / "haproxy.cfg"
    proc = subprocess.Popen(
        [binary, "-db", "-f", str(config)],
        stdout=open(logs / "haproxy.log", "ab"),  # noqa: SIM115 - the child owns it
        stderr=subprocess.STDOUT,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"haproxy exited; see {logs / 'haproxy.log'}")
        try:
            text = httpx.get(f"http://127.0.0.1:{stats}/stats;csv", timeout=1).text
            if sum(1 for line in text.splitlines() if ",UP," in line and "sengoku,s" in line) == 3:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.terminate()
    raise SystemExit("haproxy did not find its three servers up")


def server_pids(pid: int) -> list[int]:
    """The server and every process under it: its AI and replay workers, or, for a front
    (``--processes N``), its worker processes and theirs."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
            except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                continue
    pids = [pid]
    for parent in pids:  # grows as it goes: breadth first down the tree
        pids.extend(children.get(parent, []))
    return pids


# -- the clients ---------------------------------------------------------------------------
#: How Starlette's ``send_json`` begins a state and an event message (compact JSON).
_STATE_PREFIX = '{"type":"state"'
_EVENT_PREFIX = '{"type":"event"'


class Socket:
    """One WebSocket (a seat, or a spectator): keeps the newest state it was sent.

    A state message is parsed only when it is looked at, and only the newest one: a seat
    that is not about to act skips the states it was sent in between (the server sends
    them all the same; only the load generator's own CPU is spared)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self._raw: str | None = None  # the newest state message, not parsed yet
        self._state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.last_event = 0
        self.parsed = 0  # state messages parsed (the generator's own work)

    @property
    def state(self) -> dict[str, Any] | None:
        if self._raw is not None:
            self._state = parse_json(self._raw)
            self._raw = None
            self.parsed += 1
        return self._state

    async def drain(self) -> None:
        """A spectator's socket: read everything (the server sends it all), parse nothing."""
        async for _text in self.ws:
            pass

    async def read(self) -> None:
        async for text in self.ws:
            if text.startswith(_STATE_PREFIX):
                self._raw = text
                self.changed.set()
                continue
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "state":  # another spelling of the JSON than Starlette's
                self._raw = text
                self.changed.set()
            elif kind == "event":
                self.last_event = max(self.last_event, msg["n"])

    async def wait_ply(self, ply: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while (state := self.state) is None or state["ply"] < ply:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return False
        return True


class Http:
    """A small HTTP/1.1 keep-alive client for the two requests of every action.

    httpx cost the generator about a millisecond of CPU per request; these requests are
    the same method, path, token and body, written as bytes on a pooled connection and
    read back by their ``Content-Length``. ``limit`` connections at most."""

    def __init__(self, base: str, limit: int) -> None:
        host_port = base.split("://", 1)[1].rstrip("/")
        self.host, _, port = host_port.partition(":")
        self.port = int(port or 80)
        self.host_header = f"Host: {host_port}\r\n".encode()
        self.free: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.slots = asyncio.Semaphore(limit)

    async def request(
        self, method: str, path: str, token: str, body: bytes | None = None
    ) -> tuple[int, bytes]:
        head = f"{method} {path} HTTP/1.1\r\n".encode() + self.host_header
        head += f"Authorization: Bearer {token}\r\n".encode()
        if body is not None:
            head += (
                b"Content-Type: application/json\r\nContent-Length: "
                + str(len(body)).encode()
                + b"\r\n"
            )
        data = head + b"\r\n" + (body or b"")
        async with self.slots:
            while self.free:
                conn = self.free.pop()
                if not conn[0].at_eof():
                    try:  # a reused connection the server closed meanwhile: retry on a new one
                        return await self._exchange(conn, data)
                    except (ConnectionError, asyncio.IncompleteReadError) as exc:
                        if isinstance(exc, asyncio.IncompleteReadError) and exc.partial:
                            raise
                conn[1].close()
            return await self._exchange(await asyncio.open_connection(self.host, self.port), data)

    async def _exchange(
        self, conn: tuple[asyncio.StreamReader, asyncio.StreamWriter], data: bytes
    ) -> tuple[int, bytes]:
        reader, writer = conn
        try:
            writer.write(data)
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ", 2)[1])
            headers = {}
            for line in lines[1:]:
                if line:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip().lower()
            if headers.get("transfer-encoding") == "chunked":
                body = b""
                while size := int((await reader.readuntil(b"\r\n"))[:-2].split(b";")[0], 16):
                    body += (await reader.readexactly(size + 2))[:-2]
                await reader.readuntil(b"\r\n")
            else:
                body = await reader.readexactly(int(headers.get("content-length", "0")))
        except BaseException:
            writer.close()
            raise
        if headers.get("connection") == "close":
            writer.close()
        else:
            self.free.append(conn)
        return status, body

    def close(self) -> None:
        for _reader, writer in self.free:
            writer.close()
        self.free.clear()


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    return round(v[min(len(v) - 1, int(p / 100 * len(v)))] * 1000, 2)


def think_time(interval: float, think: str, rng: random.Random) -> float:
    """Seconds a game waits before its next action: ``interval`` (``fixed``), or drawn evenly
    from half to one and a half times it (``varied``: the same mean)."""
    if think == "fixed":
        return interval
    return interval * rng.uniform(0.5, 1.5)


def arrivals(sent: list[float], width: float = 0.05) -> dict[str, float]:
    """How bursty the actions' sending times were: the mean, spread and most of the requests
    sent in each ``width`` seconds over the measured span, and the spread Poisson arrivals at
    that mean would have (its square root)."""
    if not sent:
        return {"mean": 0.0, "sd": 0.0, "max": 0.0, "poisson_sd": 0.0}
    first = min(sent)
    counts = [0] * (int((max(sent) - first) / width) + 1)
    for t in sent:
        counts[int((t - first) / width)] += 1
    mean = statistics.fmean(counts)
    return {
        "mean": round(mean, 2),
        "sd": round(statistics.pstdev(counts), 2),
        "max": float(max(counts)),
        "poisson_sd": round(mean**0.5, 2),
    }


class Load:
    def __init__(self, bases: list[str], args: argparse.Namespace, pids: Any) -> None:
        #: Every server process; a game's parts are spread over them (``where``).
        self.bases = bases
        self.base = bases[0]
        self.args = args
        self.pids = pids
        self.action_rtt: list[float] = []
        self.seen_rtt: list[float] = []
        self.events_rtt: list[float] = []
        #: When each measured action's POST was sent (``arrivals``).
        self.sent_at: list[float] = []
        self.by_game: dict[str, list[float]] = {g: [] for g in GAMES}
        self.errors: dict[str, int] = {}
        self.finished = 0
        self.created = 0
        self.short_sent = 0
        self.measuring = False
        self.sem = asyncio.Semaphore(20)
        self.fasts: list[Http] = []  # the per-action requests' clients, one per process
        #: ``--front``: the workers behind the one port (a game's requests go through the
        #: client of its match's owner); 0 without a front.
        self.workers = args.processes if args.front else 0
        self.redis_pid: int | None = None

    def where(self, slot: int, part: int) -> int:
        """The process of a game's part (0, 1: the seats; 2: the spectators): consecutive
        parts on consecutive processes, as a proxy without sticky sessions spreads them;
        with ``--sticky`` every part on the game's own process, as a proxy that routes by
        the match's id keeps them (then no process follows another's matches)."""
        if self.args.sticky:
            # Games go round the processes a whole round of the mix at a time, so that each
            # process gets as many games of each kind (slot % mix picks the game).
            return (slot // len(self.args.mix)) % len(self.bases)
        return (slot + part) % len(self.bases)

    def fast_for(self, mid: str, slot: int, seat: int) -> Http:
        """The client for a seat's per-action requests: behind a front, the one kept for the
        match's worker (its pooled connections were dispatched there once and stay right);
        otherwise the one of the process the seat's connection is on."""
        if self.workers:
            return self.fasts[owner(mid, self.workers)]
        return self.fasts[self.where(slot, seat)]

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    async def socket(self, mid: str, token: str | None, process: int = 0) -> Socket:
        ws_base = self.bases[process].replace("http://", "ws://")
        ws = await websockets.connect(
            f"{ws_base}/ws/matches/{mid}", max_size=2**23, open_timeout=120, compression=None
        )
        await ws.send(json.dumps({"type": "hello", "token": token, "after": 0, "short": True}))
        return Socket(ws)

    async def open_game(
        self, http: httpx.AsyncClient, game: str, slot: int
    ) -> tuple[str, list[str], list[Socket], list[Socket]]:
        async with self.sem:  # connections are opened a few at a time
            body = {"game": game, "seats": [{"kind": "local"}, {"kind": "local"}]}
            r = await http.post(f"{self.bases[self.where(slot, 0)]}/api/matches", json=body)
            r.raise_for_status()
            m = r.json()
            self.created += 1
            tokens = [m["tokens"][str(i)] for i in range(len(m["tokens"]))]
            seats = [
                await self.socket(m["id"], t, self.where(slot, i)) for i, t in enumerate(tokens)
            ]
            watchers = [
                await self.socket(m["id"], None, self.where(slot, 2))
                for _ in range(self.args.spectators)
            ]
            return m["id"], tokens, seats, watchers

    async def game(self, http: httpx.AsyncClient, slot: int, stop: float) -> None:
        rng = random.Random(self.args.seed * 100_003 + slot)
        name = self.args.mix[slot % len(self.args.mix)]
        first = True
        while time.monotonic() < stop:
            try:
                mid, tokens, seats, watchers = await self.open_game(http, name, slot)
            except (httpx.HTTPError, OSError, websockets.WebSocketException) as exc:
                self.error(f"create:{type(exc).__name__}")
                await asyncio.sleep(1)
                continue
            readers = [asyncio.create_task(s.read()) for s in seats]
            readers += [asyncio.create_task(w.drain()) for w in watchers]
            try:
                if first:
                    await asyncio.sleep(rng.uniform(0, self.args.interval))
                    first = False
                await self.play(http, mid, tokens, seats, rng, stop, name, slot)
            except (
                websockets.ConnectionClosed,
                OSError,
                EOFError,
                ValueError,
                httpx.HTTPError,
            ) as exc:
                self.error(type(exc).__name__)
            finally:
                for t in readers:
                    t.cancel()
                for s in seats + watchers:
                    await s.ws.close()

    async def play(
        self,
        http: httpx.AsyncClient,
        mid: str,
        tokens: list[str],
        seats: list[Socket],
        rng: random.Random,
        stop: float,
        name: str,
        slot: int = 0,
    ) -> None:
        if not await seats[0].wait_ply(0, 60):
            self.error("no_state")
            return
        actions_path = f"/api/matches/{mid}/actions"
        # Whose state gives the match's public part (status, seat to act, ply): the seat that
        # last saw an action land, already parsed then.
        watcher = seats[0]
        while time.monotonic() < stop:
            public = watcher.state
            assert public is not None
            if public["status"] != "active":
                self.finished += 1
                return
            seat = public["to_act"]
            mover = seats[seat]
            if not await mover.wait_ply(public["ply"], 10):
                self.error("stale_state")
                return
            mine = mover.state
            assert mine is not None
            if not mine["legal"]:
                await asyncio.sleep(0.01)
                continue
            choice = rng.choice(mine["legal"])
            text = choice["action"]
            if rng.random() < self.args.short_share and choice.get("short"):
                text = choice["short"]
                self.short_sent += 1
            ply = mine["ply"]
            fast = self.fast_for(mid, slot, seat)
            sent = time.perf_counter()
            if self.measuring:
                self.sent_at.append(sent)
            status, body = await fast.request(
                "POST",
                actions_path,
                tokens[seat],
                json.dumps({"action": text, "ply": ply}).encode(),
            )
            took = time.perf_counter() - sent
            if status != 200:
                code = json.loads(body or b"{}").get("error", {}).get("code")
                self.error(f"action:{status}:{code}")
                await asyncio.sleep(think_time(self.args.interval, self.args.think, rng))
                continue
            other = seats[(seat + 1) % len(seats)]
            seen_ok = await other.wait_ply(ply + 1, 10)
            seen = time.perf_counter() - sent
            if seen_ok:
                watcher = other
            t = time.perf_counter()
            status, _body = await fast.request(
                "GET", f"/api/matches/{mid}/events?after={mover.last_event}", tokens[seat]
            )
            events = time.perf_counter() - t
            if status != 200:
                self.error(f"events:{status}")
            if self.measuring:
                self.action_rtt.append(took)
                self.by_game[name].append(took)
                self.events_rtt.append(events)
                if seen_ok:
                    self.seen_rtt.append(seen)
                else:
                    self.error("not_seen")
            await asyncio.sleep(think_time(self.args.interval, self.args.think, rng))

    async def run(self) -> dict[str, Any]:
        args = self.args
        # An idle pooled connection is dropped well before the server's keep-alive timeout
        # (uvicorn's 5 s, httpx's default expiry too): reused at the very moment the server
        # closes it, a creation's POST would fail with a ReadError (seen once in five runs).
        limits = httpx.Limits(
            max_connections=args.http_connections,
            max_keepalive_connections=None,
            keepalive_expiry=2.0,
        )
        load_before = os.getloadavg()
        # one client per process, or, behind a front, one per worker (all to its one port)
        targets = [self.base] * self.workers if self.workers else self.bases
        self.fasts = [Http(base, max(1, args.http_connections // len(targets))) for base in targets]
        async with httpx.AsyncClient(base_url=self.base, timeout=60, limits=limits) as http:
            start = time.monotonic()
            stop = start + args.ramp + args.warmup + args.seconds
            tasks = [asyncio.create_task(self.game(http, slot, stop)) for slot in range(args.games)]
            await asyncio.sleep(args.ramp + args.warmup)
            self.measuring = True
            measured_from = time.monotonic()
            own0 = time.process_time()
            server_pids_, db_pids = self.pids()
            server0 = cpu_seconds(server_pids_) if server_pids_ else None
            db0 = cpu_seconds(db_pids) if db_pids else None
            redis0 = cpu_seconds([self.redis_pid]) if self.redis_pid is not None else 0.0
            await asyncio.sleep(max(0.0, stop - time.monotonic()))
            self.measuring = False
            elapsed = time.monotonic() - measured_from
            own_cpu = time.process_time() - own0
            server_pids_, db_pids = self.pids()
            server_cpu = cpu_seconds(server_pids_) - server0 if server0 is not None else None
            db_cpu = cpu_seconds(db_pids) - db0 if db0 is not None else None
            redis_cpu = None
            if self.redis_pid is not None:
                redis_cpu = cpu_seconds([self.redis_pid]) - redis0
            await asyncio.gather(*tasks, return_exceptions=True)
        for fast in self.fasts:
            fast.close()
        n = len(self.action_rtt)

        def per_action(cpu: float | None) -> float | None:
            return round(cpu / n * 1000, 2) if cpu is not None and n else None

        return {
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "db": args.db
            + (
                f" ({args.sqlite_synchronous})"
                if args.sqlite_synchronous and args.db == "sqlite"
                else ""
            )
            + (
                f" (synchronous_commit {args.pg_synchronous_commit})"
                if args.pg_synchronous_commit and args.db == "postgres"
                else ""
            ),
            "processes": args.processes if args.haproxy else self.workers or len(self.bases),
            "haproxy": bool(args.haproxy),
            "sticky": bool(args.sticky),
            "front": bool(args.front),
            "pubsub": args.pubsub,
            "games": args.games,
            "mix": ",".join(args.mix),
            "spectators_per_game": args.spectators,
            "interval_s": args.interval,
            "think": args.think,
            "arrivals_per_50ms": arrivals(self.sent_at),
            "seconds": round(elapsed, 1),
            "actions": n,
            "actions_per_s": round(n / elapsed, 1) if elapsed else 0.0,
            "short_share": args.short_share,
            "action_p50_ms": pct(self.action_rtt, 50),
            "action_p90_ms": pct(self.action_rtt, 90),
            "action_p99_ms": pct(self.action_rtt, 99),
            "action_max_ms": pct(self.action_rtt, 100),
            "action_mean_ms": round(statistics.fmean(self.action_rtt) * 1000, 2) if n else None,
            "action_p99_by_game_ms": {g: pct(v, 99) for g, v in self.by_game.items() if v},
            "seen_p50_ms": pct(self.seen_rtt, 50),
            "seen_p99_ms": pct(self.seen_rtt, 99),
            "events_p50_ms": pct(self.events_rtt, 50),
            "events_p99_ms": pct(self.events_rtt, 99),
            "errors": self.errors,
            "games_created": self.created,
            "games_finished": self.finished,
            "server_cpu_ms_per_action": per_action(server_cpu),
            "db_cpu_ms_per_action": per_action(db_cpu),
            "redis_cpu_ms_per_action": per_action(redis_cpu),
            "generator_cpu_ms_per_action": per_action(own_cpu),
            "load_average_before": round(load_before[0], 2),
            "load_average_after": round(os.getloadavg()[0], 2),
            "cpus": os.cpu_count(),
        }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    p.add_argument("--pg-fsync", choices=["on", "off"], default="on")
    p.add_argument(
        "--pg-socket",
        action="store_true",
        help="the server reaches PostgreSQL by its Unix-domain socket, not TCP on 127.0.0.1",
    )
    p.add_argument(
        "--sqlite-synchronous",
        choices=["FULL", "NORMAL"],
        help="SQLite's durability for the server it starts (SENGOKU_SQLITE_SYNCHRONOUS; "
        "default: the server's, FULL). NORMAL commits each action on the event loop",
    )
    p.add_argument(
        "--pg-synchronous-commit",
        choices=["on", "off"],
        help="PostgreSQL's synchronous_commit for the server's sessions "
        "(SENGOKU_PG_SYNCHRONOUS_COMMIT; default: the server's, on)",
    )
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--interval", type=float, default=2.0, help="seconds between a game's actions")
    p.add_argument(
        "--think",
        choices=["varied", "fixed"],
        default="varied",
        help="a game's wait between actions: varied (0.5-1.5x --interval) or fixed",
    )
    p.add_argument("--seconds", type=float, default=60.0, help="measured time")
    p.add_argument("--ramp", type=float, default=20.0, help="seconds to open every game")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--mix", type=lambda s: s.split(","), default=list(GAMES))
    p.add_argument("--spectators", type=int, default=1, help="spectator sockets per game")
    p.add_argument("--short-share", type=float, default=0.2, help="actions sent in short form")
    p.add_argument("--http-connections", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--url", help="an already running server (default: start one)")
    p.add_argument("--processes", type=int, default=1, help="server processes on the one database")
    p.add_argument(
        "--sticky",
        action="store_true",
        help="keep each game (its creation, seats and spectators) on one process, as a proxy "
        "routing by match id would (default: spread as a proxy without sticky sessions)",
    )
    p.add_argument(
        "--front",
        action="store_true",
        help="start one `sengoku serve --processes N` (its front routes by match id) and "
        "send everything to its port (with --url: that port is such a front)",
    )
    p.add_argument(
        "--haproxy",
        action="store_true",
        help="start HAProxy from docs/deploy/haproxy.cfg in front of the processes (needs "
        "--processes 3) and send everything to it",
    )
    p.add_argument(
        "--pubsub",
        choices=["memory", "redis", "none"],
        help="how the processes tell each other of changes (default: memory for one "
        "process, none behind --front, redis for several others)",
    )
    p.add_argument("--json", action="store_true")
    p.add_argument("--logs", help="keep the servers' logs in this folder")
    p.add_argument(
        "--profile",
        help="run the server under cProfile, writing this file",
    )
    p.add_argument(
        "--loop",
        choices=["uvloop", "asyncio"],
        default="uvloop",
        help="the load generator's event loop (uvloop when installed)",
    )
    args = p.parse_args()
    for g in args.mix:
        if g not in GAMES:
            p.error(f"--mix: unknown game {g!r}")
    if args.front:
        if args.processes < 2:
            p.error("--front needs --processes 2 or more")
        if args.sticky or args.profile:
            p.error("--front routes by match itself: no --sticky; --profile is one process's")
        if args.url and "," in args.url:
            p.error("--front: give --url one port, the front's")
    if args.haproxy and (args.processes != 3 or args.front or args.sticky or args.url):
        p.error("--haproxy: --processes 3 (the config's servers), no --front, --sticky or --url")
    if args.pubsub is None:
        args.pubsub = "memory" if args.processes == 1 else "none" if args.front else "redis"
    if args.processes > 1 and args.pubsub == "memory":
        p.error("several processes need --pubsub redis or none")
    tmp = tempfile.TemporaryDirectory()
    procs: list[subprocess.Popen[bytes]] = []
    with contextmanager_for(args) as (db_url, pg_data), ExitStack() as stack:
        redis_pid = None
        pubsub = None if args.pubsub == "memory" else "none://"
        if args.pubsub == "redis" and not args.url:
            pubsub, redis_pid = stack.enter_context(redis_server())
        if args.url:
            bases = [u.rstrip("/") for u in args.url.split(",")]
        elif args.front:
            port = free_port()
            log = Path(args.logs or tmp.name) / "server-front.log"
            procs.append(
                start_server(
                    port,
                    db_url,
                    log,
                    None,
                    pubsub,
                    args.sqlite_synchronous,
                    args.pg_synchronous_commit,
                    args.processes,
                )
            )
            bases = [f"http://127.0.0.1:{port}"]
        else:
            bases = []
            for i in range(args.processes):
                port = free_port()
                log = Path(args.logs or tmp.name) / f"server-{i}.log"
                profile = f"{args.profile}.{i}" if args.profile and i else args.profile
                procs.append(
                    start_server(
                        port,
                        db_url,
                        log,
                        profile,
                        pubsub,
                        args.sqlite_synchronous,
                        args.pg_synchronous_commit,
                    )
                )
                bases.append(f"http://127.0.0.1:{port}")
            if args.haproxy:
                port = free_port()
                procs.append(start_haproxy(port, bases, Path(args.logs or tmp.name)))
                bases = [f"http://127.0.0.1:{port}"]

        def pids() -> tuple[list[int], list[int]]:
            mine = [pid for proc in procs for pid in server_pids(proc.pid)]
            return (mine, cluster_pids(pg_data))

        try:
            # The load generator's own garbage collections would stall its clients and count
            # as round-trip time: it parses thousands of JSON objects a second (a Gunkimono
            # state is 20,000 of them), and even its young collections took 60-150 ms each
            # (measured with gc.callbacks, 26 November 2026). What it parses holds no cycles,
            # so reference counting frees it: the generator runs with the collector off.
            gc.collect()
            gc.freeze()
            gc.disable()
            load = Load(bases, args, pids)
            load.redis_pid = redis_pid
            result = run_loop(load.run(), args.loop)
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(timeout=60)
    tmp.cleanup()
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['date']}, {result['db']}, {result['processes']} process(es)"
            f"{' (sticky)' if result['sticky'] else ''}"
            f"{' behind a front' if result['front'] else ''}"
            f"{' behind HAProxy' if result['haproxy'] else ''} "
            f"(pub/sub {result['pubsub']}): {result['games']} games ({result['mix']}), "
            f"{result['spectators_per_game']} spectator(s) each, one action every "
            f"{result['interval_s']} s each ({result['think']}): {result['actions']} actions "
            f"in {result['seconds']} s ({result['actions_per_s']}/s)"
        )
        burst = result["arrivals_per_50ms"]
        print(
            f"arrivals per 50 ms: mean {burst['mean']}  spread {burst['sd']}  most "
            f"{burst['max']:.0f}  (Poisson arrivals' spread {burst['poisson_sd']})"
        )
        print(
            f"action round trip ms: p50 {result['action_p50_ms']}  p90 {result['action_p90_ms']}"
            f"  p99 {result['action_p99_ms']}  max {result['action_max_ms']}"
            f"  (p99 by game {result['action_p99_by_game_ms']})"
        )
        print(
            f"opponent sees it: p50 {result['seen_p50_ms']}  p99 {result['seen_p99_ms']};"
            f" events fetch: p50 {result['events_p50_ms']}  p99 {result['events_p99_ms']}"
        )
        print(
            f"errors: {result['errors'] or 'none'}; games created {result['games_created']},"
            f" finished {result['games_finished']}"
        )
        print(
            f"CPU per action: server {result['server_cpu_ms_per_action']} ms, database "
            f"{result['db_cpu_ms_per_action']} ms, Redis {result['redis_cpu_ms_per_action']} ms, "
            "load generator "
            f"{result['generator_cpu_ms_per_action']} ms (load average "
            f"{result['load_average_before']} -> {result['load_average_after']}, "
            f"{result['cpus']} CPUs)"
        )
    return 0 if not result["errors"] else 1


def run_loop(main: Coroutine[Any, Any, dict[str, Any]], loop: str) -> dict[str, Any]:
    """Run the load generator on uvloop (less CPU per message) or asyncio's own loop."""
    if loop == "uvloop":
        try:
            import uvloop
        except ImportError:
            pass
        else:
            return uvloop.run(main)
    return asyncio.run(main)


@contextmanager
def contextmanager_for(args: argparse.Namespace) -> Iterator[tuple[str, Path | None]]:
    """The database the server is started on: (URL, PostgreSQL data directory or None)."""
    if args.url:
        yield "", None
    elif args.db == "postgres":
        with postgres_cluster(args.pg_fsync == "on", args.pg_socket) as (url, data):
            yield url, data
    else:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'load.db'}", None


if __name__ == "__main__":
    raise SystemExit(main())
