"""A game's engine compiled (mypyc) against its plain Python, and against an older checkout.

PYTHONPATH=. python benchmarks/compiled_engines.py GAME [--before DIR] [--other DIR] [--no-plain]
    [--rounds R] [--what random,iterations] [--seconds S] [--interop-rounds N]

Each figure runs in a process of its own, the builds taking turns round after round (the
order rotates, so a change in the machine's load falls on each alike):

* ``compiled``: this checkout as built in place (``make install``);
* ``plain``: this checkout with ``SENGOKU_PURE_PYTHON=1``: every compiled module, engine and
  search tree alike, runs its Python source (``benchmarks/ai.py iterations`` swaps only
  ``sengoku/ai/tree.py``, so its "plain" runs a compiled engine);
* ``before`` (with ``--before DIR``): another checkout, e.g. ``git worktree add /tmp/base
  COMMIT``, with ``SENGOKU_PURE_PYTHON=1``: the code before the change, as Python;
* ``other`` (with ``--other DIR``): another checkout with its own build (a copy of the
  commit before a change, built or given the main checkout's extensions), compiled: this
  build against that one in the same rounds. ``--no-plain`` leaves ``plain`` out.

``random``: ``benchmarks/interop.py``'s ``direct`` player (random play through the contract)
of each of the game's cases, as a ratio to python-chess's random play in the same process;
``iterations``: the child of ``benchmarks/ai.py iterations`` (level 5's search, 300 iterations
a decision from 6 positions), iterations per CPU second and their ratio to python-chess. CPU
time throughout. Prints one JSON line per run, then the medians and ranges per build.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: A row of benchmarks/interop.py's table: the case, the adapter, plies per CPU second, the
#: ratio to direct, the ratio to chess.
ROW = re.compile(r"^(\S+(?: \S+=\S+)*)\s+direct\s+(\d+)\s+\S+\s+(\S+)")


def run_random(checkout: Path, env: dict[str, str], game: str, timing: list[str]) -> dict[str, Any]:
    """One process of interop.py's direct player (and chess): ``{case: [plies/s, x chess]}``."""
    run = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "benchmarks/interop.py"]
        + ["--games", game, "--players", "direct", "--no-breakdown", "--memory-plies", "0"]
        + timing,
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"{checkout}: {run.stderr}")
    found = {}
    for line in run.stdout.splitlines():
        m = ROW.match(line)
        if m:
            found[m[1]] = [int(m[2]), float(m[3])]
    return found


def run_iterations(checkout: Path, env: dict[str, str], game: str, plain: bool) -> dict[str, Any]:
    """One process of ``benchmarks/ai.py iterations``' child: its figure."""
    sys.path.insert(0, str(HERE))
    import ai  # this checkout's child script (the other checkout runs it on its own code)

    run = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c", ai.ITERATIONS_CHILD]
        + [str(checkout / "benchmarks"), game, "300", "6", "1.0", "1" if plain else "0"],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0 or "ROW " not in run.stdout:
        raise SystemExit(f"{checkout}: {run.stderr}")
    row: dict[str, Any] = json.loads(run.stdout.rsplit("ROW ", 1)[1])
    return {"per_cpu_second": row["per_cpu_second"], "x_chess": row["cpu_ratio_vs_chess"]}


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):g} ({min(values):g}-{max(values):g})"


def per_round(a: list[float], b: list[float]) -> str:
    """``a`` over ``b`` in each round, and the ratio of their medians."""
    rounds = ", ".join(f"{x / y:.2f}" for x, y in zip(a, b, strict=True) if y)
    medians = statistics.median(a) / statistics.median(b) if statistics.median(b) else 0.0
    return f"per round {rounds}; medians {medians:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--before", help="another checkout, run as plain Python")
    parser.add_argument("--other", help="another checkout with its own build, run compiled")
    parser.add_argument("--no-plain", action="store_true", help="leave this checkout's plain out")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--what", default="random,iterations")
    parser.add_argument("--seconds", type=float, help="interop.py's --seconds (random)")
    parser.add_argument("--interop-rounds", type=int, help="interop.py's --rounds (random)")
    args = parser.parse_args()
    timing: list[str] = []
    if args.seconds is not None:
        timing += ["--seconds", str(args.seconds)]
    if args.interop_rounds is not None:
        timing += ["--rounds", str(args.interop_rounds)]
    builds: list[tuple[str, Path, bool]] = [("compiled", ROOT, False)]
    if not args.no_plain:
        builds.append(("plain", ROOT, True))
    if args.other:
        builds.append(("other", Path(args.other).resolve(), False))
    if args.before:
        builds.append(("before", Path(args.before).resolve(), True))
    for what in args.what.split(","):
        rows: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in builds}
        for r in range(args.rounds):
            for name, checkout, plain in builds[r % len(builds) :] + builds[: r % len(builds)]:
                env = {k: v for k, v in os.environ.items() if k != "SENGOKU_PURE_PYTHON"}
                env["PYTHONPATH"] = str(checkout)
                if plain:
                    env["SENGOKU_PURE_PYTHON"] = "1"
                if what == "random":
                    row = run_random(checkout, env, args.game, timing)
                else:
                    row = run_iterations(checkout, env, args.game, plain)
                rows[name].append(row)
                print(json.dumps({"what": what, "round": r, "build": name, **row}), flush=True)
        for name, got in rows.items():
            if what == "random":
                for case in got[0]:
                    ratios = [g[case][1] for g in got if case in g]
                    print(f"{what} {name} {case}: x chess {summary(ratios)}")
            else:
                speeds = [g["per_cpu_second"] for g in got]
                ratios = [g["x_chess"] for g in got]
                print(f"{what} {name}: it/CPU s {summary(speeds)}, x chess {summary(ratios)}")
        # Each build's ratio to chess over another's, round by round (the same round's
        # processes ran minutes apart at most), and the ratio of the medians.
        for a, b in (("compiled", "other"), ("compiled", "before"), ("other", "before")):
            if a not in rows or b not in rows:
                continue
            if what == "random":
                for case in rows[a][0]:
                    xa = [g[case][1] for g in rows[a]]
                    xb = [g[case][1] for g in rows[b]]
                    print(f"{what} {case}: {a} / {b} {per_round(xa, xb)}")
            else:
                xa = [g["x_chess"] for g in rows[a]]
                xb = [g["x_chess"] for g in rows[b]]
                print(f"{what}: {a} / {b} {per_round(xa, xb)}")


if __name__ == "__main__":
    main()
