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
    # A warm-up run first (discarded), then the interleaved rounds, all untraced.
    assert len(timed) == 1 + run["rounds"]
    assert sum(r["plies"] for r in timed[1:]) == run["plies"]
    assert any(traced for traced, _ in calls)  # the peak: a separate, traced run
    assert run["peak_memory_bytes"] > 0 and run["games"] >= 1


def test_bench_reports_a_ratio_to_an_interleaved_reference(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 40: speed figures are ratios to a reference run in the same run, after a
    # warm-up, with CPU time beside wall time. The reference and the game alternate.
    order: list[str] = []
    play, reference = sengoku.core.bench.random_play, sengoku.core.bench._reference_for

    def spy_play(*args: Any, **kwargs: Any) -> dict[str, Any]:
        order.append("game")
        return play(*args, **kwargs)

    def spy_reference(seconds: float) -> tuple[int, float, float]:
        order.append("reference")
        return reference(seconds)

    monkeypatch.setattr(sengoku.core.bench, "random_play", spy_play)
    monkeypatch.setattr(sengoku.core.bench, "_reference_for", spy_reference)
    assert main(["bench", "gunkimono", "--players", "2", "--seconds", "0.4", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    [run] = report["runs"]
    rounds = run["rounds"]
    assert rounds >= 2
    assert order[: 2 + 2 * rounds] == ["game", "reference"] + ["reference", "game"] * rounds
    assert run["cpu_seconds"] > 0 and run["reference_units_per_second"] > 0
    expected = run["plies_per_second"] / run["reference_units_per_second"]
    assert run["ratio"] == pytest.approx(expected, rel=0.01)
    assert report["ratio"] == pytest.approx(run["ratio"], rel=0.01)
    assert main(["bench", "gunkimono", "--players", "2", "--seconds", "0.2"]) == 0
    assert "x reference" in capsys.readouterr().out


def test_random_play_can_play_a_fixed_number_of_games() -> None:
    game = sengoku.load_game("gunkimono")
    result = sengoku.core.bench.random_play(game, {"players": 2}, 0.0, seed=1, games=2)
    assert result["games"] == 2 and result["plies"] > 0
    assert sengoku.core.bench.random_play_peak(game, {"players": 2}, seed=1, games=1) > 0
