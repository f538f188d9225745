"""SQLite with ``synchronous=NORMAL``: an action's rows are committed on the event loop's own
connection (no hand-over to a storage thread and back); a write lock held elsewhere sends
the action to a storage thread, which waits for it; with FULL nothing is committed on the
loop; the write-ahead log is checkpointed on a storage thread; and ``kill -9`` loses no
acknowledged action."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import new_match
from fastapi.testclient import TestClient
from real_server import auth, new_gungi, play_first_legal, server
from sqlalchemy import text
from test_server_store_together import append_one as _act

from sengoku.server import persistence as persistence_module
from sengoku.server.db import Store, make_engine
from sengoku.server.persistence import Persistence, inline_commits
from sengoku.server.settings import Settings
from tests.waiting import ok, wait_until_async


def _threads_of(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """The threads each call of ``Store.<name>`` ran on, in order."""
    seen: list[int] = []
    original = getattr(Store, name)

    def spy(self: Store, *args: Any) -> Any:
        seen.append(threading.get_ident())
        return original(self, *args)

    monkeypatch.setattr(Store, name, spy)
    return seen


def test_which_databases_commit_on_the_loop(tmp_path: Path) -> None:
    file = f"sqlite:///{tmp_path / 'a.db'}"
    assert inline_commits(Settings(db_url=file, sqlite_synchronous="NORMAL"))
    assert inline_commits(Settings(db_url=file, sqlite_synchronous="off"))
    assert not inline_commits(Settings(db_url=file, sqlite_synchronous="FULL"))
    assert not inline_commits(Settings(db_url=file, sqlite_synchronous="EXTRA"))
    assert not inline_commits(Settings(db_url="sqlite:///:memory:", sqlite_synchronous="NORMAL"))
    assert not inline_commits(
        Settings(db_url="postgresql+psycopg://u@h/db", sqlite_synchronous="NORMAL")
    )


def test_normal_commits_each_action_on_the_loop(
    make_client: Callable[..., TestClient], db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client() as client:  # the schema and four matches
        ids = [new_match(client, options={"pile": 9})["id"] for _ in range(4)]
    engine = make_engine(db_url, synchronous="NORMAL")
    store = Store(engine)
    on = _threads_of(monkeypatch, "append_on")
    threaded = _threads_of(monkeypatch, "append_many")
    persistence = Persistence(Settings(db_url=db_url, sqlite_synchronous="NORMAL"), store)

    async def main() -> tuple[list[str], int]:
        loop_thread = threading.get_ident()
        # one action per match, then one that takes a stored move number again (another
        # process's, say): refused alone, its event undone with it
        calls = [_act(persistence, store, mid, 0, 1000) for mid in ids]
        calls.append(_act(persistence, store, ids[0], 0, 1001))
        return list(await asyncio.gather(*calls)), loop_thread

    try:
        outcomes, loop_thread = asyncio.run(main())
    finally:
        persistence.close()
    assert outcomes == ["stored"] * 4 + ["stale"]
    assert on == [loop_thread] * 5 and threaded == []
    with make_engine(db_url).connect() as conn:  # another connection sees them committed
        moves = sorted(tuple(r) for r in conn.execute(text("SELECT match_id, seq FROM moves")))
        refused = conn.execute(text("SELECT count(*) FROM events WHERE n = 1001")).scalar()
    assert moves == sorted((mid, 0) for mid in ids)
    assert refused == 0
    engine.dispose()


def test_a_write_lock_held_elsewhere_sends_the_action_to_a_storage_thread(
    make_client: Callable[..., TestClient], db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client() as client:
        mid = new_match(client, options={"pile": 9})["id"]
    engine = make_engine(db_url, synchronous="NORMAL")
    store = Store(engine)
    threaded = _threads_of(monkeypatch, "append_many")
    persistence = Persistence(Settings(db_url=db_url, sqlite_synchronous="NORMAL"), store)
    holder = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds SQLite's write lock

    async def main() -> tuple[str, bool]:
        acting = asyncio.ensure_future(_act(persistence, store, mid, 0, 1000))
        await wait_until_async(lambda: threaded, "the append to start on a storage thread")
        waiting = not acting.done()  # on a storage thread, waiting for the lock
        holder.execute("ROLLBACK")
        return await acting, waiting

    try:
        outcome, waited = asyncio.run(main())
    finally:
        persistence.close()
        holder.close()
    assert outcome == "stored" and waited
    assert len(threaded) == 1
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM moves")).scalar() == 1
        assert conn.execute(text("SELECT count(*) FROM events WHERE n = 1000")).scalar() == 1
    engine.dispose()


def test_full_never_commits_on_the_loop(
    make_client: Callable[..., TestClient], db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client() as client:
        mid = new_match(client, options={"pile": 9})["id"]
    store = Store(make_engine(db_url))
    on = _threads_of(monkeypatch, "append_on")
    persistence = Persistence(Settings(db_url=db_url), store)

    async def main() -> tuple[str, int]:
        return await _act(persistence, store, mid, 0, 1000), threading.get_ident()

    try:
        outcome, loop_thread = asyncio.run(main())
    finally:
        persistence.close()
    assert outcome == "stored"
    assert len(on) == 1 and on[0] != loop_thread  # a storage thread made the commit
    store.engine.dispose()


def test_the_log_is_checkpointed_on_a_storage_thread(
    make_client: Callable[..., TestClient], db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client() as client:
        mid = new_match(client, options={"pile": 9})["id"]
    monkeypatch.setattr(persistence_module, "CHECKPOINT_SECONDS", 0.05)
    engine = make_engine(db_url, synchronous="NORMAL")
    store = Store(engine)
    checkpoints = _threads_of(monkeypatch, "checkpoint")
    persistence = Persistence(Settings(db_url=db_url, sqlite_synchronous="NORMAL"), store)

    async def main() -> int:
        for seq in range(20):
            assert await _act(persistence, store, mid, seq, 1000 + seq) == "stored"
        await wait_until_async(
            lambda: _in_database_file(db_url, mid) == 20, "a checkpoint of all 20 moves"
        )
        return threading.get_ident()

    try:
        loop_thread = asyncio.run(main())
    finally:
        persistence.close()
    assert checkpoints and loop_thread not in checkpoints
    assert _in_database_file(db_url, mid) == 20  # not only in the write-ahead log
    engine.dispose()


def _in_database_file(db_url: str, mid: str) -> int:
    """The match's moves in the database file itself, the write-ahead log not read (an
    immutable connection reads the file alone)."""
    raw = sqlite3.connect(f"file:{db_url.removeprefix('sqlite:///')}?immutable=1", uri=True)
    try:
        return int(
            raw.execute("SELECT count(*) FROM moves WHERE match_id = ?", (mid,)).fetchone()[0]
        )
    finally:
        raw.close()


def test_without_checkpoints_the_moves_stay_in_the_log(
    make_client: Callable[..., TestClient], db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check above can fail: with no checkpoint the moves are in the log alone."""
    with make_client() as client:
        mid = new_match(client, options={"pile": 9})["id"]
    monkeypatch.setattr(persistence_module, "CHECKPOINT_SECONDS", 3600)
    engine = make_engine(db_url, synchronous="NORMAL")
    store = Store(engine)
    persistence = Persistence(Settings(db_url=db_url, sqlite_synchronous="NORMAL"), store)

    async def main() -> None:
        for seq in range(20):
            assert await _act(persistence, store, mid, seq, 1000 + seq) == "stored"

    try:
        asyncio.run(main())
        assert _in_database_file(db_url, mid) == 0
    finally:
        persistence.close()
    engine.dispose()


def test_kill_9_loses_no_acknowledged_action_with_normal(tmp_path: Path) -> None:
    """``synchronous=NORMAL`` gives up only a power cut's last commits: a server killed
    mid-game keeps every action it answered."""
    url = f"sqlite:///{tmp_path / 'normal.db'}"
    env = {"SENGOKU_SQLITE_SYNCHRONOUS": "NORMAL"}
    log = tmp_path / "log"
    with server(url, log, env) as base, httpx.Client(base_url=base, timeout=30) as http:
        m: Any = new_gungi(http)
        mid, tokens = m["id"], [m["tokens"]["0"], m["tokens"]["1"]]
        for ply in range(12):
            assert ok(play_first_legal(http, mid, tokens[ply % 2]))["ply"] == ply + 1
    # the server was killed (SIGKILL) on leaving the block, right after the last answer
    with server(url, log, env) as base, httpx.Client(base_url=base, timeout=30) as http:
        snap = ok(http.get(f"/api/matches/{mid}", headers=auth(tokens[0])))
        assert snap["ply"] == 12
        assert ok(play_first_legal(http, mid, tokens[0]))["ply"] == 13
