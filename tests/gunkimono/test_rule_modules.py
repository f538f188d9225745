"""The package's layout: each rule of the rulebook in the module the architecture table
names, a typed phase machine, and no import of the layers above the games."""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sengoku.games.gunkimono.turn_sequence import PHASES, PendingScore, Phase
from tests.gunkimono.helpers import new

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "sengoku" / "games" / "gunkimono"


def _table() -> list[tuple[str, str, str]]:
    """(rule, file cell, where cell) of each row of architecture.md's Gunkimono table."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("### Gunkimono", 1)[1].split("\n### ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1].startswith("`"):
            rows.append((cells[0], cells[1], cells[2]))
    return rows


def test_every_rule_row_names_existing_files_and_functions() -> None:
    rows = _table()
    assert len(rows) >= 15
    for rule, files, where in rows:
        paths = re.findall(r"`([^`]+\.py)`", files)
        assert paths, rule
        modules = []
        for p in paths:
            path = ROOT / p if "/" in p else PACKAGE / p
            assert path.is_file(), f"{rule}: {path} does not exist"
            modules.append(
                importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
            )
        for name in re.findall(r"`([A-Za-z_]+)`", where):
            assert any(
                hasattr(m, name) or hasattr(getattr(m, "GunkimonoState", None), name)
                for m in modules
            ), f"{rule}: {name} not found in {paths}"


@pytest.mark.parametrize(
    ("module", "rule"),
    [
        ("placement", "Troop Duplication rule"),
        ("placement", "Level Difference rule"),
        ("extra_support", "Extra Support rule"),
        ("scoring", "Score Points"),
        ("honor_track", "Scoring Honor Points"),
        ("war_banners", "Claiming War Banner Tiles"),
        ("strongholds", "Building Strongholds"),
        ("strongholds", "Assess Strongholds"),
        ("refill_your_hand", "Refill Your Hand"),
        ("end_of_the_game", "End of the Game"),
        ("setup", "Setting Up the Game"),
    ],
)
def test_rule_module_docstring_names_the_rule(module: str, rule: str) -> None:
    # rulebook: each heading of "How to Play" and the Gameplay Reference has its module
    # Read from the source: a module compiled with mypyc has no ``__doc__``.
    path = Path(importlib.import_module("sengoku.games.gunkimono").__path__[0]) / f"{module}.py"
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert rule in " ".join(doc.split())


def test_phase_is_typed_and_round_trips() -> None:
    st = new(3, seed=5)
    assert st.phase is Phase.PLACE and st.phase.step == 1
    assert PHASES == ("place", "support", "score", "stronghold", "draw", "over")
    st.phase = "draw"  # a phase name, as JSON and older tests write it, is read as a Phase
    assert st.phase is Phase.DRAW and st.phase.prompt == "draw a tile"
    data = json.loads(json.dumps(st.to_json()))
    assert data["phase"] == "draw" and type(st.view(None)["phase"]) is str
    assert st.game.state_from_json(data).phase is Phase.DRAW
    with pytest.raises(ValueError, match="unknown phase 'lunch'"):
        st.game.state_from_json(dict(data, phase="lunch"))


def test_pending_score_json() -> None:
    p = PendingScore(12, 3, 2, 5, False)
    assert p.to_json() == [12, 3, 2, 5, 0]
    assert PendingScore.from_json([12, 3, 2, 5, 0]) == p


def test_the_game_package_imports_no_layer_above_it() -> None:
    code = (
        "import sys, sengoku.games.gunkimono, sengoku.games.gunkimono.render;"
        "print(sorted(m for m in sys.modules if m.startswith('sengoku.')"
        " and not m.startswith(('sengoku.core', 'sengoku.games', 'sengoku.compiled'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.strip() == "[]"
