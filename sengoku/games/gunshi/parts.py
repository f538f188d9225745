"""Gunshi's sub-states (to be moved onto sengoku/core/substate.py's Part and codecs): a game's state composed of slotted dataclasses, each written by one rule module.

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
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

__all__ = [
    "copier",
    "copy_part",
    "part",
    "part_from_json",
    "part_to_json",
    "parts_copier",
    "jsonable",
]

P = TypeVar("P")

_COPY, _ENCODE, _DECODE = "substate.copy", "substate.encode", "substate.decode"


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


#: class -> its copy function, made on first use.
_COPIERS: dict[type, Callable[[Any], Any]] = {}


def _copy_lines(cls: type, env: dict[str, Any], tag: str) -> list[str]:
    """Lines setting each field of ``c`` to a copy of that field of ``p`` (a part of class
    ``cls``), written out field by field: a loop over the fields, with its ``getattr`` and
    ``setattr``, costs a clone-heavy search a tenth of its speed."""
    sample = cls()
    env[f"cls{tag}"] = cls
    lines = [f"    c = new(cls{tag})"]
    for i, f in enumerate(dataclasses.fields(cls)):
        name = f.name
        how = f.metadata.get(_COPY)
        v = getattr(sample, name)
        if how is not None:
            env[f"how{tag}_{i}"] = how
            lines.append(f"    c.{name} = how{tag}_{i}(p.{name})")
        elif isinstance(v, list) and v and isinstance(v[0], list):
            # One list per seat: written out for the default's number of seats.
            n = len(v)
            each = ", ".join(f"v[{k}].copy()" for k in range(n))
            lines.append(f"    v = p.{name}")
            lines.append(f"    c.{name} = [{each}] if len(v) == {n} else [x.copy() for x in v]")
        elif isinstance(v, list):
            lines.append(f"    c.{name} = p.{name}.copy()")
        else:
            lines.append(f"    c.{name} = p.{name}")
    return lines


def _compile(lines: list[str], env: dict[str, Any]) -> Callable[[Any], Any]:
    env["new"] = object.__new__
    exec("\n".join(lines), env)  # noqa: S102 (source built from dataclass field names only)
    fn: Callable[[Any], Any] = env["copy"]
    return fn


def copier(cls: type[P]) -> Callable[[P], P]:
    """The function :func:`copy_part` uses for parts of class ``cls``."""
    copy = _COPIERS.get(cls)
    if copy is None:
        env: dict[str, Any] = {}
        lines = ["def copy(p):", *_copy_lines(cls, env, ""), "    return c"]
        copy = _COPIERS[cls] = _compile(lines, env)
    return copy


def copy_part(p: P) -> P:
    """A copy of part ``p`` that the original's rules can no longer change."""
    return copier(type(p))(p)


def parts_copier(parts: Mapping[str, type]) -> Callable[[dict[str, Any]], None]:
    """A function replacing, in a state's ``__dict__``, each part named in ``parts`` (name ->
    class) by its copy: a state's ``clone`` in one call."""
    env: dict[str, Any] = {}
    lines = ["def copy(d):"]
    for k, (name, cls) in enumerate(parts.items()):
        lines += [f"    p = d[{name!r}]", *_copy_lines(cls, env, str(k)), f"    d[{name!r}] = c"]
    return _compile(lines, env)


def jsonable(v: Any) -> Any:
    """``v`` as new JSON values: tuples become lists; nothing is shared with ``v``."""
    if isinstance(v, tuple | list):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: jsonable(x) for k, x in v.items()}
    return v


def part_to_json(p: object) -> Iterator[tuple[str, Any]]:
    """(name, JSON value) for each field of part ``p``, in declaration order."""
    for f in dataclasses.fields(p):  # type: ignore[arg-type]
        v = getattr(p, f.name)
        encode = f.metadata.get(_ENCODE)
        yield f.name, jsonable(v if encode is None or v is None else encode(v))


def part_from_json(p: object, data: dict[str, Any]) -> None:
    """Set the fields of part ``p`` that ``data`` holds (a field it lacks keeps its start)."""
    for f in dataclasses.fields(p):  # type: ignore[arg-type]
        if f.name in data:
            v = data[f.name]
            decode = f.metadata.get(_DECODE)
            setattr(p, f.name, v if decode is None or v is None else decode(v))
