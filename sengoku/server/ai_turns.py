"""AI turns: the worker pool that thinks for AI seats, and when it is asked to.

An AI's answer is played through the same path as a player's action, for the position it
was asked about only (a takeback cancels the thought); a failure is retried, and when every
try fails the match is aborted with the reason. An all-AI match stops when nobody watches.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from sengoku.server import ai as ai_mod
from sengoku.server.broadcast import Broadcaster
from sengoku.server.draws import Draws, pending, unanswered_ai
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.live import LIVE_STATUSES, Live
from sengoku.server.settings import Settings
from sengoku.server.turns import Turns

log = logging.getLogger("sengoku.server")

#: Plays an action for an AI seat: (live, seat, text, ply, by_ai=, turn=); its answer is unused.
ActFn = Callable[..., Awaitable[object]]


class AiTurns:
    """Starts, cancels and plays the AI's thoughts for the AI seats of every match."""

    def __init__(
        self,
        settings: Settings,
        bus: Broadcaster,
        turns: Turns,
        act: ActFn,
        after_change: Callable[[Live], None],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        tasks: set[asyncio.Task[Any]],
    ) -> None:
        self.settings = settings
        self.bus = bus
        self.turns = turns
        self._act = act
        self._after_change = after_change
        self._spawn = spawn
        self._tasks = tasks
        self.pool = ai_mod.AiPool(
            settings.ai_mode, settings.ai_workers, settings.ai_initializer, settings.ai_timeout
        )
        self.limits = ai_mod.AiLimits(settings.ai_max_seconds, settings.ai_max_iterations)
        #: The AI seats' answer to a draw offer being worked out, by match id.
        self._draw_tasks: dict[str, asyncio.Task[Any]] = {}

    def now(self) -> float:
        return self.settings.now()

    def shutdown(self) -> None:
        self.pool.shutdown()

    def maybe_start(self, live: Live) -> None:
        """Start thinking if an AI seat is to act in ``live`` (which is active)."""
        assert live.state is not None
        seat = live.state.current_player
        if 0 <= seat < len(live.seats) and live.seats[seat].kind == "ai" and not live.ai_busy:
            if live.owner_hash is not None and self.idle(live):
                live.ai_busy = True  # no more thinking: the match stops
                self._spawn(self._stop_idle(live))
                return
            live.ai_busy = True
            task = asyncio.get_running_loop().create_task(self._ai_move(live, seat, live.turn))
            live.ai_task = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def cancel(self, live: Live) -> None:
        """Drop the AI's thought about the current position (the caller changed it)."""
        task = live.ai_task
        live.ai_task = None
        live.ai_busy = False
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def idle(self, live: Live) -> bool:
        return not live.subscribers and self.now() - live.watched_at > self.settings.ai_idle_after

    async def _stop_idle(self, live: Live) -> None:
        async with live.lock:
            if live.status == "active":
                minutes = self.settings.ai_idle_after / 60
                await self.turns.end_without_result(
                    live,
                    f"nobody watched this all-AI match for {minutes:g} minutes, so it stopped",
                )
        live.ai_busy = False
        self._after_change(live)

    async def stop(self, live: Live) -> dict[str, Any]:
        """Stop an all-AI match (no result); the caller checked the owner's token."""
        async with live.lock:
            if live.status not in LIVE_STATUSES:
                raise ApiError(
                    409,
                    f"match_{live.status}",
                    N_("this match is %(status)s"),
                    params={"status": live.status},
                )
            self.cancel(live)
            await self.turns.end_without_result(live, "stopped by its owner")
            snap = self.bus.snapshot(live, None)
        self._after_change(live)
        return snap

    # -- draw offers -----------------------------------------------------------------------
    def answer_draw(self, live: Live, draws: Draws) -> None:
        """Start the AI seats' answer to the draw offer standing in ``live`` (draws.py), in
        the pool; one answer at a time per match (a later one sees the offers as they are)."""
        running = self._draw_tasks.get(live.id)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(self._answer_draw(live, draws))
        self._draw_tasks[live.id] = task
        self._tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            if self._draw_tasks.get(live.id) is t:
                del self._draw_tasks[live.id]

        task.add_done_callback(done)

    async def _answer_draw(self, live: Live, draws: Draws) -> None:
        state = live.state
        seats = unanswered_ai(live)
        if state is None or live.status != "active" or not seats:
            return
        ply, offered = live.ply, pending(live)
        job = functools.partial(
            ai_mod.answer_draw,
            live.game.name,
            state.to_json(),
            seats,
            [live.seats[s].agent or ai_mod.AI_LEVELS[ai_mod.DEFAULT_LEVEL] for s in seats],
            (live.seed * 1_000_003 + ply + 0xD4A) % (2**31),
        )
        try:
            answers = await self.pool.run(job, True)
        except Exception as exc:
            # No answer: the offer stands (a move still answers it). Only the type is logged.
            log.error(
                "match %s: the AI could not answer a draw offer (%s)", live.id, type(exc).__name__
            )
            return
        await draws.answer_for_ai(live, ply, offered, answers)

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
        if live.ai_turn_seat != seat or live.ai_turn_next_ply != ply:
            # another seat acted since: a new turn, with its whole time
            live.ai_turn_seat, live.ai_turn_spent = seat, 0.0
        turn_left = max(0.05, self.settings.ai_turn_seconds - live.ai_turn_spent)
        ceiling_left = max(0.05, self.settings.ai_turn_ceiling - live.ai_turn_spent)
        job = functools.partial(
            ai_mod.choose_action,
            live.game.name,
            state.to_json(),
            seat,
            s.agent or ai_mod.AI_LEVELS[ai_mod.DEFAULT_LEVEL],
            (live.seed * 1_000_003 + ply) % (2**31),
            self.settings.ai_max_seconds,
            turn_left,
            ceiling_left,
        )
        started = time.monotonic()
        interactive = any(x.kind == "human" for x in live.seats)
        tries = 1 + max(0, self.settings.ai_retries)
        problem = "no answer"
        for attempt in range(1, tries + 1):
            try:
                text = await self.pool.run(job, interactive)
            except concurrent.futures.BrokenExecutor:
                # a worker died (killed, out of memory): start a fresh pool and ask again
                log.error("match %s: the AI worker pool broke (attempt %d)", live.id, attempt)
                self.pool.broken()
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
            thought = time.monotonic() - started
            live.ai_turn_spent += thought
            live.ai_turn_next_ply = ply + 1
            live.ai_thought = {"seat": seat, "ply": ply, "seconds": round(thought, 2)}
            answering = self._draw_tasks.get(live.id)
            if answering is not None and not answering.done():
                # A draw offer is being answered: the answer comes first (a move would
                # leave the offer unanswered, and may not come after an agreed draw).
                await asyncio.wait({answering})
                if live.ai_task is not me:
                    return
            try:
                await self._act(live, seat, text, ply, by_ai=True, turn=turn)
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
                await self.turns.end_without_result(live, reason)
        self._after_change(live)
