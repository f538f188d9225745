"""Positions sampled from random games, shared by the games' equivalence tests."""

from __future__ import annotations

import random
from typing import Any

from sengoku.core.game import Game, State


def sampled_positions(
    game: Game, options: dict[str, Any], count: int, every: int, at: int, max_ply: int
) -> list[State]:
    """``count`` copies of positions from random games (seeds 0, 1, ...): every ``every``-th
    ply from ply ``at`` on, and each game's end; a game stops after ``max_ply`` plies."""
    out: list[State] = []
    seed = 0
    while len(out) < count:
        st = game.new_state(seed, **options)
        rng = random.Random(1000 + seed)
        ply = 0
        while len(out) < count:
            if ply % every == at or st.is_terminal():
                out.append(st.clone())
            if st.is_terminal() or ply > max_ply:
                break
            st.apply(rng.choice(st.legal_actions()))
            ply += 1
        seed += 1
    return out
