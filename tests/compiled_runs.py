"""Run a script compiled and as plain Python, for the tests that compare the two builds.

Each build runs in a process of its own (the import switch, sengoku/compiled.py, is decided
when the package is first imported): ``pure=True`` sets ``SENGOKU_PURE_PYTHON=1``, so every
compiled module runs its source. The script prints ``RESULT <json>`` last; its JSON is the
answer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from sengoku.compiled import PURE_PYTHON

ROOT = Path(__file__).resolve().parents[1]


def run_build(script: str, *args: str, pure: bool) -> dict[str, Any]:
    """The JSON the script printed after ``RESULT``, run as ``python -c script *args``."""
    env = {k: v for k, v in os.environ.items() if k != PURE_PYTHON}
    env["PYTHONPATH"] = str(ROOT)
    if pure:
        env[PURE_PYTHON] = "1"
    run = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=900,
    )
    assert run.returncode == 0, f"--- stdout\n{run.stdout[-4000:]}\n--- stderr\n{run.stderr}"
    result: dict[str, Any] = json.loads(run.stdout.rsplit("RESULT ", 1)[1])
    return result
