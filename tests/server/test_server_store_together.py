"""SQLite: the actions that arrive together are stored in one transaction (one sync of the
disk with ``synchronous=FULL``), each still all or nothing, each answered once committed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from conftest import new_match
from fastapi.testclient import TestClient
from sqlalchemy import text

from sengoku.server.db import Store, make_engine
from sengoku.server.persistence import Persistence, StaleMatch
from sengoku.server.settings import Settings


def _move(mid: str, seq: int) -> dict[str, Any]:
    return {
        "match_id": mid,
        "seq": seq,
        "kind": "action",
        "seat": 0,
        "action": "take 1",
        "reason": None,
        "at": 5.0,
        "clocks": None,
        "client_id": None,
    }


def _event(mid: str, n: int) -> dict[str, Any]:
    return {"match_id": mid, "n": n, "ply": 1, "audience": None, "payload": json.dumps({})}


async def append_one(persistence: Persistence, store: Store, mid: str, seq: int, n: int) -> str:
    """An action's plain append (its move ``seq``, its event ``n``, the clock) through
    ``persistence``: "stored", or "stale" when its move or event number was taken."""
    try:
        await persistence.run(
            store.record_change,
            mid,
            [_move(mid, seq)],
            [_event(mid, n)],
            {"updated_at": 5.0, "clock": None},
        )
    except StaleMatch:
        return "stale"
    return "stored"


def test_actions_arriving_together_share_one_commit(
    make_client: Callable[..., TestClient], db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client() as client:  # the schema and five matches
        ids = [new_match(client, options={"pile": 9})["id"] for _ in range(5)]
    engine = make_engine(db_url)
    store = Store(engine)
    persistence = Persistence(Settings(db_url=db_url), store)
    batches: list[int] = []
    append_many = Store.append_many

    def spy(self: Store, items: list[Any]) -> Any:
        batches.append(len(items))
        return append_many(self, items)

    monkeypatch.setattr(Store, "append_many", spy)

    def act(mid: str, seq: int, n: int) -> Coroutine[Any, Any, str]:
        return append_one(persistence, store, mid, seq, n)

    async def main() -> list[str]:
        # one action per match, and a second one for the first match that takes its move
        # number again (another process's, say): only that one is refused
        calls = [act(mid, 0, 1000) for mid in ids] + [act(ids[0], 0, 1001)]
        first = await asyncio.gather(*calls)
        later = await asyncio.gather(act(ids[1], 1, 1002), act(ids[2], 1, 1002))
        return [*first, *later]

    try:
        outcomes = asyncio.run(main())
    finally:
        persistence.close()
    assert outcomes == ["stored"] * 5 + ["stale"] + ["stored"] * 2
    assert batches == [6, 2]
    with engine.connect() as conn:
        moves = conn.execute(text("SELECT match_id, seq FROM moves ORDER BY match_id, seq"))
        stored = sorted((r[0], r[1]) for r in moves)
        refused = conn.execute(text("SELECT count(*) FROM events WHERE n = 1001")).scalar()
    assert stored == sorted([(mid, 0) for mid in ids] + [(ids[1], 1), (ids[2], 1)])
    assert refused == 0  # the refused action's event was undone with its move
    engine.dispose()


def test_a_failed_transaction_fails_every_action_in_it(
    make_client: Callable[..., TestClient], db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client() as client:
        ids = [new_match(client, options={"pile": 9})["id"] for _ in range(3)]
    engine = make_engine(db_url)
    store = Store(engine)
    persistence = Persistence(Settings(db_url=db_url), store)

    def broken(self: Store, items: list[Any]) -> Any:
        raise RuntimeError("the disk is gone")

    monkeypatch.setattr(Store, "append_many", broken)

    async def main() -> list[BaseException | None]:
        calls = [
            persistence.run(
                store.record_change, mid, [_move(mid, 0)], [], {"updated_at": 5.0, "clock": None}
            )
            for mid in ids
        ]
        return list(await asyncio.gather(*calls, return_exceptions=True))

    try:
        outcomes = asyncio.run(main())
    finally:
        persistence.close()
    assert all(isinstance(o, RuntimeError) for o in outcomes)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM moves")).scalar() == 0
    engine.dispose()
