"""The state's typed parts (issue 42): each part is a slotted dataclass declared in the rule
module that writes it; clone and JSON walk the parts; no module reaches another's private
names; the view's typed dictionaries say what the published schema says."""

from __future__ import annotations

import ast
import dataclasses
import json
import random
import typing
from pathlib import Path
from typing import Any

import pytest

from sengoku.core.substate import Part
from sengoku.games.gunkimono import views
from sengoku.games.gunkimono.state import PARTS, GunkimonoState
from tests.gunkimono.helpers import GAME, new

PACKAGE = Path(__file__).resolve().parents[2] / "sengoku" / "games" / "gunkimono"


def played(players: int, seed: int, plies: int) -> GunkimonoState:
    st = new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_every_part_is_a_slotted_dataclass_of_its_owning_rule_module() -> None:
    st = new(3)
    owners = set()
    for name, cls in PARTS:
        part = getattr(st, name)
        assert type(part) is cls and isinstance(part, Part)
        assert dataclasses.is_dataclass(cls) and "__slots__" in cls.__dict__, cls
        assert not hasattr(part, "__dict__"), f"{cls.__name__} instances must have slots only"
        assert cls.__module__.startswith("sengoku.games.gunkimono."), cls
        owners.add(cls.__module__)
    # One part per owning module: a module writes the part it declares.
    assert len(owners) == len(PARTS)


def test_a_clone_shares_no_mutable_field_with_its_original() -> None:
    st = played(4, seed=7, plies=60)
    copy = st.clone()
    assert copy.to_json() == st.to_json()
    for name, _cls in PARTS:
        original, cloned = getattr(st, name), getattr(copy, name)
        assert original is not cloned
        for f in dataclasses.fields(original):
            value = getattr(original, f.name)
            if isinstance(value, list):
                assert getattr(cloned, f.name) is not value, f"{name}.{f.name} is shared"
                for item in value:
                    if isinstance(item, list):
                        assert not any(item is x for x in getattr(cloned, f.name))
    # Changing the clone's lists leaves the original as it was.
    before = json.dumps(st.to_json())
    copy.hands[0].append(99)
    copy.banners[0].append([0, 0, 0])
    copy.top[0] = 4
    copy.honor[1][2] = 7
    assert json.dumps(st.to_json()) == before


def test_json_round_trips_through_the_parts_keeping_every_key_and_its_order() -> None:
    for players, seed in ((2, 1), (3, 2), (5, 3)):
        st = played(players, seed=seed, plies=90)
        data = st.to_json()
        keys = ["game", "options"] + [k for _n, cls in PARTS for k in cls.saved_names()]
        assert sorted(data) == sorted(keys)
        again = GAME.state_from_json(json.loads(json.dumps(data)))
        assert json.dumps(again.to_json()) == json.dumps(data)  # same keys, same order
        assert again.legal_actions() == st.legal_actions()


def test_a_bad_field_is_named_and_an_old_state_without_the_breakdown_still_loads() -> None:
    data = played(2, seed=4, plies=30).to_json()
    with pytest.raises(ValueError, match="missing or bad field: 'hands'"):
        GAME.state_from_json({k: v for k, v in data.items() if k != "hands"})
    with pytest.raises(ValueError, match="missing or bad field"):
        GAME.state_from_json(dict(data, honor=[["x"]]))
    old = {k: v for k, v in data.items() if k not in ("vp_strongholds", "last_turn")}
    st = GAME.state_from_json(old)
    assert st.vp_strongholds == [0, 0] and st.last_seat == -1 and st.last_scores == []


def _private_uses(tree: ast.AST) -> list[str]:
    """``x._name`` where ``x`` is not ``self``, ``cls`` or ``super()`` (a class's own
    inherited method; dunders aside)."""
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            and not (
                isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "super"
            )
        ):
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
    return found


def test_no_module_touches_another_modules_private_names() -> None:
    offenders = {}
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        uses = _private_uses(tree)
        if path.name == "state.py":
            # The state's own classmethods build and read states of their class.
            uses = [u for u in uses if not u.startswith(("st._", "new._"))]
        if uses:
            offenders[path.name] = uses
    assert offenders == {}


def test_the_package_reads_and_writes_the_parts_not_the_flat_names() -> None:
    # The flat names (``state.top``) are kept for tests and outside readers; the game's own
    # modules name the part they read or write (``state.battlefield.top``).
    # The state's properties, read from its source (compiled with mypyc, the class has no
    # ``property`` objects to look for).
    (state_class,) = (
        node
        for node in ast.parse((PACKAGE / "state.py").read_text(encoding="utf-8")).body
        if isinstance(node, ast.ClassDef) and node.name == GunkimonoState.__name__
    )
    flat = {
        node.name
        for node in state_class.body
        if isinstance(node, ast.FunctionDef)
        and any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)
        and node.name != "phase"
        and not node.name.startswith("_")
    }
    flat -= {"current_player"}
    assert {"top", "hands", "honor", "pending", "last_scores"} <= flat
    offenders = []
    for path in sorted(PACKAGE.glob("*.py")):
        # ``self`` is a state in state.py only (elsewhere: ``Score.honor``, ...).
        names = (
            ("state", "st", "new", "self") if path.name == "state.py" else ("state", "st", "new")
        )
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in flat
                and isinstance(node.value, ast.Name)
                and node.value.id in names
            ):
                offenders.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    assert offenders == []


def _schema_keys(node: dict[str, Any]) -> tuple[set[str], set[str]]:
    props = set(node.get("properties", {}))
    return props, set(node.get("required", []))


def _typed_keys(td: Any) -> tuple[set[str], set[str]]:
    return set(typing.get_type_hints(td)), set(td.__required_keys__)


def test_the_view_types_match_the_published_schema() -> None:
    schema = GAME.view_schema()
    props = schema["properties"]
    pairs = [
        (views.GunkimonoView, schema),
        (views.BoardView, props["board"]),
        (views.PlayerView, props["players"]["items"]),
        (views.BannerView, props["players"]["items"]["properties"]["banners"]["items"]),
        (views.PendingView, props["pending"]["items"]),
        (views.TileFace, props["tiles"]["additionalProperties"]),
        (views.TileHalf, props["tiles"]["additionalProperties"]["properties"]["halves"]["items"]),
        (views.ScoringView, props["last_turn"]["properties"]["scores"]["items"]),
    ]
    last_turn = props["last_turn"]
    for alternative in last_turn.get("anyOf", []) + last_turn.get("oneOf", []) + [last_turn]:
        if "properties" in alternative:
            pairs.append((views.LastTurnView, alternative))
            break
    for td, node in pairs:
        assert _typed_keys(td) == _schema_keys(node), td.__name__


def test_a_real_view_has_exactly_the_typed_keys() -> None:
    st = played(3, seed=11, plies=120)
    v = st.view(1)
    assert set(v) == set(typing.get_type_hints(views.GunkimonoView))
    assert set(v["board"]) == set(typing.get_type_hints(views.BoardView))
    for p in v["players"]:
        assert set(p) == set(typing.get_type_hints(views.PlayerView))
    assert v["last_turn"] is not None
    assert set(v["last_turn"]) == set(typing.get_type_hints(views.LastTurnView))
