"""``make bench``: Sengoku's speed figures beside a reference measured in the same run.

Prints Gungi random-play plies/s (Intro, and Advanced from a random setup) next to
python-chess random play, Gungi perft depth 3 from Intro, and every other game's random-play
decisions/s for each of its bench presets, each with peak memory. ``--stalls`` adds the
server's stall figures (benchmarks/server_stalls.py; ``--browser`` too: the replay step in
Chromium), the speeds the tests no longer judge.
The ratio is what counts: the machine's speed cancels out.

Gungi has a native core (C++, issue 21): the contract's figures use it where it is built, and
a "Gungi native core" section measures random play through the contract with and without it,
raw native random play (one game after another, and N games batched with numpy masks),
perft(3) native and pure-Python, and alpha-beta nodes/s native and pure-Python, all in the
same run as python-chess. Speed runs never run under tracemalloc (memory is a separate run).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

import sengoku
from sengoku.core.bench import peak_memory_of, random_play


def chess_random_play(seconds: float, seed: int = 0) -> dict[str, Any]:
    import chess

    rng = random.Random(seed)
    plies = games = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        games += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return {
        "games": games,
        "plies": plies,
        "plies_per_second": round(plies / elapsed, 1),
        "cpu_plies_per_second": round(plies / cpu, 1) if cpu > 0 else 0.0,
    }


def beside_chess(run: Any, seconds: float, per_second: str = "plies_per_second") -> dict[str, Any]:
    """``run()``'s figure between two python-chess runs (after a warm-up of both), as a ratio
    to their mean, with CPU time beside wall time: on a shared machine the load drifts within
    a run, so every figure gets its own reference, measured just before and after it."""
    chess_random_play(min(0.2, seconds / 8), seed=3)  # warm-up: discarded
    before = chess_random_play(seconds / 4, seed=2)
    start_cpu = time.process_time()
    figure: dict[str, Any] = run()
    cpu = time.process_time() - start_cpu
    after = chess_random_play(seconds / 4, seed=2)
    wall_ref = (before["plies_per_second"] + after["plies_per_second"]) / 2
    cpu_ref = (before["cpu_plies_per_second"] + after["cpu_plies_per_second"]) / 2
    figure["cpu_seconds"] = round(cpu, 3)
    figure["chess_plies_per_second"] = [before["plies_per_second"], after["plies_per_second"]]
    figure["ratio_vs_chess"] = round(figure[per_second] / wall_ref, 3) if wall_ref else 0.0
    count = figure.get("plies", figure.get("leaves", 0))
    figure["cpu_ratio_vs_chess"] = round(count / cpu / cpu_ref, 3) if cpu > 0 and cpu_ref else 0.0
    return figure


@contextmanager
def gungi_engine(native: bool) -> Iterator[None]:
    """Gungi's native core on or off (off: the pure-Python engine) for the block."""
    from sengoku.games.gungi import state as gungi_state

    saved = gungi_state._NATIVE
    gungi_state._NATIVE = native and saved
    try:
        yield
    finally:
        gungi_state._NATIVE = saved


def _search_positions(gungi: Any) -> list[Any]:
    """Middle-game positions for the alpha-beta figures (fixed seeds)."""
    positions = []
    for seed in range(4):
        rng = random.Random(seed)
        state = gungi.new_state(mode="intro")
        for _ in range(12 + 6 * seed):
            state.apply(rng.choice(state.legal_actions()))
        positions.append(state)
    return positions


def alphabeta_speed(gungi: Any, native: bool, seconds: float) -> dict[str, Any]:
    """Nodes/s of the alpha-beta agent (one move per position, ``seconds`` in all)."""
    from sengoku.ai.alphabeta import AlphaBetaAgent
    from sengoku.ai.base import Budget

    nodes = 0
    elapsed = cpu = 0.0
    positions = _search_positions(gungi)
    with gungi_engine(native):
        for state in positions:
            agent = AlphaBetaAgent(gungi, seed=0, native=int(native))
            start, start_cpu = time.perf_counter(), time.thread_time()
            agent.choose(state.clone(), state.current_player, Budget(seconds=seconds / 4))
            elapsed += time.perf_counter() - start
            cpu += time.thread_time() - start_cpu
            nodes += int(agent.last_stats["nodes"])
    # Nodes per second of this thread's CPU time too: on a shared machine the wall clock
    # also counts the time other work had the core (the search itself is one thread).
    return {
        "nodes": nodes,
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(cpu, 3),
        "nodes_per_second": round(nodes / elapsed),
        "nodes_per_cpu_second": round(nodes / cpu) if cpu > 0 else None,
    }


def gungi_native_figures(gungi: Any, seconds: float, chess: float) -> dict[str, Any]:
    """Each Gungi figure between two python-chess runs, its ratio to their mean: the load of a
    shared machine drifts within a run, so the reference is measured beside every figure."""
    from sengoku.games.gungi import native_core

    out: dict[str, Any] = {"available": native_core.native_available()}
    if not out["available"]:
        out["reason"] = native_core.UNAVAILABLE_REASON
        return out
    from sengoku.games.gungi.batch import GungiBatch

    def chess_now() -> float:
        return float(chess_random_play(seconds / 4, seed=2)["plies_per_second"])

    def native_playouts(mode: str) -> dict[str, Any]:
        """Whole random games inside the core, one after another."""
        position = native_core.full_position(gungi.new_state(mode=mode))
        plies = games = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 2:
            plies += position.random_playouts(20, games)
            games += 20
        elapsed = time.perf_counter() - start
        return {"games": games, "plies": plies, "plies_per_second": round(plies / elapsed)}

    def batched(mode: str, masks: bool) -> dict[str, Any]:
        """256 games stepped together from Python (random actions), with or without a legal
        mask (256 x 57025 bools) filled at every step."""
        batch = GungiBatch(mode=mode)
        buffer = np.zeros((256, batch.num_actions), dtype=bool)
        plies = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 2:
            batch.reset(256, seed=plies)
            while not batch.done().all():
                if masks:
                    batch.legal_mask(buffer)
                actions = batch.random_actions()
                plies += int((actions >= 0).sum())
                batch.step(actions)
        elapsed = time.perf_counter() - start
        return {"plies": plies, "plies_per_second": round(plies / elapsed)}

    def vector(mode: str) -> dict[str, Any]:
        """The research environment: 256 games, each step with masks (int8) and observation
        planes for every game, finished games restarted at once."""
        from sengoku.interop.vector import VectorEnv

        env = VectorEnv("gungi", 256, mode=mode)
        env.reset(seed=0)
        plies = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 2:
            env.step(env.sample_actions())
            plies += 256
        elapsed = time.perf_counter() - start
        return {"plies": plies, "plies_per_second": round(plies / elapsed)}

    def contract(mode: str, native: bool) -> dict[str, Any]:
        with gungi_engine(native):
            return random_play(gungi, {"mode": mode}, seconds / 2)

    for mode in ("intro", "advanced"):
        runs = [
            ("random_contract_native", lambda m=mode: contract(m, True)),
            ("random_contract_pure_python", lambda m=mode: contract(m, False)),
            ("random_native", lambda m=mode: native_playouts(m)),
            ("random_batch256_stepping", lambda m=mode: batched(m, False)),
            ("random_batch256_with_masks", lambda m=mode: batched(m, True)),
            ("random_vector_env256_masks_observations", lambda m=mode: vector(m)),
        ]
        before = chess_now()
        for name, run in runs:
            figure = run()
            after = chess_now()
            reference = (before + after) / 2
            figure["chess_plies_per_second"] = [round(before), round(after)]
            figure["ratio_vs_chess"] = round(figure["plies_per_second"] / reference, 2)
            out[f"{mode}_{name}"] = figure
            before = after
    with gungi_engine(False):
        start = time.perf_counter()
        leaves = gungi.new_state(mode="intro").perft(3)
        out["perft3_intro_pure_python"] = {
            "leaves": leaves,
            "seconds": round(time.perf_counter() - start, 3),
        }
    out["alphabeta_native"] = alphabeta_speed(gungi, True, seconds / 2)
    out["alphabeta_pure_python"] = alphabeta_speed(gungi, False, seconds / 2)
    return out


def peak_of(fn: Any, *args: Any) -> int:
    return peak_memory_of(fn, *args)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0, help="per measurement")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--stalls",
        action="store_true",
        help="also the server's stall figures (benchmarks/server_stalls.py: server processes)",
    )
    parser.add_argument(
        "--browser", action="store_true", help="with --stalls: the replay step in Chromium too"
    )
    args = parser.parse_args()
    gungi = sengoku.load_game("gungi")
    figures: dict[str, Any] = {}
    figures["chess_random"] = chess_random_play(args.seconds)
    for mode in ("intro", "advanced"):
        random_play(gungi, {"mode": mode}, min(0.5, args.seconds / 10))  # warm-up
        run = beside_chess(
            lambda m=mode: random_play(gungi, {"mode": m}, args.seconds), args.seconds
        )
        run["peak_memory_bytes"] = peak_of(random_play, gungi, {"mode": mode}, 0.5)
        figures[f"gungi_{mode}_random"] = run

    def perft3() -> dict[str, Any]:
        state = gungi.new_state(mode="intro")
        start = time.perf_counter()
        leaves = state.perft(3)
        elapsed = time.perf_counter() - start
        return {
            "leaves": leaves,
            "seconds": round(elapsed, 3),
            "leaves_per_second": round(leaves / elapsed),
        }

    gungi.new_state(mode="intro").perft(2)  # warm-up
    figures["gungi_perft3_intro"] = {
        **beside_chess(perft3, args.seconds, "leaves_per_second"),
        "peak_memory_bytes": peak_of(gungi.new_state(mode="intro").perft, 2),
        "target_seconds": 5.0,
        "gungi_js_seconds": 117,
    }
    figures["gungi_native"] = gungi_native_figures(
        gungi, args.seconds, figures["chess_random"]["plies_per_second"]
    )
    figures["other_games"] = {}
    for name in sengoku.list_games():
        if name == "gungi":
            continue
        game = sengoku.load_game(name)
        runs = []
        for preset in game.game_type.bench_presets:
            share = args.seconds / len(game.game_type.bench_presets)
            random_play(game, preset, min(0.5, share / 10))  # warm-up
            run = beside_chess(lambda g=game, p=preset, t=share: random_play(g, p, t), share)
            run["peak_memory_bytes"] = peak_of(random_play, game, preset, 0.5)
            runs.append(run)
        figures["other_games"][name] = runs
    if args.stalls:
        import server_stalls  # beside this file (run as a script: its folder is on the path)

        figures["server_stalls"] = server_stalls.figures(args.browser)
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    c = figures["chess_random"]["plies_per_second"]
    print(
        f"python-chess random play: {c:,.0f} plies/s (the reference; every ratio below is to "
        "python-chess measured just before and after that figure, after a warm-up; CPU ratios "
        "on process CPU time)"
    )
    for mode in ("intro", "advanced"):
        r = figures[f"gungi_{mode}_random"]
        print(
            f"Gungi {mode} random play: {r['plies_per_second']:,.0f} plies/s = "
            f"{r['ratio_vs_chess']:.2f} x python-chess (CPU {r['cpu_ratio_vs_chess']:.2f} x; "
            "target >= 0.2); "
            f"peak {r['peak_memory_bytes'] / 1024:.0f} KiB traced"
        )
    p = figures["gungi_perft3_intro"]
    print(
        f"Gungi perft(3) Intro: {p['leaves']:,} leaves in {p['seconds']:.2f} s, "
        f"{p['ratio_vs_chess']:.1f} x python-chess plies/s (CPU {p['cpu_ratio_vs_chess']:.1f} x) "
        f"(target < 5 s; gungi.js ~117 s); peak {p['peak_memory_bytes'] / 1024:.0f} KiB traced "
        "at depth 2"
    )
    n = figures["gungi_native"]
    if not n["available"]:
        print(f"Gungi native core: not available ({n['reason']})")
    else:
        print(
            "Gungi native core (each ratio to python-chess random play measured just before "
            "and after that figure):"
        )
        for mode in ("intro", "advanced"):
            native = n[f"{mode}_random_contract_native"]
            pure = n[f"{mode}_random_contract_pure_python"]
            raw = n[f"{mode}_random_native"]
            step = n[f"{mode}_random_batch256_stepping"]
            masked = n[f"{mode}_random_batch256_with_masks"]
            print(
                f"  {mode} random play: contract {native['ratio_vs_chess']:.2f}x with the native "
                f"core, {pure['ratio_vs_chess']:.2f}x pure Python; raw native "
                f"{raw['plies_per_second']:,} plies/s = {raw['ratio_vs_chess']:.1f}x; "
                f"batch of 256 {step['plies_per_second']:,} plies/s = "
                f"{step['ratio_vs_chess']:.1f}x, with legal masks {masked['ratio_vs_chess']:.1f}x "
                "(target >= 3x)"
            )
        pp = n["perft3_intro_pure_python"]
        print(
            f"  perft(3) Intro: native {p['seconds']:.3f} s, pure Python {pp['seconds']:.2f} s "
            f"(target <= 0.3 s)"
        )
        a, b = n["alphabeta_native"], n["alphabeta_pure_python"]
        print(
            f"  alpha-beta: native {a['nodes_per_second']:,} nodes/s "
            f"({a['nodes_per_cpu_second']:,} per CPU second), pure Python "
            f"{b['nodes_per_second']:,} nodes/s (target >= 1M on one core)"
        )
    for name, runs in figures["other_games"].items():
        for r in runs:
            print(
                f"{name} {r['options'] or 'default'} random play: {r['plies_per_second']:,.0f} "
                f"decisions/s = {r['ratio_vs_chess']:.2f} x python-chess "
                f"(CPU {r['cpu_ratio_vs_chess']:.2f} x); "
                f"peak {r['peak_memory_bytes'] / 1024:.0f} KiB traced"
            )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Process peak resident memory: {rss:.0f} MiB")
    if args.stalls:
        import server_stalls

        server_stalls.report(figures["server_stalls"])


if __name__ == "__main__":
    main()
