"""Observations whose tensor is encoded, and mask made, only when read.

A PettingZoo (and Gymnasium) observation is ``{"observation": tensor, "action_mask": mask}``; random play,
search and many learners' action selection read only the mask, and a player that takes the
legal integers as a list (``env.legal_actions()``) reads neither. :class:`LazyObservation`
is that dict with the tensor encoded on its first read, and the mask made from the legal
integers on its first read (through any way of reading a dict: ``obs["observation"]``,
``get``, ``items``, ``values``, iteration with look-ups, ``dict(obs)``, ``{**obs}``, ``==``,
``copy``, ``deepcopy``, ``pickle``), then kept. What OpenSpiel does for its own games:
tensors only when asked.

An observation holds only what its seat may see: the seat's ``view(seat)`` (or the encoder's
snapshot of it), taken when the observation is made (later play does not change it), the
encoder (the seat's own: what an encoder keeps of the views it encoded is then only what
this seat was shown), the seat and the seat's own legal integers (the mask's entries), until
the tensor is encoded (then the tensor instead of the view; the encoder is let go once the
mask is made too). It never holds the
game's state, its seed or another seat's actions, so nothing reachable from it
(``gc.get_referents``, ``vars``) tells a seat what it may not know; and its tensor and mask
are always those of the position it was returned at, whenever they are read. What the
laziness saves is the encoding and the mask; the view is taken at once. ``copy.copy`` and
``pickle`` give a plain dict of the arrays, ``copy.deepcopy`` an observation of the same
type with its arrays made and copied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from copy import deepcopy
from typing import Any

import numpy as np

from sengoku.interop.encoders import Encoder, mask_of

OBSERVATION = "observation"
ACTION_MASK = "action_mask"


#: What an observation holds instead of its view once the tensor is encoded (or will not be).
_ENCODED: Any = object()
#: The keys of an observation whose arrays are not made yet.
_UNMADE: dict[str, None] = {OBSERVATION: None, ACTION_MASK: None}
_new = dict.__new__
_update = dict.update
#: What makes a mask: ``make(legal, num_actions)`` (:func:`~sengoku.interop.encoders.mask_of`,
#: or a native core's, where the environment plays in one: Gungi's).
MaskMaker = Callable[[list[int], int], np.ndarray]
#: What an environment keeps for each seat and its observations hold until both arrays are
#: made: (encoder, seat, num_actions, mask maker).
Seat = tuple[Encoder, "int | None", int, MaskMaker]


class Encoded(Encoder):
    """The encoder of observations whose tensors were encoded when they were made (by a
    game's native core: ``Game.native_play``): what such an observation holds until read
    is its tensor, which :meth:`encode` hands over as it is."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape

    def encode_into(self, view: Any, seat: int | None, out: Any) -> None:
        out[...] = view

    def encode(self, view: Any, seat: int | None) -> Any:
        return view


class LazyObservation(dict):  # type: ignore[type-arg]
    """``{"observation": tensor, "action_mask": mask}``, each made on its first read.

    Until then the dict's own storage holds None for it: every way of reading the dict goes
    through the methods below (``__iter__`` is overridden so that ``dict(obs)`` and
    ``{**obs}`` look values up instead of copying the storage). ``view`` is what ``encoder``
    encodes (the seat's view or the encoder's snapshot of it); the mask is given as the
    seat's legal integers (``legal``, ascending, and ``num_actions``): an ``int8`` vector
    with 1 at those, made when first read.
    """

    # ``_seat``: (encoder, seat, num_actions, make_mask), one tuple per seat that an
    # environment keeps (no tuple made per observation), None once both arrays are made;
    # ``_view``: what the encoder encodes, _ENCODED once it is; ``_legal``: the legal
    # integers, None once the mask is made.
    __slots__ = ("_seat", "_view", "_legal")

    def __init__(
        self, encoder: Encoder, view: Any, seat: int | None, legal: list[int], num_actions: int
    ) -> None:
        dict.__init__(self, _UNMADE)
        self._seat: Seat | None = (encoder, seat, num_actions, mask_of)
        self._view: Any = view
        self._legal: list[int] | None = legal

    @classmethod
    def made(
        cls, encoder: Encoder, view: Any, seat: int | None, legal: list[int], num_actions: int
    ) -> LazyObservation:
        """``LazyObservation(encoder, view, seat, legal, num_actions)`` without the call of
        ``__init__`` (a third cheaper)."""
        return cls.of((encoder, seat, num_actions, mask_of), view, legal)

    @classmethod
    def of(cls, seat: Seat, view: Any, legal: list[int]) -> LazyObservation:
        """``LazyObservation(encoder, view, seat, legal, num_actions)`` with ``seat`` the
        tuple ``(encoder, seat, num_actions, make_mask)``, kept per seat by an environment
        that makes an observation every step (``make_mask`` makes the mask: ``mask_of``, or
        a native core's): the keys copied from a kept dict, no ``__init__`` call and no
        tuple made."""
        observation: LazyObservation = _new(cls)
        _update(observation, _UNMADE)
        observation._seat = seat
        observation._view = view
        observation._legal = legal
        return observation

    @property
    def encoded(self) -> bool:
        """Whether the tensor has been encoded (read) yet."""
        return self._view is _ENCODED

    def _fill_mask(self) -> None:
        legal = self._legal
        if legal is not None:
            seat = self._seat
            assert seat is not None  # kept until both arrays are made
            dict.__setitem__(self, ACTION_MASK, seat[3](legal, seat[2]))
            self._legal = None
            if self._view is _ENCODED:
                self._seat = None

    def _fill(self) -> None:
        """Make both arrays (a read of the whole dict)."""
        self._fill_tensor()
        self._fill_mask()

    def _fill_key(self, key: str) -> None:
        if key == OBSERVATION:
            self._fill_tensor()
        elif key == ACTION_MASK:
            self._fill_mask()

    def _fill_tensor(self) -> None:
        view = self._view
        if view is not _ENCODED:
            seat = self._seat
            assert seat is not None  # kept until both arrays are made
            dict.__setitem__(self, OBSERVATION, seat[0].encode(view, seat[1]))
            self._view = _ENCODED
            if self._legal is None:
                self._seat = None

    def __getitem__(self, key: str) -> Any:
        if key == ACTION_MASK:
            legal = self._legal
            if legal is not None:  # _fill_mask written out: a frame fewer on every masked step
                seat = self._seat
                assert seat is not None  # kept until both arrays are made
                mask = seat[3](legal, seat[2])
                dict.__setitem__(self, ACTION_MASK, mask)
                self._legal = None
                if self._view is _ENCODED:
                    self._seat = None
                return mask
        elif key == OBSERVATION:
            self._fill_tensor()
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        self._fill_key(key)
        return dict.get(self, key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.keys(self))

    def items(self) -> Any:
        self._fill()
        return dict.items(self)

    def values(self) -> Any:
        self._fill()
        return dict.values(self)

    def copy(self) -> dict[str, Any]:
        self._fill()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._fill()
        if isinstance(other, LazyObservation):
            other._fill()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def __reduce__(self) -> tuple[Callable[..., dict[str, Any]], tuple[dict[str, Any]]]:
        # copy and pickle give a plain dict of the same arrays.
        return (dict, (self.copy(),))

    def __deepcopy__(self, memo: dict[int, Any]) -> LazyObservation:
        """An observation of the same type with both arrays made and copied (Gymnasium's
        ``check_env`` compares a deep copy of an observation with another observation, type
        included)."""
        self._fill()
        made: LazyObservation = _new(type(self))
        for key, value in dict.items(self):
            dict.__setitem__(made, key, deepcopy(value, memo))
        made._seat = None
        made._view = _ENCODED
        made._legal = None
        return made

    def __setitem__(self, key: str, value: Any) -> None:
        self._forget(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self._forget(key)
        dict.__delitem__(self, key)

    def _forget(self, key: str) -> None:
        """The array of ``key`` is replaced or removed: it will not be made."""
        if key == OBSERVATION:
            self._view = _ENCODED
        elif key == ACTION_MASK:
            self._legal = None
        if self._view is _ENCODED and self._legal is None:
            self._seat = None

    def pop(self, key: str, *default: Any) -> Any:
        self._fill_key(key)
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        self._fill()
        return dict.popitem(self)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._fill_key(key)
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._fill()
        dict.update(self, *args, **kwargs)

    def clear(self) -> None:
        self._seat = None
        self._view = _ENCODED
        self._legal = None
        dict.clear(self)

    def __or__(self, other: Any) -> Any:
        self._fill()
        return dict.__or__(self, other)

    def __ror__(self, other: Any) -> Any:
        self._fill()
        return dict.__ror__(self, other)

    def __ior__(self, other: Any) -> LazyObservation:
        self._fill()
        dict.update(self, other)
        return self


__all__ = ["ACTION_MASK", "OBSERVATION", "LazyObservation"]
