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
    """The legal action integers of the position to act, and a constant-time test of one.

    :meth:`update` reads ``legal_actions`` once per position and keeps only the integers (no
    table of actions: the one action played is ``int_to_action`` of its integer, a dict of
    every legal action per ply cost more than that one look-up); membership is one read of a
    flag vector over ``num_distinct_actions`` (set and cleared at the legal entries only).
    """

    __slots__ = ("game", "ints", "_flags")

    def __init__(self, game: Game, num_actions: int) -> None:
        self.game = game
        #: The legal integers, in the contract's order (empty where no seat is to act).
        self.ints: np.ndarray = np.zeros(0, np.intp)
        self._flags = np.zeros(num_actions, np.bool_)

    def update(self, state: State | None) -> None:
        """The legal integers of ``state`` (None: nothing is legal, as at the end)."""
        flags = self._flags
        flags[self.ints] = False
        if state is None:
            self.ints = np.zeros(0, np.intp)
            return
        ints = np.array(self.game.legal_action_ints(state), np.intp)
        flags[ints] = True
        self.ints = ints

    def __contains__(self, action: int) -> bool:
        return 0 <= action < len(self._flags) and bool(self._flags[action])

    def __len__(self) -> int:
        return len(self.ints)

    def preview(self, count: int = 12) -> str:
        """The first ``count`` legal integers, ascending, for error messages."""
        return str(sorted(self.ints.tolist())[:count])


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
