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
