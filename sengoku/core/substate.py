"""Typed parts of a game state: slotted dataclasses that one rule module owns and writes.

A game's State is composed of parts (issue 42): each rule module declares the fields it
writes as a :class:`Part`, a ``@dataclass(slots=True)`` whose fields say, through
:func:`part_field`, how they are copied and written to JSON (a :class:`Codec`). Clone and
serialisation then walk the parts' fields instead of hand-kept name lists, so a field added
to a part is copied and saved without touching the State.

A field made without :func:`part_field` is copied and saved one level deep (:data:`SHALLOW`:
a list or dict is a new container of the same items). A part's JSON keys are its field names,
or the names in :attr:`Part.JSON_KEYS` (so a state's saved form keeps the keys it had before
its fields were grouped).

Kept small on purpose: a codec is three functions, and a part copies, dumps and loads its
fields in declaration order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

T = TypeVar("T")


def _same(value: T) -> T:
    return value


@dataclass(frozen=True, slots=True)
class Codec(Generic[T]):
    """How one field is copied for a clone and written to and read from JSON."""

    #: A copy a clone may change without changing the original (immutable values: itself).
    copy: Callable[[T], T]
    #: The JSON form; None: the field is not saved (a cache, shared by clones).
    dump: Callable[[T], Any] | None
    #: The field from its JSON form; raises KeyError, TypeError or ValueError if bad.
    load: Callable[[Any], T]
    #: May the key be absent from JSON (saved before the field existed)? Then the part's
    #: fresh value stays.
    optional: bool = False
    #: ``copy`` as an expression of ``{}`` (the value), inlined into a part's clone.
    copy_code: str = ""


def _int_list(v: list[int]) -> list[int]:
    return list(v)


def _load_ints(v: Any) -> list[int]:
    return [int(x) for x in v]


def _rows(v: list[list[int]]) -> list[list[int]]:
    return [list(x) for x in v]


def _load_rows(v: Any) -> list[list[int]]:
    return [[int(x) for x in row] for row in v]


def _rows_of_rows(v: list[list[list[int]]]) -> list[list[list[int]]]:
    return [[list(b) for b in s] for s in v]


def _load_rows_of_rows(v: Any) -> list[list[list[int]]]:
    return [[[int(x) for x in b] for b in s] for s in v]


#: A list of integers.
INTS: Codec[list[int]] = Codec(_int_list, _int_list, _load_ints, copy_code="list({})")
#: A list of lists of integers (one per seat, or records as lists).
INT_ROWS: Codec[list[list[int]]] = Codec(
    _rows, _rows, _load_rows, copy_code="[list(x) for x in {}]"
)
#: A list of lists of lists of integers.
INT_ROWS_OF_ROWS: Codec[list[list[list[int]]]] = Codec(
    _rows_of_rows,
    _rows_of_rows,
    _load_rows_of_rows,
    copy_code="[[list(b) for b in s] for s in {}]",
)
#: An immutable JSON value (a number, a string, a flag, None), saved and read as it is.
SCALAR: Codec[Any] = Codec(_same, _same, _same)
#: A JSON object nobody changes in place (replaced whole when it changes).
FROZEN_JSON: Codec[Any] = Codec(_same, _same, _same)
#: Not saved; clones share it (a cache of something the saved fields decide).
SHARED_CACHE: Codec[Any] = Codec(_same, None, _same)


def _shallow(value: Any) -> Any:
    if type(value) is list:
        return value[:]
    if type(value) is dict:
        return dict(value)
    return value


#: A field made without a codec: a list or dict is copied (and saved) as a new container of
#: the same items, anything else is shared (keep such values immutable).
SHALLOW: Codec[Any] = Codec(
    _shallow,
    _shallow,
    _same,
    copy_code="({0}[:] if type({0}) is list else dict({0}) if type({0}) is dict else {0})",
)


def _compile_clone(cls: type, plan: tuple[tuple[str, Codec[Any]], ...]) -> Callable[[Any], Any]:
    """``def clone(self)`` for ``cls``: each field copied by its codec, immutable ones shared."""
    names: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = ["def clone(self):", "    new = _new(_cls)"]
    for i, (name, codec) in enumerate(plan):
        if codec.copy is _same:
            lines.append(f"    new.{name} = self.{name}")
        elif codec.copy_code:
            lines.append(f"    new.{name} = " + codec.copy_code.format(f"self.{name}"))
        else:
            names[f"_copy{i}"] = codec.copy
            lines.append(f"    new.{name} = _copy{i}(self.{name})")
    lines.append("    return new")
    exec("\n".join(lines), names)  # noqa: S102 - field names of a dataclass, not input
    return names["clone"]  # type: ignore[no-any-return]


def part_field(codec: Codec[Any], **field_options: Any) -> Any:
    """A dataclass field of a :class:`Part`, copied and saved with ``codec``."""
    return dataclasses.field(metadata={"codec": codec}, **field_options)


class Part:
    """Base of a state's parts (``@dataclass(slots=True)`` subclasses, fields made with
    :func:`part_field`)."""

    __slots__ = ()

    #: A field's key in the state's JSON, where it is not the field's own name.
    JSON_KEYS: ClassVar[Mapping[str, str]] = {}

    #: Each subclass's (name, codec) pairs, worked out once.
    _plans: ClassVar[dict[type, tuple[tuple[str, Codec[Any]], ...]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "clone" not in cls.__dict__:
            # Not the clone made for a parent class, which would make the parent's kind.
            cls.clone = Part.clone  # type: ignore[method-assign]

    @classmethod
    def _plan(cls) -> tuple[tuple[str, Codec[Any]], ...]:
        plan = Part._plans.get(cls)
        if plan is None:
            plan = Part._plans[cls] = tuple(
                (f.name, f.metadata.get("codec", SHALLOW))
                for f in dataclasses.fields(cls)  # type: ignore[arg-type]
            )
        return plan

    def clone(self) -> Self:
        """A copy whose fields may change without changing this part."""
        # Replaced, on first use, by straight-line code made for the class: clones are made
        # by the thousand in a search, and a loop over the fields costs half as much again.
        cls = type(self)
        copier = _compile_clone(cls, cls._plan())
        setattr(cls, "clone", copier)  # noqa: B010 - a method made for this class
        return copier(self)  # type: ignore[no-any-return]

    def dump_into(self, data: dict[str, Any]) -> None:
        """Write the saved fields into ``data`` under their JSON keys, in declaration order."""
        keys = self.JSON_KEYS
        for name, codec in self._plan():
            if codec.dump is not None:
                data[keys.get(name, name)] = codec.dump(getattr(self, name))

    def to_json(self) -> dict[str, Any]:
        """The saved fields under their JSON keys (containers copied: what the caller does
        with the JSON never changes the part)."""
        data: dict[str, Any] = {}
        self.dump_into(data)
        return data

    def load_from(self, data: Mapping[str, Any]) -> None:
        """Read the saved fields from ``data`` (KeyError, TypeError or ValueError if bad)."""
        keys = self.JSON_KEYS
        for name, codec in self._plan():
            key = keys.get(name, name)
            if codec.dump is None or (codec.optional and key not in data):
                continue
            setattr(self, name, codec.load(data[key]))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """A part made from the fields :meth:`to_json` wrote into ``data`` (other keys
        ignored; fields not saved take their defaults)."""
        keys = cls.JSON_KEYS
        values = {
            name: codec.load(data[keys.get(name, name)])
            for name, codec in cls._plan()
            if codec.dump is not None and not (codec.optional and keys.get(name, name) not in data)
        }
        return cls(**values)

    @classmethod
    def saved_names(cls) -> tuple[str, ...]:
        """The JSON keys this part writes, in order."""
        keys = cls.JSON_KEYS
        return tuple(keys.get(name, name) for name, codec in cls._plan() if codec.dump is not None)


def copy_parts(source: object, target: object, names: tuple[str, ...]) -> None:
    """Give ``target`` a clone of each part of ``source`` named in ``names`` (for ``clone``)."""
    for name in names:
        part: Part = getattr(source, name)
        setattr(target, name, part.clone())


__all__ = [
    "FROZEN_JSON",
    "INTS",
    "INT_ROWS",
    "INT_ROWS_OF_ROWS",
    "SCALAR",
    "SHALLOW",
    "SHARED_CACHE",
    "Codec",
    "Part",
    "copy_parts",
    "part_field",
]
