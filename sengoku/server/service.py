"""The match service: the only place where a match's state lives and changes.

Every change follows the same path, under the match's lock:

1. check who asks (the seat's token) and that the change is allowed now;
2. compute it on a clone of the state (the engine validates every action);
3. commit the moves and numbered events to the database;
4. only then replace the live state and broadcast each subscriber what its seat may see.

A match is rebuilt from its stored seed and moves whenever the server starts (or first needs
it), so nothing lives only in memory. The server knows games only through the core contract.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import logging
import os
import random
import re
import secrets
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sqlalchemy.exc import OperationalError, SQLAlchemyError

from sengoku.core.game import Game, Option, SengokuError, State, event
from sengoku.core.record import GameRecord
from sengoku.core.registry import list_games, load_game
from sengoku.server import ai as ai_mod
from sengoku.server.clocks import TOURNAMENT_SECONDS, ClockError, Clocks, ClockSpec
from sengoku.server.db import Store, dumps
from sengoku.server.tokens import hash_token, new_match_id, new_token
from sengoku.server.work import WorkPool, WorkRefused, import_summary

log = logging.getLogger("sengoku.server")

LIVE_STATUSES = ["waiting", "active"]
#: Messages waiting for one WebSocket connection before it is closed as too slow.
MAX_QUEUED = 2000
#: The longest record ``POST /api/records`` accepts (each action is replayed by the engine).
MAX_IMPORT_ACTIONS = 20_000
DONE_STATUSES = ["finished", "aborted", "closed", "archived"]
#: The size of the seeds the server draws.
SEED_BITS = 128


class ApiError(Exception):
    """An error a client caused (or may retry): HTTP status, a short code, a message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


@dataclass
class Settings:
    """Everything the server can be told; tests replace the time source and the AI pool."""

    db_url: str
    now: Callable[[], float] = time.time
    ai_mode: str = "process"
    ai_workers: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) // 2))
    ai_initializer: Callable[[], None] | None = None
    #: Budget caps of AI seats (``mcts:seconds=86400`` is refused), the wall-clock limit of
    #: one decision (past it the worker is replaced), the tries before a match whose AI
    #: keeps failing is aborted, and how long an all-AI match runs unwatched.
    ai_max_seconds: float = 5.0
    ai_max_iterations: int = 20_000
    ai_timeout: float = 60.0
    ai_retries: int = 2
    ai_idle_after: float = 600.0
    #: Worker processes ("process"; "thread" for tests) for replays and imports, and the
    #: seconds one may take before its worker is replaced (``503 too_slow``).
    work_mode: str = "process"
    work_workers: int = 1
    work_timeout: float = 30.0
    #: Seconds an opponent must be gone before a seat may claim the win.
    claim_after: float = 60.0
    #: Token buckets per client address (sengoku/server/limits.py): sustained rate per
    #: second and burst. ``http``: every request; ``ws``: WebSocket messages other than
    #: actions; ``action``: actions over HTTP and WebSocket together; ``connect``: WebSocket
    #: connections opened; ``create``/``import``/``replay``: those requests.
    http_rate: float = 50.0
    http_burst: float = 200.0
    ws_rate: float = 20.0
    ws_burst: float = 60.0
    action_rate: float = 20.0
    action_burst: float = 100.0
    create_rate: float = 0.2
    create_burst: float = 20.0
    import_rate: float = 0.2
    import_burst: float = 10.0
    replay_rate: float = 2.0
    replay_burst: float = 20.0
    connect_rate: float = 2.0
    connect_burst: float = 40.0
    #: WebSocket connections one client address may hold open at once.
    ws_per_client: int = 64
    #: Spectator connections (WebSocket, no seat) per match.
    max_spectators: int = 50
    #: Seconds a match may wait for players before it expires (aborted, reason "expired").
    waiting_ttl: float = 86_400.0
    #: Peers whose X-Forwarded-For header is believed (addresses or networks; "*": any).
    trusted_proxies: tuple[str, ...] = ()
    #: Client addresses the per-client limits do not apply to (a load test's own address).
    limit_exempt: tuple[str, ...] = ()
    #: SQLite's synchronous setting: FULL survives power loss for acknowledged actions;
    #: NORMAL is faster but may lose the last commits (never corrupts) on power loss.
    sqlite_synchronous: str = "FULL"
    max_body: int = 2_000_000
    max_ws_message: int = 16_384
    #: Storage threads for moves and loads, and (apart, so slow lists never delay a move)
    #: for the lists of matches and records.
    db_workers: int = 4
    db_list_workers: int = 2
    #: Seconds a statement waits for a lock held elsewhere before ``503 db_busy``.
    db_lock_timeout: float = 10.0
    #: Arm real timers for clock flags (tests with a fake clock turn this off).
    timers: bool = True


@dataclass
class Seat:
    seat: int
    kind: str  # "human" or "ai"
    name: str
    token_hash: str | None = None
    invite_hash: str | None = None
    agent: str | None = None
    level: int | None = None
    connections: int = 0
    last_seen: float = 0.0

    @property
    def joined(self) -> bool:
        return self.kind == "ai" or self.token_hash is not None

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "joined": self.joined,
            "open": self.kind == "human" and self.token_hash is None and self.invite_hash is None,
            "invited": self.invite_hash is not None,
            "level": self.level,
            "agent": self.agent,
            "connected": self.kind == "ai" or self.connections > 0,
        }


@dataclass(eq=False)
class Subscriber:
    """One WebSocket connection: its seat (None: spectator) and its outgoing queue."""

    seat: int | None
    #: Whether its state messages carry the legal actions' short forms too.
    short: bool = False
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)


@dataclass(eq=False)
class Live:
    id: str
    game: Game
    options: dict[str, Any]
    seed: int
    version: int
    status: str
    seats: list[Seat]
    created_at: float
    state: State | None = None
    clock_spec: ClockSpec | None = None
    clocks: Clocks | None = None
    actions: list[str] = field(default_factory=list)
    action_seats: list[int] = field(default_factory=list)
    #: The client's id of each action (``POST .../actions`` ``id``), or None.
    action_ids: list[str | None] = field(default_factory=list)
    concessions: list[dict[str, Any]] = field(default_factory=list)
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    close_reason: str | None = None
    rematch_of: str | None = None
    rematch_id: str | None = None
    takeback: dict[str, Any] | None = None
    rematch_offers: set[int] = field(default_factory=set)
    subscribers: set[Subscriber] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.TimerHandle | None = None
    ai_busy: bool = False
    #: The task thinking for the AI seat to act, if any (a takeback cancels it).
    ai_task: asyncio.Task[None] | None = None
    #: Counts every change of the state: an AI answer for an older count is stale.
    turn: int = 0
    #: SHA-256 of the owner token of an all-AI match (it may stop the match).
    owner_hash: str | None = None
    #: When somebody last looked at the match (all-AI matches stop when nobody does).
    watched_at: float = 0.0
    #: The state the caches below were computed for.
    legal_state: State | None = None
    #: Its legal actions with their canonical notation, and by that exact text.
    legal_rows: list[tuple[Any, str]] = field(default_factory=list)
    legal_by_text: dict[str, Any] = field(default_factory=dict)
    #: Their short forms (``format_action`` can be slow: computed only when asked for).
    legal_short: list[str] | None = None

    def legal(self) -> list[tuple[Any, str]]:
        """The legal actions of the current state, computed once per state."""
        state = self.state
        if state is None:
            return []
        if self.legal_state is not state:
            self.legal_rows = [(a, str(a)) for a in state.legal_actions()]
            # Exact canonical text only: other spellings go through the game's parse_action.
            self.legal_by_text = {t: a for a, t in self.legal_rows}
            self.legal_short = None
            self.legal_state = state
        return self.legal_rows

    def legal_json(self, short: bool) -> list[dict[str, str]]:
        rows = self.legal()
        if not short:
            return [{"action": text} for _a, text in rows]
        if self.legal_short is None and self.state is not None:
            self.legal_short = [self.game.format_action(self.state, a) for a, _t in rows]
        shorts = self.legal_short or []
        return [{"action": t, "short": sh} for (_a, t), sh in zip(rows, shorts, strict=True)]

    @property
    def ply(self) -> int:
        return len(self.actions)

    @property
    def to_act(self) -> int:
        if self.status != "active" or self.state is None:
            return -1
        return self.state.current_player

    def record(self) -> GameRecord:
        return GameRecord(
            game=self.game.name,
            version=self.version,
            options=dict(self.options),
            seed=self.seed,
            players=[s.name for s in self.seats],
            actions=list(self.actions),
            concessions=[dict(c) for c in self.concessions],
            result=self.result,
        )


def _visible(audience: list[int] | None, seat: int | None) -> bool:
    return audience is None or (seat is not None and seat in audience)


class MatchService:
    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.live: dict[str, Live] = {}
        self._db = concurrent.futures.ThreadPoolExecutor(
            max(1, settings.db_workers), thread_name_prefix="sengoku-db"
        )
        self._db_lists = concurrent.futures.ThreadPoolExecutor(
            max(1, settings.db_list_workers), thread_name_prefix="sengoku-db-list"
        )
        self._ai = ai_mod.AiPool(
            settings.ai_mode, settings.ai_workers, settings.ai_initializer, settings.ai_timeout
        )
        self._ai_limits = ai_mod.AiLimits(settings.ai_max_seconds, settings.ai_max_iterations)
        self.work = WorkPool(
            settings.work_mode,
            settings.work_workers,
            settings.ai_initializer,
            settings.work_timeout,
        )
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loading: dict[str, asyncio.Future[Live | None]] = {}

    # -- life cycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Load the games, then resume every unfinished match from its seed and moves."""
        await self._run(self._preload_games)
        ids = await self._run(self.store.ids_with_status, LIVE_STATUSES)
        for match_id in ids:
            live = await self.get(match_id)
            if live is not None:
                async with live.lock:
                    await self._check_flag(live)
                self._after_change(live)
        log.info("resumed %d unfinished matches", len(ids))

    @staticmethod
    def _preload_games() -> None:
        """Import every game now (some build tables), not on a player's first request."""
        for name in list_games():
            try:
                load_game(name)
            except Exception:  # a game that does not import is reported when it is asked for
                log.exception("game %s failed to load", name)

    async def close(self) -> None:
        for live in self.live.values():
            if live.timer:
                live.timer.cancel()
            for sub in live.subscribers:
                sub.queue.put_nowait(None)
        for task in list(self._tasks):
            task.cancel()
        self._ai.shutdown()
        self.work.shutdown()
        self._db_lists.shutdown(wait=True, cancel_futures=True)
        self._db.shutdown(wait=True)

    async def heavy(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a long engine job (a replay) in the work pool; 503 when it cannot."""
        try:
            return await self.work.run(fn, *args)
        except WorkRefused as exc:
            raise ApiError(503, exc.code, exc.message) from None

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a storage call on a storage thread; a lock held too long elsewhere is a 503."""
        return await self._on(self._db, fn, *args)

    async def run_list(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A list query (lobby, records): on threads of its own, so it never delays a move."""
        return await self._on(self._db_lists, fn, *args)

    @staticmethod
    async def _on(pool: concurrent.futures.Executor, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except SQLAlchemyError as exc:
            # Only the error's class: the statement's parameters may hold secrets.
            orig = getattr(exc, "orig", None)
            log.error("database: %s (%s)", type(exc).__name__, type(orig).__name__)
            if isinstance(exc, OperationalError):
                raise ApiError(
                    503, "db_busy", "the database is busy (a lock is held); try again shortly"
                ) from None
            raise ApiError(
                503, "storage_error", "the change could not be stored, so nothing changed; retry"
            ) from None

    def now(self) -> float:
        return self.settings.now()

    # -- loading ----------------------------------------------------------------------
    async def get(self, match_id: str) -> Live | None:
        if match_id in self.live:
            return self.live[match_id]
        if match_id in self._loading:
            return await self._loading[match_id]
        fut: asyncio.Future[Live | None] = asyncio.get_running_loop().create_future()
        self._loading[match_id] = fut
        try:
            data = await self._run(self.store.load, match_id)
            live = None if data is None else await self._build(data)
            if live is not None:
                self.live[match_id] = live
            fut.set_result(live)
            return live
        except BaseException as exc:
            fut.set_exception(exc)
            raise
        finally:
            del self._loading[match_id]

    async def require(self, match_id: str) -> Live:
        live = await self.get(match_id)
        if live is None:
            raise ApiError(404, "no_such_match", f"there is no match {match_id!r}")
        return live

    async def _build(self, data: dict[str, Any]) -> Live:
        m = data["match"]
        seats = [
            Seat(
                seat=r["seat"],
                kind=r["kind"],
                name=r["name"],
                token_hash=r["token_hash"],
                invite_hash=r["invite_hash"],
                agent=r["agent"],
                level=r["level"],
                last_seen=self.now(),
            )
            for r in data["seats"]
        ]
        clock_data = json.loads(m["clock"]) if m["clock"] else None
        spec = ClockSpec.from_json(clock_data["spec"]) if clock_data else None
        clocks = (
            Clocks.from_json(spec, clock_data["state"])
            if spec is not None and clock_data and clock_data.get("state")
            else None
        )
        events = [
            {
                "n": r["n"],
                "ply": r["ply"],
                "audience": json.loads(r["audience"]) if r["audience"] is not None else None,
                "event": json.loads(r["payload"]),
            }
            for r in data["events"]
        ]
        actions: list[str] = []
        action_seats: list[int] = []
        action_ids: list[str | None] = []
        concessions: list[dict[str, Any]] = []
        for mv in data["moves"]:
            if mv["kind"] == "action":
                actions.append(mv["action"])
                action_seats.append(mv["seat"])
                action_ids.append(mv.get("client_id"))
            else:
                concessions.append(
                    {"ply": len(actions), "seat": mv["seat"], "reason": mv["reason"]}
                )
        seq = (data["moves"][-1]["seq"] + 1) if data["moves"] else 0
        try:
            game = load_game(m["game"])
        except SengokuError:
            game = _MissingGame(m["game"])
        live = Live(
            id=m["id"],
            game=game,
            options=json.loads(m["options"]),
            seed=int(m["seed"]),
            version=int(m["version"]),
            status=m["status"],
            seats=seats,
            created_at=m["created_at"],
            clock_spec=spec,
            clocks=clocks,
            actions=actions,
            action_seats=action_seats,
            action_ids=action_ids,
            concessions=concessions,
            seq=seq,
            events=events,
            result=json.loads(m["result"]) if m["result"] else None,
            close_reason=m["close_reason"],
            rematch_of=m["rematch_of"],
            rematch_id=m["rematch_id"],
            owner_hash=m.get("owner_hash"),
            watched_at=self.now(),
        )
        if live.status == "finished" and live.rematch_id is None:
            # rematch offers outlive a restart (and a match forgotten from memory)
            live.rematch_offers = {
                int(e["event"]["seat"]) for e in events if e["event"]["type"] == "rematch_offered"
            }
        problem = None
        if isinstance(game, _MissingGame):
            problem = f"this server no longer has the game {m['game']!r}"
        elif live.version != game.version:
            problem = (
                f"this match was played with {game.name} rules version {live.version}; the "
                f"server now plays version {game.version}, so the match cannot be replayed"
            )
        else:
            try:
                record = live.record()
                record.result = None
                # A long match takes a while to replay: not on the event loop.
                live.state = await asyncio.to_thread(record.replay)
            except SengokuError as exc:
                problem = _replay_problem(exc)
        if problem is not None:
            live.state = None
            if live.status in LIVE_STATUSES:
                log.warning("match %s closed: %s", live.id, problem)
                live.status = "closed"
                live.close_reason = problem
                rows = self._new_events(
                    live, [event("closed", None, reason=problem, message=problem)]
                )
                await self._run(
                    self.store.record_change,
                    live.id,
                    [],
                    rows,
                    {"status": "closed", "close_reason": problem, "updated_at": self.now()},
                )
                live.events.extend(self._event_entries(rows))
            elif live.close_reason is None:
                live.close_reason = problem
        return live

    # -- events -----------------------------------------------------------------------
    def _new_events(self, live: Live, evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Database rows for ``evs``, numbered after the match's last event."""
        rows = []
        n = len(live.events)
        for ev in evs:
            n += 1
            payload = {k: v for k, v in ev.items() if k != "audience"}
            rows.append(
                {
                    "match_id": live.id,
                    "n": n,
                    "ply": live.ply,
                    "audience": None if ev.get("audience") is None else dumps(ev["audience"]),
                    "payload": dumps(payload),
                }
            )
        return rows

    @staticmethod
    def _event_entries(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {
                "n": r["n"],
                "ply": r["ply"],
                "audience": None if r["audience"] is None else json.loads(r["audience"]),
                "event": json.loads(r["payload"]),
            }
            for r in rows
        ]

    def events_for(self, live: Live, seat: int | None, after: int) -> list[dict[str, Any]]:
        """The numbered events after ``after`` that ``seat`` may see."""
        start = max(0, after)
        return [
            self._wire_event(e)
            for e in live.events[start:]
            if e["n"] > after and _visible(e["audience"], seat)
        ]

    @staticmethod
    def _wire_event(e: dict[str, Any]) -> dict[str, Any]:
        return {"type": "event", "n": e["n"], "event": {**e["event"], "audience": e["audience"]}}

    # -- what a seat sees -------------------------------------------------------------
    def snapshot(self, live: Live, seat: int | None, short: bool = True) -> dict[str, Any]:
        """What ``seat`` sees of the match; ``short`` adds each legal action's short form."""
        state = live.state
        to_act = live.to_act
        legal: list[dict[str, str]] = []
        if state is not None and seat is not None and to_act == seat:
            legal = live.legal_json(short)
        takeback = None
        if live.takeback is not None:
            takeback = {"by": live.takeback["by"], "to_ply": live.takeback["to_ply"]}
        return {
            "id": live.id,
            "game": live.game.name,
            "version": live.version,
            "options": live.options,
            "status": live.status,
            "seats": [s.public() for s in live.seats],
            "you": seat,
            "ply": live.ply,
            "last_event": len(live.events),
            "to_act": to_act,
            "view": state.view(seat) if state is not None else None,
            "legal": legal,
            "clocks": live.clocks.snapshot(self.now()) if live.clocks else None,
            "result": live.result,
            "close_reason": live.close_reason,
            "rematch_of": live.rematch_of,
            "rematch_id": live.rematch_id,
            "offers": {"takeback": takeback, "rematch": sorted(live.rematch_offers)},
            "can_abort": self._can_abort(live),
        }

    # -- seats and tokens -------------------------------------------------------------
    def seat_of(self, live: Live, token: str | None) -> int | None:
        """The seat ``token`` holds (None without a token: a spectator); 401 if it holds none."""
        if token is None:
            return None
        digest = hash_token(token)
        for s in live.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                s.last_seen = self.now()
                return s.seat
        raise ApiError(401, "bad_token", "this token does not hold a seat in this match")

    def player_seat(self, live: Live, token: str | None) -> int:
        seat = self.seat_of(live, token)
        if seat is None:
            raise ApiError(
                401, "no_token", "a seat's token is required (Authorization: Bearer <token>)"
            )
        return seat

    # -- creating and joining ---------------------------------------------------------
    async def create(
        self,
        game_name: str,
        options: dict[str, Any],
        seat_specs: list[dict[str, Any]],
        seed: int | None,
        clock: dict[str, Any] | None,
    ) -> tuple[Live, dict[str, Any]]:
        try:
            game = load_game(game_name)
        except SengokuError as exc:
            raise ApiError(404, "unknown_game", str(exc)) from None
        except Exception as exc:  # a game that fails to import is a server fault, named
            log.exception("game %s failed to load", game_name)
            raise ApiError(503, "game_unavailable", f"{game_name!r} cannot be loaded") from exc
        try:
            resolved = game.resolve_options(**options)
        except SengokuError as exc:
            raise ApiError(422, "bad_option", str(exc)) from None
        if seed is not None:
            shared = [
                i
                for i, sp in enumerate(seat_specs)
                if sp.get("kind", "local") in {"invite", "open"}
            ]
            if shared:
                raise ApiError(
                    422,
                    "seed_not_allowed",
                    f"'seed' may be chosen only when no seat is held by another party (local "
                    f"and AI seats only); seat {shared[0]} is {seat_specs[shared[0]]['kind']}: "
                    "leave 'seed' out and the server draws a secret one",
                )
        else:
            seed = new_seed()
        try:
            state = game.new_state(seed, **resolved)
        except SengokuError as exc:
            raise ApiError(422, "bad_option", str(exc)) from None
        n = state.num_players
        if len(seat_specs) != n:
            raise ApiError(
                422,
                "bad_seats",
                f"{game.name} with these options has {n} seats; 'seats' lists {len(seat_specs)}",
            )
        spec = None
        if clock is not None:
            try:
                spec = ClockSpec.from_json(clock)
            except ClockError as exc:
                raise ApiError(422, "bad_clock", str(exc)) from None
        elif state.options.get("time_control") == "tournament":
            # A game whose own option asks for its tournament time control (Gunshi's).
            own = game.tournament_seconds
            seconds = float(TOURNAMENT_SECONDS if own is None else own)
            spec = ClockSpec("tournament", seconds)
        seats: list[Seat] = []
        tokens: dict[str, str] = {}
        invites: list[dict[str, Any]] = []
        match_id = new_match_id()
        for i, sp in enumerate(seat_specs):
            kind = sp.get("kind", "local")
            name = sp.get("name") or (f"Player {i + 1}" if kind != "ai" else "")
            if kind == "ai":
                try:
                    agent, level = ai_mod.resolve_ai(
                        sp.get("level"), sp.get("agent"), game.name, self._ai_limits
                    )
                except SengokuError as exc:
                    raise ApiError(422, "bad_seats", f"seat {i}: {exc}") from None
                seats.append(
                    Seat(i, "ai", name or f"AI ({level or agent})", agent=agent, level=level)
                )
            elif kind == "local":
                token = new_token()
                tokens[str(i)] = token
                seats.append(Seat(i, "human", name, token_hash=hash_token(token)))
            elif kind == "invite":
                invite = new_token()
                invites.append(
                    {"seat": i, "invite": invite, "url": f"/play/{match_id}#invite={invite}"}
                )
                seats.append(Seat(i, "human", name, invite_hash=hash_token(invite)))
            elif kind == "open":
                seats.append(Seat(i, "human", name))
            else:
                raise ApiError(
                    422, "bad_seats", f"seat {i}: kind {kind!r}; use local, invite, open or ai"
                )
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
        )
        for s in seats:
            s.last_seen = now
        evs = [event("match_created", None, message=f"a game of {game.name} was created")]
        if all(s.joined for s in seats):
            evs.extend(self._activate(live, now))
        rows = self._new_events(live, evs)
        match_row = {
            "id": match_id,
            "game": game.name,
            "version": game.version,
            "options": dumps(live.options),
            "seed": str(seed),
            "clock": self._clock_json(live),
            "status": live.status,
            "result": None,
            "close_reason": None,
            "created_at": now,
            "updated_at": now,
            "rematch_of": None,
            "rematch_id": None,
            "owner_hash": live.owner_hash,
        }
        seat_rows = [self._seat_row(live.id, s) for s in seats]
        await self._run(self.store.create_match, match_row, seat_rows, rows)
        live.events.extend(self._event_entries(rows))
        self.live[match_id] = live
        log.info("match %s created: %s, %d seats", match_id, game.name, n)
        self._after_change(live)
        out: dict[str, Any] = {"tokens": tokens, "invites": invites}
        if owner is not None:
            out["owner"] = owner
        return live, out

    @staticmethod
    def _seat_row(match_id: str, s: Seat) -> dict[str, Any]:
        return {
            "match_id": match_id,
            "seat": s.seat,
            "kind": s.kind,
            "name": s.name,
            "token_hash": s.token_hash,
            "invite_hash": s.invite_hash,
            "agent": s.agent,
            "level": s.level,
        }

    @staticmethod
    def _clock_json(live: Live) -> str | None:
        if live.clock_spec is None:
            return None
        state = live.clocks.to_json() if live.clocks else None
        return dumps({"spec": live.clock_spec.to_json(), "state": state})

    def _activate(self, live: Live, now: float) -> list[dict[str, Any]]:
        live.status = "active"
        if live.clocks is not None and live.state is not None:
            state = live.state
            seat = self._running_seat(state)
            if live.clocks.spec.untimed_first and not state.game.clock_rules:
                seat = None
            live.clocks.start(seat, now)
        return [event("match_started", None, message="every seat is taken: the game begins")]

    @staticmethod
    def _running_seat(state: State) -> int | None:
        """Whose clock runs in ``state``: the contract's declared ``State.clock_seat`` (by
        default the seat to act, unless ``clock_running`` is false; a game with phases
        without a clock, such as Gunshi's tournament rules, overrides it), None once over."""
        if state.is_terminal():
            return None
        seat = state.clock_seat
        return None if seat is None else int(seat)

    async def join(self, live: Live, invite: str | None, name: str | None) -> dict[str, Any]:
        async with live.lock:
            if live.status != "waiting":
                raise ApiError(409, "not_waiting", f"this match is {live.status}; nobody can join")
            if invite is not None:
                digest = hash_token(invite)
                found = [
                    s
                    for s in live.seats
                    if s.invite_hash is not None and secrets.compare_digest(s.invite_hash, digest)
                ]
                if not found:
                    raise ApiError(403, "bad_invite", "this invitation is not valid for this match")
            else:
                found = [s for s in live.seats if s.public()["open"]]
                if not found:
                    raise ApiError(
                        409, "no_open_seat", "no seat is open; joining needs an invitation"
                    )
            seat = found[0]
            token = new_token()
            now = self.now()
            new_name = (name or seat.name or f"Player {seat.seat + 1}")[:64]
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
                evs.extend(self._activate(live, now))
            rows = self._new_events(live, evs)
            try:
                await self._run(
                    self.store.join,
                    live.id,
                    seat.seat,
                    {"token_hash": hash_token(token), "invite_hash": None, "name": new_name},
                    rows,
                    {"status": live.status, "clock": self._clock_json(live), "updated_at": now},
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
            self._commit_events(live, rows)
        self._after_change(live)
        return {"seat": seat.seat, "token": token}

    # -- playing ----------------------------------------------------------------------
    def _require_active(self, live: Live) -> State:
        if live.status != "active" or live.state is None:
            why = {
                "waiting": "this match is waiting for players to join",
                "finished": "this match is over",
                "aborted": "this match was aborted",
                "closed": f"this match is closed: {live.close_reason}",
                "archived": "this is an imported record, not a match in play",
            }.get(live.status, f"this match is {live.status}")
            raise ApiError(409, f"match_{live.status}", why)
        return live.state

    async def act(
        self,
        live: Live,
        seat: int,
        text: str,
        ply: int | None,
        by_ai: bool = False,
        client_id: str | None = None,
        turn: int | None = None,
    ) -> dict[str, Any]:
        """Play ``text`` for ``seat``. A retry is never applied twice: ``ply`` (the number of
        actions the client saw) makes it stale, and a ``client_id`` seen before for this seat
        answers with the match as it is, marked ``duplicate``. One of the two is required."""
        async with live.lock:
            if client_id is not None and client_id in live.action_ids:
                i = live.action_ids.index(client_id)
                if live.action_seats[i] != seat:
                    raise ApiError(
                        409, "id_used", "this action id was used by another seat; use a new one"
                    )
                snap = self.snapshot(live, seat)
                snap["duplicate"] = {"ply": i, "action": live.actions[i]}
                return snap
            await self._check_flag(live)
            state = self._require_active(live)
            if turn is not None and turn != live.turn:
                raise ApiError(409, "stale", "the position changed while the AI was thinking")
            if ply is not None and ply != live.ply:
                raise ApiError(
                    409,
                    "stale",
                    f"stale action: it was meant for ply {ply}, but {live.ply} actions have "
                    "been played; fetch the match again",
                )
            if state.current_player != seat:
                raise ApiError(
                    409,
                    "not_your_turn",
                    f"it is not your turn: seat {state.current_player} is to act",
                )
            if live.seats[seat].kind == "ai" and not by_ai:
                raise ApiError(403, "ai_seat", "this seat is played by the AI")
            try:
                live.legal()
                exact = live.legal_by_text.get(text.strip())
                action = exact if exact is not None else live.game.parse_action(state, text)
                after = state.clone()
                game_events = after.apply(action)
            except SengokuError as exc:
                raise ApiError(422, "illegal_action", str(exc)) from None
            except Exception as exc:  # an engine fault: the match stays as it was
                raise engine_fault(live, "the action", exc) from None
            if ply is None and client_id is None:
                raise ApiError(
                    422,
                    "missing_ply",
                    "an action needs 'ply' (the number of actions you have seen) or 'id' (a "
                    "key of your own, unique to this action), so that a retry is never "
                    "applied twice",
                )
            now = self.now()
            notation = str(action)
            clocks_after = self._clocks_after(live, seat, after, now)
            outcome = after.outcome()
            move = {
                "match_id": live.id,
                "seq": live.seq,
                "kind": "action",
                "seat": seat,
                "action": notation,
                "reason": None,
                "at": now,
                "clocks": dumps(clocks_after.to_json()) if clocks_after else None,
                "client_id": client_id,
            }
            rows = self._new_events(live, game_events)
            for r in rows:
                r["ply"] = live.ply + 1
            values: dict[str, Any] = {"updated_at": now}
            if outcome is not None:
                values["status"] = "finished"
                values["result"] = dumps(outcome.to_json())
            old_clocks = live.clocks
            live.clocks = clocks_after
            try:
                values["clock"] = self._clock_json(live)
                await self._run(self.store.record_change, live.id, [move], rows, values)
            except BaseException:
                live.clocks = old_clocks
                raise
            live.state = after
            live.turn += 1
            live.actions.append(notation)
            live.action_seats.append(seat)
            live.action_ids.append(client_id)
            live.seq += 1
            live.takeback = None
            if outcome is not None:
                live.status = "finished"
                live.result = outcome.to_json()
            self._commit_events(live, rows)
            log.debug("match %s: seat %d played ply %d", live.id, seat, live.ply)
            snap = self.snapshot(live, seat)
        self._after_change(live)
        return snap

    def _clocks_after(self, live: Live, mover: int, after: State, now: float) -> Clocks | None:
        if live.clocks is None or live.clock_spec is None:
            return None
        clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
        if after.is_terminal():
            clocks.pause(now)
        else:
            clocks.decided(mover, after.current_player, now, self._running_seat(after))
        return clocks

    async def conclude(self, live: Live, seat: int, reason: str, status: str = "finished") -> None:
        """End the match as a loss for ``seat`` (resignation, timeout, abandonment).

        The caller holds the lock.
        """
        state = self._require_active(live)
        after = state.clone()
        try:
            evs = after.concede(seat, reason)
        except SengokuError as exc:
            raise ApiError(409, "cannot_concede", str(exc)) from None
        except Exception as exc:  # an engine fault: the match stays as it was
            raise engine_fault(live, "the concession", exc) from None
        now = self.now()
        outcome = after.outcome()
        result = outcome.to_json() if outcome else None
        clocks = None
        if live.clocks is not None and live.clock_spec is not None:
            clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
            clocks.pause(now)
        move = {
            "match_id": live.id,
            "seq": live.seq,
            "kind": "concede",
            "seat": seat,
            "action": None,
            "reason": reason,
            "at": now,
            "clocks": dumps(clocks.to_json()) if clocks else None,
        }
        rows = self._new_events(live, evs)
        old = live.clocks
        live.clocks = clocks
        try:
            values = {
                "status": status,
                "result": dumps(result) if result else None,
                "updated_at": now,
                "clock": self._clock_json(live),
            }
            await self._run(self.store.record_change, live.id, [move], rows, values)
        except BaseException:
            live.clocks = old
            raise
        live.state = after
        live.turn += 1
        live.concessions.append({"ply": live.ply, "seat": seat, "reason": reason})
        live.seq += 1
        live.status = status
        live.result = result
        live.takeback = None
        self._commit_events(live, rows)
        log.info("match %s: seat %d conceded (%s)", live.id, seat, reason)

    async def resign(self, live: Live, seat: int) -> dict[str, Any]:
        async with live.lock:
            await self._check_flag(live)
            await self.conclude(live, seat, "resignation")
            snap = self.snapshot(live, seat)
        self._after_change(live)
        return snap

    async def _check_flag(self, live: Live) -> None:
        """If the running clock has run out, the game ends on time (caller holds the lock)."""
        if live.status != "active" or live.clocks is None:
            return
        flagged = live.clocks.flagged(self.now())
        if flagged is not None:
            await self.conclude(live, flagged, "timeout")

    async def sweep(self) -> None:
        """Check every live match's clock (the timers do this; tests call it directly)."""
        for live in list(self.live.values()):
            if live.status == "active" and live.clocks is not None:
                async with live.lock:
                    await self._check_flag(live)
                self._after_change(live)

    # -- abort, claim, takeback, rematch ----------------------------------------------
    def _can_abort(self, live: Live) -> bool:
        if live.status == "waiting":
            return True
        if live.status != "active":
            return False
        humans = {s.seat for s in live.seats if s.kind == "human"}
        return not humans.issubset(set(live.action_seats))

    async def abort(self, live: Live, seat: int) -> dict[str, Any]:
        async with live.lock:
            if not self._can_abort(live):
                raise ApiError(
                    409,
                    "cannot_abort",
                    "a match can be aborted only before every player has made a first move",
                )
            await self._set_status(
                live,
                "aborted",
                [event("aborted", None, seat=seat, message=f"seat {seat} aborted the match")],
            )
            snap = self.snapshot(live, seat)
        self._after_change(live)
        return snap

    async def _set_status(self, live: Live, status: str, evs: list[dict[str, Any]]) -> None:
        rows = self._new_events(live, evs)
        now = self.now()
        if live.clocks is not None:
            live.clocks.pause(now)
        await self._run(
            self.store.record_change,
            live.id,
            [],
            rows,
            {"status": status, "updated_at": now, "clock": self._clock_json(live)},
        )
        live.status = status
        self._commit_events(live, rows)

    async def claim(self, live: Live, seat: int) -> dict[str, Any]:
        async with live.lock:
            await self._check_flag(live)
            state = self._require_active(live)
            now = self.now()
            # A claim wins only on the opponent's time: the seat to act is the one that left.
            to_act = state.current_player
            if to_act == seat:
                raise ApiError(
                    409,
                    "your_turn",
                    "you are to act: a claim wins only while the opponent who left is to act",
                )
            if not 0 <= to_act < len(live.seats) or live.seats[to_act].kind != "human":
                raise ApiError(
                    409,
                    "not_claimable",
                    "a win can be claimed only while an absent human opponent is to act",
                )
            gone = [s for s in live.seats if s.seat == to_act and s.connections == 0]
            ready = [s for s in gone if now - s.last_seen >= self.settings.claim_after]
            if not ready:
                if not gone:
                    raise ApiError(409, "opponent_connected", "your opponent is connected")
                wait = min(self.settings.claim_after - (now - s.last_seen) for s in gone)
                raise ApiError(
                    409,
                    "too_soon",
                    f"your opponent left less than {self.settings.claim_after:.0f} s ago; "
                    f"you can claim the win in {wait:.0f} s",
                )
            await self.conclude(live, ready[0].seat, "abandoned")
            snap = self.snapshot(live, seat)
        self._after_change(live)
        return snap

    async def takeback(self, live: Live, seat: int, accept: bool) -> dict[str, Any]:
        """Propose a takeback of ``seat``'s last decision, or accept the one proposed."""
        async with live.lock:
            await self._check_flag(live)
            self._require_active(live)
            offer = live.takeback
            if offer is None:
                if not accept:
                    raise ApiError(409, "no_offer", "there is no takeback offer to decline")
                mine = [i for i, s in enumerate(live.action_seats) if s == seat]
                if not mine:
                    raise ApiError(409, "nothing_to_take_back", "you have not made a move yet")
                to_ply = mine[-1]
                if any(c["ply"] > to_ply for c in live.concessions):
                    raise ApiError(409, "cannot_take_back", "a concession cannot be taken back")
                others = {s.seat for s in live.seats if s.kind == "human" and s.seat != seat}
                try:
                    problem = await asyncio.to_thread(
                        self._takeback_problem, live, to_ply, not others
                    )
                except Exception as exc:  # an engine fault: the match stays as it was
                    raise engine_fault(live, "the takeback check", exc) from None
                if problem:
                    raise ApiError(409, "cannot_take_back", problem)
                live.takeback = {"by": seat, "to_ply": to_ply, "accepted": {seat}}
                if not others:
                    await self._do_takeback(live)
                else:
                    rows = self._new_events(
                        live,
                        [
                            event(
                                "takeback_offered",
                                None,
                                seat=seat,
                                to_ply=to_ply,
                                message=f"seat {seat} asks to take back a move",
                            )
                        ],
                    )
                    await self._run(self.store.record_change, live.id, [], rows, None)
                    self._commit_events(live, rows)
            else:
                if not accept:
                    live.takeback = None
                    rows = self._new_events(
                        live,
                        [event("takeback_declined", None, seat=seat, message="takeback declined")],
                    )
                    await self._run(self.store.record_change, live.id, [], rows, None)
                    self._commit_events(live, rows)
                else:
                    if seat in offer["accepted"]:
                        raise ApiError(409, "already_offered", "you already asked for a takeback")
                    offer["accepted"].add(seat)
                    humans = {s.seat for s in live.seats if s.kind == "human"}
                    if humans.issubset(offer["accepted"]):
                        await self._do_takeback(live)
            snap = self.snapshot(live, seat)
        self._after_change(live)
        return snap

    def _takeback_problem(self, live: Live, to_ply: int, against_ai: bool) -> str | None:
        """Why the actions from ``to_ply`` on cannot be taken back, or None.

        Never across hidden information that was revealed, nor across a random draw: replay
        the moves to be taken back from determinizations of the position before them (hidden
        parts and future draws resampled); if any seat that must not learn anything would
        have seen a different view or different events, something hidden or random was
        revealed. Against the AI only the requester matters; between humans, everybody.
        """
        record = live.record()
        record.result = None
        record.concessions = []
        try:
            before = record.replay(upto=to_ply)
        except SengokuError as exc:
            return _replay_problem(exc)
        requester = live.action_seats[to_ply]
        watchers = [requester] if against_ai else list(range(before.num_players))
        span = live.actions[to_ply:]
        for watcher in watchers:
            real = [before.view(watcher)]
            real_events: list[Any] = []
            st = before.clone()
            for text in span:
                evs = st.apply(live.game.parse_action(st, text))
                real_events.append([e for e in evs if _visible(e.get("audience"), watcher)])
                real.append(st.view(watcher))
            for sample in range(3):
                alt = before.determinize(watcher, random.Random(sample + 1))
                try:
                    for i, text in enumerate(span):
                        evs = alt.apply(live.game.parse_action(alt, text))
                        seen = [e for e in evs if _visible(e.get("audience"), watcher)]
                        if seen != real_events[i] or alt.view(watcher) != real[i + 1]:
                            return (
                                "a takeback cannot cross hidden information that was revealed, "
                                "nor a random draw"
                            )
                except Exception:  # refused, or a world the engine cannot play on
                    return "a takeback cannot cross hidden information that was revealed"
        return None

    async def _do_takeback(self, live: Live) -> None:
        offer = live.takeback
        assert offer is not None
        to_ply = offer["to_ply"]
        record = live.record()
        record.result = None
        record.actions = live.actions[:to_ply]
        record.concessions = [c for c in live.concessions if c["ply"] <= to_ply]
        try:
            state = await asyncio.to_thread(record.replay)
        except Exception as exc:  # an engine fault: the match stays as it was
            live.takeback = None
            raise engine_fault(live, "the takeback", exc) from None
        now = self.now()
        undone = live.ply - to_ply
        evs = [
            event(
                "takeback",
                None,
                seat=offer["by"],
                to_ply=to_ply,
                message=f"{undone} move(s) taken back",
            )
        ]
        old_clocks = live.clocks
        if live.clocks is not None and live.clock_spec is not None:
            live.clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
            live.clocks.start(self._running_seat(state), now)
        # A concession ends the game, so an active match's moves are all actions: the
        # move with sequence number k is action k.
        rows = self._new_events(live, evs)
        for r in rows:
            r["ply"] = to_ply
        drop_from = to_ply
        try:
            await self._run(
                self.store.record_change,
                live.id,
                [],
                rows,
                {"updated_at": now, "clock": self._clock_json(live)},
                drop_from,
            )
        except BaseException:
            live.clocks = old_clocks  # nothing changed
            raise
        live.actions = live.actions[:to_ply]
        live.action_seats = live.action_seats[:to_ply]
        live.action_ids = live.action_ids[:to_ply]
        live.seq = drop_from
        live.state = state
        live.turn += 1
        live.takeback = None
        self._cancel_ai(live)  # its thought was for a position that no longer exists
        self._commit_events(live, rows)

    async def rematch(self, live: Live, seat: int) -> dict[str, Any]:
        async with live.lock:
            if live.status not in {"finished"}:
                raise ApiError(409, "not_finished", "a rematch can be offered once the game ends")
            if live.rematch_id is not None:
                raise ApiError(
                    409, "rematch_exists", f"the rematch already exists: {live.rematch_id}"
                )
            if seat in live.rematch_offers:
                raise ApiError(409, "already_offered", "you already offered a rematch")
            humans = {s.seat for s in live.seats if s.kind == "human"}
            # The offer counts once it is stored: a failed write leaves nothing behind.
            if not humans.issubset(live.rematch_offers | {seat}):
                rows = self._new_events(
                    live,
                    [event("rematch_offered", None, seat=seat, message="a rematch is offered")],
                )
                await self._run(self.store.record_change, live.id, [], rows, None)
                live.rematch_offers.add(seat)
                self._commit_events(live, rows)
                snap = self.snapshot(live, seat)
            else:
                new = await self._create_rematch(live)
                live.rematch_offers.add(seat)
                snap = self.snapshot(live, seat)
                snap["rematch_seat"] = (seat + 1) % len(live.seats)
                self._after_change(new)
        self._after_change(live)
        return snap

    async def _create_rematch(self, live: Live) -> Live:
        """The same game and options, a new seed, every holder one seat further round.

        Each player keeps their token: the holder of seat i holds seat i+1 in the rematch.
        """
        n = len(live.seats)
        seed = new_seed()
        state = live.game.new_state(seed, **live.options)
        now = self.now()
        new_id = new_match_id()
        seats = []
        for old in live.seats:
            seats.append(
                Seat(
                    (old.seat + 1) % n,
                    old.kind,
                    old.name,
                    token_hash=old.token_hash,
                    agent=old.agent,
                    level=old.level,
                    last_seen=now,
                )
            )
        seats.sort(key=lambda s: s.seat)
        new = Live(
            id=new_id,
            game=live.game,
            options=dict(live.options),
            seed=seed,
            version=live.game.version,
            status="waiting",
            seats=seats,
            created_at=now,
            state=state,
            clock_spec=live.clock_spec,
            clocks=Clocks(live.clock_spec, n) if live.clock_spec else None,
            rematch_of=live.id,
        )
        evs = [event("match_created", None, message=f"rematch of {live.id}")]
        evs.extend(self._activate(new, now))
        rows = self._new_events(new, evs)
        match_row = {
            "id": new_id,
            "game": live.game.name,
            "version": live.game.version,
            "options": dumps(new.options),
            "seed": str(seed),
            "clock": self._clock_json(new),
            "status": new.status,
            "result": None,
            "close_reason": None,
            "created_at": now,
            "updated_at": now,
            "rematch_of": live.id,
            "rematch_id": None,
        }
        old_rows = self._new_events(
            live,
            [event("rematch", None, match=new_id, message="the rematch begins")],
        )

        await self._run(
            self.store.create_rematch,
            match_row,
            [self._seat_row(new_id, s) for s in seats],
            rows,
            live.id,
            old_rows,
            {"rematch_id": new_id, "updated_at": now},
        )
        new.events.extend(self._event_entries(rows))
        self.live[new_id] = new
        live.rematch_id = new_id
        self._commit_events(live, old_rows)
        return new

    # -- records ----------------------------------------------------------------------
    async def record_of(self, live: Live) -> dict[str, Any]:
        if live.status in LIVE_STATUSES:
            raise ApiError(
                409,
                "in_progress",
                "this match is still in play; its record (with its seed) is published when it ends",
            )
        data = live.record().to_json()
        data["id"] = live.id
        data["status"] = live.status
        return data

    async def import_record(self, data: Any) -> Live:
        try:
            record = GameRecord.from_json(data)
            if len(record.actions) > MAX_IMPORT_ACTIONS:
                raise ApiError(
                    422, "bad_record", f"records are limited to {MAX_IMPORT_ACTIONS} actions"
                )
            game = load_game(record.game)
        except SengokuError as exc:
            raise ApiError(422, "bad_record", str(exc)) from None
        # The replay runs in a worker process, bounded in time: a long record must not stall
        # every game. The match is kept in storage only (it is replayed when looked at).
        summary = await self.heavy(import_summary, data, MAX_IMPORT_ACTIONS)
        if "error" in summary:
            raise ApiError(422, "bad_record", summary["error"])
        movers: list[int] = summary["movers"]
        now = self.now()
        match_id = new_match_id()
        n = int(summary["num_players"])
        names = list(record.players) + [f"Player {i + 1}" for i in range(len(record.players), n)]
        seats = [Seat(i, "human", names[i][:64]) for i in range(n)]
        status = "finished" if summary["terminal"] else "archived"
        live = Live(
            id=match_id,
            game=game,
            options=dict(summary["options"]),
            seed=record.seed,
            version=record.version,
            status=status,
            seats=seats,
            created_at=now,
            state=None,
            actions=list(record.actions),
            concessions=list(record.concessions),
            result=summary["outcome"],
        )
        moves_rows = []
        seq = 0
        ply = 0
        concessions = sorted(record.concessions, key=lambda c: int(c["ply"]))
        for i in range(len(record.actions) + 1):
            for c in concessions:
                if int(c["ply"]) == i:
                    moves_rows.append(
                        {
                            "match_id": match_id,
                            "seq": seq,
                            "kind": "concede",
                            "seat": int(c["seat"]),
                            "action": None,
                            "reason": str(c.get("reason", "resignation")),
                            "at": now,
                            "clocks": None,
                        }
                    )
                    seq += 1
            if i == len(record.actions):
                break
            mover = movers[i]
            live.action_seats.append(mover)
            live.action_ids.append(None)
            moves_rows.append(
                {
                    "match_id": match_id,
                    "seq": seq,
                    "kind": "action",
                    "seat": mover,
                    "action": record.actions[i],
                    "reason": None,
                    "at": now,
                    "clocks": None,
                }
            )
            seq += 1
            ply += 1
        live.seq = seq
        rows = self._new_events(live, [event("imported", None, message="an imported record")])
        match_row = {
            "id": match_id,
            "game": game.name,
            "version": record.version,
            "options": dumps(live.options),
            "seed": str(record.seed),
            "clock": None,
            "status": status,
            "result": dumps(live.result) if live.result else None,
            "close_reason": None,
            "created_at": now,
            "updated_at": now,
            "rematch_of": None,
            "rematch_id": None,
        }

        await self._run(
            self.store.create_match,
            match_row,
            [self._seat_row(match_id, s) for s in seats],
            rows,
            moves_rows,
        )
        live.events.extend(self._event_entries(rows))
        self.live[match_id] = live
        self._maybe_evict(live)  # nobody watches an imported record yet
        return live

    # -- broadcasting, timers and the AI ----------------------------------------------
    def _commit_events(self, live: Live, rows: list[dict[str, Any]]) -> None:
        entries = self._event_entries(rows)
        live.events.extend(entries)
        self._broadcast(live, entries)

    def _broadcast(self, live: Live, entries: list[dict[str, Any]]) -> None:
        snaps: dict[tuple[int | None, bool], dict[str, Any]] = {}
        for sub in list(live.subscribers):
            if sub.queue.qsize() > MAX_QUEUED:
                # A connection that reads nothing is dropped rather than let its backlog
                # grow without end; the client resumes from its last event number.
                live.subscribers.discard(sub)
                sub.queue.put_nowait(None)
                continue
            for e in entries:
                if _visible(e["audience"], sub.seat):
                    sub.queue.put_nowait(self._wire_event(e))
            key = (sub.seat, sub.short)
            if key not in snaps:
                snaps[key] = {"type": "state", **self.snapshot(live, sub.seat, sub.short)}
            sub.queue.put_nowait(snaps[key])

    def subscribe(
        self, live: Live, seat: int | None, after: int, short: bool = False
    ) -> Subscriber:
        """Register a connection and queue what it missed (the caller holds the lock)."""
        sub = Subscriber(seat, short)
        live.watched_at = self.now()
        if seat is not None:
            live.seats[seat].connections += 1
            live.seats[seat].last_seen = self.now()
        for msg in self.events_for(live, seat, after):
            sub.queue.put_nowait(msg)
        sub.queue.put_nowait({"type": "state", **self.snapshot(live, seat, short)})
        live.subscribers.add(sub)
        return sub

    def unsubscribe(self, live: Live, sub: Subscriber) -> None:
        live.subscribers.discard(sub)
        live.watched_at = self.now()
        if sub.seat is not None:
            s = live.seats[sub.seat]
            s.connections = max(0, s.connections - 1)
            s.last_seen = self.now()
        self._maybe_evict(live)

    def _maybe_evict(self, live: Live) -> None:
        """Forget a match that is over and watched by nobody: the database has all of it
        (it is replayed again if asked for), so memory holds only matches in play."""
        if (
            live.status not in LIVE_STATUSES
            and not live.subscribers
            and not live.rematch_offers
            and not live.lock.locked()
            and self.live.get(live.id) is live
        ):
            del self.live[live.id]

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _after_change(self, live: Live) -> None:
        """Arm the clock timer and start the AI if it is to act."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.status != "active" or live.state is None:
            self._maybe_evict(live)
            return
        if self.settings.timers and live.clocks is not None:
            deadline = live.clocks.deadline()
            if deadline is not None:
                delay = max(0.0, deadline - self.now()) + 0.01
                live.timer = asyncio.get_running_loop().call_later(
                    delay, lambda: self._spawn(self._flag_task(live))
                )
        seat = live.state.current_player
        if 0 <= seat < len(live.seats) and live.seats[seat].kind == "ai" and not live.ai_busy:
            if live.owner_hash is not None and self._idle(live):
                live.ai_busy = True  # no more thinking: the match stops
                self._spawn(self._stop_idle(live))
                return
            live.ai_busy = True
            task = asyncio.get_running_loop().create_task(self._ai_move(live, seat, live.turn))
            live.ai_task = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _flag_task(self, live: Live) -> None:
        async with live.lock:
            await self._check_flag(live)
        self._after_change(live)

    # -- AI seats -----------------------------------------------------------------------
    def _cancel_ai(self, live: Live) -> None:
        """Drop the AI's thought about the current position (the caller changed it)."""
        task = live.ai_task
        live.ai_task = None
        live.ai_busy = False
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def touch(self, live: Live) -> None:
        """Somebody looked at the match (an all-AI match runs while it is watched)."""
        live.watched_at = self.now()

    def _idle(self, live: Live) -> bool:
        return not live.subscribers and self.now() - live.watched_at > self.settings.ai_idle_after

    async def _stop_idle(self, live: Live) -> None:
        async with live.lock:
            if live.status == "active":
                minutes = self.settings.ai_idle_after / 60
                await self._end_without_result(
                    live,
                    f"nobody watched this all-AI match for {minutes:g} minutes, so it stopped",
                )
        live.ai_busy = False
        self._after_change(live)

    async def stop(self, live: Live, token: str | None) -> dict[str, Any]:
        """The owner of an all-AI match stops it (no result)."""
        if (
            token is None
            or live.owner_hash is None
            or not secrets.compare_digest(live.owner_hash, hash_token(token))
        ):
            raise ApiError(403, "not_owner", "only the owner of a match no human plays may stop it")
        async with live.lock:
            if live.status not in LIVE_STATUSES:
                raise ApiError(409, f"match_{live.status}", f"this match is {live.status}")
            self._cancel_ai(live)
            await self._end_without_result(live, "stopped by its owner")
            snap = self.snapshot(live, None)
        self._after_change(live)
        return snap

    async def _end_without_result(self, live: Live, reason: str) -> None:
        """Abort the match (caller holds the lock), saying why to everybody."""
        rows = self._new_events(live, [event("aborted", None, reason=reason, message=reason)])
        now = self.now()
        clocks = None
        if live.clocks is not None and live.clock_spec is not None:
            clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
            clocks.pause(now)
        old = live.clocks
        live.clocks = clocks
        try:
            await self._run(
                self.store.record_change,
                live.id,
                [],
                rows,
                {
                    "status": "aborted",
                    "close_reason": reason,
                    "updated_at": now,
                    "clock": self._clock_json(live),
                },
            )
        except BaseException:
            live.clocks = old
            raise
        live.status = "aborted"
        live.close_reason = reason
        live.turn += 1
        self._commit_events(live, rows)
        log.info("match %s aborted: %s", live.id, reason)

    def _ai_done(self, live: Live, task: asyncio.Task[Any] | None) -> None:
        if live.ai_task is task:
            live.ai_task, live.ai_busy = None, False
            self._after_change(live)

    async def _ai_move(self, live: Live, seat: int, turn: int) -> None:
        """Think for ``seat`` about the position of ``turn``, and play the answer if that is
        still the position. A failure is retried; when every try fails the match is aborted
        with the reason. A takeback cancels this task (its answer would be stale)."""
        me = asyncio.current_task()
        state = live.state
        if state is None:
            if live.ai_task is me:
                live.ai_task, live.ai_busy = None, False
            return
        s = live.seats[seat]
        ply = live.ply
        job = functools.partial(
            ai_mod.choose_action,
            live.game.name,
            state.to_json(),
            seat,
            s.agent or ai_mod.AI_LEVELS[ai_mod.DEFAULT_LEVEL],
            (live.seed * 1_000_003 + ply) % (2**31),
            self.settings.ai_max_seconds,
        )
        interactive = any(x.kind == "human" for x in live.seats)
        tries = 1 + max(0, self.settings.ai_retries)
        problem = "no answer"
        for attempt in range(1, tries + 1):
            try:
                text = await self._ai.run(job, interactive)
            except concurrent.futures.BrokenExecutor:
                # a worker died (killed, out of memory): start a fresh pool and ask again
                log.error("match %s: the AI worker pool broke (attempt %d)", live.id, attempt)
                self._ai.broken()
                problem = "its worker stopped"
                continue
            except ai_mod.AiTimeout:
                log.error("match %s: the AI ran out of time (attempt %d)", live.id, attempt)
                problem = "it ran out of time"
                continue
            except Exception as exc:
                # Only the exception's type: its message could name something hidden.
                log.error("match %s: the AI failed (%s)", live.id, type(exc).__name__)
                problem = "it failed"
                continue
            if live.ai_task is not me:
                return  # cancelled meanwhile (a takeback): another task thinks now
            try:
                await self.act(live, seat, text, ply, by_ai=True, turn=turn)
            except ApiError as exc:
                if not (exc.code in {"stale", "not_your_turn"} or exc.code.startswith("match_")):
                    log.error("match %s: the AI's action was refused: %s", live.id, exc.code)
                    problem = "its action was refused"
                    continue
            self._ai_done(live, me)  # played, or the position moved on: think again if due
            return
        if live.ai_task is not me:
            return
        live.ai_task, live.ai_busy = None, False
        reason = f"the AI in seat {seat} could not move ({problem}, {tries} tries)"
        async with live.lock:
            if live.status == "active" and live.turn == turn:
                await self._end_without_result(live, reason)
        self._after_change(live)


def engine_fault(live: Live, what: str, exc: BaseException) -> ApiError:
    """The error for an unexpected engine exception (a bug): logged with its type and where it
    was raised, never its message or values (they may name hidden cards); the client gets a
    409 that names no secret, and the caller has changed nothing."""
    where = "".join(traceback.format_tb(exc.__traceback__, limit=-3)).strip()
    log.error(
        "match %s: the engine failed during %s (%s)\n%s", live.id, what, type(exc).__name__, where
    )
    return ApiError(
        409,
        "engine_error",
        f"the game engine could not process {what} here ({type(exc).__name__}); the match is "
        "unchanged. Please report this match id",
    )


def new_seed() -> int:
    """A secret seed: 128 bits from ``secrets`` (no player can guess or search it)."""
    return secrets.randbits(SEED_BITS)


def _replay_problem(exc: Exception) -> str:
    """Why a stored match does not replay, for everyone's eyes: the move number only, never
    the engine's message (it may quote a secret action)."""
    found = re.search(r"move (\d+)", str(exc))
    where = f" at move {found.group(1)}" if found else ""
    return f"this match no longer replays on this server's rules{where}"


class _MissingGame(Game):
    """Stands in for a game this server cannot load, so its stored matches stay readable."""

    version = -1
    min_players = 0
    max_players = 0
    options: ClassVar[Mapping[str, Option]] = {}

    def __init__(self, name: str) -> None:
        self.name = name  # type: ignore[misc]

    def new_state(self, seed: int = 0, **options: Any) -> State:
        raise SengokuError(f"unknown game {self.name!r}")

    def num_distinct_actions(self, **options: Any) -> int:
        return 0

    def action_to_int(self, state: State, action: Any) -> int:
        raise SengokuError(f"unknown game {self.name!r}")

    def int_to_action(self, state: State, n: int) -> Any:
        raise SengokuError(f"unknown game {self.name!r}")

    def max_game_length(self, **options: Any) -> int:
        return 0

    def state_from_json(self, data: Any) -> State:
        raise SengokuError(f"unknown game {self.name!r}")
