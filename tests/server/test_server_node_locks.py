"""Which process runs a match's clock and AI, on PostgreSQL: a node is alive while it beats
(the lease) *and* holds its session-level advisory lock, so a process whose connection is
gone (killed, crashed) loses its matches at the others' next round, not ``node_ttl`` later.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from sqlalchemy import insert
from test_server_postgres import cluster

from sengoku.server.db import Store, make_engine, matches, migrate

NOW = 1_000_000.0
TTL = 5.0


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with cluster(fsync=False) as url:
        yield url


def _match(store: Store, mid: str, node: str) -> None:
    row = {"id": mid, "game": "gungi", "version": 1, "options": "{}", "seed": "1"}
    row.update(status="active", created_at=NOW, updated_at=NOW, node=node)
    with store.engine.begin() as conn:
        conn.execute(insert(matches), [row])


def test_a_node_whose_connection_dropped_loses_its_matches_at_once(pg_url: str) -> None:
    a, b = Store(make_engine(pg_url)), Store(make_engine(pg_url))
    try:
        migrate(a.engine)
        a.heartbeat("node-a", NOW)
        b.heartbeat("node-b", NOW)
        _match(a, "m-locks-1", "node-a")
        # alive: beating and holding its lock
        assert b.claim("node-b", NOW - TTL, ["m-locks-1"]) == []
        # The process dies: its connection (and so its lock) is gone; its heartbeat row
        # still looks fresh, and the lease alone would keep the match for node_ttl.
        held = a._node_lock
        assert held is not None
        held.connection.dbapi_connection.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + 30  # a safety net: PostgreSQL frees it at once
        while (taken := b.claim("node-b", NOW - TTL, ["m-locks-1"])) == []:
            assert time.monotonic() < deadline, "the dead node's match was not taken"
            time.sleep(0.05)
        assert taken == ["m-locks-1"]
        # A node whose connection broke but which still runs takes its lock again at its
        # next beat, and its matches are its own again.
        a.heartbeat("node-a", NOW)
        _match(a, "m-locks-2", "node-a")
        assert b.claim("node-b", NOW - TTL, ["m-locks-2"]) == []
        # The lease still counts: a node that holds its lock but stopped beating (a hung
        # process, or a machine PostgreSQL has not yet noticed is gone) is dead after TTL.
        assert b.claim("node-b", NOW + 1, ["m-locks-2"]) == ["m-locks-2"]
    finally:
        for store in (a, b):
            store.release(f"node-{'a' if store is a else 'b'}")
            store.engine.dispose()
