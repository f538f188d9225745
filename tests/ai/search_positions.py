"""Positions the search tests start from."""

from __future__ import annotations

import random
from typing import Any


def decision_after(rules: Any, deal: int, plies: int, choices: int) -> Any:
    """Game ``deal`` after ``plies`` random plies, then on to a decision of at least
    ``choices`` legal actions."""
    state = rules.new_state(deal)
    rng = random.Random(deal)
    for _ in range(plies):
        state.apply(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < choices:
        state.apply(rng.choice(state.legal_actions()))
    return state


def unfinished_positions(game: str, count: int, seed: int, plies: tuple[int, int]) -> list[Any]:
    """``count`` unfinished positions of random play from fresh deals: each game stops after
    a number of plies drawn from ``plies`` (inclusive); one that ends sooner is dropped."""
    from sengoku.core.registry import load_game

    rules = load_game(game)
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = rules.new_state(rng.randrange(1000))
        for _ in range(rng.randrange(plies[0], plies[1])):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out
