"""Random-play throughput through the core contract: ``sengoku bench GAME``.

Speed and memory are measured in separate runs: ``tracemalloc`` hooks every allocation and
makes play about ten times slower, so a speed measured under it says little. :func:`measure`
times random play with nothing traced, then plays a few whole games under ``tracemalloc`` for
the peak. ``benchmarks/run.py`` (``make bench``) uses the same two functions.

A plies-per-second figure alone says more about the machine's load than about the engine
(two cores shared by many). :func:`measure` therefore warms up first (imports, caches, the
native core's tables), then interleaves rounds of the game with rounds of a fixed
pure-Python reference workload (:func:`reference_work`), so that both see the same load, and
reports the game's speed as a *ratio* to the reference's, with CPU time beside wall time.
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


#: One reference unit: a fixed mix of the interpreter work an engine does (integer
#: arithmetic, dict and list traffic, calls), seeded, independent of every game.
REFERENCE_UNIT = 2000


def reference_work(units: int = 1) -> int:
    """Do ``units`` units of the reference workload; returns a checksum (so none is skipped)."""
    total = 0
    for u in range(units):
        table: dict[int, int] = {}
        row = list(range(64))
        x = 12345 + u
        for i in range(REFERENCE_UNIT):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            key = x & 255
            table[key] = table.get(key, 0) + i
            row[i & 63] ^= key
            total ^= max(row[i & 7], key)
    return total


def _reference_for(seconds: float) -> tuple[int, float, float]:
    """Reference units done in about ``seconds``: (units, wall, cpu)."""
    units = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    deadline = wall0 + seconds
    while True:
        reference_work(1)
        units += 1
        if time.perf_counter() >= deadline:
            break
    return units, time.perf_counter() - wall0, time.process_time() - cpu0


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
    game: Game, options: Mapping[str, Any], seconds: float, seed: int = 0, rounds: int = 4
) -> dict[str, Any]:
    """Random play for ``seconds`` in all, untraced and after a warm-up, in ``rounds``
    rounds interleaved with as long of the reference workload; plus ``peak_memory_bytes``
    from a separate traced run of two games.

    ``ratio`` is the game's plies per second over the reference's units per second (wall
    time, both measured under the same load); ``cpu_seconds`` and ``cpu_ratio`` are the same
    on process CPU time, which another program's load changes less.
    """
    rounds = max(1, rounds)
    warm = min(0.2, seconds / 10)
    random_play(game, options, warm, seed)  # warm-up: discarded
    _reference_for(warm)
    plies = played = ref_units = 0
    wall = cpu = ref_wall = ref_cpu = 0.0
    half = seconds / rounds / 2
    for r in range(rounds):
        units, w, c = _reference_for(half)
        ref_units, ref_wall, ref_cpu = ref_units + units, ref_wall + w, ref_cpu + c
        cpu0 = time.process_time()
        part = random_play(game, options, half, seed + r)
        cpu += time.process_time() - cpu0
        plies, played, wall = plies + part["plies"], played + part["games"], wall + part["seconds"]
    pps = plies / wall if wall > 0 else 0.0
    cpu_pps = plies / cpu if cpu > 0 else 0.0
    ref_ups = ref_units / ref_wall if ref_wall > 0 else 0.0
    ref_cpu_ups = ref_units / ref_cpu if ref_cpu > 0 else 0.0
    return {
        "options": dict(options),
        "games": played,
        "plies": plies,
        "seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        "plies_per_second": round(pps, 1),
        "cpu_plies_per_second": round(cpu_pps, 1),
        "reference_units_per_second": round(ref_ups, 1),
        "ratio": round(pps / ref_ups, 3) if ref_ups else 0.0,
        "cpu_ratio": round(cpu_pps / ref_cpu_ups, 3) if ref_cpu_ups else 0.0,
        "rounds": rounds,
        "peak_memory_bytes": random_play_peak(game, options, seed),
    }
