"""The typed parts of a state (``sengoku/core/substate.py``): a copy shares no container a
clone may change, and the JSON keeps the keys the state's saved form had."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from sengoku.core.substate import Part, copy_parts


@dataclass(slots=True)
class Look(Part):
    JSON_KEYS: ClassVar[dict[str, str]] = {"cards": "looking"}

    cards: list[int] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    owner: int = -1
    kept: tuple[int, ...] = ()


def test_a_copy_has_its_own_lists_and_dicts() -> None:
    look = Look([1, 2], {"a": 1}, 0, (3,))
    other = look.copy()
    assert other == look and type(other) is Look
    other.cards.append(9)
    other.counts["b"] = 2
    assert look.cards == [1, 2] and look.counts == {"a": 1}
    assert other.kept is look.kept  # immutable values are shared, not copied


def test_json_uses_the_saved_keys_and_reads_them_back() -> None:
    look = Look([4], {"a": 1}, 1)
    data = look.to_json()
    assert data == {"looking": [4], "counts": {"a": 1}, "owner": 1, "kept": ()}
    assert list(data) == ["looking", "counts", "owner", "kept"]  # field order: stable JSON
    data["looking"].append(5)
    data["counts"]["b"] = 2
    assert look.cards == [4] and look.counts == {"a": 1}
    assert Look.from_json({**look.to_json(), "other": 0}) == look


def test_copy_parts_gives_each_named_part_a_copy() -> None:
    class Holder:
        look: Look

    source, target = Holder(), Holder()
    source.look = Look([1])
    copy_parts(source, target, ("look",))
    assert target.look == source.look and target.look is not source.look
    assert target.look.cards is not source.look.cards
