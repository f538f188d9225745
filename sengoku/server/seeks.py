"""Seeks: matchmaking in the lobby (issue 37; docs/api.md "Seeks").

A seek is a player's standing offer of a game: the game and its options, a clock, rated or
casual, and an optional range of ratings its opponent must have. The lobby lists the seeks
a player may accept; accepting one creates the match between the two (the match creation of
``POST /api/matches``: ``MatchService.create``), both seats held from its first row.

- **Tokens.** Making a seek answers, once, the token of the seat the seeker will hold: the
  server keeps its SHA-256 only (as for every seat), and the match made from the seek seats
  the seeker under that hash. So the token never travels again: the seeker's page learns
  that its seek was taken (``GET /api/seeks/mine``: the match id and its seat) and plays
  with the token it already holds. The accepter's token comes in the accept's answer.
- **Taken once.** The accept's conditional ``UPDATE`` of the seek (still open, not lapsed)
  runs first in the transaction that stores the new match: of two accepts at once, on one
  process or several on one database, one commits; the other's update finds the seek taken
  and its transaction, match included, stores nothing (``409 seek_taken``).
- **Lapsing.** A seek stands ``seek_ttl`` seconds at most, only while its owner's page looks
  at it (``GET /api/seeks/mine`` at least every ``seek_idle`` seconds) and, for a signed-in
  seeker, while the session that made it lasts (signing out ends it).
- **Limits.** An owner (an account, or a guest's client address) has at most
  ``seek_max_open`` open seeks: each takes one of the owner's slots, unique in the table, so
  the limit holds for requests that arrive at once.

Seeks are for games of two seats. Rated seeks need an account (their ratings are the
accounts'); a guest may make and accept casual seeks without a rating range.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    and_,
    delete,
    exists,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy import exc as sa_exc

from sengoku.core.game import SengokuError
from sengoku.core.registry import load_game
from sengoku.ratings import Glicko2Rating, new_rating, system_for
from sengoku.server.accounts import Account
from sengoku.server.db import account_sessions, dumps, ratings, seeks
from sengoku.server.errors import ApiError, engine_error
from sengoku.server.i18n import N_
from sengoku.server.names import check_marks
from sengoku.server.seats import Seats, check_ratable
from sengoku.server.settings import Settings
from sengoku.server.tokens import hash_token, new_token

if TYPE_CHECKING:
    from sengoku.server.service import MatchService

#: A seek's ``seen_at`` is written at most this often (seconds): the owner's page asks
#: every few seconds, and each look need not be a write.
SEEN_EVERY = 5.0
#: Closed seeks are kept this long after they would have expired (the seeker's page reads
#: an accepted seek's match from them), then deleted by the next seek made.
KEEP_CLOSED = 86_400.0
#: The most seeks the lobby reads at once.
LOBBY_LIMIT = 200
#: The name of a guest who gives none.
GUEST = "Guest"


def new_seek_id() -> str:
    return secrets.token_urlsafe(9)


def standing(now: float, idle: float) -> ColumnElement[bool]:
    """The seeks that may still be accepted: open, not expired, looked at by their owner
    within ``idle`` seconds, and made in a session that still lasts (or by a guest)."""
    session_lasts = exists().where(
        account_sessions.c.id_hash == seeks.c.session_hash,
        account_sessions.c.expires_at > now,
    )
    return and_(
        seeks.c.status == "open",
        seeks.c.expires_at > now,
        seeks.c.seen_at > now - idle,
        or_(seeks.c.session_hash.is_(None), session_lasts),
    )


def rating_of(row: Any | None) -> dict[str, Any]:
    """The rating a player shows in a game's two-player pool (a new player's: 1500,
    provisional)."""
    if row is None:
        rating = new_rating("glicko2")
        games = 0
    else:
        rating = Glicko2Rating(row.rating, row.deviation, row.volatility)
        games = int(row.games)
    return {"rating": rating.display, "provisional": rating.provisional, "games": games}


def two_player_pool(game: str) -> bool:
    """Whether ``game`` is rated between two players (its pool is Glicko-2)."""
    try:
        return system_for(game, 2) == "glicko2"
    except ValueError:
        return False


class SeekStore:
    """The seeks' queries, each one transaction (synchronous: run on a storage thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, row: dict[str, Any], max_open: int, idle: float) -> bool:
        """Store a new seek in a free slot of its owner's (the owner's lapsed seeks closed
        first, freeing theirs); False when every slot is taken. Seeks closed long ago are
        deleted on the way."""
        now = float(row["created_at"])
        for _ in range(max_open + 1):
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        update(seeks)
                        .where(
                            seeks.c.owner == row["owner"],
                            seeks.c.slot.is_not(None),
                            ~standing(now, idle),
                        )
                        .values(status="expired", slot=None, closed_at=now)
                    )
                    taken = set(
                        conn.scalars(
                            select(seeks.c.slot).where(
                                seeks.c.owner == row["owner"], seeks.c.slot.is_not(None)
                            )
                        )
                    )
                    free = [i for i in range(max_open) if i not in taken]
                    if not free:
                        return False
                    conn.execute(insert(seeks), [{**row, "slot": free[0]}])
                    conn.execute(delete(seeks).where(seeks.c.expires_at < now - KEEP_CLOSED))
                return True
            except sa_exc.IntegrityError:
                continue  # another seek of the owner took that slot at the same moment
        return False

    def get(self, seek_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(seeks).where(seeks.c.id == seek_id)).first()
        return None if row is None else dict(row._mapping)

    def is_standing(self, seek_id: str, now: float, idle: float) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(seeks.c.id).where(seeks.c.id == seek_id, standing(now, idle))
            ).first()
        return found is not None

    def lobby(self, game: str | None, now: float, idle: float) -> list[dict[str, Any]]:
        """The standing seeks, oldest first, each with its seeker's rating row (or None)."""
        query = select(seeks).where(standing(now, idle))
        if game is not None:
            query = query.where(seeks.c.game == game)
        with self.engine.connect() as conn:
            rows = [
                dict(r._mapping)
                for r in conn.execute(query.order_by(seeks.c.created_at).limit(LOBBY_LIMIT))
            ]
            owners = {r["account_id"] for r in rows if r["account_id"] is not None}
            found: dict[tuple[str, str], Any] = {}
            if owners:
                for r in conn.execute(
                    select(ratings).where(
                        ratings.c.account_id.in_(owners), ratings.c.system == "glicko2"
                    )
                ):
                    found[(r.account_id, r.game)] = r
        for seek in rows:
            owner = seek["account_id"]
            seek["rating_row"] = None if owner is None else found.get((owner, seek["game"]))
        return rows

    def ratings_of(self, account_id: str) -> dict[str, Any]:
        """An account's two-player ratings, by game."""
        with self.engine.connect() as conn:
            return {
                r.game: r
                for r in conn.execute(
                    select(ratings).where(
                        ratings.c.account_id == account_id, ratings.c.system == "glicko2"
                    )
                )
            }

    def mine(
        self,
        account_id: str | None,
        token_hash: str | None,
        now: float,
        idle: float,
        recent: float,
    ) -> list[dict[str, Any]]:
        """The seeks of an account and of a seat token: those standing, and those closed in
        the last ``recent`` seconds. Looking keeps the standing ones standing (``seen_at``)."""
        mine = []
        if account_id is not None:
            mine.append(seeks.c.account_id == account_id)
        if token_hash is not None:
            mine.append(seeks.c.token_hash == token_hash)
        if not mine:
            return []
        whose = or_(*mine)
        with self.engine.begin() as conn:
            conn.execute(
                update(seeks)
                .where(whose, standing(now, idle), seeks.c.seen_at < now - SEEN_EVERY)
                .values(seen_at=now)
            )
            rows = conn.execute(
                select(seeks, standing(now, idle).label("standing"))
                .where(
                    whose,
                    or_(
                        standing(now, idle),
                        seeks.c.closed_at > now - recent,
                        seeks.c.expires_at > now - recent,
                    ),
                )
                .order_by(seeks.c.created_at)
            ).all()
        return [dict(r._mapping) for r in rows]

    def cancel(self, seek_id: str, now: float) -> bool:
        """Close an open seek (its slot freed); False when it was not open."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seeks)
                .where(seeks.c.id == seek_id, seeks.c.status == "open")
                .values(status="cancelled", slot=None, closed_at=now)
            )
        return bool(done.rowcount == 1)

    @staticmethod
    def take(
        conn: Connection, seek_id: str, match_id: str, seat: int, now: float, idle: float
    ) -> None:
        """Inside the new match's transaction: the seek, if it still stands, becomes that
        match's; otherwise 409 and the transaction (the match with it) stores nothing. The
        conditional update is the one place that decides: a second accept's update waits
        for the first's commit (a row lock; SQLite's one writer) and then matches no row."""
        done = conn.execute(
            update(seeks)
            .where(seeks.c.id == seek_id, standing(now, idle))
            .values(status="accepted", match_id=match_id, seat=seat, slot=None, closed_at=now)
        )
        if done.rowcount != 1:
            status = conn.scalar(select(seeks.c.status).where(seeks.c.id == seek_id))
            raise gone(str(status) if status is not None else "expired")


def gone(status: str) -> ApiError:
    """The refusal for a seek that can no longer be accepted, by what became of it."""
    if status == "accepted":
        return ApiError(409, "seek_taken", N_("another player accepted this seek first"))
    if status == "cancelled":
        return ApiError(409, "seek_cancelled", N_("its player withdrew this seek"))
    return ApiError(
        409, "seek_expired", N_("this seek has lapsed: its player is no longer waiting")
    )


class Seeks:
    """The seeks' rules (routes/seeks.py serves them)."""

    def __init__(self, settings: Settings, engine: Engine, svc: Callable[[], MatchService]) -> None:
        self.settings = settings
        self.store = SeekStore(engine)
        self.svc = svc

    def now(self) -> float:
        return self.settings.now()

    # -- what a seek shows ---------------------------------------------------------------
    @staticmethod
    def public(row: dict[str, Any]) -> dict[str, Any]:
        """What the lobby shows of a seek: public facts only (no account id, no token)."""
        rated_pool = row["account_id"] is not None and two_player_pool(row["game"])
        return {
            "id": row["id"],
            "game": row["game"],
            "options": json.loads(row["options"]),
            "clock": json.loads(row["clock"]) if row["clock"] else None,
            "rated": bool(row["rated"]),
            "rating_min": row["rating_min"],
            "rating_max": row["rating_max"],
            "name": row["name"],
            "rating": rating_of(row.get("rating_row")) if rated_pool else None,
            "created_at": row["created_at"],
            "expires_at": row["expires_at"],
        }

    @staticmethod
    def status_of(row: dict[str, Any]) -> str:
        if row["status"] == "open":
            return "open" if row.get("standing") else "expired"
        return str(row["status"])

    def own(self, row: dict[str, Any]) -> dict[str, Any]:
        """What the seeker sees of its own seek: its state, and once accepted the match and
        the seat its token holds there."""
        out = self.public(row)
        out.pop("rating")
        out.update(status=self.status_of(row), match_id=row["match_id"], seat=row["seat"])
        return out

    # -- making a seek -------------------------------------------------------------------
    def check_offer(
        self,
        game_name: str,
        options: dict[str, Any],
        clock: dict[str, Any] | None,
        rated: bool,
        rating_range: tuple[int | None, int | None],
        account: Account | None,
    ) -> dict[str, Any]:
        """The game's options, resolved and agreed with the clock, after the checks a match
        creation makes (a game of two seats; a rated one between accounts); 4xx naming the
        field otherwise."""
        try:
            game = load_game(game_name)
        except SengokuError as exc:
            raise engine_error(404, "unknown_game", exc) from None
        try:
            resolved = game.resolve_options(**options)
        except SengokuError as exc:
            raise engine_error(422, "bad_option", exc) from None
        # the clock as a match's creation reads it (Gunshi's time_control agreed with it)
        spec = Seats.clock_spec(game.game_type.tournament_seconds, options, resolved, clock)
        try:
            players = game.new_state(0, **resolved).num_players
        except SengokuError as exc:
            raise engine_error(422, "bad_option", exc) from None
        if players != 2:
            raise ApiError(
                422,
                "bad_seats",
                N_(
                    "a seek is for a game of two players; %(game)s with these options has "
                    "%(n)s seats: create the match and share its link instead"
                ),
                params={"game": game.name, "n": players},
            )
        low, high = rating_range
        if low is not None or high is not None:
            if not two_player_pool(game.name):
                raise ApiError(
                    422,
                    "bad_range",
                    N_("%(game)s is not rated: a seek for it takes no range"),
                    params={"game": game.name},
                )
            if low is not None and high is not None and low > high:
                raise ApiError(
                    422,
                    "bad_range",
                    N_("'rating_min' (%(low)s) is above 'rating_max' (%(high)s)"),
                    params={"low": low, "high": high},
                )
        if rated:
            check_ratable(
                game.name,
                2,
                [{"kind": "local"}, {"kind": "open"}],
                spec,
                False,
                None if account is None else (account.id, account.name),
            )
        return {"game": game.name, "options": dict(resolved)}

    async def create(
        self,
        offer: dict[str, Any],
        account: Account | None,
        session_hash: str | None,
        client: str,
        name: str | None,
    ) -> tuple[dict[str, Any], str]:
        """A new seek → (what its owner sees of it, the token of the seat it will hold)."""
        checked = self.check_offer(
            offer["game"],
            offer["options"],
            offer["clock"],
            offer["rated"],
            (offer["rating_min"], offer["rating_max"]),
            account,
        )
        if account is not None:
            shown = account.name
            owner = f"account:{account.id}"
        else:
            shown = (name or "").strip() or GUEST
            check_marks("name", shown)
            owner = "guest:" + hashlib.sha256(client.encode("utf-8")).hexdigest()[:40]
        now = self.now()
        token = new_token()
        row = {
            "id": new_seek_id(),
            "game": checked["game"],
            "options": dumps(checked["options"]),
            "clock": dumps(offer["clock"]) if offer["clock"] is not None else None,
            "rated": bool(offer["rated"]),
            "rating_min": offer["rating_min"],
            "rating_max": offer["rating_max"],
            "name": shown[:64],
            "account_id": None if account is None else account.id,
            "session_hash": session_hash if account is not None else None,
            "token_hash": hash_token(token),
            "owner": owner,
            "status": "open",
            "created_at": now,
            "expires_at": now + self.settings.seek_ttl,
            "seen_at": now,
            "closed_at": None,
            "match_id": None,
            "seat": None,
        }
        limit = self.settings.seek_max_open
        if not await self.svc().db.run(self.store.create, row, limit, self.settings.seek_idle):
            raise ApiError(
                409,
                "too_many_seeks",
                N_(
                    "you have %(n)s open seeks already (the most one player may have): "
                    "withdraw one first"
                ),
                params={"n": limit},
            )
        return self.own({**row, "standing": True}), token

    # -- the lobby -------------------------------------------------------------------------
    async def lobby(self, account: Account | None, game: str | None) -> list[dict[str, Any]]:
        """The standing seeks ``account`` (None: a guest) may accept: not its own; rated
        ones and ones with a range only for an account, whose rating in the seek's game
        lies within the range."""
        now = self.now()
        rows = await self.svc().run_list(self.store.lobby, game, now, self.settings.seek_idle)
        mine: dict[str, Any] = {}
        if account is not None:
            mine = await self.svc().run_list(self.store.ratings_of, account.id)
        out = []
        for row in rows:
            if account is not None and row["account_id"] == account.id:
                continue  # one's own seeks are under GET /api/seeks/mine
            if self.refusal(row, account, mine.get(row["game"])) is None:
                out.append(self.public(row))
        return out

    @staticmethod
    def refusal(row: dict[str, Any], account: Account | None, rating: Any) -> ApiError | None:
        """Why ``account`` (None: a guest) may not accept the seek ``row``, or None."""
        low, high = row["rating_min"], row["rating_max"]
        ranged = low is not None or high is not None
        if account is None and (row["rated"] or ranged):
            return ApiError(
                401,
                "not_signed_in",
                N_("this seek is a rated game: sign in to accept it (ratings belong to accounts)")
                if row["rated"]
                else N_(
                    "this seek is open to a range of ratings: sign in to accept it "
                    "(ratings belong to accounts)"
                ),
            )
        if ranged:
            shown = rating_of(rating)["rating"]
            if (low is not None and shown < low) or (high is not None and shown > high):
                return ApiError(
                    403,
                    "out_of_range",
                    N_(
                        "this seek is for ratings %(low)s to %(high)s; yours in %(game)s is %(shown)s"
                    ),
                    params={
                        "low": low if low is not None else "-",
                        "high": high if high is not None else "-",
                        "game": row["game"],
                        "shown": shown,
                    },
                )
        return None

    async def mine(self, account: Account | None, token: str | None) -> list[dict[str, Any]]:
        rows = await self.svc().db.run(
            self.store.mine,
            None if account is None else account.id,
            None if token is None else hash_token(token),
            self.now(),
            self.settings.seek_idle,
            self.settings.seek_ttl,
        )
        return [self.own(r) for r in rows]

    async def _owned(
        self, seek_id: str, account: Account | None, token: str | None
    ) -> dict[str, Any]:
        row = await self.svc().db.run(self.store.get, seek_id)
        if row is None:
            raise ApiError(
                404,
                "no_such_seek",
                N_("there is no seek %(seek)s"),
                params={"seek": repr(seek_id)},
            )
        by_account = account is not None and row["account_id"] == account.id
        by_token = token is not None and secrets.compare_digest(
            row["token_hash"], hash_token(token)
        )
        if not (by_account or by_token):
            raise ApiError(
                403,
                "not_your_seek",
                N_(
                    "only its player may withdraw a seek: signed in to the account that made "
                    "it, or with the token its making answered (Authorization: Bearer <token>)"
                ),
            )
        return dict(row)

    async def cancel(
        self, seek_id: str, account: Account | None, token: str | None
    ) -> dict[str, Any]:
        row = await self._owned(seek_id, account, token)
        if row["status"] == "accepted":
            raise gone("accepted")
        now = self.now()
        if await self.svc().db.run(self.store.cancel, seek_id, now):
            row.update(status="cancelled", closed_at=now)
        return self.own(row)

    # -- accepting ----------------------------------------------------------------------
    async def accept(
        self, seek_id: str, account: Account | None, name: str | None
    ) -> dict[str, Any]:
        """Accept a seek: the match between its seeker and ``account`` (None: a guest named
        ``name``), created as ``POST /api/matches`` creates one; the accepter's seat, token
        and snapshot. 409 when the seek was taken first (by an accept at the same moment,
        on any process), withdrawn or lapsed."""
        now = self.now()
        idle = self.settings.seek_idle
        row = await self.svc().db.run(self.store.get, seek_id)
        if row is None:
            raise ApiError(
                404,
                "no_such_seek",
                N_("there is no seek %(seek)s"),
                params={"seek": repr(seek_id)},
            )
        if row["status"] != "open" or not await self.svc().db.run(
            self.store.is_standing, seek_id, now, idle
        ):
            raise gone(row["status"])
        if account is not None and row["account_id"] == account.id:
            raise ApiError(409, "own_seek", N_("this is your own seek: another player accepts it"))
        mine = None
        if account is not None and (row["rating_min"] is not None or row["rating_max"] is not None):
            mine = (await self.svc().run_list(self.store.ratings_of, account.id)).get(row["game"])
        refusal = self.refusal(row, account, mine)
        if refusal is not None:
            raise refusal
        if account is None:
            shown = (name or "").strip() or GUEST
            check_marks("name", shown)
        else:
            shown = account.name
        seeker: dict[str, Any] = {
            "kind": "local",
            "name": row["name"],
            "token_hash": row["token_hash"],
        }
        if row["account_id"] is not None:
            seeker["account"] = (row["account_id"], row["name"])
        accepter: dict[str, Any] = {"kind": "local", "name": shown[:64]}
        if account is not None:
            accepter["account"] = (account.id, account.name)
        seeker_seat = secrets.randbelow(2)  # who moves first is drawn, not chosen
        specs = [seeker, accepter] if seeker_seat == 0 else [accepter, seeker]

        def take(conn: Connection, match_id: str) -> None:
            SeekStore.take(conn, seek_id, match_id, seeker_seat, now, idle)

        live, secrets_out = await self.svc().create(
            row["game"],
            json.loads(row["options"]),
            specs,
            None,
            json.loads(row["clock"]) if row["clock"] else None,
            bool(row["rated"]),
            None,
            None,
            take,
        )
        seat = 1 - seeker_seat
        return {
            "id": live.id,
            "seat": seat,
            "token": secrets_out["tokens"][str(seat)],
            "match": self.svc().snapshot(live, seat),
        }
