"""Record the digests of seeded random Gunshi games (tests/gunshi/recorded.py) from the engine
as it is now, into tests/gunshi/data/recorded_games.json.

Run once, from a checkout whose engine is the reference (before a change that must not change
what the contract shows), then keep the file: tests/gunshi/test_recorded_games.py compares the
engine with it. ``PYTHONPATH=. python tools/record_gunshi_games.py``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.gunshi.recorded import play_all

OUT = Path(__file__).resolve().parents[1] / "tests" / "gunshi" / "data" / "recorded_games.json"


def main() -> None:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    games = play_all()
    OUT.write_text(json.dumps({"commit": commit, "games": games}, indent=1) + "\n")
    print(f"{len(games)} games, {sum(g['plies'] for g in games)} plies -> {OUT}")


if __name__ == "__main__":
    main()
