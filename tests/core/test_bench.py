"""``sengoku bench``: speed is timed untraced; peak memory comes from a separate traced run."""

from __future__ import annotations

import json
import tracemalloc
from typing import Any

import pytest

import sengoku
import sengoku.core.bench
from sengoku.cli import main


def test_bench_times_play_without_tracemalloc(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 15 item 15: the timed run was made under tracemalloc (about 10x slower).
    calls: list[tuple[bool, dict[str, Any]]] = []
    original = sengoku.core.bench.random_play

    def spy(*args: Any, **kwargs: Any) -> dict[str, Any]:
        result = original(*args, **kwargs)
        calls.append((tracemalloc.is_tracing(), result))
        return result

    monkeypatch.setattr(sengoku.core.bench, "random_play", spy)
    assert main(["bench", "gunkimono", "--players", "2", "--seconds", "0.3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    [run] = report["runs"]
    timed = [result for traced, result in calls if not traced]
    assert [r["plies_per_second"] for r in timed] == [run["plies_per_second"]]
    assert any(traced for traced, _ in calls)  # the peak: a separate, traced run
    assert run["peak_memory_bytes"] > 0 and run["games"] >= 1


def test_random_play_can_play_a_fixed_number_of_games() -> None:
    game = sengoku.load_game("gunkimono")
    result = sengoku.core.bench.random_play(game, {"players": 2}, 0.0, seed=1, games=2)
    assert result["games"] == 2 and result["plies"] > 0
    assert sengoku.core.bench.random_play_peak(game, {"players": 2}, seed=1, games=1) > 0
