"""Heavy work off the event loop: replays of whole records, in a small pool of worker
processes, each job bounded in time.

A record's replay (``POST /api/replay`` computes a view per ply; an import replays every
action) can take seconds; on the event loop it would stall every game. Here it runs in a
spawned worker; past ``timeout`` its worker is killed and replaced and the request gets
``503 too_slow``; beyond ``max_waiting`` queued jobs a request gets ``503 busy`` at once.
Jobs are plain functions of JSON-ready arguments that return JSON-ready values (or bytes).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any

from sengoku.core.game import SengokuError, State
from sengoku.core.record import GameRecord
from sengoku.server.children import ProcessPool


class WorkRefused(Exception):
    """The pool could not do the job: too many waiting, or it ran out of time."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class WorkPool:
    def __init__(
        self,
        mode: str,
        workers: int,
        initializer: Callable[[], None] | None,
        timeout: float,
        max_waiting: int = 16,
    ) -> None:
        self.mode = mode
        self.workers = max(1, workers)
        self.initializer = initializer
        self.timeout = timeout
        self.max_waiting = max_waiting
        self.executor: concurrent.futures.Executor | None = None
        self.pending = 0

    def _executor(self) -> concurrent.futures.Executor:
        if self.executor is None:
            from sengoku.server.ai import make_executor

            self.executor = make_executor(self.mode, self.workers, self.initializer)
        return self.executor

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self.pending >= self.workers + self.max_waiting:
            raise WorkRefused("busy", "the server is busy with other replays; try again soon")
        self.pending += 1
        try:
            for attempt in (1, 2):
                cf = self._executor().submit(fn, *args)
                try:
                    return await asyncio.wait_for(asyncio.wrap_future(cf), self.timeout)
                except TimeoutError:
                    self._kill()
                    raise WorkRefused(
                        "too_slow", f"this took longer than {self.timeout:g} s and was stopped"
                    ) from None
                except concurrent.futures.BrokenExecutor:
                    self.executor = None  # a worker died (perhaps killed above): once more
                    if attempt == 2:
                        raise WorkRefused("busy", "the replay worker failed; try again") from None
            raise AssertionError("unreachable")
        finally:
            self.pending -= 1

    def jobs(self) -> int:
        """Jobs running on a worker or waiting for one (the metrics' queue depth)."""
        return self.pending

    def _kill(self) -> None:
        executor = self.executor
        self.executor = None
        if isinstance(executor, ProcessPool):
            executor.kill_workers()
        elif executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None


def replay_with_movers(record: GameRecord) -> tuple[State, list[int]]:
    """The record's final state (checked against its result) and the seat of each action,
    in one replay."""
    movers: list[int] = []
    state: State | None = None
    for step in record.steps():
        state = step.state
        if step.kind == "action":
            assert step.seat is not None
            movers.append(step.seat)
    assert state is not None
    return state, movers


def replayed_state(data: Any) -> dict[str, Any]:
    """Run in a worker: the final state of a stored record (a match that is over, loaded
    again), as ``State.to_json``; ``{"error": message}`` when it does not replay."""
    try:
        state = GameRecord.from_json(data).replay()
    except SengokuError as exc:
        return {"error": str(exc)}
    return {"state": state.to_json()}


def import_summary(data: Any, max_actions: int) -> dict[str, Any]:
    """Run in a worker: replay an imported record (it must replay exactly) and say what the
    server stores of it; ``{"error": message}`` when it does not replay."""
    try:
        record = GameRecord.from_json(data)
        if len(record.actions) > max_actions:
            return {"error": f"records are limited to {max_actions} actions"}
        state, movers = replay_with_movers(record)
        game = state.game
    except SengokuError as exc:
        # an engine's sentence (sengoku/core/sentence.py) travels too, for the reader's language
        return {"error": str(exc), "say": exc.say.wire() if exc.say is not None else None}
    outcome = state.outcome()
    return {
        "game": game.name,
        "options": dict(state.options),
        "num_players": state.num_players,
        "terminal": state.is_terminal(),
        "outcome": outcome.to_json() if outcome else None,
        "movers": movers,
    }
