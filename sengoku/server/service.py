"""The match service: the only place where a match's state lives and changes.

``MatchService`` is a thin façade (its methods are what the routes, the web module and the
tests call) over collaborators, one per responsibility:

* :mod:`~sengoku.server.persistence`: storage threads, stored rows, the matches in memory;
* :mod:`~sengoku.server.broadcast`: numbered events with audiences, snapshots, subscribers;
* :mod:`~sengoku.server.seats`: seats and tokens, creating and joining a match;
* :mod:`~sengoku.server.turns`: actions, concessions, clocks and endings;
* :mod:`~sengoku.server.offers`: takebacks and rematches;
* :mod:`~sengoku.server.records`: published and imported records;
* :mod:`~sengoku.server.ai_turns`: the AI seats' thinking.

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
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from sengoku.core.game import State
from sengoku.core.record import GameRecord, InvalidRecord
from sengoku.core.registry import list_games, load_game
from sengoku.server.ai_turns import AiTurns
from sengoku.server.analyses import Analyses
from sengoku.server.broadcast import Answer, Broadcaster
from sengoku.server.cluster import Cluster
from sengoku.server.db import Store
from sengoku.server.draws import Draws, unanswered_ai
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.live import (
    DONE_STATUSES,
    LIVE_STATUSES,
    SEED_BITS,
    Live,
    Seat,
    Subscriber,
    engine_fault,
    new_seed,
)
from sengoku.server.mail import TurnMail
from sengoku.server.metrics import Metrics
from sengoku.server.offers import Offers
from sengoku.server.persistence import Persistence
from sengoku.server.pubsub import make_pubsub
from sengoku.server.records import MAX_IMPORT_ACTIONS, Records
from sengoku.server.seats import Seats
from sengoku.server.settings import Settings
from sengoku.server.turn_based import TurnBasedStore
from sengoku.server.turns import Turns
from sengoku.server.work import WorkPool, WorkRefused, replayed_state

log = logging.getLogger("sengoku.server")

__all__ = [
    "DONE_STATUSES",
    "LIVE_STATUSES",
    "MAX_IMPORT_ACTIONS",
    "SEED_BITS",
    "ApiError",
    "Live",
    "MatchService",
    "Seat",
    "Settings",
    "Subscriber",
    "engine_fault",
    "new_seed",
]


class MatchService:
    """The server's matches: one façade over seats, turns, offers, records, persistence,
    broadcast and AI turns (see the module's docstring)."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self._tasks: set[asyncio.Task[Any]] = set()
        self.db = Persistence(settings, store)
        self.bus = Broadcaster(settings.now, self.db.forget_if_done)
        self.turns = Turns(self.db, self.bus, self.after_change)
        self.ai = AiTurns(
            settings, self.bus, self.turns, self.act, self.after_change, self._spawn, self._tasks
        )
        self.seats = Seats(self.db, self.bus, self.turns, self.ai.limits, self.after_change)
        self.offers = Offers(self.db, self.bus, self.turns, self.ai.cancel, self.after_change)
        self.draws = Draws(self.db, self.bus, self.turns, self.after_change)
        self.work = WorkPool(
            settings.work_mode,
            settings.work_workers,
            settings.ai_initializer,
            settings.work_timeout,
        )
        self.records = Records(self.db, self.heavy)
        self.db.replay_done = self._replay_in_pool
        #: This process among several on one database (sengoku/server/cluster.py).
        self.cluster = Cluster(self, make_pubsub(settings.pubsub_url))
        #: Turn-based play: the accounts' games in play, and "your turn" mails.
        self.turn_based = TurnBasedStore(store.engine)
        self.mail = TurnMail(settings, self.turn_based, self._spawn)
        #: Post-game analyses: queued, run off the loop, stored once (analyses.py).
        self.analyses = Analyses(self, settings)
        #: What GET /metrics exposes (sengoku/server/metrics.py).
        self.metrics = Metrics()
        self.metrics.watch(
            lambda: len(self.live), {"ai": self.ai.pool.jobs, "replay": self.work.jobs}
        )

    # -- what the collaborators share ----------------------------------------------------
    @property
    def store(self) -> Store:
        return self.db.store

    @property
    def live(self) -> dict[str, Live]:
        """The matches in memory, by id."""
        return self.db.live

    def now(self) -> float:
        return self.settings.now()

    # -- life cycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Load the games, then resume every unfinished match from its seed and moves (one
        of several processes: the matches whose node stopped, in the heartbeat rounds)."""
        await self.db.run(self._preload_games)
        await self.cluster.start()
        if self.cluster.shared:
            await self.cluster.round()
            return
        ids = await self.db.run(self.db.store.ids_with_status, LIVE_STATUSES)
        for match_id in ids:
            live = await self.get(match_id)
            if live is not None:
                async with live.lock:
                    await self.turns.check_flag(live)
                self.after_change(live)
        log.info("resumed %d unfinished matches", len(ids))
        await self.analyses.resume()

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
        await self.cluster.close()
        self.ai.shutdown()
        self.work.shutdown()
        await self.analyses.close()
        await self.db.aclose()

    async def heavy(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a long engine job (a replay) in the work pool; 503 when it cannot."""
        try:
            return await self.work.run(fn, *args)
        except WorkRefused as exc:
            raise ApiError(503, exc.code, exc.message) from None

    async def _replay_in_pool(self, record: GameRecord) -> State:
        """The final state of a match that is over, replayed in the work pool (503 when the
        pool is busy or the replay runs out of time: the match is left as it is stored)."""
        done = await self.heavy(replayed_state, record.to_json())
        if "error" in done:
            raise InvalidRecord(done["error"])
        return load_game(record.game).state_from_json(done["state"])

    async def run_list(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A list query (lobby, records): on threads of its own, so it never delays a move."""
        return await self.db.run_list(fn, *args)

    # -- loading and looking ------------------------------------------------------------
    async def get(self, match_id: str) -> Live | None:
        return await self.db.get(match_id)

    async def require(self, match_id: str) -> Live:
        return await self.db.require(match_id)

    def forget_if_done(self, live: Live) -> None:
        """Forget ``live`` from memory if it is over and nobody watches it."""
        self.db.forget_if_done(live)

    def events_for(self, live: Live, seat: int | None, after: int) -> list[dict[str, Any]]:
        return self.bus.events_for(live, seat, after)

    def snapshot(self, live: Live, seat: int | None, short: bool = True) -> dict[str, Any]:
        return self.bus.snapshot(live, seat, short)

    def subscribe(
        self, live: Live, seat: int | None, after: int, short: bool = False
    ) -> Subscriber:
        return self.bus.subscribe(live, seat, after, short)

    def unsubscribe(self, live: Live, sub: Subscriber) -> None:
        self.bus.unsubscribe(live, sub)

    def touch(self, live: Live) -> None:
        """Somebody looked at the match (an all-AI match runs while it is watched)."""
        live.watched_at = self.now()

    # -- seats and tokens -----------------------------------------------------------------
    def seat_of(self, live: Live, token: str | None) -> int | None:
        return self.seats.seat_of(live, token)

    def player_seat(self, live: Live, token: str | None) -> int:
        return self.seats.player_seat(live, token)

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
        first: Callable[[Any, str], None] | None = None,
    ) -> tuple[Live, dict[str, Any]]:
        return await self.seats.create(
            game_name, options, seat_specs, seed, clock, rated, account, replacement_level, first
        )

    async def join(
        self,
        live: Live,
        invite: str | None,
        name: str | None,
        account: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        return await self.seats.join(live, invite, name, account)

    # -- turns and clocks -----------------------------------------------------------------
    async def act(
        self,
        live: Live,
        seat: int,
        text: str,
        ply: int | None,
        by_ai: bool = False,
        client_id: str | None = None,
        turn: int | None = None,
    ) -> Answer:
        """Play ``text`` for ``seat``; the match as the seat then sees it."""
        played = live.ply
        started = time.perf_counter()
        answer = await self.turns.act(live, seat, text, ply, by_ai, client_id, turn)
        self.metrics.action(live.game.name, by_ai, time.perf_counter() - started)
        if live.ply > played and live.to_act not in (-1, seat):
            self.mail.turn_passed(live, live.to_act)  # in the background, if configured
        return answer

    async def conclude(self, live: Live, seat: int, reason: str, status: str = "finished") -> None:
        await self.turns.conclude(live, seat, reason, status)

    async def resign(self, live: Live, seat: int) -> dict[str, Any]:
        return await self.turns.resign(live, seat)

    async def abort(self, live: Live, seat: int) -> dict[str, Any]:
        return await self.turns.abort(live, seat)

    async def claim(self, live: Live, seat: int) -> dict[str, Any]:
        return await self.turns.claim(live, seat)

    async def come_back(
        self, live: Live, seat: int, token_hash: str | None = None
    ) -> dict[str, Any]:
        """The player of ``seat``, which the computer took when they left, plays it again
        from the next decision. If the AI is thinking for the seat at that moment, its
        thought is dropped (never played): the position is the player's to decide."""
        async with live.lock:
            await self.turns.check_flag(live)
            await self.turns.come_back(live, seat, token_hash)
            if live.ai_task is not None and live.to_act == seat:
                self.ai.cancel(live)
            snap = self.bus.snapshot(live, seat)
        self.after_change(live)
        return snap

    async def check_flag(self, live: Live) -> None:
        """If the running clock has run out, the game ends on time (caller holds the lock)."""
        await self.turns.check_flag(live)

    async def sweep(self) -> None:
        """Check every live match's clock (the timers do this; tests call it directly)."""
        for live in list(self.live.values()):
            if live.status == "active" and live.clocks is not None:
                async with live.lock:
                    await self.turns.check_flag(live)
                self.after_change(live)

    async def sweep_due(self) -> list[str]:
        """End on time every match this process runs whose running clock has run out; their
        ids. Only a deadline that has passed takes the match's lock, so a look at thousands
        of running clocks costs a comparison each (``housekeeping.flag_loop`` runs it)."""
        now = self.now()
        due = []
        for live in list(self.live.values()):
            if live.status != "active" or live.clocks is None or not self.cluster.owns(live):
                continue
            deadline = live.clocks.deadline()
            if deadline is None or now < deadline:
                continue
            async with live.lock:
                await self.turns.check_flag(live)
            self.after_change(live)
            if live.status != "active":
                due.append(live.id)
        if due:
            log.info("%d match(es) ended on time at a look at the clocks", len(due))
        return due

    # -- offers -------------------------------------------------------------------------
    async def takeback(self, live: Live, seat: int, accept: bool) -> dict[str, Any]:
        return await self.offers.takeback(live, seat, accept)

    async def rematch(self, live: Live, seat: int) -> dict[str, Any]:
        return await self.offers.rematch(live, seat)

    # -- records ------------------------------------------------------------------------
    async def record_of(self, live: Live) -> dict[str, Any]:
        return await self.records.record_of(live)

    async def import_record(self, data: Any) -> Live:
        return await self.records.import_record(data)

    # -- AI seats -----------------------------------------------------------------------
    async def stop(self, live: Live, token: str | None) -> dict[str, Any]:
        """The owner of an all-AI match stops it (no result)."""
        if not self.seats.is_owner(live, token):
            raise ApiError(
                403, "not_owner", N_("only the owner of a match no human plays may stop it")
            )
        return await self.ai.stop(live)

    # -- after every change: timers and the AI ------------------------------------------
    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def after_change(self, live: Live) -> None:
        """Arm the clock timer and start the AI if it is to act."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.status != "active" or live.state is None:
            self.db.forget_if_done(live)
            return
        if not self.cluster.owns(live):
            # another process runs its clock timer and AI turns (or will, once claimed)
            if live.ai_task is not None:
                self.ai.cancel(live)
            return
        if self.settings.timers and live.clocks is not None:
            deadline = live.clocks.deadline()
            if deadline is not None:
                delay = max(0.0, deadline - self.now()) + 0.01
                live.timer = asyncio.get_running_loop().call_later(
                    delay, lambda: self._spawn(self._flag_task(live))
                )
        self.ai.maybe_start(live)
        if unanswered_ai(live):
            # The AI seats answer a player's draw offer (draws.py), on the process that runs
            # the match's AI, however the offer reached the match.
            self.ai.answer_draw(live, self.draws)

    async def _flag_task(self, live: Live) -> None:
        async with live.lock:
            await self.turns.check_flag(live)
        self.after_change(live)
