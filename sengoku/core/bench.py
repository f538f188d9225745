"""Random-play throughput through the core contract: ``sengoku bench GAME``.

Speed and memory are measured in separate runs: ``tracemalloc`` hooks every allocation and
makes play about ten times slower, so a speed measured under it says little. :func:`measure`
times random play with nothing traced, then plays a few whole games under ``tracemalloc`` for
the peak. ``benchmarks/run.py`` (``make bench``) uses the same two functions.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from collections.abc import Mapping
from typing import Any

from sengoku.core.game import Game


def random_play(
    game: Game,
    options: Mapping[str, Any],
    seconds: float,
    seed: int = 0,
    games: int | None = None,
) -> dict[str, Any]:
    """Play uniformly random games for about ``seconds`` (or exactly ``games`` games, when
    given); plies per second and game count."""
    rng = random.Random(seed)
    plies = played = 0
    start = time.perf_counter()
    deadline = start + seconds
    while (played < games) if games is not None else (time.perf_counter() < deadline):
        state = game.new_state(seed=rng.randrange(2**31), **options)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            plies += 1
        played += 1
    elapsed = time.perf_counter() - start
    return {
        "options": dict(options),
        "games": played,
        "plies": plies,
        "seconds": round(elapsed, 3),
        "plies_per_second": round(plies / elapsed, 1) if elapsed > 0 else 0.0,
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


def random_play_peak(game: Game, options: Mapping[str, Any], seed: int = 0, games: int = 2) -> int:
    """Peak bytes allocated (traced) while playing ``games`` whole random games."""
    _, peak = peak_memory_of(random_play, game, options, 0.0, seed, games)
    return peak


def measure(
    game: Game, options: Mapping[str, Any], seconds: float, seed: int = 0
) -> dict[str, Any]:
    """:func:`random_play` for ``seconds`` untraced, plus ``peak_memory_bytes`` from a
    separate traced run of two games."""
    result = random_play(game, options, seconds, seed)
    result["peak_memory_bytes"] = random_play_peak(game, options, seed)
    return result
