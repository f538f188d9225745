"""A finished match's ratings stored with its result, in one transaction
(sengoku/server/ratings.py), on a SQLite database made from the metadata."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, exc, insert, select

from sengoku.ratings import Glicko2Rating, PlackettLuceRating, bot_rating, rate_game
from sengoku.server.db import Store, make_engine, matches, metadata, rating_changes, ratings
from sengoku.server.ratings import (
    NotRated,
    RatedSeat,
    apply_ratings,
    finish_rated,
    load_rating,
    ranks_from_returns,
    ranks_with_leavers,
    stored_seats,
)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    eng = make_engine(f"sqlite:///{tmp_path / 'ratings.db'}")
    metadata.create_all(eng)
    try:
        yield eng
    finally:
        eng.dispose()


def _match(store: Store, match_id: str, game: str, players: int) -> None:
    """An active match's row (seats and events are not read by the ratings)."""
    with store.engine.begin() as conn:
        conn.execute(
            insert(matches).values(
                id=match_id,
                game=game,
                version=1,
                options=json.dumps({"players": players}),
                seed="1",
                status="active",
                created_at=1.0,
                updated_at=1.0,
            )
        )


def _result(returns: list[float]) -> dict[str, Any]:
    winners = [s for s, r in enumerate(returns) if r == max(returns)]
    outcome = {"reason": "mate", "winners": winners, "scores": returns, "returns": returns}
    return {"status": "finished", "result": json.dumps(outcome), "updated_at": 2.0}


def _rows(engine: Engine, table: Any) -> list[Any]:
    with engine.connect() as conn:
        return list(conn.execute(select(table)).all())


def test_ranks_from_returns_share_ties() -> None:
    assert ranks_from_returns([1.0, -1.0]) == [1, 2]
    assert ranks_from_returns([0.0, 0.0]) == [1, 1]
    assert ranks_from_returns([-1.0, 1.0, 0.0, 1.0]) == [4, 1, 3, 1]


def test_a_player_who_left_is_rated_last_whatever_the_computer_made_of_the_seat(
    engine: Engine,
) -> None:
    # issue 37, seats that never die: the computer finishes a leaver's game, but leaving never
    # saves a rating: the leaver ranks below every seat played to the end.
    left = RatedSeat(account_id="cid", left=True)
    seats = [RatedSeat(account_id="ann"), RatedSeat(account_id="ben"), left]
    assert ranks_with_leavers([0.0, -1.0, 1.0], seats) == [1, 2, 3]
    assert ranks_with_leavers([1.0, 1.0, 1.0], seats) == [1, 1, 3]
    assert ranks_with_leavers([1.0, -1.0], seats[:2]) == [1, 2]  # nobody left: as before
    store = Store(engine)
    _match(store, "m1", "gunkimono", 3)
    # the computer won Cid's seat
    changes = finish_rated(store, "m1", [], [], _result([0.0, -1.0, 1.0]), seats, now=5.0)
    assert changes[2].delta < 0 < changes[0].delta
    # in storage: a seat the computer took still belongs to its player's account
    from sengoku.server.db import account_seats, accounts
    from sengoku.server.db import seats as seats_table

    with engine.begin() as conn:
        for i, (kind, level) in enumerate([("human", None), ("human", None), ("ai", 2)]):
            conn.execute(
                insert(seats_table).values(
                    match_id="m1", seat=i, kind=kind, name=f"p{i}", level=level
                )
            )
        for name in ("ann", "ben", "cid"):
            conn.execute(
                insert(accounts).values(
                    id=name, name=name, name_key=name, password_hash="x", created_at=1.0
                )
            )
        for i, name in enumerate(("ann", "ben", "cid")):
            conn.execute(
                insert(account_seats).values(match_id="m1", seat=i, account_id=name, at=1.0)
            )
        assert stored_seats(conn, "m1") == seats


def test_a_finished_match_stores_its_result_ratings_and_changes_together(engine: Engine) -> None:
    store = Store(engine)
    _match(store, "m1", "gungi", 2)
    seats = [RatedSeat(account_id="alice"), RatedSeat(account_id="bob")]
    changes = finish_rated(store, "m1", [], [], _result([1.0, -1.0]), seats, now=5.0)
    expected = rate_game("gungi", [(Glicko2Rating(), 1), (Glicko2Rating(), 2)])
    assert changes == expected
    with engine.connect() as conn:
        alice, games = load_rating(conn, "alice", "gungi", "glicko2")
        assert (alice, games) == (expected[0].after, 1)
        assert load_rating(conn, "bob", "gungi", "glicko2") == (expected[1].after, 1)
        row = conn.execute(select(matches.c.status, matches.c.result)).one()
    assert row.status == "finished" and json.loads(row.result)["returns"] == [1.0, -1.0]
    stored = {r.account_id: r for r in _rows(engine, rating_changes)}
    assert set(stored) == {"alice", "bob"}
    assert stored["alice"].delta == expected[0].delta > 0
    assert json.loads(stored["alice"].before)["display"] == 1500
    assert json.loads(stored["bob"].after)["rating"] == expected[1].after.rating

    # the next game starts from the stored ratings, and counts
    _match(store, "m2", "gungi", 2)
    again = finish_rated(store, "m2", [], [], _result([0.0, 0.0]), seats, now=6.0)
    assert again[0].before == expected[0].after
    with engine.connect() as conn:
        assert load_rating(conn, "alice", "gungi", "glicko2")[1] == 2


def test_no_rating_without_a_stored_result(engine: Engine) -> None:
    store = Store(engine)
    _match(store, "m1", "gunshi", 2)
    seats = [RatedSeat(account_id="alice"), RatedSeat(account_id="bob")]
    with pytest.raises(NotRated, match="has no stored result"), engine.begin() as conn:
        apply_ratings(conn, "m1", seats, now=3.0)
    with pytest.raises(NotRated, match="status and result"):
        finish_rated(store, "m1", [], [], {"updated_at": 2.0}, seats, now=3.0)
    assert _rows(engine, ratings) == [] and _rows(engine, rating_changes) == []


def test_no_result_without_its_rating_change(engine: Engine) -> None:
    """A rating that cannot be applied (here: the seats do not fit the result) rolls the
    result back with it."""
    store = Store(engine)
    _match(store, "m1", "gunshi", 2)
    three = [RatedSeat(account_id=a) for a in ("alice", "bob", "carol")]
    with pytest.raises(NotRated, match="has 2 seats, 3 rated seats given"):
        finish_rated(store, "m1", [], [], _result([1.0, -1.0]), three, now=3.0)
    with engine.connect() as conn:
        row = conn.execute(select(matches.c.status, matches.c.result)).one()
    assert (row.status, row.result) == ("active", None)
    assert _rows(engine, ratings) == [] and _rows(engine, rating_changes) == []


def test_a_match_is_rated_once(engine: Engine) -> None:
    store = Store(engine)
    _match(store, "m1", "sashimono", 2)
    seats = [RatedSeat(account_id="alice"), RatedSeat(account_id="bob")]
    finish_rated(store, "m1", [], [], _result([1.0, -1.0]), seats, now=3.0)
    before = _rows(engine, ratings)
    with pytest.raises(NotRated, match="m1 is rated already"), engine.begin() as conn:
        apply_ratings(conn, "m1", seats, now=4.0)
    assert _rows(engine, ratings) == before
    # and the key holds even where the check is skipped
    with pytest.raises(exc.IntegrityError), engine.begin() as conn:
        conn.execute(insert(rating_changes).values(**_rows(engine, rating_changes)[0]._asdict()))


def test_an_ai_level_plays_at_its_fixed_rating_and_is_not_stored(engine: Engine) -> None:
    store = Store(engine)
    _match(store, "m1", "gunkimono", 4)
    seats = [
        RatedSeat(account_id="alice"),
        RatedSeat(bot_level=3),
        RatedSeat(account_id="bob"),
        RatedSeat(bot_level=5),
    ]
    changes = finish_rated(store, "m1", [], [], _result([1.0, 0.0, 0.0, -1.0]), seats, now=3.0)
    level3 = bot_rating("gunkimono", 3, 4).rating
    assert isinstance(level3, PlackettLuceRating) and changes[1].before == level3
    assert [c.before for c in changes] == [
        PlackettLuceRating(),
        level3,
        PlackettLuceRating(),
        bot_rating("gunkimono", 5, 4).rating,
    ]
    stored = {(r.account_id, r.system): r for r in _rows(engine, ratings)}
    assert set(stored) == {("alice", "plackett_luce"), ("bob", "plackett_luce")}
    assert stored[("alice", "plackett_luce")].mu == changes[0].after.mu  # type: ignore[union-attr]
    assert stored[("alice", "plackett_luce")].rating is None
    assert {r.account_id for r in _rows(engine, rating_changes)} == {"alice", "bob"}
    # alice won the game outright: her number went up
    assert changes[0].delta > 0


def test_seats_that_do_not_fit_are_refused(engine: Engine) -> None:
    with pytest.raises(ValueError, match="exactly one"):
        RatedSeat()
    store = Store(engine)
    _match(store, "m1", "gungi", 2)
    with pytest.raises(NotRated, match="one account in several seats"):
        finish_rated(
            store, "m1", [], [], _result([1.0, -1.0]), [RatedSeat("a"), RatedSeat("a")], now=1
        )
    with pytest.raises(NotRated, match="AI level must be 1-5, not 9"):
        finish_rated(
            store, "m1", [], [], _result([1.0, -1.0]), [RatedSeat("a"), RatedSeat(None, 9)], now=1
        )
    with engine.connect() as conn:
        assert conn.execute(select(matches.c.status)).scalar_one() == "active"


def test_the_migration_makes_the_metadatas_tables(tmp_path: Path) -> None:
    """0007_ratings upgrades to exactly the metadata's two tables and downgrades away."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    from sengoku.server.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    eng = make_engine(f"sqlite:///{tmp_path / 'migrated.db'}")
    try:
        with eng.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0007_ratings")
        found = inspect(eng)
        for table in (ratings, rating_changes):
            columns = {c["name"]: c for c in found.get_columns(table.name)}
            assert list(columns) == [c.name for c in table.columns], table.name
            for c in table.columns:
                assert columns[c.name]["nullable"] == c.nullable or c.primary_key, c.name
            assert found.get_pk_constraint(table.name)["constrained_columns"] == [
                c.name for c in table.primary_key
            ]
            assert {i["name"] for i in found.get_indexes(table.name)} == {
                i.name for i in table.indexes
            }
        with eng.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0006_accounts")
        assert {"ratings", "rating_changes"} & set(inspect(eng).get_table_names()) == set()
    finally:
        eng.dispose()
