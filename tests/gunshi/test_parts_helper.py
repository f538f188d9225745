"""Gunshi's part helper (sengoku/games/gunshi/parts.py): clone and JSON walk a part's declared fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sengoku.games.gunshi.parts import copy_part, part, part_from_json, part_to_json


class Box:
    """An object a rule changes in place: it needs its own copy."""

    def __init__(self, n: int) -> None:
        self.n = n

    def copy(self) -> Box:
        return Box(self.n)


def _box_copy(b: Box | None) -> Box | None:
    return None if b is None else b.copy()


@dataclass(slots=True)
class Track:
    per_seat: list[list[int]] = part(lambda: [[], []])
    flat: list[int] = part(lambda: [0, 0])
    last: tuple[int, int] | None = part(lambda: None, decode=tuple)
    box: Box | None = part(lambda: None, copy=_box_copy, encode=lambda b: {"n": b.n})
    count: int = 0


def test_a_copy_changes_apart_from_its_original() -> None:
    t = Track(per_seat=[[1], [2]], flat=[3, 4], last=(1, 2), box=Box(5), count=6)
    c = copy_part(t)
    c.per_seat[0].append(9)
    c.flat[1] = 0
    assert c.box is not None and t.box is not None
    c.box.n = 7
    c.count = 1
    assert t.per_seat == [[1], [2]] and t.flat == [3, 4] and t.box.n == 5 and t.count == 6
    assert c.last is t.last  # a tuple is never changed in place: shared


def test_json_walks_the_fields_in_order_and_reads_them_back() -> None:
    t = Track(per_seat=[[1], []], last=(3, 4), box=Box(2), count=2)
    data = dict(part_to_json(t))
    assert list(data) == ["per_seat", "flat", "last", "box", "count"]
    assert data["last"] == [3, 4] and data["box"] == {"n": 2}
    back = Track()
    plain: dict[str, Any] = {k: v for k, v in data.items() if k != "box"}
    part_from_json(back, plain)
    assert back.last == (3, 4) and back.per_seat == [[1], []] and back.count == 2


def test_a_field_the_saved_data_lacks_keeps_its_start() -> None:
    back = Track()
    part_from_json(back, {"count": 4})
    assert back.per_seat == [[], []] and back.flat == [0, 0] and back.count == 4
