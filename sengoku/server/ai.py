"""AI seats: levels, budgets, and the shared pool of workers that choose their actions.

The server never runs an agent on its event loop: :func:`choose_action` runs in a process
pool (or, for tests of games registered only in-process, a thread pool), receives the state
as JSON and returns the chosen action's canonical notation, which the server then checks and
applies exactly like a human's.

The pool is shared fairly (:class:`AiPool`): each match has at most one decision queued or
running, decisions wait in order of arrival, those of matches a human plays in go first, and
matches that no human plays (all-AI) may never take every worker. A decision runs under a
capped budget and a wall-clock limit; past the limit its worker is replaced.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sengoku.ai import AGENTS, LEVELS, TIMED_LEVEL, make_agent, parse_spec
from sengoku.ai.draws import accepts_draw
from sengoku.core.game import SengokuError
from sengoku.core.registry import load_game
from sengoku.server.children import ProcessPool

#: The one place where a level a player picks becomes an agent name for ``make_agent``.
AI_LEVELS: dict[int, str] = {n: f"level{n}" for n in LEVELS}
DEFAULT_LEVEL = 1


@dataclass(frozen=True)
class AiLimits:
    """What one AI decision may cost on this server."""

    #: The most ``seconds`` an agent spec may ask for; agents without one get it as a limit.
    max_seconds: float = 5.0
    #: The most ``iterations`` an agent spec may ask for.
    max_iterations: int = 20_000


#: Budget options, by what bounds them on this server.
_SECONDS_OPTIONS = ("seconds", "turn_seconds")
_ITERATION_OPTIONS = ("iterations", "floor")


def _looks_like_path(value: str) -> bool:
    """Whether an option's text could name a file: no option a client sends ever does."""
    return any(mark in value for mark in ("/", "\\", "..", "~", "\0")) or value.endswith(
        (".json", ".npz", ".toml", ".npy")
    )


def check_spec(agent: str, limits: AiLimits) -> tuple[str, dict[str, Any]]:
    """A client's agent spec checked as text, before anything is built from it: the agent
    exists, a level carries no options, budgets are within ``limits`` and no option names a
    file (the files that ship are picked by name: ``alphabeta:eval=learned``)."""
    name, options = parse_spec(agent)  # raises, naming the agents available
    if name.startswith("level"):
        if options:
            raise SengokuError(f"agent {agent!r}: a level takes no options")
        return name, options
    shipped = AGENTS[name].file_options
    for key, value in options.items():
        if key in shipped and not (isinstance(value, str) and value in shipped[key]):
            names = ", ".join(sorted(shipped[key]))
            raise SengokuError(
                f"agent {agent!r}: {key} names a file that ships ({names}), never a path"
            )
        if isinstance(value, str) and _looks_like_path(value):
            raise SengokuError(f"agent {agent!r}: option {key} is a name or a number, never a path")
    for key in _SECONDS_OPTIONS:
        seconds = options.get(key)
        if seconds is None:
            continue
        if not isinstance(seconds, int | float) or isinstance(seconds, bool):
            raise SengokuError(f"agent {agent!r}: {key} must be a number")
        if not 0 < seconds <= limits.max_seconds:
            raise SengokuError(
                f"agent {agent!r}: {key} must be above 0 and at most "
                f"{limits.max_seconds:g} on this server"
            )
    for key in _ITERATION_OPTIONS:
        iterations = options.get(key)
        if iterations is None:
            continue
        if not isinstance(iterations, int) or isinstance(iterations, bool):
            raise SengokuError(f"agent {agent!r}: {key} must be an integer")
        if not 1 <= iterations <= limits.max_iterations:
            raise SengokuError(
                f"agent {agent!r}: {key} must be 1 to {limits.max_iterations} on this server"
            )
    return name, options


def resolve_ai(
    level: int | None,
    agent: str | None,
    game: str | None = None,
    limits: AiLimits | None = None,
) -> tuple[str, int | None]:
    """(agent name, level) for a seat asking for ``level`` or a named ``agent``.

    A spec is checked in full here, so a bad one is refused when the match is created: first
    as text (:func:`check_spec`: the agent's name, its budgets against ``limits``, no path),
    then (given ``game``) every option, by building the agent once.
    """
    if agent is not None:
        if level is not None:
            raise SengokuError("an AI seat takes a level or an agent, not both")
        check_spec(agent, limits or AiLimits())
        if game is not None:
            try:
                make_agent(game, agent, seed=0)
            except SengokuError:
                raise
            except (TypeError, ValueError, LookupError):
                # the text of such an error names the code's own classes: not for a client
                raise SengokuError(
                    f"agent {agent!r}: an option has a value this agent cannot take"
                ) from None
        return agent, None
    level = DEFAULT_LEVEL if level is None else level
    if level not in AI_LEVELS:
        raise SengokuError(f"AI level {level} does not exist; levels: {sorted(AI_LEVELS)}")
    return AI_LEVELS[level], level


def choose_action(
    game_name: str,
    state_json: dict[str, Any],
    seat: int,
    agent_name: str,
    seed: int,
    max_seconds: float | None = None,
    turn_seconds: float | None = None,
    ceiling: float | None = None,
) -> str:
    """Run in a worker: the agent's action for ``seat``, in canonical notation.

    A named agent (not a level) without its own ``seconds`` thinks at most ``max_seconds``
    (CPU time), and takes at most that much wall-clock time unless it names a ``ceiling``.
    The timed level (level 5) thinks ``turn_seconds``, what is left of its turn's time; every
    level takes at most ``ceiling`` wall-clock seconds, what is left of its turn's ceiling.
    """
    game = load_game(game_name)
    state = game.state_from_json(state_json)
    name, options = parse_spec(agent_name)
    extra: dict[str, Any] = {}
    if max_seconds is not None and not name.startswith("level") and "seconds" not in options:
        extra["seconds"] = max_seconds
    if turn_seconds is not None and name == f"level{TIMED_LEVEL}" and not options:
        extra["turn_seconds"] = turn_seconds
    if "ceiling" not in options:
        wall = ceiling if name.startswith("level") else max_seconds
        if wall is not None:
            extra["ceiling"] = wall
    agent = make_agent(game_name, agent_name, seed=seed, **extra)
    return str(agent.choose(state, seat))


#: The answers of :func:`answer_draw`, one letter a seat.
ACCEPT, DECLINE = "a", "d"


def answer_draw(
    game_name: str,
    state_json: dict[str, Any],
    seats: list[int],
    agent_names: list[str],
    seed: int,
) -> str:
    """Run in a worker: each AI seat's answer to a draw offer, one letter a seat in the
    order of ``seats`` (:data:`ACCEPT` or :data:`DECLINE`), by its own agent's judgement of
    the position from its seat's view (:func:`sengoku.ai.draws.accepts_draw`). Only the
    answers come back: the value behind them stays in the worker."""
    game = load_game(game_name)
    state = game.state_from_json(state_json)
    answers = []
    for seat, agent_name in zip(seats, agent_names, strict=True):
        agent = make_agent(game_name, agent_name, seed=(seed + 7919 * seat) % (2**31))
        answers.append(ACCEPT if accepts_draw(agent, state, seat) else DECLINE)
    return "".join(answers)


def make_executor(
    mode: str, workers: int, initializer: Callable[[], None] | None
) -> concurrent.futures.Executor:
    if mode == "thread":
        return concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="sengoku-ai", initializer=initializer
        )
    # Spawned workers that die with the server, even one killed with kill -9 (children.py).
    return ProcessPool(workers, initializer)


class AiTimeout(Exception):
    """A decision ran past the pool's wall-clock limit (its worker was replaced)."""


class AiPool:
    """The workers every AI seat shares, handed out fairly.

    A decision waits for a free worker in order of arrival; decisions of matches with a
    human seat (``interactive``) go before those of all-AI matches, and all-AI matches never
    hold more than ``workers - 1`` workers (when there are two or more), so a human's
    opponent always finds one soon. The service keeps one decision per match at most, so
    arrival order is round-robin over the matches.
    """

    def __init__(
        self,
        mode: str,
        workers: int,
        initializer: Callable[[], None] | None,
        timeout: float,
    ) -> None:
        self.mode = mode
        self.workers = max(1, workers)
        self.initializer = initializer
        self.timeout = timeout
        self.executor: concurrent.futures.Executor | None = None
        self.busy = 0
        self.busy_background = 0
        self.waiting: dict[bool, collections.deque[asyncio.Future[None]]] = {
            True: collections.deque(),
            False: collections.deque(),
        }

    # -- slots --------------------------------------------------------------------------
    def _background_cap(self) -> int:
        return self.workers - 1 if self.workers > 1 else 1

    def _dispatch(self) -> None:
        while self.busy < self.workers:
            for interactive in (True, False):
                queue = self.waiting[interactive]
                while queue and queue[0].done():  # cancelled while waiting
                    queue.popleft()
                if not queue:
                    continue
                if not interactive and self.busy_background >= self._background_cap():
                    continue
                fut = queue.popleft()
                self.busy += 1
                if not interactive:
                    self.busy_background += 1
                fut.set_result(None)
                break
            else:
                return

    def _release(self, interactive: bool) -> None:
        self.busy -= 1
        if not interactive:
            self.busy_background -= 1
        self._dispatch()

    async def run(self, job: Callable[[], str], interactive: bool) -> str:
        """Run ``job`` on a worker when one is free for it; raises :class:`AiTimeout` past the
        time limit. Cancelling the caller drops a queued job; a running one finishes in its
        worker (its answer is thrown away) and holds its worker until then."""
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[None] = loop.create_future()
        self.waiting[interactive].append(turn)
        self._dispatch()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release(interactive)  # granted just as it was cancelled
            raise
        try:
            if self.executor is None:
                self.executor = make_executor(self.mode, self.workers, self.initializer)
            executor = self.executor
            cf = executor.submit(job)
        except concurrent.futures.BrokenExecutor:
            self._release(interactive)
            self.executor = None
            raise
        except BaseException:
            self._release(interactive)
            raise
        cf.add_done_callback(
            lambda _f: (
                loop.call_soon_threadsafe(self._release, interactive)
                if not loop.is_closed()
                else None
            )
        )
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(cf)), self.timeout)
        except TimeoutError:
            self._kill_workers()
            raise AiTimeout(f"no answer within {self.timeout:g} s") from None
        except concurrent.futures.BrokenExecutor:
            if self.executor is executor:  # not one a retry has started meanwhile
                self.executor = None
            raise

    def jobs(self) -> int:
        """Decisions running on a worker or waiting for one (the metrics' queue depth)."""
        waiting = sum(1 for queue in self.waiting.values() for fut in queue if not fut.done())
        return self.busy + waiting

    # -- workers ------------------------------------------------------------------------
    def worker_pids(self) -> list[int]:
        """The pids of the pool's worker processes alive now (none for a thread pool)."""
        return self.executor.worker_pids() if isinstance(self.executor, ProcessPool) else []

    def _kill_workers(self) -> None:
        """Replace the workers (process pools only: a thread cannot be stopped)."""
        if not isinstance(self.executor, ProcessPool):
            return
        self.executor.kill_workers()
        self.executor = None

    def broken(self) -> None:
        """The executor broke (a worker died): :meth:`run` has dropped it already; the next
        job starts a fresh one."""

    def shutdown(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
        for queue in self.waiting.values():
            for fut in queue:
                fut.cancel()
