"""A game's engine compiled (mypyc) against its plain Python, as ratios to python-chess.

``python benchmarks/gunshi_compiled.py [GAME] [--rounds N] [--seconds S] [--iterations I]``
(default: gunshi) runs, round after round, each figure once compiled and once as plain Python
(``SENGOKU_PURE_PYTHON=1``: every compiled module of the package runs its source), each in a
process of its own, the order alternated from round to round so that a drift of the
machine's load falls on both:

* random play through the contract (``benchmarks/interop.py``'s ``direct`` player, python-chess
  interleaved with it in the same process as the reference): plies per CPU second as a ratio
  to python-chess's;
* the search (``benchmarks/ai.py``'s ``iterations`` figure: level 5's agent, an iteration
  budget per decision from sampled positions, python-chess before and after): iterations per
  CPU second, and as a ratio to python-chess.

It prints every round, then the median and the range of each figure and the median
compiled/plain speed-ups. CPU time throughout: on a shared machine the wall clock also counts
the time others had the core. The build must be in place (``make install``, or
``python setup.py build_ext --inplace``); a process that finds the engine not compiled says so.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: One random-play figure: interop.py's chess and direct players, in this process.
RANDOM_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
import importlib
import interop
from sengoku.compiled import is_compiled
from sengoku.core.registry import load_game
game_name, seconds = sys.argv[2], float(sys.argv[3])
load_game(game_name)
engine = importlib.import_module(f"sengoku.games.{game_name}.state")
options = dict(next(o for n, o in interop.CASES if n == game_name))
players = {"chess": interop.chess_player(), "direct": interop.direct(game_name, options)}
rates = interop.measure(players, seconds, 20)
row = {"compiled": is_compiled(engine), "chess": rates["chess"][0], "direct": rates["direct"][0]}
print("ROW", json.dumps(row))
"""

#: One search figure: benchmarks/ai.py's ``iterations_figure``, in this process.
ITERATIONS_CHILD = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
import ai
from sengoku.compiled import is_compiled
game_name, iterations, positions, seconds = sys.argv[2:6]
row = ai.iterations_figure(game_name, int(iterations), int(positions), float(seconds))
row["engine_compiled"] = is_compiled(importlib.import_module(f"sengoku.games.{game_name}.state"))
print("ROW", json.dumps(row))
"""


def _child(script: str, args: list[str], plain: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "SENGOKU_PURE_PYTHON"}
    env["PYTHONPATH"] = str(ROOT)
    if plain:
        env["SENGOKU_PURE_PYTHON"] = "1"
    run = subprocess.run(
        [sys.executable, "-c", script, str(HERE), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    if run.returncode != 0 or "ROW " not in run.stdout:
        raise SystemExit(f"the child failed:\n{run.stdout}\n{run.stderr}")
    row: dict[str, Any] = json.loads(run.stdout.rsplit("ROW ", 1)[1])
    return row


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="gunshi")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0, help="random play, per process")
    parser.add_argument("--iterations", type=int, default=300, help="per decision")
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--chess-seconds", type=float, default=0.5)
    parser.add_argument("--skip", default="", help="random or iterations: leave that out")
    parser.add_argument(
        "--modes", default="compiled,plain", help="plain alone: a checkout without the build"
    )
    args = parser.parse_args(argv)
    figures: dict[str, dict[str, list[float]]] = {"compiled": {}, "plain": {}}

    def add(mode: str, key: str, value: float) -> None:
        figures[mode].setdefault(key, []).append(value)

    for r in range(args.rounds):
        modes = [m for m in ("compiled", "plain") if m in args.modes.split(",")]
        for mode in modes if r % 2 == 0 else modes[::-1]:
            plain = mode == "plain"
            if args.skip != "random":
                row = _child(RANDOM_CHILD, [args.game, str(args.seconds)], plain)
                assert row["compiled"] is not plain, f"{mode}: the engine compiled={row}"
                ratio = row["direct"] / row["chess"]
                add(mode, "random play, x chess", ratio)
                add(mode, "random play, plies/cpu-s", row["direct"])
                print(
                    f"round {r} {mode:<8} random play {row['direct']:9.0f} plies/cpu-s, "
                    f"chess {row['chess']:7.0f}: {ratio:.2f}x chess",
                    flush=True,
                )
            if args.skip != "iterations":
                argv_ = [args.game, str(args.iterations), str(args.positions)]
                row = _child(ITERATIONS_CHILD, [*argv_, str(args.chess_seconds)], plain)
                assert row["engine_compiled"] is not plain, f"{mode}: {row}"
                add(mode, "search, iterations/cpu-s", row["per_cpu_second"])
                add(mode, "search, x chess", row["cpu_ratio_vs_chess"])
                print(
                    f"round {r} {mode:<8} {row['agent']} {row['per_cpu_second']:7.1f} it/cpu-s"
                    f" ({row['cpu_ratio_vs_chess']:.4f} of chess)",
                    flush=True,
                )
    print(f"\n{args.game}, {args.rounds} rounds: median (range)")
    modes = [m for m in ("compiled", "plain") if figures[m]]
    for key in figures[modes[0]]:
        line = f"  {key:<28}" + "".join(f" {m} {_spread(figures[m][key])}" for m in modes)
        if len(modes) == 2:
            speedup = statistics.median(figures["compiled"][key]) / statistics.median(
                figures["plain"][key]
            )
            line += f"  speed-up {speedup:.2f}x"
        print(line)


if __name__ == "__main__":
    main()
