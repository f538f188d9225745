"""Sub-states: a game's state composed of slotted dataclasses, each written by one rule module.

A part declares its fields once; :func:`copy_part` (clone) and :func:`part_to_json` /
:func:`part_from_json` (serialisation) walk them, so no list of names is kept by hand. How a
field is copied is read from its default: a list of lists (one list per seat) is copied two
levels deep, a list one level, anything else is shared (ints, strings, tuples, None: values a
rule replaces and never changes in place). :func:`part` declares the exceptions: a ``copy`` for
an object changed in place, an ``encode`` / ``decode`` for a value JSON does not keep (tuples
come back as lists).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["copy_part", "part", "part_from_json", "part_to_json"]

P = TypeVar("P")

_COPY, _ENCODE, _DECODE = "substate.copy", "substate.encode", "substate.decode"


def _copy_list(v: list[Any]) -> list[Any]:
    return v.copy()


def _copy_lists(v: list[list[Any]]) -> list[list[Any]]:
    return [x.copy() for x in v]


def part(
    default: Callable[[], Any],
    *,
    copy: Callable[[Any], Any] | None = None,
    encode: Callable[[Any], Any] | None = None,
    decode: Callable[[Any], Any] | None = None,
) -> Any:
    """A field whose start value ``default()`` makes, with how to copy, encode and decode it
    where the defaults (above) do not fit."""
    meta = {_COPY: copy, _ENCODE: encode, _DECODE: decode}
    return dataclasses.field(default_factory=default, metadata=meta)


#: class -> (name, copier or None to share) for each field, worked out on first use.
_PLANS: dict[type, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}


def _plan(cls: type) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    plan = _PLANS.get(cls)
    if plan is None:
        sample = cls()
        steps: list[tuple[str, Callable[[Any], Any] | None]] = []
        for f in dataclasses.fields(cls):
            how = f.metadata.get(_COPY)
            if how is None:
                v = getattr(sample, f.name)
                if isinstance(v, list):
                    how = _copy_lists if v and isinstance(v[0], list) else _copy_list
            steps.append((f.name, how))
        plan = _PLANS[cls] = tuple(steps)
    return plan


def copy_part(p: P) -> P:
    """A copy of part ``p`` that the original's rules can no longer change."""
    cls = type(p)
    new = cls.__new__(cls)
    for name, how in _plan(cls):
        v = getattr(p, name)
        setattr(new, name, v if how is None else how(v))
    return new


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    return v


def part_to_json(p: object) -> Iterator[tuple[str, Any]]:
    """(name, JSON value) for each field of part ``p``, in declaration order."""
    for f in dataclasses.fields(p):  # type: ignore[arg-type]
        v = getattr(p, f.name)
        encode = f.metadata.get(_ENCODE)
        yield f.name, _jsonable(v if encode is None or v is None else encode(v))


def part_from_json(p: object, data: dict[str, Any]) -> None:
    """Set the fields of part ``p`` that ``data`` holds (a field it lacks keeps its start)."""
    for f in dataclasses.fields(p):  # type: ignore[arg-type]
        if f.name in data:
            v = data[f.name]
            decode = f.metadata.get(_DECODE)
            setattr(p, f.name, v if decode is None or v is None else decode(v))
