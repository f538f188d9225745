"""Starting is cheap (issue 40): ``import sengoku`` and ``sengoku --help`` import no game, no
agent, no arena, no numpy and no server package; a command imports what it needs when it
runs. The time itself is measured by benchmarks/startup.py, never here (no clock in a test):
these tests check which modules get imported, each in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Heavy or optional: none of these may load before a command needs it.
HEAVY = (
    "numpy",
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "importlib.metadata",
    "sengoku.core",
    "sengoku.games",
    "sengoku.ai",
    "sengoku.arena",
    "sengoku.server",
    "sengoku.web",
)


def _new_modules(code: str) -> list[str]:
    """The modules that ``code`` imports in a fresh interpreter, beyond those the
    interpreter itself loaded before it (site, and whatever its .pth files load)."""
    script = (
        "import sys, json; before = set(sys.modules)\n"
        f"try:\n    {code}\nexcept SystemExit:\n    pass\n"
        "print('MODULES', json.dumps(sorted(set(sys.modules) - before)))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return list(json.loads(run.stdout.rsplit("MODULES ", 1)[1]))


def _heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_import_sengoku_imports_nothing_heavy() -> None:
    modules = _new_modules("import sengoku")
    assert "sengoku" in modules
    assert not _heavy(modules), _heavy(modules)


def test_help_imports_no_command_module() -> None:
    modules = _new_modules("from sengoku.cli import main; main(['--help'])")
    assert "sengoku.cli" in modules and "argparse" in modules
    assert not _heavy(modules), _heavy(modules)


def test_a_command_imports_what_it_needs_and_only_that() -> None:
    # `play --help` builds the play command only: the games' names, not the arena.
    modules = _new_modules("from sengoku.cli import main; main(['play', '--help'])")
    assert "sengoku.core.registry" in modules
    assert not [m for m in modules if m.startswith(("sengoku.arena", "numpy", "fastapi"))]
    # `arena --help` needs the arena's own arguments.
    modules = _new_modules("from sengoku.cli import main; main(['arena', '--help'])")
    assert "sengoku.arena.cli" in modules


def test_the_names_of_the_package_still_resolve() -> None:
    modules = _new_modules(
        "import sengoku; assert sengoku.load_game('gunshi').name == 'gunshi'; "
        "from sengoku import SengokuError, GameRecord; assert issubclass(SengokuError, Exception)"
    )
    assert "sengoku.core" in modules and "sengoku.games.gunshi" in modules
