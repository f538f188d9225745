"""The benchmark scripts (``benchmarks/*.py``, not a package) loaded as modules for tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_benchmark(filename: str, name: str) -> ModuleType:
    """``benchmarks/<filename>`` imported as module ``name`` (registered in ``sys.modules``,
    so its dataclasses and pickles resolve)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / filename)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
