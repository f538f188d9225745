"""PostgreSQL: an action's append is sent from the event loop on connections of its own
(``sengoku.server.loop_appends``), never through a storage thread; a taken move number is a
conflict, a lock held past the timeout ``503 db_busy``, and a connection whose transaction
was cut short is closed, not reused."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from conftest import new_match
from fastapi.testclient import TestClient
from sqlalchemy import text
from test_server_postgres import cluster
from test_server_store_together import _event, _move
from test_server_store_together import append_one as _act

from sengoku.server.db import Store, make_engine
from sengoku.server.errors import ApiError
from sengoku.server.loop_appends import conninfo
from sengoku.server.persistence import Persistence
from sengoku.server.settings import Settings
from tests.waiting import wait_until_async


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with cluster(fsync=False) as url:
        yield url


def _persistence(url: str, **settings: Any) -> tuple[Persistence, Store]:
    store = Store(make_engine(url, lock_timeout=settings.get("db_lock_timeout", 10.0)))
    return Persistence(Settings(db_url=url, **settings), store), store


def test_conninfo_drops_the_driver_and_keeps_the_rest() -> None:
    url = "postgresql+psycopg://me:s3cret@db.example:5433/games?sslmode=require"
    assert conninfo(url) == "postgresql://me:s3cret@db.example:5433/games?sslmode=require"


@pytest.mark.parametrize("level", ["on", "off"])
def test_every_session_takes_the_synchronous_commit_setting(pg_url: str, level: str) -> None:
    """``pg_synchronous_commit`` reaches the storage threads' sessions and the event loop's
    own (``SENGOKU_PG_SYNCHRONOUS_COMMIT``); ``on`` is the default."""
    engine = (
        make_engine(pg_url) if level == "on" else make_engine(pg_url, pg_synchronous_commit=level)
    )
    with engine.connect() as conn:
        assert conn.execute(text("SHOW synchronous_commit")).scalar() == level
    engine.dispose()
    persistence = Persistence(
        Settings(db_url=pg_url, pg_synchronous_commit=level), Store(make_engine(pg_url))
    )
    loop_appends = persistence._loop_appends
    assert loop_appends is not None

    async def shown() -> str:
        conn = await loop_appends._connect()
        try:
            cur = await conn.execute("SHOW synchronous_commit")
            row = await cur.fetchone()
            return str(row[0])
        finally:
            await conn.close()
            await persistence.aclose()

    assert asyncio.run(shown()) == level


def test_appends_go_from_the_loop_and_a_taken_number_is_stale(
    make_client: Callable[..., TestClient], pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client(db_url=pg_url) as client:
        ids = [new_match(client, options={"pile": 9})["id"] for _ in range(4)]
    threads: list[int] = []
    append = Store._append

    def spy(self: Store, *args: Any) -> Any:
        threads.append(threading.get_ident())
        return append(self, *args)

    monkeypatch.setattr(Store, "_append", spy)
    persistence, store = _persistence(pg_url)

    async def main() -> list[str]:
        calls = [_act(persistence, store, mid, 0, 1000) for mid in ids]
        first = await asyncio.gather(*calls)
        # the first match's move 0 again (another process's, say): refused alone
        again = await _act(persistence, store, ids[0], 0, 1001)
        later = await _act(persistence, store, ids[0], 1, 1001)
        await persistence.aclose()
        return [*first, again, later]

    outcomes = asyncio.run(main())
    assert outcomes == ["stored"] * 4 + ["stale", "stored"]
    assert threads == []  # no storage thread stored an action
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT match_id, seq FROM moves"))
        stored = sorted(tuple(r) for r in rows if r[0] in ids)
    assert stored == sorted([(mid, 0) for mid in ids] + [(ids[0], 1)])
    store.engine.dispose()


def test_an_action_is_all_or_nothing_and_its_text_is_stored_exactly(
    make_client: Callable[..., TestClient], pg_url: str
) -> None:
    """The action's statements go as one query (its values bound in the server): a conflict
    in its last statements undoes its first, and text of any kind is stored as sent."""
    with make_client(db_url=pg_url) as client:
        mid = new_match(client, options={"pile": 9})["id"]
    persistence, store = _persistence(pg_url)
    hostile = 'x\'); DROP TABLE moves; --\\ \u2603 %(seq)s %s $1 "quoted" \n'

    async def main() -> tuple[str, str]:
        stored = await _act(persistence, store, mid, 0, 1000)
        # move 1 is free, event 1000 is taken: the move must not stay without its event
        taken = await _act(persistence, store, mid, 1, 1000)
        await persistence.run(
            store.record_change,
            mid,
            [{**_move(mid, 2), "action": hostile}],
            [{**_event(mid, 1002), "payload": json.dumps({"text": hostile})}],
            {"updated_at": 7.25, "clock": None},
        )
        await persistence.aclose()
        return stored, taken

    assert asyncio.run(main()) == ("stored", "stale")
    with store.engine.connect() as conn:
        moves = conn.execute(
            text("SELECT seq, action FROM moves WHERE match_id = :m ORDER BY seq"), {"m": mid}
        ).all()
        payload = conn.execute(
            text("SELECT payload FROM events WHERE match_id = :m AND n = 1002"), {"m": mid}
        ).scalar()
        clock, updated = conn.execute(
            text("SELECT clock, updated_at FROM matches WHERE id = :m"), {"m": mid}
        ).one()
    assert [m[0] for m in moves] == [0, 2]  # move 1 was undone with its event
    assert moves[1][1] == hostile and json.loads(payload) == {"text": hostile}
    assert (clock, updated) == (None, 7.25)
    store.engine.dispose()


def test_a_lock_held_past_the_timeout_is_db_busy_and_nothing_is_stored(
    make_client: Callable[..., TestClient], pg_url: str
) -> None:
    with make_client(db_url=pg_url) as client:
        mid = new_match(client, options={"pile": 9})["id"]
    persistence, store = _persistence(pg_url, db_lock_timeout=0.3)
    with psycopg.connect(conninfo(pg_url)) as holder:
        holder.execute("SELECT 1 FROM matches WHERE id = %s FOR UPDATE", (mid,))

        async def refused() -> ApiError:
            with pytest.raises(ApiError) as caught:
                await _act(persistence, store, mid, 0, 1000)
            return caught.value

        async def main() -> tuple[ApiError, str]:
            error = await refused()
            holder.rollback()  # the lock is gone: the same connection serves the next one
            outcome = await _act(persistence, store, mid, 0, 1000)
            await persistence.aclose()
            return error, outcome

        error, outcome = asyncio.run(main())
    assert (error.status, error.code) == (503, "db_busy")
    assert outcome == "stored"
    with store.engine.connect() as conn:
        n = conn.execute(text("SELECT count(*) FROM moves WHERE match_id = :m"), {"m": mid})
        assert n.scalar() == 1
    store.engine.dispose()


def _waiting_on_a_lock(url: str) -> int:
    """How many of the cluster's connections wait for a lock another holds."""
    with psycopg.connect(conninfo(url)) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        ).fetchone()
    return int(row[0]) if row else 0


def test_a_transaction_cut_short_closes_its_connection(
    make_client: Callable[..., TestClient], pg_url: str
) -> None:
    with make_client(db_url=pg_url) as client:
        mid = new_match(client, options={"pile": 9})["id"]
    persistence, store = _persistence(pg_url)
    appends = persistence._loop_appends
    assert appends is not None
    with psycopg.connect(conninfo(pg_url)) as holder:
        holder.execute("SELECT 1 FROM matches WHERE id = %s FOR UPDATE", (mid,))

        async def main() -> tuple[int, str]:
            acting = asyncio.ensure_future(_act(persistence, store, mid, 0, 1000))
            # waiting for the row lock, mid-transaction (PostgreSQL says so)
            await wait_until_async(
                lambda: _waiting_on_a_lock(pg_url), "the append to wait on the row lock"
            )
            acting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await acting
            idle = len(appends._idle)
            holder.rollback()
            outcome = await _act(persistence, store, mid, 0, 1000)
            await persistence.aclose()
            return idle, outcome

        idle, outcome = asyncio.run(main())
    assert idle == 0  # the cut connection was closed, not put back
    assert outcome == "stored"  # on a fresh connection; the cut one stored nothing
    with store.engine.connect() as conn:
        n = conn.execute(text("SELECT count(*) FROM moves WHERE match_id = :m"), {"m": mid})
        assert n.scalar() == 1
    store.engine.dispose()


def test_numbers_are_stored_exactly_and_a_nul_is_refused_with_nothing_stored(
    make_client: Callable[..., TestClient], pg_url: str
) -> None:
    """The loop's statements carry their values as bound parameters: every float comes back
    as the same float (``0.1 + 0.2``, the largest, infinity), a text with NUL (which libpq would cut)
    or a lone surrogate (which no encoding writes) is a 503 that stores none of the action."""
    with make_client(db_url=pg_url) as client:
        mid = new_match(client, options={"pile": 9})["id"]
    persistence, store = _persistence(pg_url)
    times = [0.1 + 0.2, 1.7976931348623157e308, 1764288000.123456789, float("inf"), -0.0]

    async def refused(action: str, seq: int) -> ApiError:
        with pytest.raises(ApiError) as caught:
            await persistence.run(
                store.record_change,
                mid,
                [{**_move(mid, seq), "action": action}],
                [_event(mid, 1000 + seq)],
                {"updated_at": 1.0, "clock": None},
            )
        return caught.value

    async def main() -> list[ApiError]:
        for seq, at in enumerate(times):
            move = {**_move(mid, seq), "at": at, "seat": 2**31 - 1}
            await persistence.run(
                store.record_change,
                mid,
                [move],
                [_event(mid, 1000 + seq)],
                {"updated_at": at, "clock": None},
            )
        errors = [await refused("take\x001", 99), await refused("take \ud800", 98)]
        await persistence.aclose()
        return errors

    errors = asyncio.run(main())
    assert [(e.status, e.code) for e in errors] == [(503, "storage_error")] * 2
    with store.engine.connect() as conn:
        rows = conn.execute(
            text("SELECT seq, at, seat FROM moves WHERE match_id = :m ORDER BY seq"), {"m": mid}
        ).all()
        updated = conn.execute(text("SELECT updated_at FROM matches WHERE id = :m"), {"m": mid})
        events = conn.execute(text("SELECT n FROM events WHERE match_id = :m"), {"m": mid})
        assert not {1098, 1099} & {n for (n,) in events}
        assert updated.scalar() == times[-1]
    assert [r[0] for r in rows] == list(range(len(times)))  # moves 98, 99 were not stored
    assert [r[1] for r in rows] == times and all(r[2] == 2**31 - 1 for r in rows)
    store.engine.dispose()


def test_the_statements_are_prepared_once_and_again_when_the_session_lost_them(
    make_client: Callable[..., TestClient], pg_url: str
) -> None:
    """Each connection prepares an action's statements the first time it runs them and
    reuses them after; a session that lost them (``DEALLOCATE``, as a pooler's reset does)
    prepares them again (on a fresh connection) and stores the action it was sent, once."""
    with make_client(db_url=pg_url) as client:
        mid = new_match(client, options={"pile": 9})["id"]
    persistence, store = _persistence(pg_url, db_workers=1)
    appends = persistence._loop_appends
    assert appends is not None

    async def prepared() -> list[str]:
        (conn,) = appends._idle
        cur = await conn.execute(
            "SELECT statement FROM pg_prepared_statements ORDER BY statement", prepare=False
        )
        rows = [str(r[0]).replace("INSERT INTO", "INSERT").split() for r in await cur.fetchall()]
        return [" ".join(words[:2]) for words in rows]

    async def main() -> tuple[list[str], list[str], list[str], str]:
        first = await _act(persistence, store, mid, 0, 1000)
        names = await prepared()
        second = await _act(persistence, store, mid, 1, 1001)
        reused = await prepared()
        (conn,) = appends._idle
        await conn.execute("DEALLOCATE ALL", prepare=False)
        again = await _act(persistence, store, mid, 2, 1002)
        after = await prepared()
        await persistence.aclose()
        return names, reused, after, " ".join([first, second, again])

    names, reused, after, outcomes = asyncio.run(main())
    # the move, the events and the match's clock, each prepared once
    assert names == reused == after == ["INSERT events", "INSERT moves", "UPDATE matches"]
    assert outcomes == "stored stored stored"
    with store.engine.connect() as conn:
        seqs = conn.execute(text("SELECT seq FROM moves WHERE match_id = :m"), {"m": mid})
        assert sorted(s for (s,) in seqs) == [0, 1, 2]
    store.engine.dispose()
