"""A game's typed view is the schema it publishes (issue 42, item 6).

Gungi and Sashimono build their views as TypedDicts (``GungiView``, ``SashimonoView``), so
mypy checks every key and value the view code writes; this test holds each TypedDict to the
game's ``view.schema.json``: the same keys, the same required keys, at every level where the
TypedDict names a nested TypedDict (directly, in a list, or optional). The runtime views are
validated against the schema by ``test_view_schema.py``.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest

from sengoku.core.registry import load_game
from sengoku.games.gungi.state import GungiView
from sengoku.games.sashimono.hidden_information import SashimonoView

TYPED_VIEWS = {"gungi": GungiView, "sashimono": SashimonoView}


def _nested(hint: Any, schema: dict[str, Any]) -> tuple[Any, dict[str, Any]] | None:
    """The TypedDict ``hint`` names (itself, a list's items, or the non-None member of an
    optional), with the part of ``schema`` that describes it; None if it names none."""
    if typing.is_typeddict(hint):
        return hint, schema
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is list and args:
        return _nested(args[0], schema.get("items", {}))
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        if len(members) == 1:
            return _nested(members[0], schema)
    return None


def _differences(typed: Any, schema: dict[str, Any], where: str) -> list[str]:
    hints = typing.get_type_hints(typed)
    properties = schema.get("properties", {})
    found = []
    if set(hints) != set(properties):
        found.append(
            f"{where}: only in the TypedDict {sorted(set(hints) - set(properties))}, "
            f"only in the schema {sorted(set(properties) - set(hints))}"
        )
    required = set(schema.get("required", []))
    # Read NotRequired from the hints: with postponed annotations (the games' modules use
    # them) Python 3.11's __required_keys__ counts every key as required.
    extras = typing.get_type_hints(typed, include_extras=True)
    marked = {k for k, h in extras.items() if typing.get_origin(h) is not typing.NotRequired}
    if marked != required:
        found.append(
            f"{where}: required in the TypedDict {sorted(marked)}, in the schema {sorted(required)}"
        )
    for key, hint in hints.items():
        nested = _nested(hint, properties.get(key, {}))
        if nested is not None:
            found += _differences(nested[0], nested[1], f"{where}.{key}")
    return found


class Inner(typing.TypedDict):
    a: int


class Outer(typing.TypedDict):
    items: list[Inner]
    extra: typing.NotRequired[str]


@pytest.mark.parametrize("name", sorted(TYPED_VIEWS))
def test_the_typed_view_is_the_published_schema(name: str) -> None:
    schema = load_game(name).view_schema()
    assert _differences(TYPED_VIEWS[name], schema, name) == []


def test_a_difference_is_found() -> None:
    """The comparison sees a missing key, a wrongly required one, and one nested in a list."""
    schema = {
        "properties": {
            "items": {"items": {"properties": {"a": {}, "b": {}}, "required": ["a", "b"]}},
            "extra": {},
        },
        "required": ["items", "extra"],
    }
    found = _differences(Outer, schema, "x")
    assert len(found) == 3, found
    assert "x.items: only in the TypedDict [], only in the schema ['b']" in found
