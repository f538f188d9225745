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

Codecs for the shapes the games hold: integers (:data:`INTS`, :data:`INT_ROWS`,
:data:`INT_ROWS_OF_ROWS`), lists of immutable values (:data:`LIST`, one list per seat:
:data:`ROWS`), tuples saved as lists (:data:`TUPLE`, :data:`TUPLES`, :data:`TUPLE_ROWS`),
lists whose items are replaced, never changed, by the rules (:data:`COPY_ON_WRITE`), values
(:data:`SCALAR`, :data:`FROZEN_JSON`), caches (:data:`SHARED_CACHE`), and objects with their
own ``copy`` and ``to_json`` (:func:`own_copy`). A game with a shape of its own makes a
:class:`Codec` beside its part.

A state clones its parts with each part's :meth:`Part.clone`, or is cloned whole by a
function :func:`state_cloner` generates: its own fields and every part copied in one call
(a search clones a state per node, and a call per part costs it a few percent).

Kept small on purpose: a codec is three functions, and a part copies, dumps and loads its
fields in declaration order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

T = TypeVar("T")
S = TypeVar("S")


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


#: A list of integers (a list: clones copy it with ``list.copy``, the quickest copy).
INTS: Codec[list[int]] = Codec(list.copy, _int_list, _load_ints, copy_code="{}.copy()")
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


def jsonable(value: Any) -> Any:
    """``value`` as new JSON values: tuples become lists, containers are new (nothing is
    shared with ``value``)."""
    if isinstance(value, tuple | list):
        return [jsonable(x) for x in value]
    if isinstance(value, dict):
        return {k: jsonable(x) for k, x in value.items()}
    return value


#: A list of immutable values (flags, strings), saved as it is.
LIST: Codec[list[Any]] = Codec(list, list, list, copy_code="{0}.copy()")


def _rows_any(v: list[list[Any]]) -> list[list[Any]]:
    return [list(x) for x in v]


#: ``copy_code`` of a list of lists: two lists (one per seat of a two-player game, the
#: common case) written out, a third of the time of a comprehension.
_ROWS_COPY = "([{0}[0].copy(), {0}[1].copy()] if len({0}) == 2 else [x.copy() for x in {0}])"

#: A list of lists of immutable values (one per seat: names of cards, flags, numbers).
ROWS: Codec[list[list[Any]]] = Codec(_rows_any, _rows_any, _rows_any, copy_code=_ROWS_COPY)


def _dump_tuple(v: tuple[Any, ...] | None) -> list[Any] | None:
    return None if v is None else list(v)


def _load_tuple(v: Any) -> tuple[Any, ...] | None:
    return None if v is None else tuple(v)


#: A tuple of immutable values, or None: shared by clones (tuples never change), saved as a
#: list, read back as a tuple.
TUPLE: Codec[tuple[Any, ...] | None] = Codec(_same, _dump_tuple, _load_tuple)


def _dump_tuples(v: list[tuple[Any, ...] | None]) -> list[list[Any] | None]:
    return [None if t is None else list(t) for t in v]


def _load_tuples(v: Any) -> list[tuple[Any, ...] | None]:
    return [None if t is None else tuple(t) for t in v]


#: A list of tuples of immutable values (or None): the list is copied, the tuples shared;
#: saved as lists, read back as tuples.
TUPLES: Codec[list[tuple[Any, ...] | None]] = Codec(
    list, _dump_tuples, _load_tuples, copy_code="{0}.copy()"
)


def _dump_tuple_rows(v: list[list[tuple[Any, ...]]]) -> list[list[list[Any]]]:
    return [[list(t) for t in row] for row in v]


def _load_tuple_rows(v: Any) -> list[list[tuple[Any, ...]]]:
    return [[tuple(t) for t in row] for row in v]


#: A list of lists of tuples (one list per seat: cards as tuples): the lists are copied, the
#: tuples shared; saved as lists, read back as tuples.
TUPLE_ROWS: Codec[list[list[tuple[Any, ...]]]] = Codec(
    _rows_any, _dump_tuple_rows, _load_tuple_rows, copy_code=_ROWS_COPY
)

#: A list whose items the rules replace and never change in place (copy on write): clones
#: copy the list only and share its items; saved as new JSON (:func:`jsonable`), read as it is.
COPY_ON_WRITE: Codec[list[Any]] = Codec(list, jsonable, _same, copy_code="{0}.copy()")


class _OwnCopy(Protocol):
    def copy(self) -> Any: ...

    def to_json(self) -> Any: ...


def own_copy(load: Callable[[Any], T]) -> Codec[T | None]:
    """An object the rules change in place, or None: copied with its own ``copy()``, saved with
    its ``to_json()``, read with ``load`` (its class's ``from_json``)."""

    def copy(v: Any) -> Any:
        return None if v is None else cast(_OwnCopy, v).copy()

    def dump(v: Any) -> Any:
        return None if v is None else cast(_OwnCopy, v).to_json()

    def read(v: Any) -> T | None:
        return None if v is None else load(v)

    return Codec(copy, dump, read, copy_code="(None if {0} is None else {0}.copy())")


def _clone_lines(
    cls: type[Part], env: dict[str, Any], tag: str, source: str, target: str
) -> list[str]:
    """Lines making ``target`` a new ``cls`` whose fields are copies of ``source``'s: written
    out field by field (a loop over the fields, with its ``getattr`` and ``setattr``, costs a
    clone-heavy search a tenth of its speed)."""
    env[f"_cls{tag}"] = cls
    lines = [f"    {target} = _new(_cls{tag})"]
    for i, (name, codec) in enumerate(cls._plan()):
        if codec.copy is _same:
            lines.append(f"    {target}.{name} = {source}.{name}")
        elif codec.copy_code.count("{0}") > 1:  # the value read once
            lines.append(f"    v = {source}.{name}")
            lines.append(f"    {target}.{name} = " + codec.copy_code.format("v"))
        elif codec.copy_code:
            lines.append(f"    {target}.{name} = " + codec.copy_code.format(f"{source}.{name}"))
        else:
            env[f"_copy{tag}_{i}"] = codec.copy
            lines.append(f"    {target}.{name} = _copy{tag}_{i}({source}.{name})")
    return lines


def _compile(lines: list[str], env: dict[str, Any], name: str) -> Callable[..., Any]:
    env["_new"] = object.__new__
    exec("\n".join(lines), env)  # noqa: S102 - field names of dataclasses, not input
    return env[name]  # type: ignore[no-any-return]


def _compile_clone(cls: type[Part]) -> Callable[[Any], Any]:
    """``def clone(self)`` for ``cls``: each field copied by its codec, immutable ones shared."""
    env: dict[str, Any] = {}
    lines = ["def clone(self):", *_clone_lines(cls, env, "", "self", "new"), "    return new"]
    return _compile(lines, env, "clone")


def state_cloner(cls: type[S], fields: Sequence[tuple[str, type[Part] | None]]) -> Callable[[S], S]:
    """A function cloning a state of class ``cls`` in one generated call. ``fields``: the
    state's attributes in the order its ``__init__`` makes them, each with its part class
    (the part is cloned by its codecs, written out inline) or None (shared by the clone: a
    value that is replaced, never changed in place). The attributes are set one by one on a
    new object, which keeps CPython's compact attribute storage: a clone made by copying
    ``__dict__`` whole reads every attribute more slowly, and a search reads many."""
    env: dict[str, Any] = {"_state": cls}
    lines = ["def clone(s):", "    n = _new(_state)"]
    for k, (name, part) in enumerate(fields):
        if part is None:
            lines.append(f"    n.{name} = s.{name}")
        else:
            lines += [f"    p = s.{name}", *_clone_lines(part, env, str(k), "p", "c")]
            lines.append(f"    n.{name} = c")
    lines.append("    return n")
    return _compile(lines, env, "clone")


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
        copier = _compile_clone(cls)
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

    def load_from(self, data: Mapping[str, Any], *, keep_absent: bool = False) -> None:
        """Read the saved fields from ``data`` (KeyError, TypeError or ValueError if bad).
        ``keep_absent``: every field is optional (a key ``data`` lacks leaves its field as it
        is), for a saved form that has never required its keys."""
        keys = self.JSON_KEYS
        for name, codec in self._plan():
            key = keys.get(name, name)
            if codec.dump is None or ((keep_absent or codec.optional) and key not in data):
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
    "COPY_ON_WRITE",
    "FROZEN_JSON",
    "INTS",
    "INT_ROWS",
    "INT_ROWS_OF_ROWS",
    "LIST",
    "ROWS",
    "SCALAR",
    "SHALLOW",
    "SHARED_CACHE",
    "TUPLE",
    "TUPLES",
    "TUPLE_ROWS",
    "Codec",
    "Part",
    "copy_parts",
    "jsonable",
    "own_copy",
    "part_field",
    "state_cloner",
]
