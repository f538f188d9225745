"""``sengoku.core.substate``: a state's typed parts copy and save their fields by codec;
fields without one are copied one level deep, and the JSON keeps the keys the state's saved
form had."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from sengoku.core.substate import (
    INT_ROWS,
    INT_ROWS_OF_ROWS,
    INTS,
    SCALAR,
    SHARED_CACHE,
    Codec,
    Part,
    copy_parts,
    part_field,
)

_OPTIONAL = Codec(INTS.copy, INTS.dump, INTS.load, optional=True, copy_code=INTS.copy_code)


@dataclass(slots=True)
class Track(Part):
    marks: list[int] = part_field(INTS)
    rows: list[list[int]] = part_field(INT_ROWS)
    stacks: list[list[list[int]]] = part_field(INT_ROWS_OF_ROWS)
    turn: int = part_field(SCALAR, default=0)
    later: list[int] = part_field(_OPTIONAL, default_factory=list)
    cache: Any = part_field(SHARED_CACHE, default=None)


@dataclass(slots=True)
class WiderTrack(Track):
    extra: list[int] = part_field(INTS, default_factory=list)


def sample() -> Track:
    return Track([1, 2], [[3], [4, 5]], [[[6, 7]], []], 3, [8], object())


def test_a_clone_copies_every_list_and_shares_the_cache() -> None:
    a = sample()
    b = a.clone()
    assert type(b) is Track and b == a
    assert b.marks is not a.marks and b.rows[1] is not a.rows[1]
    assert b.stacks[0][0] is not a.stacks[0][0] and b.later is not a.later
    assert b.cache is a.cache  # a cache: shared, never saved
    b.stacks[0][0][1] = 0
    b.rows[1].append(9)
    assert a.stacks[0][0] == [6, 7] and a.rows[1] == [4, 5]


def test_a_subclass_clones_as_itself_after_its_parent_made_its_own_clone() -> None:
    sample().clone()  # the parent's straight-line clone is made first
    c = WiderTrack([1], [], [], 0, [], None, [2]).clone()
    assert type(c) is WiderTrack and c.extra == [2]


def test_json_walks_the_fields_in_order_and_skips_the_cache() -> None:
    a = sample()
    data: dict[str, Any] = {}
    a.dump_into(data)
    assert list(data) == ["marks", "rows", "stacks", "turn", "later"] == list(Track.saved_names())
    b = Track([], [], [])
    b.load_from({**data, "marks": ["1", 2]})  # numbers as JSON may carry them
    assert (b.marks, b.rows, b.stacks, b.turn, b.later) == (
        [1, 2],
        [[3], [4, 5]],
        [[[6, 7]], []],
        3,
        [8],
    )
    assert b.cache is None


def test_an_optional_field_may_be_absent_and_a_required_one_may_not() -> None:
    b = Track([], [], [], later=[5])
    data: dict[str, Any] = {}
    sample().dump_into(data)
    del data["later"]
    b.load_from(data)
    assert b.later == [5]  # kept: saved before the field existed
    del data["rows"]
    with pytest.raises(KeyError):
        b.load_from(data)
    with pytest.raises(ValueError):
        b.load_from({**data, "rows": [["x"]]})


@dataclass(slots=True)
class Look(Part):
    JSON_KEYS: ClassVar[dict[str, str]] = {"cards": "looking"}

    cards: list[int] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    owner: int = -1
    kept: tuple[int, ...] = ()


def test_a_plain_field_clone_has_its_own_lists_and_dicts() -> None:
    look = Look([1, 2], {"a": 1}, 0, (3,))
    other = look.clone()
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
