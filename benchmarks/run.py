"""``make bench``: Sengoku's speed figures beside a reference measured in the same run.

Prints Gungi random-play plies/s (Intro, and Advanced from a random setup) next to
python-chess random play, Gungi perft depth 3 from Intro, and every other game's random-play
decisions/s for each of its bench presets, each with peak memory.
The ratio is what counts: the machine's speed cancels out.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from typing import Any

import sengoku
from sengoku.core.bench import peak_memory_of, random_play


def chess_random_play(seconds: float, seed: int = 0) -> dict[str, Any]:
    import chess

    rng = random.Random(seed)
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "plies": plies, "plies_per_second": round(plies / elapsed, 1)}


def peak_of(fn: Any, *args: Any) -> int:
    return peak_memory_of(fn, *args)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0, help="per measurement")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    gungi = sengoku.load_game("gungi")
    figures: dict[str, Any] = {}
    figures["chess_random"] = chess_random_play(args.seconds)
    for mode in ("intro", "advanced"):
        run = random_play(gungi, {"mode": mode}, args.seconds)
        run["peak_memory_bytes"] = peak_of(random_play, gungi, {"mode": mode}, 0.5)
        run["ratio_vs_chess"] = round(
            run["plies_per_second"] / figures["chess_random"]["plies_per_second"], 3
        )
        figures[f"gungi_{mode}_random"] = run
    state = gungi.new_state(mode="intro")
    start = time.perf_counter()
    leaves = state.perft(3)
    elapsed = time.perf_counter() - start
    figures["gungi_perft3_intro"] = {
        "leaves": leaves,
        "seconds": round(elapsed, 3),
        "leaves_per_second": round(leaves / elapsed),
        "peak_memory_bytes": peak_of(gungi.new_state(mode="intro").perft, 2),
        "target_seconds": 5.0,
        "gungi_js_seconds": 117,
    }
    figures["other_games"] = {}
    for name in sengoku.list_games():
        if name == "gungi":
            continue
        game = sengoku.load_game(name)
        runs = []
        for preset in game.bench_presets:
            run = random_play(game, preset, args.seconds / len(game.bench_presets))
            run["peak_memory_bytes"] = peak_of(random_play, game, preset, 0.5)
            run["ratio_vs_chess"] = round(
                run["plies_per_second"] / figures["chess_random"]["plies_per_second"], 3
            )
            runs.append(run)
        figures["other_games"][name] = runs
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    c = figures["chess_random"]["plies_per_second"]
    print(f"python-chess random play: {c:,.0f} plies/s (reference, same run)")
    for mode in ("intro", "advanced"):
        r = figures[f"gungi_{mode}_random"]
        print(
            f"Gungi {mode} random play: {r['plies_per_second']:,.0f} plies/s = "
            f"{r['ratio_vs_chess']:.2f} x python-chess (target >= 0.2); "
            f"peak {r['peak_memory_bytes'] / 1024:.0f} KiB traced"
        )
    p = figures["gungi_perft3_intro"]
    print(
        f"Gungi perft(3) Intro: {p['leaves']:,} leaves in {p['seconds']:.2f} s "
        f"(target < 5 s; gungi.js ~117 s); peak {p['peak_memory_bytes'] / 1024:.0f} KiB traced "
        "at depth 2"
    )
    for name, runs in figures["other_games"].items():
        for r in runs:
            print(
                f"{name} {r['options'] or 'default'} random play: {r['plies_per_second']:,.0f} "
                f"decisions/s = {r['ratio_vs_chess']:.2f} x python-chess; "
                f"peak {r['peak_memory_bytes'] / 1024:.0f} KiB traced"
            )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Process peak resident memory: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
