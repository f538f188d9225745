"""Start-up cost (issue 40): the CPU time of ``import sengoku``, ``sengoku --help`` and a
first Gungi position, as ratios to a bare interpreter (``python -c pass``) measured in the
same run, so that the machine's speed cancels out.

    python benchmarks/startup.py [--repeat N] [--json]

Each command runs N times, round robin (a load that comes and goes touches every command
alike); a figure is the median of its runs' user + system CPU time, read from the children's
resource usage. ``sengoku --help`` is the console script beside this interpreter when it is
installed, else ``python -m sengoku --help``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
from pathlib import Path


def commands() -> dict[str, list[str]]:
    python = sys.executable
    script = Path(python).parent / "sengoku"
    help_command = (
        [str(script), "--help"] if script.exists() else [python, "-m", "sengoku", "--help"]
    )
    return {
        "python -c pass": [python, "-c", "pass"],
        "import sengoku": [python, "-c", "import sengoku"],
        "sengoku --help": help_command,
        "a first Gungi position": [
            python,
            "-c",
            "import sengoku; sengoku.load_game('gungi').new_state()",
        ],
    }


def cpu_seconds(command: list[str]) -> float:
    """The user + system CPU time of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(repeat: int) -> dict[str, dict[str, float]]:
    todo = commands()
    runs: dict[str, list[float]] = {name: [] for name in todo}
    for command in todo.values():  # one untimed run each: the bytecode caches are written
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    for _ in range(repeat):
        for name, command in todo.items():
            runs[name].append(cpu_seconds(command))
    bare = statistics.median(runs["python -c pass"])
    return {
        name: {
            "cpu_seconds": round(statistics.median(times), 4),
            "min_cpu_seconds": round(min(times), 4),
            "ratio_to_bare": round(statistics.median(times) / bare, 2),
        }
        for name, times in runs.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="runs of each command")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.repeat)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(
        f"CPU time, median of {args.repeat} runs each (user + system), as run by {sys.executable}"
    )
    for name, figure in figures.items():
        print(
            f"  {name:<24} {figure['cpu_seconds'] * 1000:7.1f} ms   "
            f"x{figure['ratio_to_bare']:.2f} the bare interpreter"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
