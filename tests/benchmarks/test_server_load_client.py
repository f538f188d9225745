"""The load generator's own client (``benchmarks/server_load.py``): what the server is sent
is the browser's request, and a seat's state messages are parsed lazily, newest only."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from tests.benchmarks.modules import load_benchmark

server_load = load_benchmark("server_load.py", "server_load_under_test")


async def _serve(replies: list[bytes], seen: list[bytes], close_after: set[int]) -> Any:
    """A loopback HTTP server answering each request with the next reply, keeping what it
    was sent; it closes the connection after the requests numbered in ``close_after``."""
    count = 0

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal count
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                seen.append(head + await reader.readexactly(length))
                writer.write(replies[count])
                await writer.drain()
                count += 1
                if count in close_after:
                    writer.close()
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", 0)


def test_requests_are_the_browsers_and_replies_are_read_back() -> None:
    replies = [
        b'HTTP/1.1 200 OK\r\ncontent-length: 11\r\ncontent-type: application/json\r\n\r\n{"ok":true}',
        b'HTTP/1.1 409 Conflict\r\ntransfer-encoding: chunked\r\n\r\n4\r\n{"a"\r\n3\r\n:1}\r\n0\r\n\r\n',
        b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n[]",
        b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}",
    ]
    seen: list[bytes] = []

    async def main() -> list[tuple[int, bytes]]:
        server = await _serve(replies, seen, close_after={2})
        port = server.sockets[0].getsockname()[1]
        http = server_load.Http(f"http://127.0.0.1:{port}", 4)
        body = json.dumps({"action": "7-6-1 兵", "ply": 3}).encode()
        out = [await http.request("POST", "/api/matches/m1/actions", "tok", body)]
        out.append(await http.request("POST", "/api/matches/m1/actions", "tok", body))
        # the server closed the connection after this one: the next opens another
        out.append(await http.request("GET", "/api/matches/m1/events?after=2", "tok"))
        out.append(await http.request("GET", "/api/matches/m1/events?after=3", "tok"))
        http.close()
        server.close()
        await server.wait_closed()
        return out

    out = asyncio.run(main())
    assert out == [(200, b'{"ok":true}'), (409, b'{"a":1}'), (200, b"[]"), (200, b"{}")]
    post = seen[0].decode()
    head, _, body = post.partition("\r\n\r\n")
    lines = head.split("\r\n")
    assert lines[0] == "POST /api/matches/m1/actions HTTP/1.1"
    assert "Authorization: Bearer tok" in lines
    assert "Content-Type: application/json" in lines
    assert json.loads(body) == {"action": "7-6-1 兵", "ply": 3}
    assert seen[2].decode().startswith("GET /api/matches/m1/events?after=2 HTTP/1.1\r\n")
    assert "Authorization: Bearer tok" in seen[3].decode()


class FakeWs:
    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    def __aiter__(self) -> Any:
        return self._gen()

    async def _gen(self) -> Any:
        for text in self.texts:
            yield text


def test_a_seat_parses_only_the_newest_state_it_looks_at() -> None:
    states = [json.dumps({"type": "state", "ply": n}, separators=(",", ":")) for n in range(5)]
    event = json.dumps({"type": "event", "n": 7, "ply": 99}, separators=(",", ":"))
    spaced = json.dumps({"type": "state", "ply": 5})  # not Starlette's spelling: still read
    sock = server_load.Socket(FakeWs([*states, event]))

    async def main() -> None:
        await sock.read()
        assert await sock.wait_ply(4, 1)

    asyncio.run(main())
    assert sock.parsed == 1
    assert sock.state == {"type": "state", "ply": 4}
    assert sock.last_event == 7
    sock.ws = FakeWs([spaced])
    asyncio.run(sock.read())
    assert sock.state == {"type": "state", "ply": 5} and sock.parsed == 2


def test_the_started_server_exempts_the_generator_from_rate_limits(
    monkeypatch: Any,
) -> None:
    monkeypatch.delenv("SENGOKU_LIMIT_EXEMPT", raising=False)
    assert server_load.server_env()["SENGOKU_LIMIT_EXEMPT"] == "127.0.0.1"
    monkeypatch.setenv("SENGOKU_LIMIT_EXEMPT", "10.0.0.9")
    assert server_load.server_env()["SENGOKU_LIMIT_EXEMPT"] == "10.0.0.9"


def test_the_started_server_gets_the_sqlite_durability_asked_for(monkeypatch: Any) -> None:
    monkeypatch.delenv("SENGOKU_SQLITE_SYNCHRONOUS", raising=False)
    monkeypatch.delenv("SENGOKU_PG_SYNCHRONOUS_COMMIT", raising=False)
    assert "SENGOKU_SQLITE_SYNCHRONOUS" not in server_load.server_env()
    assert server_load.server_env("NORMAL")["SENGOKU_SQLITE_SYNCHRONOUS"] == "NORMAL"
    assert "SENGOKU_PG_SYNCHRONOUS_COMMIT" not in server_load.server_env()
    assert server_load.server_env(None, "off")["SENGOKU_PG_SYNCHRONOUS_COMMIT"] == "off"


def test_varied_thinking_keeps_the_interval_as_its_mean_and_fixed_is_exact() -> None:
    import random

    rng = random.Random(3)
    waits = [server_load.think_time(2.0, "varied", rng) for _ in range(4000)]
    assert min(waits) >= 1.0 and max(waits) <= 3.0
    assert abs(sum(waits) / len(waits) - 2.0) < 0.03
    assert len({round(w, 6) for w in waits}) > 3900  # not one wait for every game
    assert server_load.think_time(2.0, "fixed", rng) == 2.0


def test_arrivals_tell_bursts_from_an_even_stream() -> None:
    even = [i * 0.01 for i in range(1000)]  # 5 a 50 ms, every 50 ms
    burst = [t for k in range(10) for t in [k * 1.0 + 0.001 * i for i in range(100)]]
    steady = server_load.arrivals(even)
    bursty = server_load.arrivals(burst)
    # (a time on a bin's edge may fall either side of it)
    assert steady["sd"] < 1.0 and steady["max"] <= 6.0 and steady["sd"] < steady["poisson_sd"]
    assert bursty["max"] >= 50.0 and bursty["sd"] > 3 * bursty["poisson_sd"]
    assert server_load.arrivals([])["max"] == 0.0


def test_sticky_keeps_a_game_on_one_process_and_deals_each_kind_evenly() -> None:
    import argparse
    from collections import Counter

    mix = list(server_load.GAMES)
    bases = ["http://127.0.0.1:1", "http://127.0.0.1:2"]

    def load(sticky: bool) -> Any:
        args = argparse.Namespace(sticky=sticky, mix=mix, front=False, processes=len(bases))
        return server_load.Load(bases, args, None)

    sticky, spread = load(True), load(False)
    slots = range(40)
    # Sticky: the creation (part 0), the second seat (1) and the spectators (2) of a game
    # all go to its one process, and each process gets as many games of each kind.
    assert all(len({sticky.where(slot, part) for part in range(3)}) == 1 for slot in slots)
    dealt = Counter((mix[slot % len(mix)], sticky.where(slot, 0)) for slot in slots)
    assert set(dealt.values()) == {5} and len(dealt) == len(mix) * len(bases)
    # Without: consecutive parts on consecutive processes, as a proxy without sticky sessions.
    assert all(spread.where(slot, 1) != spread.where(slot, 0) for slot in slots)


def test_behind_a_front_a_games_requests_keep_to_its_workers_client() -> None:
    """``--front``: one port, one pooled client per worker, and a match's requests through the
    client of its owner, so a pooled connection is dispatched once and stays right."""
    import argparse

    from sengoku.server.routing import owner
    from sengoku.server.tokens import new_match_id

    args = argparse.Namespace(sticky=False, mix=list(server_load.GAMES), front=True, processes=3)
    load = server_load.Load(["http://127.0.0.1:1"], args, None)
    load.fasts = [server_load.Http("http://127.0.0.1:1", 1) for _ in range(3)]
    ids = [new_match_id() for _ in range(60)]
    for slot, mid in enumerate(ids):
        for seat in (0, 1):  # both seats' requests, whatever process slot/seat would pick
            assert load.fast_for(mid, slot, seat) is load.fasts[owner(mid, 3)]
    assert {owner(mid, 3) for mid in ids} == {0, 1, 2}


def test_the_server_cpu_counts_every_process_under_the_one_started() -> None:
    """A front's workers and their AI pools are its grandchildren: all of them count."""
    import os
    import subprocess

    code = (
        "import subprocess,sys,time;"
        "c=subprocess.Popen([sys.executable,'-c','import time;time.sleep(30)']);"
        "print(c.pid,flush=True);time.sleep(30)"
    )
    top = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import subprocess,sys;subprocess.run([sys.executable,'-c',{code!r}])",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert top.stdout is not None
        grandchild = int(top.stdout.readline())
        pids = server_load.server_pids(top.pid)
        assert pids[0] == top.pid and grandchild in pids and len(pids) == 3
        assert os.getpid() not in pids
    finally:
        for pid in server_load.server_pids(top.pid)[::-1]:
            os.kill(pid, 9)
        top.wait()
