"""Agents that play any Sengoku game through the core contract."""

from __future__ import annotations

from typing import Any

from sengoku.ai.base import Agent, Budget, RandomAgent
from sengoku.core.game import SengokuError
from sengoku.core.registry import load_game

AGENTS: dict[str, type[Agent]] = {"random": RandomAgent}


def make_agent(game_name: str, agent_name: str, seed: int = 0, **options: Any) -> Agent:
    """An agent called ``agent_name`` for ``game_name``."""
    if agent_name not in AGENTS:
        raise SengokuError(f"unknown agent {agent_name!r}; available: {', '.join(sorted(AGENTS))}")
    return AGENTS[agent_name](load_game(game_name), seed=seed, **options)


__all__ = ["AGENTS", "Agent", "Budget", "RandomAgent", "make_agent"]
