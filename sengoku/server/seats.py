"""Seats and tokens: who holds which seat, creating a match, joining it.

A seat's token (and an invitation) is never stored, only its SHA-256; a token is compared in
constant time. An AI seat names its agent, resolved against the server's budget caps.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection

from sengoku.core.game import Game, SengokuError, event
from sengoku.core.registry import load_game
from sengoku.ratings import system_for
from sengoku.server import ai as ai_mod
from sengoku.server.broadcast import Broadcaster, event_entries, event_rows
from sengoku.server.clocks import TOURNAMENT_SECONDS, ClockError, Clocks, ClockSpec
from sengoku.server.db import dumps
from sengoku.server.errors import ApiError, engine_error
from sengoku.server.i18n import N_
from sengoku.server.live import (
    DEFAULT_REPLACEMENT_LEVEL,
    REPLACE_FROM_SEATS,
    Live,
    Seat,
    new_seed,
)
from sengoku.server.names import check_marks
from sengoku.server.persistence import Persistence, clock_json, seat_row
from sengoku.server.tokens import hash_token, new_match_id, new_token
from sengoku.server.turns import Turns

log = logging.getLogger("sengoku.server")


def check_ratable(
    game: str,
    players: int,
    seat_specs: list[dict[str, Any]],
    clock: ClockSpec | None,
    chosen_seed: bool,
    account: tuple[str, str] | None,
) -> None:
    """Refuse (422 ``not_ratable``, naming the reason) a rated match that cannot be rated:
    only signed-in players (no hot-seat seats), a clock, a rated game and number of
    players, AI seats at a level 1-5 (their fixed ratings), a seed the server draws."""

    def refuse(why: str, params: dict[str, Any] | None = None) -> ApiError:
        # each reason is a whole message of its own (marked N_), translated where answered
        return ApiError(422, "not_ratable", why, params)

    # A seat may name its own account (a seek's two players, sengoku/server/seeks.py);
    # the other local seats are the creator's.
    if account is None and not any(sp.get("account") for sp in seat_specs):
        raise refuse(
            N_(
                "this game cannot be rated: a rated game is played by signed-in players; sign in first"
            )
        )
    if clock is None:
        raise refuse(N_("this game cannot be rated: a rated game needs a clock ('clock')"))
    if chosen_seed:
        raise refuse(
            N_(
                "this game cannot be rated: a rated game's seed is drawn by the server; leave 'seed' out"
            )
        )
    try:
        system_for(game, players)
    except ValueError as exc:
        # the ratings module's own words (which games and sizes are rated), passed on
        raise refuse(N_("this game cannot be rated: %(why)s"), {"why": str(exc)}) from None
    kinds = [sp.get("kind", "local") for sp in seat_specs]
    owned = [sp["account"][0] for sp in seat_specs if sp.get("account")]
    if len(set(owned)) != len(owned):
        raise refuse(N_("this game cannot be rated: one account plays one seat of a rated game"))
    if sum(
        1 for sp in seat_specs if sp.get("kind", "local") == "local" and not sp.get("account")
    ) > (0 if account is None else 1):
        raise refuse(
            N_(
                "this game cannot be rated: every seat of a rated game belongs to its own "
                "signed-in player: at most one local seat (yours); invite the others"
            )
        )
    if "local" not in kinds and "invite" not in kinds and "open" not in kinds:
        raise refuse(N_("this game cannot be rated: nobody in it would be rated: no human seat"))
    for i, sp in enumerate(seat_specs):
        if kinds[i] == "ai" and sp.get("agent") is not None:
            raise refuse(
                N_(
                    "this game cannot be rated: AI seat %(seat)s names an agent; in a rated "
                    "game the AI plays a level 1-5, rated at its fixed rating"
                ),
                {"seat": i},
            )


def created_event(message: str, replacement_level: int | None) -> dict[str, Any]:
    """The ``match_created`` event; it keeps the level of the computer that takes a leaving
    player's seat (a match of three or more seats), so that it outlives a restart."""
    if replacement_level is None:
        return event("match_created", None, message=message)
    return event(
        "match_created",
        None,
        replacement_level=replacement_level,
        message=f"{message}; a player who leaves is replaced by the computer "
        f"(level {replacement_level})",
    )


class Seats:
    """Creates matches, seats players, and tells which seat a token holds."""

    def __init__(
        self,
        db: Persistence,
        bus: Broadcaster,
        turns: Turns,
        ai_limits: ai_mod.AiLimits,
        after_change: Callable[[Live], None],
    ) -> None:
        self.db = db
        self.bus = bus
        self.turns = turns
        self.ai_limits = ai_limits
        self._after_change = after_change

    def now(self) -> float:
        return self.db.now()

    def is_owner(self, live: Live, token: str | None) -> bool:
        """Whether ``token`` is the owner token of an all-AI match."""
        return (
            token is not None
            and live.owner_hash is not None
            and secrets.compare_digest(live.owner_hash, hash_token(token))
        )

    def seat_of(self, live: Live, token: str | None) -> int | None:
        """The seat ``token`` holds (None without a token: a spectator); 401 if it holds none."""
        if token is None:
            return None
        digest = hash_token(token)
        for s in live.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                s.last_seen = self.now()
                return s.seat
        raise ApiError(401, "bad_token", N_("this token does not hold a seat in this match"))

    def player_seat(self, live: Live, token: str | None) -> int:
        seat = self.seat_of(live, token)
        if seat is None:
            raise ApiError(
                401, "no_token", N_("a seat's token is required (Authorization: Bearer <token>)")
            )
        return seat

    @staticmethod
    def clock_spec(
        tournament_seconds: float | None,
        options: dict[str, Any],
        resolved: dict[str, Any],
        clock: dict[str, Any] | None,
    ) -> ClockSpec | None:
        """The match's clock, agreed with a game's own ``time_control`` option (Gunshi's).

        That option says which rules decide whose clock runs: ``tournament`` asks for the
        tournament clock (and is implied by it), any other clock kind is played with
        ``time_control=none`` (every decision timed). ``resolved`` is updated to match.
        """
        spec = None
        if clock is not None:
            try:
                spec = ClockSpec.from_json(clock)
            except ClockError as exc:
                raise ApiError(422, "bad_clock", str(exc)) from None
        if "time_control" not in resolved:
            return spec
        if spec is None:
            if resolved["time_control"] != "tournament":
                return None
            seconds = TOURNAMENT_SECONDS if tournament_seconds is None else tournament_seconds
            return ClockSpec("tournament", float(seconds))
        wanted = "tournament" if spec.type == "tournament" else "none"
        if "time_control" in options and options["time_control"] != wanted:
            raise ApiError(
                422,
                "bad_clock",
                N_(
                    "option time_control=%(given)s does not go with a %(clock)s clock: use "
                    "time_control=%(wanted)s with it, or leave the option out (the clock sets it)"
                ),
                {
                    "given": repr(options["time_control"]),
                    "clock": spec.type,
                    "wanted": repr(wanted),
                },
            )
        resolved["time_control"] = wanted
        return spec

    def _seat(
        self,
        game_name: str,
        i: int,
        sp: dict[str, Any],
        match_id: str,
        rated: bool,
        account: tuple[str, str] | None,
        owners: dict[int, str],
        tokens: dict[str, str],
        invites: list[dict[str, Any]],
    ) -> Seat:
        """Seat ``i`` of a new match from its spec: the computer, a local player (its token
        added to ``tokens``), an invitation (added to ``invites``) or an open seat. A local
        seat of an account (the spec's ``account``, from the server's own callers; or the
        signed-in creator's in a rated match) is added to ``owners`` and played under the
        account's name; a spec's ``token_hash`` holds the seat by a token made earlier."""
        kind = sp.get("kind", "local")
        name = sp.get("name") or (f"Player {i + 1}" if kind != "ai" else "")
        check_marks(f"seats[{i}].name", name)
        if kind == "ai":
            try:
                agent, level = ai_mod.resolve_ai(
                    sp.get("level"), sp.get("agent"), game_name, self.ai_limits
                )
            except SengokuError as exc:
                # the AI module's words for the level or agent (passed on, not translated)
                raise ApiError(
                    422,
                    "bad_seats",
                    N_("seat %(seat)s: %(problem)s"),
                    {"seat": i, "problem": str(exc)},
                ) from None
            return Seat(i, "ai", name or f"AI ({level or agent})", agent=agent, level=level)
        if kind == "local":
            own = sp.get("account")
            if own is not None:
                name = own[1]  # a seat of an account is played under its name
                owners[i] = own[0]
            elif rated and account is not None:
                name = account[1]  # a rated seat is played under the account's name
            token_hash = sp.get("token_hash")
            if token_hash is None:
                token = new_token()
                tokens[str(i)] = token
                token_hash = hash_token(token)
                if rated and account is not None and own is None:
                    owners[i] = account[0]
            return Seat(i, "human", name, token_hash=token_hash)
        if kind == "invite":
            invite = new_token()
            invites.append(
                {"seat": i, "invite": invite, "url": f"/play/{match_id}#invite={invite}"}
            )
            return Seat(i, "human", name, invite_hash=hash_token(invite))
        if kind == "open":
            return Seat(i, "human", name)
        raise ApiError(
            422,
            "bad_seats",
            N_("seat %(seat)s: kind %(kind)s; use local, invite, open or ai"),
            {"seat": i, "kind": repr(kind)},
        )

    async def create(
        self,
        game_name: str,
        options: dict[str, Any],
        seat_specs: list[dict[str, Any]],
        seed: int | None,
        clock: dict[str, Any] | None,
        rated: bool = False,
        account: tuple[str, str] | None = None,
        replacement_level: int | None = None,
        first: Callable[[Connection, str], None] | None = None,
    ) -> tuple[Live, dict[str, Any]]:
        """A new match. ``rated``: its end rates its players (docs/ratings.md); ``account``
        (id, name): the signed-in creator, who plays its local seat, if any.

        For the server's own callers only (never from a request's body): a ``local`` seat's
        spec may hold ``token_hash`` (the seat is held by that token, made earlier and not
        returned here) and ``account`` (id, name: the seat is that account's, played under
        its name, from the match's first row). ``first(conn, match_id)`` runs first in the
        creation's transaction and may raise to store nothing (a seek taken once)."""
        game = _game_to_create(game_name)
        try:
            resolved = game.resolve_options(**options)
        except SengokuError as exc:
            raise engine_error(422, "bad_option", exc) from None
        chosen_seed = seed is not None
        if seed is not None:
            _check_chosen_seed(seat_specs)
        else:
            seed = new_seed()
        spec = self.clock_spec(game.game_type.tournament_seconds, options, resolved, clock)
        try:
            state = game.new_state(seed, **resolved)
        except SengokuError as exc:
            raise engine_error(422, "bad_option", exc) from None
        n = state.num_players
        if len(seat_specs) != n:
            raise ApiError(
                422,
                "bad_seats",
                N_("%(game)s with these options has %(n)s seats; 'seats' lists %(listed)s"),
                {"game": game.name, "n": n, "listed": len(seat_specs)},
            )
        if rated:
            check_ratable(game.name, n, seat_specs, spec, chosen_seed, account)
        replacing = _replacement_level(n, replacement_level)
        tokens: dict[str, str] = {}
        owners: dict[int, str] = {}  # seat -> the account that owns it from the first row
        invites: list[dict[str, Any]] = []
        match_id = new_match_id()
        seats = [
            self._seat(game.name, i, sp, match_id, rated, account, owners, tokens, invites)
            for i, sp in enumerate(seat_specs)
        ]
        now = self.now()
        # A match no human plays has an owner: the creator, who alone may stop it.
        owner = new_token() if all(s.kind == "ai" for s in seats) else None
        live = Live(
            id=match_id,
            game=game,
            options=dict(state.options),
            seed=seed,
            version=game.version,
            status="waiting",
            seats=seats,
            created_at=now,
            state=state,
            clock_spec=spec,
            clocks=Clocks(spec, n) if spec else None,
            owner_hash=hash_token(owner) if owner else None,
            watched_at=now,
            rated=rated,
            replacement_level=replacing,
        )
        for s in seats:
            s.last_seen = now
        evs = [created_event(f"a game of {game.name} was created", replacing)]
        if all(s.joined for s in seats):
            evs.extend(self.turns.activate(live, now))
        rows = event_rows(live, evs)
        match_row = {
            "id": match_id,
            "game": game.name,
            "version": game.version,
            "options": dumps(live.options),
            "seed": str(seed),
            "clock": clock_json(live),
            "status": live.status,
            "result": None,
            "close_reason": None,
            "created_at": now,
            "updated_at": now,
            "rematch_of": None,
            "rematch_id": None,
            "owner_hash": live.owner_hash,
            "node": self.db.node,
            "rated": rated,
        }
        live.node = self.db.node
        seat_rows = [seat_row(live.id, s) for s in seats]
        # A rated match's local seat is its creator's account's from the first row (its end
        # is rated from the stored owners: sengoku/server/ratings.py).
        owner_rows = [
            {"match_id": match_id, "seat": i, "account_id": owner_id, "at": now}
            for i, owner_id in sorted(owners.items())
        ]
        await self.db.run(
            self.db.store.create_match,
            match_row,
            seat_rows,
            rows,
            None,
            owner_rows,
            None if first is None else (lambda conn: first(conn, match_id)),
        )
        live.events.extend(event_entries(rows))
        self.db.keep(live)
        log.info("match %s created: %s, %d seats", match_id, game.name, n)
        self._after_change(live)
        out: dict[str, Any] = {"tokens": tokens, "invites": invites}
        if owner is not None:
            out["owner"] = owner
        return live, out

    async def join(
        self,
        live: Live,
        invite: str | None,
        name: str | None,
        account: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        """Take a seat; ``account`` (id, name): the signed-in player, required in a rated
        match (the seat becomes the account's, in the join's transaction)."""
        async with live.lock:
            if live.status != "waiting":
                raise ApiError(
                    409,
                    "not_waiting",
                    N_("this match is %(status)s; nobody can join"),
                    params={"status": live.status},
                )
            if live.rated:
                if account is None:
                    raise ApiError(
                        401,
                        "not_signed_in",
                        N_("this is a rated game: sign in to join it (ratings belong to accounts)"),
                    )
                owners = await self.db.run(self.db.store.seat_owners, live.id)
                if account[0] in owners.values():
                    raise ApiError(
                        409,
                        "already_seated",
                        N_(
                            "you already play a seat in this rated game; a player is rated "
                            "against others, not against themselves"
                        ),
                    )
                name = account[1]
            if invite is not None:
                digest = hash_token(invite)
                found = [
                    s
                    for s in live.seats
                    if s.invite_hash is not None and secrets.compare_digest(s.invite_hash, digest)
                ]
                if not found:
                    raise ApiError(
                        403, "bad_invite", N_("this invitation is not valid for this match")
                    )
            else:
                found = [s for s in live.seats if s.public()["open"]]
                if not found:
                    raise ApiError(
                        409, "no_open_seat", N_("no seat is open; joining needs an invitation")
                    )
            seat = found[0]
            token = new_token()
            now = self.now()
            new_name = (name or seat.name or f"Player {seat.seat + 1}")[:64]
            check_marks("name", new_name)
            evs = [
                event(
                    "player_joined",
                    None,
                    seat=seat.seat,
                    name=new_name,
                    message=f"{new_name} took seat {seat.seat}",
                )
            ]
            joined_after = [s.joined or s is seat for s in live.seats]
            old_status = live.status
            old_clocks = live.clocks.to_json() if live.clocks else None
            if all(joined_after):
                evs.extend(self.turns.activate(live, now))
            rows = event_rows(live, evs)
            try:
                await self.db.run(
                    self.db.store.join,
                    live.id,
                    seat.seat,
                    {"token_hash": hash_token(token), "invite_hash": None, "name": new_name},
                    rows,
                    {"status": live.status, "clock": clock_json(live), "updated_at": now},
                    [{"match_id": live.id, "seat": seat.seat, "account_id": account[0], "at": now}]
                    if live.rated and account is not None
                    else None,
                )
            except BaseException:
                live.status = old_status
                if live.clocks is not None and old_clocks is not None:
                    live.clocks = Clocks.from_json(live.clocks.spec, old_clocks)
                raise
            seat.token_hash = hash_token(token)
            seat.invite_hash = None
            seat.name = new_name
            seat.last_seen = now
            self.bus.commit(live, rows)
        self._after_change(live)
        return {"seat": seat.seat, "token": token}


def _game_to_create(game_name: str) -> Game:
    """The game a new match names: 404 if unknown, 503 if its module fails to load."""
    try:
        return load_game(game_name)
    except SengokuError as exc:
        raise engine_error(404, "unknown_game", exc) from None
    except Exception as exc:  # a game that fails to import is a server fault, named
        log.exception("game %s failed to load", game_name)
        raise ApiError(
            503, "game_unavailable", N_("%(game)s cannot be loaded"), {"game": repr(game_name)}
        ) from exc


def _check_chosen_seed(seat_specs: list[dict[str, Any]]) -> None:
    """A chosen seed is refused when another party holds a seat (it is their secret)."""
    shared = [i for i, sp in enumerate(seat_specs) if sp.get("kind", "local") in {"invite", "open"}]
    if shared:
        raise ApiError(
            422,
            "seed_not_allowed",
            N_(
                "'seed' may be chosen only when no seat is held by another party (local and AI "
                "seats only); seat %(seat)s is %(kind)s: leave 'seed' out and the server draws "
                "a secret one"
            ),
            {"seat": shared[0], "kind": seat_specs[shared[0]]["kind"]},
        )


def _replacement_level(n: int, replacing: int | None) -> int | None:
    """The AI level that takes a leaving player's seat: none under REPLACE_FROM_SEATS seats
    (the field is then refused), else the one given or the default."""
    if n < REPLACE_FROM_SEATS:
        if replacing is not None:
            raise ApiError(
                422,
                "bad_seats",
                N_(
                    "'replacement_level': only a game of %(least)s or more players hands a "
                    "leaving player's seat to the computer; in this %(n)s-player game the other "
                    "player wins: leave the field out"
                ),
                {"least": REPLACE_FROM_SEATS, "n": n},
            )
        return None
    if replacing is None:
        return DEFAULT_REPLACEMENT_LEVEL
    if replacing not in ai_mod.AI_LEVELS:
        raise ApiError(
            422,
            "bad_seats",
            N_("'replacement_level': AI level %(level)s does not exist; levels: %(levels)s"),
            {"level": replacing, "levels": sorted(ai_mod.AI_LEVELS)},
        )
    return replacing
