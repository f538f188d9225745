"""Agents that play any Sengoku game through the core contract.

``make_agent(game, "mcts", seed=1, iterations=500)`` builds one by name; an agent *spec*
adds options after colons (``"mcts:iterations=500:c=1.0"``), which is what the arena and
the CLI accept. ``load_agent(game, level)`` builds difficulty level 1-5 of a game.
"""

from __future__ import annotations

import json
import math
from typing import Any

from sengoku.ai.alphabeta import AlphaBetaAgent
from sengoku.ai.base import Agent, Budget, RandomAgent
from sengoku.ai.eval import Knowledge, knowledge_for, register_knowledge
from sengoku.ai.greedy import GreedyAgent
from sengoku.ai.learned.agent import LearnedAgent
from sengoku.ai.mcts import ISMCTSAgent, MCTSAgent
from sengoku.core.game import Game, SengokuError
from sengoku.core.registry import load_game

AGENTS: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
    "ismcts": ISMCTSAgent,
    "alphabeta": AlphaBetaAgent,
    "learned": LearnedAgent,
}
LEVELS = (1, 2, 3, 4, 5)
#: The level that thinks for a time (per turn); the others have fixed budgets.
TIMED_LEVEL = 5
#: Level 5's floor: this many times level 4's iteration (or node) budget, searched however
#: little time the turn has left, so a loaded machine never makes level 5 weaker than 4.
FLOOR_FACTOR = 1.25
#: The most wall-clock seconds a level's turn takes at any load (option ``ceiling``): its
#: budget (CPU time of the searching thread) and level 5's floor yield to it.
TURN_CEILING = 3.0


def _game(game: Game | str) -> Game:
    return load_game(game) if isinstance(game, str) else game


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=500:c=1.0"`` -> ``("mcts", {"iterations": 500, "c": 1.0})``."""
    name, *parts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise SengokuError(f"agent spec {spec!r}: {part!r} is not key=value")
        if key.strip() == "seed":
            # an agent's seed is the caller's (the match's, the arena's), given apart
            raise SengokuError(f"agent spec {spec!r}: seed is not an agent option")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value.strip()
    known = sorted(AGENTS) + [f"level{n}" for n in LEVELS]
    if name not in known:
        raise SengokuError(f"unknown agent {name!r}; available: {', '.join(known)}")
    return name, options


def timed_level(
    name: str, options: dict[str, Any], below: tuple[str, dict[str, Any]]
) -> dict[str, Any]:
    """Level 5's options as it plays: the game's ``seconds`` become a time per *turn*
    (``turn_seconds``, shared over the turn's decisions), with a floor of iterations
    :data:`FLOOR_FACTOR` times level 4's budget (where level 4 is the same agent with an
    iteration budget) and search reuse for the tree searches."""
    out = dict(options)
    seconds = out.pop("seconds", None)
    if seconds is None or "iterations" in out:
        if seconds is not None:
            out["seconds"] = seconds
        return out
    out["turn_seconds"] = seconds
    below_name, below_options = below
    below_iterations = below_options.get("iterations")
    # ``learned`` is IS-MCTS with network leaves: level 4's IS-MCTS budget sets its floor too.
    same_family = below_name == name or (name == "learned" and below_name == "ismcts")
    if same_family and isinstance(below_iterations, int):
        out.setdefault("floor", math.ceil(FLOOR_FACTOR * below_iterations))
    if name in ("mcts", "ismcts", "learned"):
        out.setdefault("reuse", 1)
    return out


def load_agent(game: Game | str, level: int, seed: int = 0, **overrides: Any) -> Agent:
    """Difficulty ``level`` (1 beginner .. 5 strongest, about 1 s a turn) for ``game``.

    Levels 1-4 search fixed iteration (or node) budgets. Level 5 thinks for a time per turn
    (``turn_seconds``; the server passes what its clock allows) and never less than its
    ``floor`` (see :func:`timed_level`). ``overrides`` replace the level's options:
    ``iterations`` makes it a fixed-budget search, ``seconds`` a time per decision."""
    g = _game(game)
    if level not in LEVELS:
        raise SengokuError(f"level must be one of 1-5, got {level!r}")
    levels = knowledge_for(g).levels(g)
    name, options = levels[level]
    merged = dict(options)
    if level == TIMED_LEVEL:
        merged = timed_level(name, merged, levels[TIMED_LEVEL - 1])
    if overrides.keys() & {"iterations", "seconds", "turn_seconds"}:
        merged.pop("iterations", None)
        merged.pop("seconds", None)
        merged.pop("turn_seconds", None)
        if "iterations" in overrides:
            merged.pop("floor", None)
    merged.setdefault("ceiling", TURN_CEILING)
    merged.update(overrides)
    agent = AGENTS[name](g, seed=seed, **merged)
    agent.level = level  # type: ignore[attr-defined]
    return agent


def make_agent(game_name: Game | str, agent_name: str, seed: int = 0, **options: Any) -> Agent:
    """An agent for the game: a name (``mcts``, ``level3``) or a spec with options."""
    name, spec_options = parse_spec(agent_name)
    merged = {**spec_options, **options}
    if name.startswith("level"):
        return load_agent(game_name, int(name[5:]), seed=seed, **merged)
    return AGENTS[name](_game(game_name), seed=seed, **merged)


__all__ = [
    "AGENTS",
    "LEVELS",
    "FLOOR_FACTOR",
    "TIMED_LEVEL",
    "TURN_CEILING",
    "AlphaBetaAgent",
    "Agent",
    "Budget",
    "GreedyAgent",
    "ISMCTSAgent",
    "Knowledge",
    "MCTSAgent",
    "RandomAgent",
    "knowledge_for",
    "load_agent",
    "make_agent",
    "parse_spec",
    "register_knowledge",
]
