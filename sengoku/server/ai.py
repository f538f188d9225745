"""AI seats: levels, and the worker process that chooses their actions.

The server never runs an agent on its event loop: :func:`choose_action` runs in a process
pool (or, for tests of games registered only in-process, a thread pool), receives the state
as JSON and returns the chosen action's canonical notation, which the server then checks and
applies exactly like a human's.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from collections.abc import Callable
from typing import Any

from sengoku.ai import LEVELS, make_agent, parse_spec
from sengoku.core.game import SengokuError
from sengoku.core.registry import load_game

#: The one place where a level a player picks becomes an agent name for ``make_agent``.
AI_LEVELS: dict[int, str] = {n: f"level{n}" for n in LEVELS}
DEFAULT_LEVEL = 1


def resolve_ai(level: int | None, agent: str | None) -> tuple[str, int | None]:
    """(agent name, level) for a seat asking for ``level`` or a named ``agent``."""
    if agent is not None:
        if level is not None:
            raise SengokuError("an AI seat takes a level or an agent, not both")
        parse_spec(agent)  # raises, naming the agents available
        return agent, None
    level = DEFAULT_LEVEL if level is None else level
    if level not in AI_LEVELS:
        raise SengokuError(f"AI level {level} does not exist; levels: {sorted(AI_LEVELS)}")
    return AI_LEVELS[level], level


def choose_action(
    game_name: str, state_json: dict[str, Any], seat: int, agent_name: str, seed: int
) -> str:
    """Run in a worker: the agent's action for ``seat``, in canonical notation."""
    game = load_game(game_name)
    state = game.state_from_json(state_json)
    agent = make_agent(game_name, agent_name, seed=seed)
    return str(agent.choose(state, seat))


def make_executor(
    mode: str, workers: int, initializer: Callable[[], None] | None
) -> concurrent.futures.Executor:
    if mode == "thread":
        return concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="sengoku-ai", initializer=initializer
        )
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=initializer,
    )
