"""Faults on PostgreSQL, against a real server process and a throw-away cluster with fsync on:
a row lock held by another connection stalls only its own game, and ``kill -9`` of the server
loses no acknowledged action."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from server_process import auth, new_gungi, play_first_legal, server
from test_server_postgres import cluster


@pytest.fixture(scope="module")
def pg_durable() -> Iterator[str]:
    """A cluster with fsync on (the durable default): yields a psycopg URL."""
    with cluster(fsync=True) as url:
        yield url


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def test_a_row_lock_stalls_only_its_own_game(pg_durable: str, tmp_path: Path) -> None:
    with (
        server(pg_durable, tmp_path / "log") as base,
        httpx.Client(base_url=base, timeout=60) as http,
    ):
        locked: Any = new_gungi(http)
        others: list[Any] = [new_gungi(http) for _ in range(3)]
        hold = 4.0
        with psycopg.connect(_plain(pg_durable)) as conn:
            # another connection locks one match's row (as a long transaction would)
            conn.execute("SELECT id FROM matches WHERE id = %s FOR UPDATE", (locked["id"],))
            results: list[Any] = []
            blocked = threading.Thread(
                target=lambda: results.append(
                    play_first_legal(http, locked["id"], locked["tokens"]["0"])
                )
            )
            start = time.monotonic()
            blocked.start()
            time.sleep(0.3)
            for m in others:  # every other game moves at once
                t = time.monotonic()
                r = play_first_legal(http, m["id"], m["tokens"]["0"])
                assert r.status_code == 200, r.text
                assert time.monotonic() - t < hold / 2
            assert not results  # the locked game still waits
            time.sleep(max(0.0, hold - (time.monotonic() - start)))
            conn.rollback()
        blocked.join(timeout=30)
        assert results and results[0].status_code == 200, results


def test_kill_9_loses_no_acknowledged_action(pg_durable: str, tmp_path: Path) -> None:
    rng = random.Random(3)
    log = tmp_path / "log"
    played: list[str] = []
    with server(pg_durable, log) as base, httpx.Client(base_url=base, timeout=60) as http:
        m: Any = new_gungi(http)
        mid, tokens = m["id"], [m["tokens"]["0"], m["tokens"]["1"]]
        stop = threading.Event()

        def spectate() -> None:  # a burst of reads beside the writes
            while not stop.is_set():
                http.get(f"/api/matches/{mid}")

        reader = threading.Thread(target=spectate)
        reader.start()
        try:
            for ply in range(10):
                seat = ply % 2
                snap = http.get(f"/api/matches/{mid}", headers=auth(tokens[seat])).json()
                action = rng.choice(snap["legal"])["action"]
                r = http.post(
                    f"/api/matches/{mid}/actions",
                    json={"action": action, "ply": ply},
                    headers=auth(tokens[seat]),
                )
                assert r.status_code == 200, r.text
                played.append(action)
        finally:
            stop.set()
            reader.join()
    # the server was SIGKILLed on leaving the block, right after the last acknowledgement
    with server(pg_durable, log) as base, httpx.Client(base_url=base, timeout=60) as http:
        snap = http.get(f"/api/matches/{mid}").json()
        assert snap["ply"] == len(played)
        http.post(f"/api/matches/{mid}/resign", headers=auth(tokens[0]))
        assert http.get(f"/api/records/{mid}").json()["actions"] == played
