"""Typed parts of a game's state (issue 42, item 1).

A game's :class:`~sengoku.core.game.State` is composed of parts, each a slotted dataclass
that one rule module owns and writes (Sashimono's look at the top of a deck belongs to its
effects, the turn order to its turn): a reader finds who changes a field by its part's
module, and ``clone`` and ``to_json`` walk the parts instead of copying fields from
hand-kept name lists.

A part subclasses :class:`Part` and is declared ``@dataclass(slots=True)``. Its
:meth:`Part.copy` copies each field one level deep (a list or dict field is a new list or
dict of the same items: what a clone may change in place is never shared), and
:meth:`Part.to_json` gives its fields (containers copied the same way) under the keys
named in :attr:`Part.JSON_KEYS` (so a state's saved form keeps the keys it had before its
fields were grouped).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, ClassVar, Self

__all__ = ["Part", "copy_parts"]


class Part:
    """One typed part of a state (subclasses are ``@dataclass(slots=True)``)."""

    __slots__ = ()

    #: A field's key in the state's JSON, where it is not the field's own name.
    JSON_KEYS: ClassVar[Mapping[str, str]] = {}

    def copy(self) -> Self:
        """A copy whose list and dict fields are new containers of the same items."""
        cls = type(self)
        new = object.__new__(cls)
        for name in _field_names(cls):
            value = getattr(self, name)
            if type(value) is list:
                value = value[:]
            elif type(value) is dict:
                value = dict(value)
            object.__setattr__(new, name, value)
        return new

    def to_json(self) -> dict[str, Any]:
        """The part's fields under their JSON keys (list and dict fields as new containers:
        what the caller does with the JSON never changes the part)."""
        keys = self.JSON_KEYS
        out: dict[str, Any] = {}
        for name in _field_names(type(self)):
            value = getattr(self, name)
            if isinstance(value, list):
                value = list(value)
            elif isinstance(value, dict):
                value = dict(value)
            out[keys.get(name, name)] = value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The part whose fields :meth:`to_json` wrote into ``data`` (other keys ignored)."""
        keys = cls.JSON_KEYS
        values = {
            f.name: data[keys.get(f.name, f.name)]
            for f in fields(cls)  # type: ignore[arg-type]
        }
        return cls(**values)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A part class's field names, read once (``clone`` runs in search's inner loops)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def copy_parts(source: object, target: object, names: tuple[str, ...]) -> None:
    """Give ``target`` a copy of each part of ``source`` named in ``names`` (for ``clone``)."""
    for name in names:
        part: Part = getattr(source, name)
        setattr(target, name, part.copy())
