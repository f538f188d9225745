"""The server on PostgreSQL: the same migrations and queries as on SQLite (no SQLite-only SQL).

A throw-away PostgreSQL cluster (Debian's PostgreSQL 15, on this machine kind) is started in a
temporary folder, listening on 127.0.0.1 at a free port only; as root it runs as the
``postgres`` user, as PostgreSQL requires.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import FakeTime, auth, new_match
from fastapi.testclient import TestClient
from real_server import free_port


def _pg_bin() -> Path:
    """Debian's PostgreSQL server programs, whichever major version is installed."""
    if "SENGOKU_PG_BIN" in os.environ:
        return Path(os.environ["SENGOKU_PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parts[-3])
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()


def _as_postgres(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextmanager
def cluster(fsync: bool) -> Iterator[str]:
    """A throw-away PostgreSQL cluster on a free loopback port (run as ``postgres`` when the
    tests run as root): yields a psycopg URL; stopped and removed afterwards."""
    if not (PG_BIN / "initdb").exists():
        raise RuntimeError(f"PostgreSQL is missing at {PG_BIN} (set SENGOKU_PG_BIN)")
    folder = Path(tempfile.mkdtemp(prefix="sengoku-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data = folder / "data"
    port = free_port()
    subprocess.run(
        _as_postgres([str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "sengoku"]),
        check=True,
        capture_output=True,
    )
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync={'on' if fsync else 'off'}"
    )
    subprocess.run(
        _as_postgres(
            [str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", options]
            + ["-l", str(folder / "log"), "-w", "start"]
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://sengoku@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A cluster without fsync (fast): the behaviour tests."""
    with cluster(fsync=False) as url:
        yield url


def test_play_restart_and_records_on_postgresql(
    make_client: Callable[..., TestClient], pg_url: str, fake_time: FakeTime
) -> None:
    with make_client(db_url=pg_url) as client:
        m = new_match(
            client,
            options={"pile": 12, "peek": True},
            seed=5,
            clock={"type": "fischer", "initial": 100, "increment": 1},
        )
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        for i, action in enumerate(["draw", "take 2", "peek"]):
            fake_time.advance(2)
            r = client.post(
                f"/api/matches/{mid}/actions",
                json={"action": action, "ply": i},
                headers=auth(t0 if i % 2 == 0 else t1),
            )
            assert r.status_code == 200, r.text
        before = client.get(f"/api/matches/{mid}", headers=auth(t1)).json()
        inv = new_match(client, seats=[{"kind": "local"}, {"kind": "invite"}])
    with make_client(db_url=pg_url) as client:
        assert client.get(f"/api/matches/{mid}", headers=auth(t1)).json() == before
        assert before["clocks"]["remaining"] == [98.0, 99.0]  # 2 s used, 1 s earned each turn
        # joining a match in play is refused; the waiting one takes its invited player
        r = client.post(f"/api/matches/{mid}/join", json={"invite": "x" * 43})
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_waiting"
        r = client.post(
            f"/api/matches/{inv['id']}/join", json={"invite": inv["invites"][0]["invite"]}
        )
        assert r.status_code == 200
        client.post(f"/api/matches/{mid}/resign", headers=auth(t1))
        record = client.get(f"/api/records/{mid}").json()
        assert record["actions"] == ["draw", "take 2", "peek"] and record["seed"] == 5
        assert record["concessions"] == [{"ply": 3, "seat": 1, "reason": "resignation"}]
        listed = [x["id"] for x in client.get("/api/records").json()["records"]]
        assert mid in listed
        body = {k: record[k] for k in ("game", "version", "options", "seed", "actions")}
        body["concessions"] = record["concessions"]
        body["result"] = record["result"]
        r = client.post("/api/records", json=body)
        assert r.status_code == 201 and r.json()["record"]["result"] == record["result"]
