"""Observation encoders: a game's views as numeric arrays of a fixed shape.

A game declares its encoder with :meth:`sengoku.core.game.Game.observation_encoder`; the
research adapters (:mod:`sengoku.interop`) find it only there. An encoder reads the JSON-ready
dict that ``State.view(seat)`` returns and nothing else, so a tensor never carries more than
the seat may know. A game without an encoder is still served: the adapters fall back to a
generic lossless encoding of the view.

Core does not depend on numpy: the buffers an encoder fills are numpy float32 arrays, and
only :meth:`Encoder.encode` (which allocates one) imports numpy, when called.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, Protocol, cast

#: A zeroed, C-contiguous numpy float32 array of the encoder's shape (typed loosely here so
#: that core does not import numpy).
Buffer = Any


class Entries(Protocol):
    """An encoder's output written one entry at a time (see :func:`entries_of`)."""

    def __getitem__(self, index: int, /) -> float: ...

    def __setitem__(self, index: int, value: float, /) -> None: ...


def entries_of(out: Buffer) -> Entries:
    """A memoryview of the flat float32 ``out``: one entry at a time, far cheaper (about
    40 ns) than numpy's item writes (85-125 ns); the values are rounded to float32 alike."""
    return cast(Entries, out.data)


class Encoder(ABC):
    """Turns ``view(seat)`` into a float32 array of the fixed shape ``shape``.

    ``low`` and ``high`` bound every entry (the adapters' observation spaces use them).
    """

    shape: tuple[int, ...]
    low: float = 0.0
    high: float = 1.0

    @abstractmethod
    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: Buffer) -> None:
        """Fill ``out`` (zeroed, C-contiguous, of ``shape``) from the view of ``seat``."""

    def capture(self, state: Any, seat: int | None) -> Any:
        """What :meth:`encode_into` needs of ``state`` for ``seat``, taken now (later play does
        not change it): ``state.view(seat)`` unless the encoder knows a cheaper snapshot. A
        snapshot holds only what ``view(seat)`` shows, and encodes to the view's tensor entry
        for entry (``tests/interop/test_encoder_properties.py``); the adapters take one per
        observation where the view itself is not handed out."""
        return state.view(seat)

    def encode(self, view: Mapping[str, Any], seat: int | None) -> Buffer:
        """A new float32 array holding the encoding (needs numpy)."""
        import numpy as np

        out = np.zeros(self.shape, np.float32)
        self.encode_into(view, seat, out)
        return out

    def describe(self) -> str:
        """One line for documentation and error messages."""
        return f"{type(self).__name__} {self.shape}"


#: Zeros by length, as memoryviews (see :func:`clear_entries`). Kept here, not on an encoder,
#: which stays picklable.
_ZEROS: dict[int, Any] = {}


def clear_entries(w: Any, start: int, stop: int) -> None:
    """Zeros at ``w[start:stop]``, ``w`` the memoryview of an encoding (:func:`entries_of`): a
    block an encoder's ``encode_changed`` rewrites is cleared first, cheaper so than with
    numpy's slice assignment (a call of about a microsecond)."""
    zero = _ZEROS.get(stop - start)
    if zero is None:
        import numpy as np  # core does not depend on numpy: only a caller's buffers do

        zero = _ZEROS[stop - start] = np.zeros(stop - start, np.float32).data
    w[start:stop] = zero
