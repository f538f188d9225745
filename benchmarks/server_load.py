"""Load test of the game server: many concurrent games over WebSocket on loopback.

    python benchmarks/server_load.py --games 500 --interval 2 --seconds 30

starts ``sengoku serve`` on 127.0.0.1 at a free port with a fresh SQLite file (or uses
``--url``), creates the games over HTTP, connects one WebSocket per seat, and has each game
send an action every ``--interval`` seconds (random phase). It measures the round trip from
sending an action to receiving its ``ack`` (the action checked, committed to the database and
broadcast), and prints the percentiles, the rate achieved and the errors (``--json`` for a
machine-readable line). Only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sengoku", "serve", "--port", str(port), "--db", f"sqlite:///{db}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


class Seat:
    """One WebSocket connection holding one seat."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.waiting: asyncio.Future[dict[str, Any]] | None = None

    async def read(self) -> None:
        async for text in self.ws:
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "state":
                self.state = msg
            elif kind in {"ack", "refused"} and self.waiting and not self.waiting.done():
                self.waiting.set_result(msg)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), to measure cost apart from load."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Load:
    def __init__(self, base: str, args: argparse.Namespace, server_pid: int | None) -> None:
        self.server_pid = server_pid
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.args = args
        self.rtts: list[float] = []
        self.errors: dict[str, int] = {}
        self.finished = 0
        self.measuring = False

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    async def create(self, http: httpx.AsyncClient, i: int) -> dict[str, Any]:
        body = {
            "game": self.args.game,
            "seats": [{"kind": "local"}, {"kind": "local"}],
            "seed": i,
        }
        r = await http.post("/api/matches", json=body)
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    async def connect(self, mid: str, token: str) -> Seat:
        ws = await websockets.connect(
            f"{self.ws_base}/ws/matches/{mid}", max_size=2**22, open_timeout=60, compression=None
        )
        await ws.send(json.dumps({"type": "hello", "token": token, "short": False}))
        return Seat(ws)

    async def game(self, seats: list[Seat], rng: random.Random, stop: float) -> None:
        readers = [asyncio.create_task(s.read()) for s in seats]
        try:
            await asyncio.sleep(rng.uniform(0, self.args.interval))
            while time.monotonic() < stop:
                state = seats[0].state
                if state is None or seats[1].state is None:
                    await asyncio.sleep(0.05)
                    continue
                if state["status"] != "active":
                    self.finished += 1
                    return
                mover = seats[state["to_act"]]
                mine = mover.state
                if mine is None or not mine["legal"] or mine["ply"] != state["ply"]:
                    await asyncio.sleep(0.01)
                    continue
                action = rng.choice(mine["legal"])["action"]
                mover.waiting = asyncio.get_running_loop().create_future()
                sent = time.perf_counter()
                await mover.ws.send(
                    json.dumps({"type": "action", "action": action, "ply": mine["ply"]})
                )
                try:
                    reply = await asyncio.wait_for(mover.waiting, timeout=10)
                except TimeoutError:
                    self.error("timeout")
                    continue
                rtt = time.perf_counter() - sent
                if reply["type"] == "ack":
                    if self.measuring:
                        self.rtts.append(rtt)
                else:
                    self.error(reply.get("code", "refused"))
                # wait for the other seat to see the new position before the next action
                for _ in range(200):
                    other = seats[0].state
                    if other and other["ply"] >= reply.get("ply", 0):
                        break
                    await asyncio.sleep(0.005)
                await asyncio.sleep(self.args.interval)
        except (websockets.ConnectionClosed, OSError) as exc:
            self.error(type(exc).__name__)
        finally:
            for t in readers:
                t.cancel()
            for s in seats:
                await s.ws.close()

    async def run(self) -> dict[str, Any]:
        args = self.args
        limits = httpx.Limits(max_connections=50)
        async with httpx.AsyncClient(base_url=self.base, timeout=60, limits=limits) as http:
            sem = asyncio.Semaphore(50)

            async def one(i: int) -> dict[str, Any]:
                async with sem:
                    return await self.create(http, i)

            matches = await asyncio.gather(*(one(i) for i in range(args.games)))

        async def connect_both(m: dict[str, Any]) -> list[Seat]:
            async with sem:
                return [await self.connect(m["id"], m["tokens"][str(s)]) for s in (0, 1)]

        games = await asyncio.gather(*(connect_both(m) for m in matches))
        rng = random.Random(args.seed)
        stop = time.monotonic() + args.warmup + args.seconds
        tasks = [
            asyncio.create_task(self.game(seats, random.Random(rng.random()), stop))
            for seats in games
        ]
        await asyncio.sleep(args.warmup)
        self.measuring = True
        started = time.monotonic()
        own0 = time.process_time()
        server0 = cpu_seconds(self.server_pid) if self.server_pid else 0.0
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - started
        own_cpu = time.process_time() - own0
        server_cpu = cpu_seconds(self.server_pid) - server0 if self.server_pid else None
        rtts = sorted(self.rtts)

        def pct(p: float) -> float:
            if not rtts:
                return float("nan")
            return rtts[min(len(rtts) - 1, int(p / 100 * len(rtts)))] * 1000

        return {
            "games": args.games,
            "interval_s": args.interval,
            "game": args.game,
            "seconds": round(elapsed, 1),
            "actions": len(rtts),
            "actions_per_s": round(len(rtts) / elapsed, 1) if elapsed else 0.0,
            "p50_ms": round(pct(50), 2),
            "p90_ms": round(pct(90), 2),
            "p99_ms": round(pct(99), 2),
            "max_ms": round(rtts[-1] * 1000, 2) if rtts else None,
            "mean_ms": round(statistics.fmean(rtts) * 1000, 2) if rtts else None,
            "errors": self.errors,
            "games_finished": self.finished,
            # CPU per action, apart from whatever else the machine runs: what 2 cores allow
            "server_cpu_ms_per_action": (
                round(server_cpu / len(rtts) * 1000, 2) if rtts and server_cpu is not None else None
            ),
            "generator_cpu_ms_per_action": round(own_cpu / len(rtts) * 1000, 2) if rtts else None,
            "load_average": round(os.getloadavg()[0], 2),
        }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--interval", type=float, default=2.0, help="seconds between a game's actions")
    p.add_argument("--seconds", type=float, default=30.0, help="measured time")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--game", default="gungi")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--url", help="an already running server (default: start one)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    proc = None
    tmp = tempfile.TemporaryDirectory()
    if args.url:
        base = args.url.rstrip("/")
    else:
        port = free_port()
        proc = start_server(port, Path(tmp.name) / "load.db")
        base = f"http://127.0.0.1:{port}"
    try:
        # The load generator's own garbage collections would stall its clients and count as
        # round-trip time: collect rarely, as the server does.
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 50, 100)
        result = asyncio.run(Load(base, args, proc.pid if proc else None).run())
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
        tmp.cleanup()
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['games']} games, one action every {result['interval_s']} s each, "
            f"{result['game']}: {result['actions']} actions in {result['seconds']} s "
            f"({result['actions_per_s']}/s)"
        )
        print(
            f"round trip ms: p50 {result['p50_ms']}  p90 {result['p90_ms']}  "
            f"p99 {result['p99_ms']}  max {result['max_ms']}"
        )
        print(f"errors: {result['errors'] or 'none'}; games finished: {result['games_finished']}")
        print(
            f"CPU per action: server {result['server_cpu_ms_per_action']} ms, load generator "
            f"{result['generator_cpu_ms_per_action']} ms (load average {result['load_average']})"
        )
    return 0 if not result["errors"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
