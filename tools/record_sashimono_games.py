"""Record seeded random Sashimono games as digests (tests/sashimono/recorded_play.py).

Run once, from the engine as it is before a change that must not change what the contract
shows (issue 43's speed-up of the engine): ``PYTHONPATH=. python tools/record_sashimono_games.py``
writes tests/sashimono/data/recorded_games.json, which tests/sashimono/test_recorded_games.py
compares every later engine against. Recording again after such a change would make the test
compare the engine with itself: do it only when the rules are meant to change (a new game
version), and say so in the commit.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.sashimono.recorded_play import RECORDING, play_all  # noqa: E402


def main() -> None:
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.strip()
    games = play_all()
    RECORDING.parent.mkdir(parents=True, exist_ok=True)
    with open(RECORDING, "w") as f:
        json.dump({"commit": commit, "games": games}, f, indent=0)
        f.write("\n")
    plies = sum(len(g["plies"]) for g in games)
    print(f"{len(games)} games, {plies} plies, recorded at {commit[:10]} in {RECORDING}")


if __name__ == "__main__":
    main()
