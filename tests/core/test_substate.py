"""``sengoku.core.substate``: a state's typed parts copy and save their fields by codec;
fields without one are copied one level deep, and the JSON keeps the keys the state's saved
form had."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from sengoku.core.substate import (
    COPY_ON_WRITE,
    INT_ROWS,
    INT_ROWS_OF_ROWS,
    INTS,
    LIST,
    ROWS,
    SCALAR,
    SHARED_CACHE,
    TUPLE,
    TUPLE_ROWS,
    TUPLES,
    Codec,
    Part,
    copy_parts,
    own_copy,
    part_field,
    state_cloner,
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


class Box:
    """An object a rule changes in place: it needs its own copy."""

    def __init__(self, n: int) -> None:
        self.n = n

    def copy(self) -> Box:
        return Box(self.n)

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Box:
        return cls(int(data["n"]))


@dataclass(slots=True)
class Cards(Part):
    names: list[str] = part_field(LIST, default_factory=list)
    per_seat: list[list[str]] = part_field(ROWS, default_factory=lambda: [[], []])
    zones: list[list[tuple[str, bool]]] = part_field(TUPLE_ROWS, default_factory=lambda: [[], []])
    slots: list[tuple[str, bool] | None] = part_field(TUPLES, default_factory=lambda: [None])
    last: tuple[int, int] | None = part_field(TUPLE, default=None)
    bags: list[list[dict[str, Any]]] = part_field(COPY_ON_WRITE, default_factory=lambda: [[]])
    box: Box | None = part_field(own_copy(Box.from_json), default=None)


def cards_sample() -> Cards:
    return Cards(
        ["a"],
        [["b"], ["c", "d"], ["e"]],  # three rows: not only the two-seat case
        [[("x", True)], []],
        [("y", False), None],
        (1, 2),
        [[{"par": [(1, 2)]}], []],
        Box(5),
    )


def test_a_clone_copies_lists_and_objects_and_shares_tuples_and_copy_on_write_items() -> None:
    a = cards_sample()
    b = a.clone()
    assert b.names == a.names and b.per_seat == a.per_seat and b.zones == a.zones
    for name in ("names", "per_seat", "zones", "slots", "bags"):
        assert getattr(b, name) is not getattr(a, name), name
    assert all(x is not y for x, y in zip(b.per_seat, a.per_seat, strict=True))
    assert b.zones[0] is not a.zones[0] and b.zones[0][0] is a.zones[0][0]  # tuples shared
    assert b.last is a.last and b.slots[0] is a.slots[0]
    assert b.bags[0] is a.bags[0]  # copy on write: a rule replaces a seat's list
    assert b.box is not None and a.box is not None and b.box is not a.box
    b.per_seat[2].append("z")
    b.zones[1].append(("w", False))
    b.box.n = 7
    assert a.per_seat[2] == ["e"] and a.zones[1] == [] and a.box.n == 5
    assert Cards().clone().box is None


def test_tuples_are_saved_as_lists_and_read_back_as_tuples() -> None:
    a = cards_sample()
    data = a.to_json()
    assert data == {
        "names": ["a"],
        "per_seat": [["b"], ["c", "d"], ["e"]],
        "zones": [[["x", True]], []],
        "slots": [["y", False], None],
        "last": [1, 2],
        "bags": [[{"par": [[1, 2]]}], []],
        "box": {"n": 5},
    }
    data["bags"][0][0]["par"][0][0] = 9  # the JSON is new: changing it leaves the part alone
    data["per_seat"][0].append("q")
    assert a.bags[0][0]["par"] == [(1, 2)] and a.per_seat[0] == ["b"]
    back = Cards.from_json(json.loads(json.dumps(a.to_json())))
    assert back.zones == a.zones and back.slots == a.slots and back.last == (1, 2)
    assert type(back.zones[0][0]) is tuple and back.box is not None and back.box.n == 5
    assert Cards.from_json(Cards().to_json()) == Cards()  # None stays None


def test_keep_absent_leaves_the_fields_the_data_lacks() -> None:
    c = cards_sample()
    c.load_from({"names": ["n"]}, keep_absent=True)
    assert c.names == ["n"] and c.last == (1, 2)
    with pytest.raises(KeyError):
        c.load_from({"names": ["n"]})


class Holder:
    def __init__(self) -> None:
        self.name = "h"
        self.track = sample()
        self.options = {"a": 1}
        self.cards = cards_sample()


def test_state_cloner_shares_own_fields_and_clones_each_part_in_order() -> None:
    source = Holder()
    clone = state_cloner(
        Holder, (("name", None), ("track", Track), ("options", None), ("cards", Cards))
    )
    target = clone(source)
    assert type(target) is Holder and list(vars(target)) == list(vars(source))
    assert target.options is source.options  # an own field: shared
    assert target.track == source.track and target.track is not source.track
    assert target.cards.per_seat == source.cards.per_seat
    assert target.cards.per_seat is not source.cards.per_seat
    assert target.track.rows[1] is not source.track.rows[1]
    assert target.track.cache is source.track.cache
