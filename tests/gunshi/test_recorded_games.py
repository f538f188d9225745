"""The engine plays the recorded games: the same legal actions in the same order, the same
events (dicts, key order and texts), positions, views and results as the engine that
recorded them (tools/record_gunshi_games.py, tests/gunshi/recorded.py).

The recording was made from the code before the engine's speed work (its commit is in the
file), so a faster engine must show exactly what the old one showed. Both builds are held to
it: the one imported here (compiled where built in place) and, in a process of its own, the
plain Python (``SENGOKU_PURE_PYTHON=1``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import sengoku.games.gunshi.state as state_module
from sengoku.compiled import is_compiled
from tests.compiled_runs import run_build
from tests.gunshi.recorded import OPTION_SETS, SEEDS, play_all

RECORDING = Path(__file__).resolve().parent / "data" / "recorded_games.json"


def _recorded() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(RECORDING.read_text())["games"]
    return games


def _compare(played: list[dict[str, Any]], build: str) -> None:
    recorded = _recorded()
    assert len(recorded) == len(OPTION_SETS) * len(SEEDS)
    assert len(played) == len(recorded)
    for now, then in zip(played, recorded, strict=True):
        where = f"{build}: options {then['options']}, seed {then['seed']}"
        assert (now["options"], now["seed"]) == (then["options"], then["seed"]), where
        for k, (a, b) in enumerate(zip(now["checkpoints"], then["checkpoints"], strict=False)):
            assert a == b, f"{where}: differs by ply {(k + 1) * 25}"
        assert now["plies"] == then["plies"], where
        assert now["digest"] == then["digest"], where
        assert now["result"] == then["result"], where


def test_the_engine_plays_the_recorded_games() -> None:
    _compare(play_all(), "compiled" if is_compiled(state_module) else "plain Python")


SCRIPT = """
import json
from tests.gunshi.recorded import play_all
print("RESULT", json.dumps({"games": play_all()}))
"""


def test_the_plain_python_plays_the_recorded_games() -> None:
    if not is_compiled(state_module):
        pytest.skip("the engine is not compiled here: the test above ran the plain Python")
    _compare(run_build(SCRIPT, pure=True)["games"], "plain Python")
