"""The rule -> file table of ``docs/architecture.md`` and the Gungi package agree (issue 18):
every file the table names exists, and every module of the package is named there; each rule
names its Python module and its C++ function in ``native/core.cpp`` (issue 42)."""

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


def _rows() -> list[list[str]]:
    """The table's rows as (rule, Python, C++) cells."""
    rows = []
    for line in _gungi_table().splitlines():
        if line.startswith("| ") and not line.startswith("| Rule"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows


def _named_files() -> set[str]:
    names: set[str] = set()
    for row in _rows():
        for cell in row[1:]:
            names.update(re.findall(r"`([\w/]+\.(?:py|json|cpp))`", cell))
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


#: Rows that are Python only: text formats and refusal reasons (the core works on codes and
#: on positions loaded from Python), the drawing, the catalog.
PYTHON_ONLY = ("illegal", "Notation", "FEN", "terminal drawing", "describe_action")


def test_every_rule_names_its_cpp_function() -> None:
    core = (PACKAGE / "native" / "core.cpp").read_text(encoding="utf-8")
    rows = _rows()
    assert rows and all(len(row) == 3 for row in rows), rows
    for rule, _python, cpp in rows:
        if cpp.startswith("none"):
            assert any(word in rule for word in PYTHON_ONLY), f"{rule!r} names no C++ function"
            continue
        names = re.findall(r"`([A-Za-z_][\w:]*)`", cpp)
        assert names, f"{rule!r}: the C++ cell names nothing"
        for name in names:
            for part in name.split("::"):
                assert re.search(rf"\b{part}\b", core), f"{rule!r}: {part} is not in core.cpp"
