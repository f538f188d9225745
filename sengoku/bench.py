"""Random-play throughput through the core contract: ``sengoku bench GAME``."""

from __future__ import annotations

import random
import time
import tracemalloc
from collections.abc import Mapping
from typing import Any

from sengoku.core.game import Game


def random_play(
    game: Game, options: Mapping[str, Any], seconds: float, seed: int = 0
) -> dict[str, Any]:
    """Play uniformly random games for about ``seconds``; plies per second and game count."""
    rng = random.Random(seed)
    plies = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_state(seed=rng.randrange(2**31), **options)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            plies += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "options": dict(options),
        "games": games,
        "plies": plies,
        "seconds": round(elapsed, 3),
        "plies_per_second": round(plies / elapsed, 1),
    }


def peak_memory_of(fn: Any, *args: Any, **kwargs: Any) -> tuple[Any, int]:
    """Run ``fn`` under tracemalloc; its result and the peak bytes allocated."""
    tracemalloc.start()
    try:
        result = fn(*args, **kwargs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak
