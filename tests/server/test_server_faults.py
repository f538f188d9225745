"""Faults against a real server process: a failure in the middle of a change leaves nothing
half done, and a lock held elsewhere stalls nothing but the game it locks."""

from __future__ import annotations

import json
import select
import sqlite3
import threading
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import httpx
from real_server import auth, new_gungi, play_first_legal, server

from tests.waiting import GENEROUS, ok


def _trigger(db: Path, name: str, table: str, when: str) -> None:
    """A fault in the database: inserting such a row into ``table`` fails."""
    with sqlite3.connect(db) as conn:
        conn.execute(
            f"CREATE TRIGGER {name} BEFORE INSERT ON {table} WHEN {when} "
            "BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
        )


def _drop(db: Path, name: str) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(f"DROP TRIGGER {name}")


def _rows(db: Path, sql: str, *params: Any) -> list[Any]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def test_join_rematch_and_import_are_all_or_nothing(tmp_path: Path) -> None:
    db = tmp_path / "faults.db"
    with (
        server(f"sqlite:///{db}", tmp_path / "log") as base,
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        # join: the seat is taken and the events written, or neither
        m: Any = new_gungi(http, [{"kind": "local"}, {"kind": "invite"}])
        mid, invite = m["id"], m["invites"][0]["invite"]
        _trigger(db, "no_join", "events", 'NEW.payload LIKE \'%"type":"player_joined"%\'')
        r = http.post(f"/api/matches/{mid}/join", json={"invite": invite})
        assert r.status_code >= 500
        assert _rows(
            db,
            "SELECT invite_hash IS NOT NULL, token_hash FROM seats WHERE match_id = ? AND seat = 1",
            mid,
        ) == [(1, None)]
        assert _rows(db, "SELECT status FROM matches WHERE id = ?", mid) == [("waiting",)]
        _drop(db, "no_join")
        r = http.post(f"/api/matches/{mid}/join", json={"invite": invite})
        assert r.status_code == 200, r.text
        t0, t1 = m["tokens"]["0"], r.json()["token"]

        # rematch: the new match and the old one's link to it, or neither
        ok(http.post(f"/api/matches/{mid}/resign", headers=auth(t0)))
        ok(http.post(f"/api/matches/{mid}/rematch", headers=auth(t0)))
        before = _rows(db, "SELECT COUNT(*) FROM matches")
        _trigger(db, "no_rematch", "events", 'NEW.payload LIKE \'%"type":"rematch"%\'')
        r = http.post(f"/api/matches/{mid}/rematch", headers=auth(t1))
        assert r.status_code >= 500
        assert _rows(db, "SELECT COUNT(*) FROM matches") == before
        assert _rows(db, "SELECT rematch_id FROM matches WHERE id = ?", mid) == [(None,)]
        _drop(db, "no_rematch")
        r = http.post(f"/api/matches/{mid}/rematch", headers=auth(t1))
        assert r.status_code == 200, r.text
        assert r.json()["rematch_id"]

        # import: the match with every move, or nothing
        record = ok(http.get(f"/api/records/{mid}"))
        body = {k: record[k] for k in ("game", "version", "options", "seed", "actions")}
        body["concessions"] = record["concessions"]
        g: Any = new_gungi(http)
        for seat in (0, 1, 0):
            assert play_first_legal(http, g["id"], g["tokens"][str(seat)]).status_code == 200
        ok(http.post(f"/api/matches/{g['id']}/resign", headers=auth(g["tokens"]["1"])))
        played = ok(http.get(f"/api/records/{g['id']}"))
        body = {k: played[k] for k in ("game", "version", "options", "seed", "actions")}
        body["concessions"] = played["concessions"]
        before = _rows(db, "SELECT COUNT(*) FROM matches")
        _trigger(db, "no_moves", "moves", "NEW.seq = 2")
        r = http.post("/api/records", json=body)
        assert r.status_code >= 500
        assert _rows(db, "SELECT COUNT(*) FROM matches") == before
        _drop(db, "no_moves")
        r = http.post("/api/records", json=body)
        assert r.status_code == 201, r.text
        assert _rows(db, "SELECT COUNT(*) FROM moves WHERE match_id = ?", r.json()["id"]) == [(4,)]


def _send_action(base: str, mid: str, token: str, http: httpx.Client) -> HTTPConnection:
    """Send the seat's first legal action on a connection of its own and return that
    connection without waiting for the answer (``getresponse()`` reads it later): once this
    returns, the request has been sent, before anything the caller sends next."""
    snap = ok(http.get(f"/api/matches/{mid}", headers=auth(token)))
    body = json.dumps({"action": snap["legal"][0]["action"], "ply": snap["ply"]})
    conn = HTTPConnection(httpx.URL(base).host, httpx.URL(base).port, timeout=GENEROUS)
    conn.request(
        "POST",
        f"/api/matches/{mid}/actions",
        body=body,
        headers={**auth(token), "Content-Type": "application/json"},
    )
    return conn


def _answered(conn: HTTPConnection) -> bool:
    """Whether the server has begun to answer on ``conn`` (without reading the answer)."""
    assert conn.sock is not None
    return bool(select.select([conn.sock], [], [], 0)[0])


def test_a_held_sqlite_write_lock_does_not_stall_reads(tmp_path: Path) -> None:
    """SQLite has one writer: while another process holds the write lock, writes wait (up to
    the lock timeout), but nothing else does, lists and loads included. Proved by order: the
    move is sent first, the reads are answered while the lock is still held and the move
    still unanswered, and the move is answered once the lock is given back. (How long a read
    takes meanwhile is a figure of ``make bench``: benchmarks/server_stalls.py.)"""
    db = tmp_path / "lock.db"
    # The lock is held as long as the reads take: on a busy machine that may be long, and
    # the move must still be waiting (not failed on the 10 s default lock timeout) after.
    env = {"SENGOKU_DB_LOCK_TIMEOUT": str(GENEROUS * 2)}
    with (
        server(f"sqlite:///{db}", tmp_path / "log", env) as base,
        httpx.Client(base_url=base, timeout=GENEROUS) as http,
    ):
        a: Any = new_gungi(http)
        done: Any = new_gungi(http)
        ok(http.post(f"/api/matches/{done['id']}/resign", headers=auth(done["tokens"]["0"])))
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            mover = _send_action(base, a["id"], a["tokens"]["0"], http)
            for _ in range(3):
                assert ok(http.get("/api/records"))["records"] is not None
                assert ok(http.get(f"/api/records/{done['id']}"))["id"] == done["id"]
            assert not _answered(mover), "the move was answered while the lock was held"
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        moved = mover.getresponse()
        text = moved.read().decode()
        mover.close()
        assert moved.status == 200, text
        assert json.loads(text)["ply"] == 1


def test_a_retried_action_is_never_applied_twice(tmp_path: Path) -> None:
    """An action needs ``ply`` or a client ``id``; a retry with the same id, even after the
    server was killed and restarted, answers with the match as it is and changes nothing."""
    db = tmp_path / "retry.db"
    url = f"sqlite:///{db}"
    with server(url, tmp_path / "log") as base, httpx.Client(base_url=base, timeout=30) as http:
        m: Any = new_gungi(http)
        mid, t0 = m["id"], m["tokens"]["0"]
        action = m["match"]["legal"][0]["action"]
        r = http.post(f"/api/matches/{mid}/actions", json={"action": action}, headers=auth(t0))
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "missing_ply"
        body = {"action": action, "id": "move-1"}
        r = http.post(f"/api/matches/{mid}/actions", json=body, headers=auth(t0))
        assert r.status_code == 200, r.text
        assert r.json()["ply"] == 1 and "duplicate" not in r.json()
        again = http.post(f"/api/matches/{mid}/actions", json=body, headers=auth(t0))
        assert again.status_code == 200, again.text
        assert again.json()["ply"] == 1
        assert again.json()["duplicate"] == {"ply": 0, "action": action}
        t1 = m["tokens"]["1"]
        r = http.post(f"/api/matches/{mid}/actions", json=body, headers=auth(t1))
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "id_used"
    with server(url, tmp_path / "log") as base, httpx.Client(base_url=base, timeout=30) as http:
        again = http.post(f"/api/matches/{mid}/actions", json=body, headers=auth(t0))
        assert again.status_code == 200, again.text
        assert again.json()["duplicate"]["ply"] == 0
        assert ok(http.get(f"/api/matches/{mid}"))["ply"] == 1
        # the retry in the game's short form is the same action: a duplicate too
        short = m["match"]["legal"][0]["short"]
        assert short != action
        again = http.post(
            f"/api/matches/{mid}/actions", json={**body, "action": short}, headers=auth(t0)
        )
        assert again.status_code == 200, again.text
        assert again.json()["duplicate"]["ply"] == 0
        # the same id for another move is refused, not acknowledged and dropped
        other = m["match"]["legal"][-1]["action"]
        assert other != action
        r = http.post(
            f"/api/matches/{mid}/actions", json={**body, "action": other}, headers=auth(t0)
        )
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "id_used"
        assert "another action" in r.json()["error"]["message"]
        assert ok(http.get(f"/api/matches/{mid}"))["ply"] == 1


def _long_gungi_record(min_actions: int = 250) -> dict[str, Any]:
    """A random game of Gungi of at least ``min_actions`` actions (a view per ply to replay)."""
    import random

    from sengoku.core.registry import load_game

    game = load_game("gungi")
    for seed in range(50):
        rng = random.Random(seed)
        state = game.new_state(seed)
        actions: list[str] = []
        while not state.is_terminal() and len(actions) < 2000:
            action = rng.choice(state.legal_actions())
            actions.append(str(action))
            state.apply(action)
        if len(actions) >= min_actions:
            return {
                "game": "gungi",
                "version": game.version,
                "options": {},
                "seed": seed,
                "players": ["A", "B"],
                "actions": actions,
            }
    raise AssertionError("no long game found")


def test_a_long_replay_does_not_stall_moves_in_other_games(tmp_path: Path) -> None:
    """Moves in another game go on while a long replay runs in the worker process: they are
    answered before the replay is. (Before, the first move waited for the whole replay.)
    How long they take meanwhile is a figure of ``make bench`` (benchmarks/server_stalls.py)."""
    record = _long_gungi_record()
    with (
        server(f"sqlite:///{tmp_path / 'replay.db'}", tmp_path / "log") as base,
        httpx.Client(base_url=base, timeout=GENEROUS) as http,
    ):
        ok(http.post("/api/replay", json=record))  # starts the worker
        m: Any = new_gungi(http)
        tokens = [m["tokens"]["0"], m["tokens"]["1"]]
        done = threading.Event()
        replayed: list[Any] = []

        def replay() -> None:
            with httpx.Client(base_url=base, timeout=GENEROUS) as other:
                replayed.append(other.post("/api/replay", json=record))
            done.set()

        thread = threading.Thread(target=replay)
        thread.start()
        moves = 0
        try:
            while not done.is_set():
                seat = ok(http.get(f"/api/matches/{m['id']}"))["to_act"]
                if seat < 0:  # that game is over: another one
                    m = new_gungi(http)
                    tokens = [m["tokens"]["0"], m["tokens"]["1"]]
                    continue
                r = play_first_legal(http, m["id"], tokens[seat])
                assert r.status_code == 200, r.text
                moves += int(not done.is_set())  # answered while the replay still ran
        finally:
            thread.join()
        r = replayed[0]
        assert r.status_code == 200, r.text
        assert len(r.json()["plies"]) == len(record["actions"]) + 1
        # One move answered while the replay ran shows it was not stalled (a stalled move is
        # answered only after the replay, so counts none); how many depends on the machine.
        assert moves >= 1, "no move was answered while the replay ran"
