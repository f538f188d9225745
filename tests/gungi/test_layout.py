"""The rule -> file table of ``docs/architecture.md`` and the Gungi package agree (issue 18):
every file the table names exists, and every module of the package is named there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "sengoku" / "games" / "gungi"


def _gungi_table() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("### Gungi")
    end = text.index("\n### ", start + 1)
    return text[start:end]


def _named_files() -> set[str]:
    names: set[str] = set()
    for line in _gungi_table().splitlines():
        if line.startswith("| ") and not line.startswith("| Rule"):
            file_cell = line.rstrip(" |").rsplit("|", 1)[-1]
            names.update(re.findall(r"`([\w/]+\.(?:py|json|cpp))`", file_cell))
    return names


def test_every_file_in_the_table_exists() -> None:
    named = _named_files()
    assert named
    for name in named:
        path = ROOT / name if name.startswith("sengoku/") else PACKAGE / name
        assert path.is_file(), f"docs/architecture.md names {name}, which is missing"


def test_every_module_is_in_the_table() -> None:
    named = _named_files()
    modules = {p.name for p in PACKAGE.glob("*.py")} - {"__init__.py"}
    missing = sorted(modules - named)
    assert not missing, f"add these Gungi modules to docs/architecture.md: {missing}"
