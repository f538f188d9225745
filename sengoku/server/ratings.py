"""Players' ratings in storage: a finished match's rating changes, stored in the transaction
that stores its result.

No rating without a stored result: :func:`apply_ratings` reads the match's row inside the
transaction and rates only a finished match with a result, from that result. No result
without its rating change: :func:`finish_rated` hands :func:`apply_ratings` to
:meth:`Store.record_change` as its ``then``, so the result, the ratings and the changes commit
together or not at all. A match is rated once (``rating_changes``' key). The systems are
:mod:`sengoku.ratings`'s; docs/ratings.md.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, select, update

from sengoku.ratings import (
    Glicko2Rating,
    PlackettLuceRating,
    Rating,
    RatingChange,
    System,
    bot_rating,
    new_rating,
    rate_game,
    system_for,
)
from sengoku.server.db import Store, account_seats, dumps, matches, rating_changes, ratings
from sengoku.server.db import events as events_table
from sengoku.server.db import seats as seats_table


class NotRated(ValueError):
    """The match cannot be rated (not finished, no stored result, a seat that does not fit);
    raised inside the transaction, so nothing of it is stored."""


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """Who played a seat: a player's account, or an AI level with its fixed rating.
    ``left``: the account's player left the game and the computer finished it for them
    (the zombie rule): they are rated as last, whatever the computer made of the seat."""

    account_id: str | None = None
    bot_level: int | None = None
    left: bool = False

    def __post_init__(self) -> None:
        if (self.account_id is None) == (self.bot_level is None):
            raise ValueError("a rated seat is an account_id or a bot_level, exactly one")


def ranks_from_returns(returns: Sequence[float]) -> list[int]:
    """Each seat's rank from the outcome's returns: 1 + the seats that did strictly better
    (equal returns share a rank: a draw between them)."""
    return [1 + sum(1 for other in returns if other > mine) for mine in returns]


def ranks_with_leavers(returns: Sequence[float], seats: Sequence[RatedSeat]) -> list[int]:
    """The ranks of :func:`ranks_from_returns`, except that a player who left the game (the
    computer finishing it for them) is last, below every seat played to the end (leavers
    tie among themselves): leaving never saves a rating (Board Game Arena's rule)."""
    ranks = ranks_from_returns(returns)
    if not any(seat.left for seat in seats):
        return ranks
    kept = iter(
        ranks_from_returns([r for r, seat in zip(returns, seats, strict=True) if not seat.left])
    )
    last = sum(1 for seat in seats if not seat.left) + 1
    return [last if seat.left else next(kept) for seat in seats]


def _rating_json(rating: Rating) -> str:
    if isinstance(rating, Glicko2Rating):
        fields: dict[str, Any] = {
            "rating": rating.rating,
            "deviation": rating.deviation,
            "volatility": rating.volatility,
        }
    else:
        fields = {"mu": rating.mu, "sigma": rating.sigma}
    return json.dumps({"system": rating.system, "display": rating.display, **fields})


def _rating_values(rating: Rating) -> dict[str, float | None]:
    if isinstance(rating, Glicko2Rating):
        return {
            "rating": rating.rating,
            "deviation": rating.deviation,
            "volatility": rating.volatility,
            "mu": None,
            "sigma": None,
        }
    return {
        "rating": None,
        "deviation": None,
        "volatility": None,
        "mu": rating.mu,
        "sigma": rating.sigma,
    }


def _from_row(system: System, row: Any) -> Rating:
    if system == "glicko2":
        return Glicko2Rating(row.rating, row.deviation, row.volatility)
    return PlackettLuceRating(row.mu, row.sigma)


def load_rating(conn: Connection, account_id: str, game: str, system: System) -> tuple[Rating, int]:
    """An account's rating in a pool and its number of rated games (a new player's: 0)."""
    row = conn.execute(
        select(ratings)
        .where(
            ratings.c.account_id == account_id,
            ratings.c.game == game,
            ratings.c.system == system,
        )
        # PostgreSQL: two matches of one player finishing at once rate one after the other.
        .with_for_update()
    ).first()
    if row is None:
        return new_rating(system), 0
    return _from_row(system, row), int(row.games)


def apply_ratings(
    conn: Connection, match_id: str, seats: Sequence[RatedSeat], now: float
) -> list[RatingChange]:
    """Rate the finished match ``match_id`` on ``conn`` (inside the caller's transaction):
    every account's rating in the match's pool updated, one ``rating_changes`` row each, AI
    levels at their fixed ratings and unchanged. :class:`NotRated` when the match is not
    finished with a stored result, is rated already, or ``seats`` do not fit it (the
    ``rating_changes`` key also refuses a second rating: IntegrityError). Returns every seat's change, in seat order."""
    match = conn.execute(
        select(matches.c.game, matches.c.status, matches.c.result).where(matches.c.id == match_id)
    ).first()
    if match is None:
        raise NotRated(f"no match {match_id!r}")
    if match.status != "finished" or not match.result:
        raise NotRated(f"match {match_id} has no stored result (status {match.status!r})")
    rated = select(rating_changes.c.account_id).where(rating_changes.c.match_id == match_id)
    if conn.execute(rated.limit(1)).first() is not None:
        raise NotRated(f"match {match_id} is rated already")
    returns = json.loads(match.result).get("returns") or []
    if len(returns) != len(seats):
        raise NotRated(f"match {match_id} has {len(returns)} seats, {len(seats)} rated seats given")
    accounts = [s.account_id for s in seats if s.account_id is not None]
    if len(set(accounts)) != len(accounts):
        raise NotRated(f"match {match_id}: one account in several seats is not rated")
    game = str(match.game)
    try:
        system = system_for(game, len(seats))
    except ValueError as e:
        raise NotRated(str(e)) from None
    before: list[Rating] = []
    played: dict[str, int] = {}
    for seat in seats:
        if seat.account_id is not None:
            rating, games = load_rating(conn, seat.account_id, game, system)
            played[seat.account_id] = games
        else:
            assert seat.bot_level is not None
            try:
                rating = bot_rating(game, seat.bot_level, len(seats)).rating
            except ValueError as e:
                raise NotRated(str(e)) from None
        before.append(rating)
    changes = rate_game(game, list(zip(before, ranks_with_leavers(returns, seats), strict=True)))
    for seat, change in zip(seats, changes, strict=True):
        if seat.account_id is None:
            continue  # an AI level's rating is fixed (docs/ratings.md)
        key = {"account_id": seat.account_id, "game": game, "system": system}
        values = {**_rating_values(change.after), "games": played[seat.account_id] + 1}
        if played[seat.account_id] == 0:  # no row yet: a stored rating has a game or more
            conn.execute(insert(ratings).values(**key, **values, updated_at=now))
        else:
            conn.execute(
                update(ratings)
                .where(*(ratings.c[k] == v for k, v in key.items()))
                .values(**values, updated_at=now)
            )
        conn.execute(
            insert(rating_changes).values(
                match_id=match_id,
                account_id=seat.account_id,
                game=game,
                system=system,
                before=_rating_json(change.before),
                after=_rating_json(change.after),
                delta=change.delta,
                at=now,
            )
        )
    return changes


def finish_rated(
    store: Store,
    match_id: str,
    move_rows: list[dict[str, Any]],
    event_rows: list[dict[str, Any]],
    match_values: dict[str, Any],
    seats: Sequence[RatedSeat],
    now: float,
) -> list[RatingChange]:
    """Store a rated match's last change (its moves, events and the row with ``status``
    finished and its ``result``) and its rating changes in one transaction: both or
    neither. Returns the changes (as :func:`apply_ratings`)."""
    if match_values.get("status") != "finished" or not match_values.get("result"):
        raise NotRated("finish_rated stores a finished match's result: status and result")
    done: list[RatingChange] = []

    def rate(conn: Connection) -> None:
        done.extend(apply_ratings(conn, match_id, seats, now))

    store.record_change(match_id, move_rows, event_rows, match_values, then=rate)
    return done


def stored_seats(conn: Connection, match_id: str) -> list[RatedSeat]:
    """Who played each seat of ``match_id``, read inside the transaction: the account that
    owns a human seat (a rated match's seats are owned from their creation or join), an AI
    seat's level; a player's seat the computer took when they left is still theirs (rated as
    last). :class:`NotRated` for a human seat no account owns, or an AI seat without a
    level."""
    owners = {
        int(r.seat): str(r.account_id)
        for r in conn.execute(
            select(account_seats.c.seat, account_seats.c.account_id).where(
                account_seats.c.match_id == match_id
            )
        )
    }
    out: list[RatedSeat] = []
    for r in conn.execute(
        select(seats_table.c.seat, seats_table.c.kind, seats_table.c.level)
        .where(seats_table.c.match_id == match_id)
        .order_by(seats_table.c.seat)
    ):
        if r.kind == "ai" and int(r.seat) in owners:
            # a player's seat the computer took when they left (the zombie rule)
            out.append(RatedSeat(account_id=owners[int(r.seat)], left=True))
        elif r.kind == "ai":
            if r.level is None:
                raise NotRated(f"match {match_id}: AI seat {r.seat} plays no level")
            out.append(RatedSeat(bot_level=int(r.level)))
        elif int(r.seat) in owners:
            out.append(RatedSeat(account_id=owners[int(r.seat)]))
        else:
            raise NotRated(f"match {match_id}: seat {r.seat} is owned by no account")
    return out


def ratings_event(seats: Sequence[RatedSeat], changes: Sequence[RatingChange]) -> dict[str, Any]:
    """The public ``ratings`` event of a rated match's end: each seat's rating before and
    after and the change of the number shown; an AI level's fixed rating (the end card's
    "you beat level 3 (about 1500)")."""
    out: list[dict[str, Any]] = []
    words: list[str] = []
    for i, (seat, change) in enumerate(zip(seats, changes, strict=True)):
        if seat.bot_level is not None:
            out.append(
                {
                    "seat": i,
                    "kind": "ai",
                    "level": seat.bot_level,
                    "rating": change.before.display,
                    "provisional": change.before.provisional,
                }
            )
            words.append(f"seat {i}: AI level {seat.bot_level} (about {change.before.display})")
        else:
            out.append(
                {
                    "seat": i,
                    "kind": "player",
                    "before": change.before.display,
                    "after": change.after.display,
                    "delta": change.delta,
                    "provisional": change.after.provisional,
                }
            )
            words.append(
                f"seat {i}: {change.before.display} \u2192 {change.after.display} "
                f"({change.delta:+d})"
            )
    return {
        "type": "ratings",
        "system": changes[0].before.system if changes else None,
        "seats": out,
        "message": "ratings: " + "; ".join(words),
    }


class RatingStep:
    """The ``then`` of :meth:`Store.record_change` that ends a rated match: rates it (inside
    the transaction that stores its result, from that stored result) and stores the public
    ``ratings`` event numbered ``n`` after the ending's own events. ``rows`` holds that
    event's row once the transaction has run (the caller broadcasts it with the others)."""

    def __init__(self, match_id: str, n: int, ply: int, now: float) -> None:
        self.match_id = match_id
        self.n = n
        self.ply = ply
        self.now = now
        self.rows: list[dict[str, Any]] = []

    def __call__(self, conn: Connection) -> None:
        seats = stored_seats(conn, self.match_id)
        changes = apply_ratings(conn, self.match_id, seats, self.now)
        row = {
            "match_id": self.match_id,
            "n": self.n,
            "ply": self.ply,
            "audience": None,
            "payload": dumps(ratings_event(seats, changes)),
        }
        conn.execute(insert(events_table), [row])
        self.rows = [row]


def rating_step(
    match_id: str,
    rated: bool,
    last_event: int,
    rows: Sequence[dict[str, Any]],
    ply: int,
    values: dict[str, Any] | None,
    now: float,
) -> RatingStep | None:
    """The rating step of a change that ends a rated match with a result (``values``: the
    match's stored columns, ``rows``: the change's event rows after event ``last_event``);
    None for any other change (a casual match, a match aborted or closed without result)."""
    if not rated or values is None:
        return None
    if values.get("status") != "finished" or not values.get("result"):
        return None
    n = (int(rows[-1]["n"]) if rows else last_event) + 1
    return RatingStep(match_id, n, int(rows[-1]["ply"]) if rows else ply, now)
