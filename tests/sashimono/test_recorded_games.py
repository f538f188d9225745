"""Sashimono plays the recorded games exactly as the engine did before it was made faster.

tests/sashimono/data/recorded_games.json was written by tools/record_sashimono_games.py from
the engine before issue 43's speed-up (its commit is in the file): seeded random games over
every option, each ply reduced to digests of what the contract shows (recorded_play.py: the
legal actions in order, the events with their texts, the saved position, every seat's view,
a determinized world, the result). The engine of this checkout, compiled where it was built
and as plain Python (``SENGOKU_PURE_PYTHON=1``), must play them the same way, ply by ply.
"""

from __future__ import annotations

import json
from typing import Any

from tests.compiled_runs import run_build
from tests.sashimono.recorded_play import PARTS, RECORDING, play_all


def _recorded() -> list[dict[str, Any]]:
    with open(RECORDING) as f:
        games: list[dict[str, Any]] = json.load(f)["games"]
    return games


def _compare(played: list[dict[str, Any]], build: str) -> None:
    recorded = _recorded()
    assert len(played) == len(recorded) > 50
    for now, then in zip(played, recorded, strict=True):
        where = f"{build}: options {then['options']}, seed {then['seed']}"
        assert (now["options"], now["seed"]) == (then["options"], then["seed"]), where
        for ply, (a, b) in enumerate(zip(now["plies"], then["plies"], strict=False)):
            if a != b:
                differ = [p for p, x, y in zip(PARTS, a.split("."), b.split("."), strict=True)
                          if x != y]  # fmt: skip
                raise AssertionError(f"{where}, ply {ply}: {', '.join(differ)} differ")
        assert len(now["plies"]) == len(then["plies"]), where
        assert now["sha256"] == then["sha256"], where


def test_the_engine_plays_the_recorded_games() -> None:
    _compare(play_all(), "this process")


SCRIPT = """
import json
from tests.sashimono.recorded_play import play_all
print("RESULT", json.dumps({"games": play_all()}))
"""


def test_the_plain_python_engine_plays_the_recorded_games() -> None:
    _compare(run_build(SCRIPT, pure=True)["games"], "plain Python")
