"""Faults against a real server process: a failure in the middle of a change leaves nothing
half done, and a lock held elsewhere stalls nothing but the game it locks."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from server_process import auth, new_gungi, play_first_legal, server


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
        assert http.post(f"/api/matches/{mid}/resign", headers=auth(t0)).status_code == 200
        assert http.post(f"/api/matches/{mid}/rematch", headers=auth(t0)).status_code == 200
        before = _rows(db, "SELECT COUNT(*) FROM matches")
        _trigger(db, "no_rematch", "events", 'NEW.payload LIKE \'%"type":"rematch"%\'')
        r = http.post(f"/api/matches/{mid}/rematch", headers=auth(t1))
        assert r.status_code >= 500
        assert _rows(db, "SELECT COUNT(*) FROM matches") == before
        assert _rows(db, "SELECT rematch_id FROM matches WHERE id = ?", mid) == [(None,)]
        _drop(db, "no_rematch")
        r = http.post(f"/api/matches/{mid}/rematch", headers=auth(t1))
        assert r.status_code == 200 and r.json()["rematch_id"], r.text

        # import: the match with every move, or nothing
        record = http.get(f"/api/records/{mid}").json()
        body = {k: record[k] for k in ("game", "version", "options", "seed", "actions")}
        body["concessions"] = record["concessions"]
        g: Any = new_gungi(http)
        for seat in (0, 1, 0):
            assert play_first_legal(http, g["id"], g["tokens"][str(seat)]).status_code == 200
        http.post(f"/api/matches/{g['id']}/resign", headers=auth(g["tokens"]["1"]))
        played = http.get(f"/api/records/{g['id']}").json()
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


def _timed(fn: Any) -> tuple[float, Any]:
    start = time.monotonic()
    out = fn()
    return time.monotonic() - start, out


def test_a_held_sqlite_write_lock_does_not_stall_reads(tmp_path: Path) -> None:
    """SQLite has one writer: while another process holds the write lock, writes wait (up to
    the lock timeout), but nothing else does, lists and loads included."""
    db = tmp_path / "lock.db"
    with (
        server(f"sqlite:///{db}", tmp_path / "log") as base,
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        a: Any = new_gungi(http)
        done: Any = new_gungi(http)
        http.post(f"/api/matches/{done['id']}/resign", headers=auth(done["tokens"]["0"]))
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        hold = 4.0
        results: list[Any] = []
        mover = threading.Thread(
            target=lambda: results.append(
                _timed(lambda: play_first_legal(http, a["id"], a["tokens"]["0"]))
            )
        )
        start = time.monotonic()
        mover.start()
        time.sleep(0.3)  # the move now waits for the lock on a storage thread
        took, r = _timed(lambda: http.get("/api/records"))
        assert r.status_code == 200 and took < hold / 2, took
        took, r = _timed(lambda: http.get(f"/api/records/{done['id']}"))
        assert r.status_code == 200 and took < hold / 2, took
        time.sleep(max(0.0, hold - (time.monotonic() - start)))
        holder.execute("ROLLBACK")
        holder.close()
        mover.join(timeout=30)
        waited, moved = results[0]
        assert moved.status_code == 200 and waited >= hold - 1.0


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
        assert r.status_code == 422 and r.json()["error"]["code"] == "missing_ply"
        body = {"action": action, "id": "move-1"}
        r = http.post(f"/api/matches/{mid}/actions", json=body, headers=auth(t0))
        assert r.status_code == 200 and r.json()["ply"] == 1 and "duplicate" not in r.json()
        again = http.post(f"/api/matches/{mid}/actions", json=body, headers=auth(t0))
        assert again.status_code == 200 and again.json()["ply"] == 1
        assert again.json()["duplicate"] == {"ply": 0, "action": action}
        t1 = m["tokens"]["1"]
        r = http.post(f"/api/matches/{mid}/actions", json=body, headers=auth(t1))
        assert r.status_code == 409 and r.json()["error"]["code"] == "id_used"
    with server(url, tmp_path / "log") as base, httpx.Client(base_url=base, timeout=30) as http:
        again = http.post(f"/api/matches/{mid}/actions", json=body, headers=auth(t0))
        assert again.status_code == 200 and again.json()["duplicate"]["ply"] == 0
        assert http.get(f"/api/matches/{mid}").json()["ply"] == 1
        # the retry in the game's short form is the same action: a duplicate too
        short = m["match"]["legal"][0]["short"]
        assert short != action
        again = http.post(
            f"/api/matches/{mid}/actions", json={**body, "action": short}, headers=auth(t0)
        )
        assert again.status_code == 200 and again.json()["duplicate"]["ply"] == 0
        # the same id for another move is refused, not acknowledged and dropped
        other = m["match"]["legal"][-1]["action"]
        assert other != action
        r = http.post(
            f"/api/matches/{mid}/actions", json={**body, "action": other}, headers=auth(t0)
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "id_used", r.text
        assert "another action" in r.json()["error"]["message"]
        assert http.get(f"/api/matches/{mid}").json()["ply"] == 1


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
    record = _long_gungi_record()
    with (
        server(f"sqlite:///{tmp_path / 'replay.db'}", tmp_path / "log") as base,
        httpx.Client(base_url=base, timeout=120) as http,
    ):
        assert http.post("/api/replay", json=record).status_code == 200  # starts the worker
        alone, r = _timed(lambda: http.post("/api/replay", json=record))
        assert r.status_code == 200 and len(r.json()["plies"]) == len(record["actions"]) + 1
        m: Any = new_gungi(http)
        tokens = [m["tokens"]["0"], m["tokens"]["1"]]
        done = threading.Event()
        replayed: list[Any] = []

        def replay() -> None:
            with httpx.Client(base_url=base, timeout=120) as other:
                replayed.append(_timed(lambda: other.post("/api/replay", json=record)))
            done.set()

        thread = threading.Thread(target=replay)
        thread.start()
        time.sleep(0.05)
        stalls = []
        while not done.is_set():
            seat = http.get(f"/api/matches/{m['id']}").json()["to_act"]
            if seat < 0:  # that game is over: another one
                m = new_gungi(http)
                tokens = [m["tokens"]["0"], m["tokens"]["1"]]
                continue
            mid, token = m["id"], tokens[seat]
            took, r = _timed(lambda: play_first_legal(http, mid, token))  # noqa: B023
            assert r.status_code == 200, r.text
            stalls.append(took)
        thread.join()
        duration, r = replayed[0]
        assert r.status_code == 200
        # The moves went on while the replay ran (each a GET and a POST): none waited for it.
        # (Before, the first move waited for the whole replay.) Generous bounds: the machine
        # may be busy with other work.
        replay_time = max(duration, alone)
        stalls.sort()
        assert len(stalls) >= 4, (stalls, duration, alone)
        assert stalls[len(stalls) // 2] < replay_time / 4, (stalls, duration, alone)
        assert stalls[-1] < replay_time * 0.7, (stalls, duration, alone)
