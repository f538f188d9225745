"""The storage layer: indexes that keep the lists fast, and transactions that are all or nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event, text

from sengoku.server.db import Store, make_engine, migrate
from sengoku.server.service import DONE_STATUSES, LIVE_STATUSES


def _plans(tmp_path: Path, **list_args: Any) -> list[str]:
    """SQLite's query plan of every statement ``list_matches`` runs."""
    engine = make_engine(f"sqlite:///{tmp_path / 'plan.db'}")
    migrate(engine)
    seen: list[tuple[str, Any]] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _capture(_c: Any, _cur: Any, statement: str, params: Any, *_rest: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, params))

    Store(engine).list_matches(**list_args)
    out = []
    with engine.connect() as conn:
        for statement, params in seen:
            rows = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", params).fetchall()
            out.append(" | ".join(str(r[-1]) for r in rows))
    engine.dispose()
    return out


def test_records_are_listed_in_index_order_without_a_sort(tmp_path: Path) -> None:
    """``/api/records`` walks an index newest first and stops at ``limit`` (400k finished
    matches took 1.2 s to sort)."""
    for game in (None, "gungi"):
        plans = _plans(
            tmp_path,
            statuses=DONE_STATUSES,
            game=game,
            limit=50,
            offset=0,
            exclude=LIVE_STATUSES,
        )
        assert "ix_matches_" in plans[0] and "TEMP B-TREE" not in plans[0], plans[0]


def test_the_migrations_create_the_indexes(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'idx.db'}")
    migrate(engine)
    with engine.connect() as conn:
        names = {r[0] for r in conn.execute(text("SELECT name FROM sqlite_master"))}
        cols = {r[1] for r in conn.execute(text("PRAGMA table_info(moves)"))}
    assert {"ix_matches_created", "ix_matches_game_created"} <= names
    assert "client_id" in cols
