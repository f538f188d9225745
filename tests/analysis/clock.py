"""A CPU clock for tests of the analysis's CPU budget (no wall clock involved)."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from sengoku.analysis.analyse import AnalysisEngine


class IterationClock:
    """A CPU clock on which each search iteration costs one second and nothing else costs
    anything: the budget's bookkeeping is then exact. ``install`` also puts it in the place
    of the analysis's own CPU clock (``sengoku.analysis.analyse.cpu_clock``), for code that
    calls ``analyse`` without a clock (the server's jobs)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = 0.0
        self.monkeypatch = monkeypatch
        real = AnalysisEngine.iterate

        def iterate(engine: Any, *args: Any, **kwargs: Any) -> Any:
            self.now += 1.0
            return real(engine, *args, **kwargs)

        monkeypatch.setattr(AnalysisEngine, "iterate", iterate)

    def __call__(self) -> float:
        return self.now

    def install(self) -> None:
        module = importlib.import_module("sengoku.analysis.analyse")
        self.monkeypatch.setattr(module, "cpu_clock", self)


def searches(plies: list[dict[str, Any]]) -> int:
    """How many searches a stored analysis ran (each runs at least one iteration)."""
    return sum(1 for p in plies for n in p["iterations"] if n)


def used(plies: list[dict[str, Any]]) -> int:
    """The iterations a stored analysis ran, all searches together."""
    return sum(sum(p["iterations"]) for p in plies)
