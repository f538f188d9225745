"""Every game's views follow its documented JSON Schema (``Game.view_schema()``).

In random play of every registered game and its main option sets, the view of every seat
and of a spectator validates against the schema the game ships (``view.schema.json``,
draft 2020-12), and the schema documents itself (a title and a description for the view
and for each of its top-level fields).
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from sengoku.core.registry import list_games, load_game
from tests.contract.cases import PARAMS, SCALE, random_positions


@pytest.mark.parametrize("name", list_games())
def test_the_schema_is_a_documented_draft_2020_12_schema(name: str) -> None:
    schema = load_game(name).view_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema.get("title") and schema.get("description"), f"{name}: an undocumented view"
    undocumented = [
        key for key, sub in schema.get("properties", {}).items() if not sub.get("description")
    ]
    assert not undocumented, f"{name}: view fields without a description: {undocumented}"


def test_the_default_schema_accepts_any_view() -> None:
    from sengoku.core.game import Game

    assert Game.view_schema(load_game("gungi")) == {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "view",
        "description": "What one seat (or a spectator, seat null) may see of a position.",
        "type": "object",
    }


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_every_view_follows_the_schema(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    validator = jsonschema.Draft202012Validator(game.view_schema())
    checked = 0
    for seed in range(SCALE):
        for state in random_positions(game, options, 900 + seed, every=12):
            for seat in [*range(state.num_players), None]:
                view = state.view(seat)
                errors = sorted(validator.iter_errors(view), key=lambda e: list(e.path))
                assert not errors, (
                    f"{name} seat {seat}: the view breaks its schema at "
                    f"{'/'.join(map(str, errors[0].path))}: {errors[0].message}"
                )
                checked += 1
    assert checked


def test_a_view_that_breaks_the_schema_is_caught() -> None:
    """The schemas constrain something: a view missing its board, or with a wrong type,
    fails (so the test above cannot pass on a permissive schema)."""
    for name in list_games():
        game = load_game(name)
        if "properties" not in game.view_schema():
            continue  # a game without a schema of its own (the permissive default)
        view = game.new_state(0).view(0)
        validator = jsonschema.Draft202012Validator(game.view_schema())
        assert validator.is_valid(view)
        broken = dict(view)
        broken["game"] = 7
        assert not validator.is_valid(broken), f"{name}: the schema accepts any 'game'"


def test_the_schemas_ship_with_the_package() -> None:
    """pyproject's package data takes every game's ``view.schema.json`` into the wheel."""
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["*"]
    assert any(fnmatch.fnmatch("view.schema.json", p) for p in patterns)
    for name in ("gungi", "gunshi", "gunkimono", "sashimono"):
        assert (root / "sengoku" / "games" / name / "view.schema.json").is_file()
