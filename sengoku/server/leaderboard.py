"""What the ratings show: a game's leaderboard and a player's profile (public facts only:
names, ratings, results; never a token, an account id or a deleted account).

Synchronous queries, run on the list threads (``Persistence.run_list``). docs/ratings.md.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine, select

from sengoku.ratings import RATED, Glicko2Rating, PlackettLuceRating, Rating, System
from sengoku.server.accounts import name_key
from sengoku.server.db import account_seats, accounts, matches, rating_changes, ratings, seats

#: The most finished games a profile reads (newest first): its counts and list cover these.
PROFILE_GAMES = 5000
#: What a game's result was for one seat.
RESULTS = ("win", "loss", "draw")


def _rating(system: str, row: Any) -> Rating:
    if system == "glicko2":
        return Glicko2Rating(row.rating, row.deviation, row.volatility)
    return PlackettLuceRating(row.mu, row.sigma)


def _shown(system: str, row: Any) -> dict[str, Any]:
    r = _rating(system, row)
    return {
        "rating": r.display,
        "deviation": round(r.display_deviation, 1),
        "provisional": r.provisional,
        "games": int(row.games),
    }


def default_system(game: str) -> System:
    """A game's leaderboard without ``system``: its two-player pool (Glicko-2)."""
    systems = RATED.get(game)
    if systems is None:
        raise ValueError(f"game {game!r} is not rated; rated games: {', '.join(sorted(RATED))}")
    return "glicko2" if "glicko2" in systems else next(iter(systems))


def leaderboard(engine: Engine, game: str, system: System, limit: int) -> list[dict[str, Any]]:
    """The top ``limit`` players of a pool by the number shown (deleted accounts left out),
    each with its deviation and whether it is provisional."""
    order = (
        ratings.c.rating.desc()
        if system == "glicko2"
        else (ratings.c.mu - 3.0 * ratings.c.sigma).desc()
    )
    with engine.connect() as conn:
        rows = conn.execute(
            select(ratings, accounts.c.name)
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .where(ratings.c.game == game, ratings.c.system == system, ~accounts.c.deleted)
            .order_by(order, accounts.c.name_key)
            .limit(limit)
        ).all()
    return [{"rank": i + 1, "name": r.name, **_shown(system, r)} for i, r in enumerate(rows)]


def result_for(result: dict[str, Any] | None, seat: int) -> str | None:
    """``win``, ``loss`` or ``draw`` for ``seat`` of a finished match's result: a draw when
    every seat's return is equal, a win for the best return, else a loss."""
    returns = (result or {}).get("returns") or []
    if seat >= len(returns):
        return None
    if len(set(returns)) == 1:
        return "draw"
    return "win" if returns[seat] == max(returns) else "loss"


def _count(games: list[dict[str, Any]]) -> dict[str, int]:
    return {
        "wins": sum(g["result"] == "win" for g in games),
        "losses": sum(g["result"] == "loss" for g in games),
        "draws": sum(g["result"] == "draw" for g in games),
    }


def profile(
    engine: Engine,
    name: str,
    game: str | None = None,
    result: str | None = None,
    opponent: str | None = None,
    limit: int = 50,
    offset: int = 0,
) -> dict[str, Any] | None:
    """A player's public profile (None: no such account, or a deleted one): each pool's
    rating with its history points ``[time, rating]`` and its win/loss/draw counts, the
    counts of every finished game, and the finished games filtered by ``game``, ``result``
    (win, loss, draw) and ``opponent`` (a name, in any case), newest first."""
    with engine.connect() as conn:
        account = conn.execute(
            select(accounts.c.id, accounts.c.name, accounts.c.created_at).where(
                accounts.c.name_key == name_key(name), ~accounts.c.deleted
            )
        ).first()
        if account is None:
            return None
        pools = conn.execute(
            select(ratings)
            .where(ratings.c.account_id == account.id)
            .order_by(ratings.c.game, ratings.c.system)
        ).all()
        changes = conn.execute(
            select(rating_changes)
            .where(rating_changes.c.account_id == account.id)
            .order_by(rating_changes.c.at, rating_changes.c.match_id)
        ).all()
        owned = conn.execute(
            select(
                account_seats.c.seat,
                matches.c.id,
                matches.c.game,
                matches.c.result,
                matches.c.rated,
                matches.c.updated_at,
            )
            .join(matches, matches.c.id == account_seats.c.match_id)
            .where(account_seats.c.account_id == account.id, matches.c.status == "finished")
            .order_by(matches.c.updated_at.desc(), matches.c.id.desc())
            .limit(PROFILE_GAMES)
        ).all()
        names: dict[str, dict[int, str]] = {}
        ids = [r.id for r in owned]
        for i in range(0, len(ids), 500):
            for s in conn.execute(
                select(seats.c.match_id, seats.c.seat, seats.c.name).where(
                    seats.c.match_id.in_(ids[i : i + 500])
                )
            ):
                names.setdefault(s.match_id, {})[int(s.seat)] = s.name
    by_match = {c.match_id: c for c in changes}
    games: list[dict[str, Any]] = []
    for r in owned:
        outcome = json.loads(r.result) if r.result else None
        change = by_match.get(r.id)
        seat_names = names.get(r.id, {})
        games.append(
            {
                "id": r.id,
                "game": r.game,
                "rated": bool(r.rated),
                "at": r.updated_at,
                "seat": int(r.seat),
                "result": result_for(outcome, int(r.seat)),
                "reason": (outcome or {}).get("reason"),
                "opponents": [n for s, n in sorted(seat_names.items()) if s != r.seat],
                "rating": None
                if change is None
                else {
                    "before": json.loads(change.before)["display"],
                    "after": json.loads(change.after)["display"],
                    "delta": int(change.delta),
                },
            }
        )
    out_ratings = []
    for p in pools:
        history = [
            [c.at, json.loads(c.after)["display"]]
            for c in changes
            if c.game == p.game and c.system == p.system
        ]
        # the first point: the rating before the pool's first rated game
        start = [first_point(changes, p.game, p.system)] if history else []
        rated_games = [g for g in games if g["rating"] is not None and g["game"] == p.game]
        out_ratings.append(
            {
                "game": p.game,
                "system": p.system,
                **_shown(p.system, p),
                "history": start + history,
                "record": _count(rated_games),
            }
        )
    chosen = [
        g
        for g in games
        if (game is None or g["game"] == game)
        and (result is None or g["result"] == result)
        and (opponent is None or any(name_key(n) == name_key(opponent) for n in g["opponents"]))
    ]
    return {
        "name": account.name,
        "since": account.created_at,
        "ratings": out_ratings,
        "record": _count(games),
        "games": chosen[offset : offset + limit],
        "total": len(chosen),
    }


def first_point(changes: Sequence[Any], game: str, system: str) -> list[Any]:
    """A pool's history starts at the rating its first rated game began from."""
    first = next(c for c in changes if c.game == game and c.system == system)
    return [first.at, json.loads(first.before)["display"]]
