"""The Gunshi state is composed of typed parts, each written by one rule module: clone and JSON
walk the parts; no module reaches into another's private names; the view's types match the
schema the game publishes."""

from __future__ import annotations

import ast
import json
import random
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, get_type_hints

import sengoku.games.gunshi.state as state_module
from sengoku.games.gunshi import Gunshi, GunshiState
from sengoku.games.gunshi.views import (
    CardSlotView,
    ClockView,
    FenceView,
    GunshiView,
    PlayerView,
    ReserveView,
    UnitView,
)

GAME = Gunshi()
PACKAGE = Path(__file__).resolve().parents[2] / "sengoku" / "games" / "gunshi"
SCHEMA = json.loads((PACKAGE / "view.schema.json").read_text())

#: The keys of a saved Gunshi state (the server's database and saved records hold them):
#: splitting the state into parts must not change them.
SAVED_KEYS = {
    "options", "num_players", "seed", "phase", "player", "step", "points", "fences_left",
    "uloc", "uown", "uface", "ushield", "board", "fence", "invaders", "hand", "deck", "row",
    "stock", "lightning", "beside", "prepared", "unused", "removed", "pool", "m3", "picks",
    "pick_order", "pre_taken", "deck_public", "cards_public", "face_down_next", "shogun",
    "revealed", "candidates", "swap_done", "invaded_turn", "queue", "cur", "cmd", "sent",
    "fpiece", "fcell", "clock_started", "turn", "ply", "result", "bags", "next_bag",
    "removed_bag", "box_bag",
}  # fmt: skip


def _played(seed: int, plies: int, **options: Any) -> GunshiState:
    s = GAME.new_state(seed, **options)
    rng = random.Random(seed)
    for _ in range(plies):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    return s


def _attributes(s: GunshiState) -> dict[str, Any]:
    """The state's attributes: its ``__dict__``, and, compiled (mypyc: a native class), the
    native attributes its class lists."""
    names = [*vars(s), *getattr(type(s), "__mypyc_attrs__", ())]
    return {k: getattr(s, k) for k in names if k != "__dict__"}


def _parts(s: GunshiState) -> dict[str, Any]:
    return {k: v for k, v in _attributes(s).items() if is_dataclass(v)}


def test_the_layout_names_every_attribute_of_the_state() -> None:
    """``_LAYOUT`` (what ``to_json``, ``from_json`` and pickling walk) and ``clone`` name the
    state's attributes one by one (a compiled state has no ``__dict__`` to walk): a field
    added to the state and left out of them would be lost."""
    for s in (GAME.new_state(0), _played(3, 90, variant="custom")):
        attributes = _attributes(s)
        assert set(attributes) == {k for k, _part in state_module._LAYOUT}
        for k, part in state_module._LAYOUT:
            assert (part is None) == (not is_dataclass(attributes[k])), k
            assert part is None or type(attributes[k]) is part, k
        c = s.clone()
        assert set(_attributes(c)) == set(attributes)
        for k, value in _attributes(c).items():
            if k == "_events":
                assert value == []
            elif is_dataclass(value):
                assert value is not attributes[k] and value == attributes[k], k
            else:
                assert value is attributes[k], k


def test_the_saved_keys_are_those_of_the_state_before_it_had_parts() -> None:
    for options in ({}, {"variant": "inspiration", "modification": 2}, {"variant": "custom"}):
        s = _played(5, 60, **options)
        assert set(s.to_json()) == SAVED_KEYS, options


def test_no_two_parts_share_a_field_name() -> None:
    # The saved form is flat: a field name names one field of one part.
    s = GAME.new_state(0)
    names = [f.name for p in _parts(s).values() for f in fields(p)]
    assert len(names) == len(set(names))
    assert not set(names) & {k for k in _attributes(s) if k not in _parts(s)}


def test_a_clone_shares_no_changeable_value_with_its_original() -> None:
    s = _played(11, 70, variant="inspiration", modification=3)
    before = json.dumps(s.to_json(), sort_keys=True)
    c = s.clone()
    for name, part in _parts(c).items():
        for f in fields(part):
            v = getattr(part, f.name)
            if isinstance(v, list):
                # The knowledge bags are copy on write (knowledge.consume replaces a seat's
                # list): only the outer list is the clone's own.
                if f.name != "bags":
                    for x in v:
                        if isinstance(x, list):
                            x.append(("X", True, True))
                v.append(None)
            assert getattr(_parts(s)[name], f.name) is not v or not isinstance(v, list)
    assert json.dumps(s.to_json(), sort_keys=True) == before


def test_json_round_trips_through_the_parts_at_every_ply() -> None:
    s = GAME.new_state(3, variant="custom", sanryaku=True)
    rng = random.Random(3)
    while not s.is_terminal() and s.ply < 150:
        data = json.loads(json.dumps(s.to_json()))
        again = GunshiState.from_json(GAME, data)
        assert again.to_json() == s.to_json()
        assert again.legal_actions() == s.legal_actions()
        s.apply(rng.choice(s.legal_actions()))


def _private_names_defined(tree: ast.Module) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                out.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
    return {n for n in out if n.startswith("_")}


def test_no_module_touches_another_modules_private_names() -> None:
    # A rule module changes another's part only through that module's public functions: no
    # ``state._put_unit``, no ``from ... import _helper``. ``self``/``cls`` reach their own
    # class (and the contract's hooks for subclasses).
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        own = _private_names_defined(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and "sengoku" in node.module:
                found += [
                    f"{path.name}:{node.lineno} imports {a.name}"
                    for a in node.names
                    if a.name.startswith("_")
                ]
            if not isinstance(node, ast.Attribute):
                continue
            name = node.attr
            if not name.startswith("_") or name.startswith("__"):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if name not in own:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} .{name}")
    assert not found


def _keys(schema: dict[str, Any]) -> tuple[set[str], set[str]]:
    return set(schema["properties"]), set(schema.get("required", ()))


def test_the_view_types_are_the_published_schema() -> None:
    top = SCHEMA["properties"]
    player = top["players"]["items"]
    pairs: list[tuple[Any, dict[str, Any]]] = [
        (GunshiView, SCHEMA),
        (PlayerView, player),
        (CardSlotView, player["properties"]["row"]["items"]),
        (CardSlotView, player["properties"]["lightning"]),
        (UnitView, top["units"]["items"]),
        (FenceView, top["fences"]["items"]),
        (ReserveView, top["reserve"]),
        (ClockView, top["clock"]),
    ]
    for typed, schema in pairs:
        props, required = _keys(schema)
        assert set(get_type_hints(typed)) == props, typed.__name__
        assert set(typed.__required_keys__) == required, typed.__name__


def test_views_have_the_typed_keys() -> None:
    s = _played(2, 80, variant="inspiration", modification=2)
    for seat in (None, 0, 1):
        v = s.view(seat)
        assert set(v) == GunshiView.__required_keys__
        for p, side in enumerate(v["players"]):
            assert set(side) - PlayerView.__required_keys__ <= PlayerView.__optional_keys__
            assert ("advanced_in_box" in side) == (seat == p), (seat, p)


#: Modules that set whole positions, and so write every part: position strings, and the
#: determinization that resamples what a seat cannot see (knowledge.py also labels unknown
#: cards with the bag the opponent's knowledge puts them in).
_POSITION_WRITERS = {
    "position.py": "all",
    "hidden_information.py": "all",
    "knowledge.py": {"cards", "battle", "inspiration"},
}
_MUTATORS = {"append", "pop", "remove", "insert", "extend", "clear", "sort", "reverse"}


def _part_field(node: ast.expr, parts: dict[str, str]) -> str | None:
    """The part written when ``node`` (an assignment target or a mutated object) is
    ``<state>.<part>.<field>``, optionally indexed."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
        if node.value.attr in parts:
            return node.value.attr
    return None


def _writes(tree: ast.Module, parts: dict[str, str]) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS
        ):
            targets = [node.func.value]
        flat: list[ast.expr] = []
        for t in targets:
            flat += list(t.elts) if isinstance(t, ast.Tuple) else [t]
        for t in flat:
            part = _part_field(t, parts)
            if part is not None:
                out.append((getattr(node, "lineno", 0), part))
    return out


def test_each_part_is_written_only_by_its_rule_module() -> None:
    # rulebook terms: each rule module owns the part of the state its rule changes; the others
    # call its public functions (units.move_to, fences.place_fence, cards.draw, ...).
    parts = {k: type(v).__module__ for k, v in _parts(GAME.new_state(0)).items()}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = "sengoku.games.gunshi." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        allowed = _POSITION_WRITERS.get(path.name, set())
        for line, part in _writes(ast.parse(path.read_text()), parts):
            if parts[part] != module and allowed != "all" and part not in allowed:
                found.append(f"{path.relative_to(PACKAGE)}:{line} writes state.{part}")
    assert not found
