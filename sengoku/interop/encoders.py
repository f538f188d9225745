"""Observation tensors of a fixed shape, built only from ``view(seat)``.

Every research adapter (OpenSpiel, PettingZoo, Gymnasium) turns what a seat may see into a
numeric array through an :class:`~sengoku.core.observation.Encoder`. An encoder reads the
JSON-ready dict that ``State.view(seat)`` returns and nothing else, so a tensor can never
carry more than the seat is allowed to know.

A game declares its own encoder (``Game.observation_encoder``, in its folder's
``encoder.py``). :class:`JsonBytesEncoder` is the generic fallback for games without one: the
canonical JSON of the view (sorted keys, no spaces), as UTF-8 bytes, zero-padded to a fixed
length. It is lossless (two different views never give the same tensor) but a learner has to
find the structure itself; games gain their own encoder as they need one.

:func:`encoder_for` picks the encoder of a game and its options.
"""

from __future__ import annotations

import functools
from bisect import bisect_left

import numpy as np

from sengoku.core.encoding import DEFAULT_JSON_SIZE, JsonBytesEncoder, canonical_json, encoder_for
from sengoku.core.game import Action, Game, State
from sengoku.core.observation import Encoder, Entries, entries_of


def legal_table(game: Game, state: State) -> dict[int, Action]:
    """The legal actions of ``state`` by their integers (ascending, as the contract lists them)."""
    legal = state.legal_actions()
    to_int = functools.partial(game.action_to_int, state)
    return dict(zip(map(to_int, legal), legal, strict=True))


class LegalInts:
    """The legal action integers of the position to act, and a cheap test of one.

    :meth:`update` reads ``legal_action_ints`` once per position and keeps the list as it
    is (no table of actions: the one action played is ``int_to_action`` of its integer, a
    dict of every legal action per ply cost more than that one look-up). The contract lists
    them in ascending order, so membership is a binary search of that list: no numpy array
    and no flag vector to keep in step on every ply (they cost more than the search).
    """

    __slots__ = ("game", "num_actions", "list", "_array")

    def __init__(self, game: Game, num_actions: int) -> None:
        self.game = game
        self.num_actions = num_actions
        #: The legal integers, ascending (empty where no seat is to act). Never changed in
        #: place: :meth:`update` replaces it.
        self.list: list[int] = []
        self._array: np.ndarray | None = None

    def update(self, state: State | None) -> None:
        """The legal integers of ``state`` (None: nothing is legal, as at the end)."""
        self.list = [] if state is None else self.game.legal_action_ints(state)
        self._array = None

    @property
    def ints(self) -> np.ndarray:
        """The legal integers as a numpy array (made on first read, then kept)."""
        array = self._array
        if array is None:
            array = self._array = np.array(self.list, np.intp)
        return array

    def __contains__(self, action: int) -> bool:
        legal = self.list
        i = bisect_left(legal, action)
        return i < len(legal) and legal[i] == action

    def __len__(self) -> int:
        return len(self.list)

    def mask(self) -> np.ndarray:
        """A new ``int8`` vector over ``num_distinct_actions``: 1 at the legal integers."""
        mask = np.zeros(self.num_actions, np.int8)
        if self.list:
            mask[self.list] = 1
        return mask

    def preview(self, count: int = 12) -> str:
        """The first ``count`` legal integers, ascending, for error messages."""
        return str(self.list[:count])


__all__ = [
    "DEFAULT_JSON_SIZE",
    "Encoder",
    "Entries",
    "JsonBytesEncoder",
    "LegalInts",
    "canonical_json",
    "encoder_for",
    "entries_of",
    "legal_table",
]
