"""Persistence: where matches are kept.

The database (through ``Store``, on storage threads of its own so a slow disk never stalls the
event loop), the rows a match is stored as, and the matches held in memory: a match is rebuilt
from its stored seed and moves when first needed, and forgotten once it is over and nobody
watches it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.exc import OperationalError, SQLAlchemyError

from sengoku.core.game import SengokuError, State, event
from sengoku.core.record import GameRecord
from sengoku.core.registry import load_game
from sengoku.server.broadcast import event_entries, event_rows
from sengoku.server.clocks import Clocks, ClockSpec, running_seat
from sengoku.server.db import Conflict, Store, dumps
from sengoku.server.errors import ApiError, database_busy, storage_failed
from sengoku.server.i18n import N_
from sengoku.server.live import (
    LIVE_STATUSES,
    Live,
    MissingGame,
    Seat,
    follow_seats,
    replay_problem,
)
from sengoku.server.loop_appends import LoopAppends
from sengoku.server.settings import Settings

log = logging.getLogger("sengoku.server")


class StaleMatch(ApiError):
    """Another server process changed the match first; this change stored nothing."""

    def __init__(self) -> None:
        super().__init__(
            409,
            "conflict",
            "the match changed on another server at the same moment; nothing of this request "
            "was stored: fetch the match and try again",
        )


#: The fields of ``Live`` a full reload replaces (the rest is this process's own: the lock,
#: the subscribers, timers, the AI's thought and the caches).
RELOADED = (
    "game options seed version status seats created_at state clock_spec clocks actions "
    "action_seats action_ids concessions seq events result close_reason rematch_of "
    "rematch_id takeback rematch_offers owner_hash node rated replacement_level left"
).split()


def follow_offers(live: Live, entries: list[dict[str, Any]]) -> None:
    """Takeback and rematch offers as the stored events tell them (a process that did not
    take the offer learns it from its event)."""
    for e in entries:
        ev = e["event"]
        kind = ev.get("type")
        if kind == "takeback_offered":
            seat = int(ev["seat"])
            live.takeback = {"by": seat, "to_ply": int(ev["to_ply"]), "accepted": {seat}}
            live.takeback["at"] = int(e["ply"])
        elif kind in ("takeback_declined", "takeback"):
            live.takeback = None
        elif kind == "rematch_offered":
            live.rematch_offers.add(int(ev["seat"]))
    # An offer is over once a move is played after it, or the match is over.
    if live.takeback is not None and (
        live.takeback.pop("at", live.ply) != live.ply or live.status != "active"
    ):
        live.takeback = None


def seat_row(match_id: str, s: Seat) -> dict[str, Any]:
    """The stored row of seat ``s``."""
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


def restart_stopped_clock(live: Live, now: float) -> None:
    """Start, from ``now``, a clock the rules say runs but that was stored stopped.

    Servers before 28 November 2026 never ran a Gunshi clock other than the tournament one
    (its state said no clock ran), so such matches were stored with no running clock and a
    player who never moved held them forever; loaded again, their clock runs from the load.
    """
    clocks, state = live.clocks, live.state
    if live.status != "active" or clocks is None or clocks.running is not None or state is None:
        return
    seat = running_seat(clocks.spec, state, live.ply)
    if seat is not None:
        clocks.start(seat, now)


def clock_json(live: Live) -> str | None:
    """The stored form of the match's clocks (None: untimed)."""
    if live.clock_spec is None:
        return None
    state = live.clocks.to_json() if live.clocks else None
    return dumps({"spec": live.clock_spec.to_json(), "state": state})


#: Actions stored in one SQLite transaction at most.
APPEND_BATCH = 64

#: Seconds between checkpoints of SQLite's write-ahead log when actions are committed on
#: the event loop (``Persistence._append_here``).
CHECKPOINT_SECONDS = 1.0


def inline_commits(settings: Settings) -> bool:
    """Whether actions are committed on the event loop: SQLite in a file with a
    ``synchronous`` setting under which a commit does not wait for the disk (NORMAL, OFF).
    With FULL each commit syncs the disk, which the loop must not wait for; an in-memory
    database is one connection per thread, so the loop's would be a database of its own."""
    url = settings.db_url
    memory = url.rstrip("/") in {"sqlite:", "sqlite:///:memory:"} or "mode=memory" in url
    return (
        url.startswith("sqlite")
        and not memory
        and settings.sqlite_synchronous.upper() in ("NORMAL", "OFF")
    )


def _plain_append(args: tuple[Any, ...]) -> bool:
    """Whether ``record_change(*args)`` is an action's plain append (``Store._append``):
    moves, events, and the match's clock and time, nothing else."""
    return (
        len(args) == 4
        and isinstance(args[0], str)
        and isinstance(args[3], dict)
        and set(args[3]) == {"updated_at", "clock"}
    )


class Persistence:
    """The store, its threads, and the matches in memory (``live``)."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.live: dict[str, Live] = {}
        self._loading: dict[str, asyncio.Future[Live | None]] = {}
        self._db = concurrent.futures.ThreadPoolExecutor(
            max(1, settings.db_workers), thread_name_prefix="sengoku-db"
        )
        self._db_lists = concurrent.futures.ThreadPoolExecutor(
            max(1, settings.db_list_workers), thread_name_prefix="sengoku-db-list"
        )
        #: This process's node when it is one of several (set by the cluster), else None: a
        #: match it creates is stored as its own from the first row, so no other process's
        #: heartbeat round takes the new match's clock and AI turns before it claims them.
        self.node: str | None = None
        #: Told the id of a match whose change lost to another process's (it catches up).
        self.on_conflict: Callable[[str], None] = lambda _match_id: None
        #: Replays the record of a match that is over, when it is loaded again (the service
        #: runs it in its work pool: bounded in time and number, and off this process's
        #: lock, since anyone may make the server reload an imported 20,000-action record by
        #: asking for it). None: on a thread, as the matches in play are.
        self.replay_done: Callable[[GameRecord], Awaitable[State]] | None = None
        #: SQLite: the actions waiting to be stored together (``_append_together``), and the
        #: task storing them while a transaction of them is under way. Not PostgreSQL: there
        #: commits run side by side on several threads, and one match's row locked by
        #: another session must stall only that match, not a whole batch of others.
        self._together = store.engine.dialect.name == "sqlite"
        self._waiting: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._storing: asyncio.Task[None] | None = None
        #: SQLite whose commits do not wait for the disk (``synchronous`` NORMAL or OFF), in a
        #: file: an action's rows are committed right here on the event loop, on a connection
        #: of its own (``Store.loop_connection``), instead of handed to a storage thread and
        #: back. The hand-over through the loop's queue and the threads' turns at the
        #: interpreter lock was most of an action's round trip at 500 games (docs/server.md,
        #: *Load*), where the commit itself takes a fraction of a millisecond. The write-ahead
        #: log is then checkpointed every ``CHECKPOINT_SECONDS`` on a storage thread.
        self._loop_conn: Any = None
        self._checkpoints: asyncio.Task[None] | None = None
        if self._together and inline_commits(settings):
            self._loop_conn = store.loop_connection()
        #: PostgreSQL: actions' appends sent from the event loop (``loop_appends``).
        self._loop_appends: LoopAppends | None = None
        if store.engine.dialect.name == "postgresql" and settings.db_url.startswith(
            ("postgresql+psycopg:", "postgresql+psycopg_async:")
        ):
            self._loop_appends = LoopAppends(
                store,
                settings.db_url,
                settings.db_lock_timeout,
                settings.db_loop_connections,
                settings.pg_synchronous_commit,
            )

    def now(self) -> float:
        return self.settings.now()

    async def aclose(self) -> None:
        """:meth:`close`, and the event loop's own PostgreSQL connections closed first."""
        if self._loop_appends is not None:
            await self._loop_appends.close()
        self.close()

    def close(self) -> None:
        if self._checkpoints is not None:
            self._checkpoints.cancel()
        if self._loop_conn is not None:
            self._loop_conn.close()
            self._loop_conn = None
        self._db_lists.shutdown(wait=True, cancel_futures=True)
        self._db.shutdown(wait=True)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a storage call on a storage thread; a lock held too long elsewhere is a 503,
        a change another process stored first (``Conflict``) a 409 (``StaleMatch``)."""
        try:
            if (
                (self._together or self._loop_appends is not None)
                and getattr(fn, "__func__", None) is Store.record_change
                and getattr(fn, "__self__", None) is self.store
                and _plain_append(args)
            ):
                # An action's plain append: grouped or committed on the loop (SQLite), or
                # sent from the loop (PostgreSQL).
                if self._loop_appends is not None:
                    return await self._loop_appends.append(args[0], args[1], args[2], args[3])
                return await self._append_together(args)
            return await self._on(self._db, fn, *args)
        except Conflict:
            if args and isinstance(args[0], str):
                self.on_conflict(args[0])
            raise StaleMatch() from None

    async def _append_together(self, args: tuple[Any, ...]) -> None:
        """Store an action (a move, its events, the clock) with the others waiting: on SQLite
        (one writer at a time anyway) one transaction, so one sync of the disk, for all the
        actions that arrived while the last one was being stored (``Store.append_many``).
        Each is still all or nothing, and answered only once its commit is on disk."""
        if self._loop_conn is not None and self._append_here(args):
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((args, done))
        if self._storing is None:
            self._storing = asyncio.get_running_loop().create_task(self._store_waiting())
        await done

    def _append_here(self, args: tuple[Any, ...]) -> bool:
        """Commit an action's append on the event loop's own connection; False when another
        connection holds SQLite's write lock (nothing was written: the caller hands the
        append to a storage thread, which waits for the lock)."""
        if self._checkpoints is None:
            self._checkpoints = asyncio.get_running_loop().create_task(self._checkpoint_loop())
        try:
            (outcome,) = self.store.append_on(
                self._loop_conn, [(args[0], args[1], args[2], args[3])]
            )
        except sqlite3.Error as exc:
            if exc.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return False
            # Only the error's class: the statement's parameters may hold secrets.
            log.error("database: %s", type(exc).__name__)
            raise storage_failed() from None
        if outcome is not None:
            raise outcome
        return True

    async def _checkpoint_loop(self) -> None:
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            try:
                await self._on(self._db, self.store.checkpoint)
            except ApiError:
                pass  # logged by ``_on``; the next round tries again

    async def _store_waiting(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting[:APPEND_BATCH], self._waiting[APPEND_BATCH:]
                items = [(a[0], a[1], a[2], a[3]) for a, _done in batch]
                try:
                    outcomes = await self._on(self._db, self.store.append_many, items)
                except BaseException as exc:  # nothing of the batch was stored
                    for _args, done in batch:
                        if not done.done():
                            done.set_exception(exc)
                    if not isinstance(exc, Exception):
                        raise
                    continue
                for (_args, done), outcome in zip(batch, outcomes, strict=True):
                    if done.done():
                        continue
                    if outcome is None:
                        done.set_result(None)
                    else:
                        done.set_exception(outcome)
        finally:
            self._storing = None

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
                raise database_busy() from None
            raise storage_failed() from None

    # -- the matches in memory ----------------------------------------------------------
    async def get(self, match_id: str) -> Live | None:
        if match_id in self.live:
            return self.live[match_id]
        if match_id in self._loading:
            return await self._loading[match_id]
        fut: asyncio.Future[Live | None] = asyncio.get_running_loop().create_future()
        self._loading[match_id] = fut
        try:
            data = await self.run(self.store.load, match_id)
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
            raise ApiError(
                404,
                "no_such_match",
                N_("there is no match %(match)s"),
                params={"match": repr(match_id)},
            )
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
            game = MissingGame(m["game"])
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
            node=m.get("node"),
            rated=bool(m.get("rated")),
        )
        # Offers outlive a restart (and a match forgotten from memory, or taken on another
        # process), and so does who left.
        follow_offers(live, events)
        follow_seats(live, events)
        if live.status != "finished" or live.rematch_id is not None:
            live.rematch_offers = set()
        problem = None
        if isinstance(game, MissingGame):
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
                if live.status in LIVE_STATUSES or self.replay_done is None:
                    live.state = await asyncio.to_thread(record.replay)
                else:
                    live.state = await self.replay_done(record)
            except SengokuError as exc:
                problem = replay_problem(exc)
        if problem is None:
            restart_stopped_clock(live, self.now())
        if problem is not None:
            live.state = None
            if live.status in LIVE_STATUSES:
                log.warning("match %s closed: %s", live.id, problem)
                live.status = "closed"
                live.close_reason = problem
                rows = event_rows(live, [event("closed", None, reason=problem, message=problem)])
                await self.run(
                    self.store.record_change,
                    live.id,
                    [],
                    rows,
                    {"status": "closed", "close_reason": problem, "updated_at": self.now()},
                )
                live.events.extend(event_entries(rows))
            elif live.close_reason is None:
                live.close_reason = problem
        return live

    def keep(self, live: Live) -> None:
        """Hold a match just created (it is stored already) in memory."""
        self.live[live.id] = live

    def forget_if_done(self, live: Live) -> None:
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

    # -- several processes on one database: catching up with the stored match -------------
    async def catch_up(self, live: Live) -> list[dict[str, Any]] | None:
        """Bring ``live`` up to what the database holds (another process changed it); the
        caller holds the match's lock. The new event entries (an action may have none), or
        None when nothing was new."""
        before = (live.seq, len(live.events), live.status)
        data = await self.run(self.store.since, live.id, max(0, live.seq - 1), len(live.events))
        if data is None:
            return None
        entries = self.apply_rows(live, data["moves"], data["events"], data["match"], data["seats"])
        if entries is None:
            full = await self.run(self.store.load, live.id)
            entries = [] if full is None else await self.reload(live, full)
        if not entries and (live.seq, len(live.events), live.status) == before:
            return None
        return entries

    def apply_rows(
        self,
        live: Live,
        move_rows: list[dict[str, Any]],
        rows: list[dict[str, Any]],
        values: dict[str, Any] | None,
        seat_rows: list[dict[str, Any]] | None = None,
    ) -> list[dict[str, Any]] | None:
        """Apply stored rows that follow what ``live`` holds: moves from ``live.seq`` (the
        one before it, if given, must be ours), events from the next number, the match's
        columns in ``values``. None when they do not simply follow (a takeback, a gap, a
        move the engine refuses): the caller reloads the whole match instead."""
        if rows and rows[0]["n"] != len(live.events) + 1:
            return None
        entries = event_entries([r for r in rows if r["n"] > len(live.events)])
        if any(e["event"].get("type") == "takeback" for e in entries):
            return None
        before = [m for m in move_rows if m["seq"] == live.seq - 1 and m["kind"] == "action"]
        if before and (not live.actions or before[0]["action"] != live.actions[-1]):
            return None
        new = [m for m in move_rows if m["seq"] >= live.seq]
        if new and new[0]["seq"] != live.seq:
            return None
        state = live.state
        if new:
            if state is None:
                return None
            try:
                # The stored text is canonical: found among the legal actions' texts at once
                # (parse_action, for every spelling, costs Gungi 10 ms where this costs 0.5).
                by_text = dict((t, a) for a, t in live.legal()) if live.state is state else {}
                state = state.clone()
                for mv in new:
                    if mv["kind"] == "action":
                        exact = by_text.pop(mv["action"], None)
                        by_text = {}
                        if exact is None:
                            exact = live.game.parse_action(state, mv["action"])
                        state.apply(exact)
                    else:
                        state.concede(int(mv["seat"]), str(mv["reason"]))
            except Exception:  # a move this engine does not take: reload and replay it all
                return None
            for mv in new:
                if mv["kind"] == "action":
                    live.actions.append(mv["action"])
                    live.action_seats.append(int(mv["seat"]))
                    live.action_ids.append(mv.get("client_id"))
                else:
                    live.concessions.append(
                        {"ply": len(live.actions), "seat": int(mv["seat"]), "reason": mv["reason"]}
                    )
            live.seq = int(new[-1]["seq"]) + 1
            live.state = state
            live.takeback = None
        if new or entries:
            live.turn += 1  # an AI's answer to the position before is stale
        if values:
            self._apply_values(live, values)
        for r in seat_rows or []:
            s = live.seats[int(r["seat"])]
            s.kind, s.name, s.agent, s.level = r["kind"], r["name"], r["agent"], r["level"]
            s.token_hash, s.invite_hash = r["token_hash"], r["invite_hash"]
        live.events.extend(entries)
        follow_offers(live, entries)
        follow_seats(live, entries)
        return entries

    @staticmethod
    def _apply_values(live: Live, values: dict[str, Any]) -> None:
        if "status" in values:
            live.status = values["status"]
        if "result" in values:
            live.result = json.loads(values["result"]) if values["result"] else None
        for name in ("close_reason", "rematch_of", "rematch_id", "node"):
            if name in values:
                setattr(live, name, values[name])
        if "clock" in values and live.clock_spec is not None:
            data = json.loads(values["clock"]) if values["clock"] else None
            state = data.get("state") if data else None
            live.clocks = Clocks.from_json(live.clock_spec, state) if state else None

    async def reload(self, live: Live, data: dict[str, Any]) -> list[dict[str, Any]]:
        """Replace what ``live`` holds by the stored match ``data`` (replayed from its seed),
        keeping this process's own parts; the events it did not have."""
        fresh = await self._build(data)
        known = len(live.events)
        connections = [(s.connections, s.last_seen) for s in live.seats]
        for name in RELOADED:
            setattr(live, name, getattr(fresh, name))
        for s, (count, seen) in zip(live.seats, connections, strict=False):
            s.connections, s.last_seen = count, seen
        live.legal_state = None
        live.turn += 1
        return [e for e in live.events if e["n"] > known]
