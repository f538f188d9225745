"""The search agents' options that change how a tree is searched (``implicit``,
``prior_visits``): each keeps the search reproducible and its games legal."""

from __future__ import annotations

from typing import Any

import pytest

from sengoku.ai import make_agent
from sengoku.ai.base import Budget
from sengoku.core.registry import load_game

OPTIONS = ["implicit=0.15", "prior_visits=2", "implicit=0.15:prior_visits=2"]


@pytest.mark.parametrize("option", OPTIONS)
def test_same_seed_same_search(option: str) -> None:
    rules = load_game("sashimono")
    state: Any = rules.new_state(2)
    choices = []
    for _ in range(2):
        agent: Any = make_agent(rules, f"level5:{option}:iterations=60:floor=0", seed=9)
        choices.append(agent.choose(state.clone(), state.current_player, Budget(iterations=60)))
    assert choices[0] == choices[1]


@pytest.mark.parametrize("option", OPTIONS)
def test_a_whole_game_is_legal(option: str) -> None:
    rules = load_game("sashimono")
    state: Any = rules.new_state(6)
    agents = [make_agent(rules, f"ismcts:iterations=8:{option}", seed=s) for s in (0, 1)]
    while not state.is_terminal():
        seat = state.current_player
        state.apply(agents[seat].choose(state, seat))
    assert state.outcome() is not None
