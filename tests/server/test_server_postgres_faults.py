"""Faults on PostgreSQL, against a real server process and a throw-away cluster with fsync on:
a row lock held by another connection stalls only its own game, and ``kill -9`` of the server
loses no acknowledged action."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from real_server import auth, new_gungi, play_first_legal, server
from test_server_postgres import cluster

from tests.waiting import GENEROUS, ok, wait_until


@pytest.fixture(scope="module")
def pg_durable() -> Iterator[str]:
    """A cluster with fsync on (the durable default): yields a psycopg URL."""
    with cluster(fsync=True) as url:
        yield url


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def _waiting_on_a_lock(url: str) -> int:
    """How many of the cluster's connections wait for a lock another holds."""
    with psycopg.connect(_plain(url)) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        ).fetchone()
    return int(row[0]) if row else 0


def test_a_row_lock_stalls_only_its_own_game(pg_durable: str, tmp_path: Path) -> None:
    """Proved by order: the locked game's move waits on the lock (PostgreSQL says so), every
    other game moves meanwhile, and the locked move is answered once the lock is given back.
    (How long the other moves take meanwhile is a figure of ``make bench``.)"""
    # The lock is held as long as the other moves take: on a busy machine that may be long,
    # and the locked move must still be waiting (not failed on the 10 s default) after.
    env = {"SENGOKU_DB_LOCK_TIMEOUT": str(GENEROUS * 2)}
    with (
        server(pg_durable, tmp_path / "log", env) as base,
        httpx.Client(base_url=base, timeout=GENEROUS) as http,
    ):
        locked: Any = new_gungi(http)
        others: list[Any] = [new_gungi(http) for _ in range(3)]
        with psycopg.connect(_plain(pg_durable)) as conn:
            # another connection locks one match's row (as a long transaction would)
            conn.execute("SELECT id FROM matches WHERE id = %s FOR UPDATE", (locked["id"],))
            results: list[Any] = []
            blocked = threading.Thread(
                target=lambda: results.append(
                    play_first_legal(http, locked["id"], locked["tokens"]["0"])
                )
            )
            blocked.start()
            try:
                wait_until(
                    lambda: _waiting_on_a_lock(pg_durable) or results,
                    "the locked game's move to wait on the row lock",
                )
                assert not results, f"the locked game moved: {results[0].text}"
                for m in others:  # every other game moves meanwhile
                    ok(play_first_legal(http, m["id"], m["tokens"]["0"]))
                assert not results  # the locked game still waits
            finally:
                conn.rollback()
                blocked.join(timeout=GENEROUS)
        assert results, "the locked game's move was never answered"
        ok(results[0])


def test_kill_9_loses_no_acknowledged_action(pg_durable: str, tmp_path: Path) -> None:
    rng = random.Random(3)
    log = tmp_path / "log"
    played: list[str] = []
    # The spectator's burst of reads would run into the per-client rate limit (the seats'
    # reads then answered 429): this test is about durability, not limits.
    env = {"SENGOKU_LIMIT_EXEMPT": "127.0.0.1"}
    with (
        server(pg_durable, log, env) as base,
        httpx.Client(base_url=base, timeout=GENEROUS) as http,
    ):
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
                snap = ok(http.get(f"/api/matches/{mid}", headers=auth(tokens[seat])))
                action = rng.choice(snap["legal"])["action"]
                r = http.post(
                    f"/api/matches/{mid}/actions",
                    json={"action": action, "ply": ply},
                    headers=auth(tokens[seat]),
                )
                ok(r)
                played.append(action)
        finally:
            stop.set()
            reader.join()
    # the server was SIGKILLed on leaving the block, right after the last acknowledgement
    with (
        server(pg_durable, log, env) as base,
        httpx.Client(base_url=base, timeout=GENEROUS) as http,
    ):
        snap = ok(http.get(f"/api/matches/{mid}"))
        assert snap["ply"] == len(played)
        ok(http.post(f"/api/matches/{mid}/resign", headers=auth(tokens[0])))
        assert ok(http.get(f"/api/records/{mid}"))["actions"] == played
