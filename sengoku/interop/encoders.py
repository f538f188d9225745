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
from collections.abc import Callable
from typing import Any

import numpy as np

from sengoku.core.encoding import DEFAULT_JSON_SIZE, JsonBytesEncoder, canonical_json, encoder_for
from sengoku.core.game import Action, Game, State
from sengoku.core.observation import Encoder, Entries, entries_of


def capturer_of(encoder: Encoder) -> Callable[[State, int | None], Any]:
    """The capture an environment keeps for its observations: the encoder's ``capturer()``
    where it has one (a capture that reuses parts of its own last snapshots, Gunshi's: what
    it keeps lives in the function, which only the environment holds, never in the encoder
    that observations hold), else ``encoder.capture``."""
    make = getattr(encoder, "capturer", None)
    if make is None:
        return encoder.capture
    capture: Callable[[State, int | None], Any] = make()
    return capture


def mask_of(ints: list[int], num_actions: int) -> np.ndarray:
    """A new ``int8`` vector of ``num_actions`` entries, 1 at ``ints`` (ascending integers).
    Short lists (a few legal actions, Gunshi's and Gunkimono's usual case) are set in a
    ``bytearray`` that numpy then reads in place (half the cost of an index array); long
    ones through an index array made with ``np.array`` (numpy converts a list used as an
    index item by item; ``np.array`` of a list of ints costs less than ``np.fromiter``)."""
    if not ints:
        return np.zeros(num_actions, np.int8)
    if len(ints) <= _SHORT:
        entries = bytearray(num_actions)
        for i in ints:
            entries[i] = 1
        return np.frombuffer(entries, _INT8)
    mask = np.zeros(num_actions, np.int8)
    mask[np.array(ints, np.intp)] = 1
    return mask


#: The longest legal list :func:`mask_of` sets entry by entry.
_SHORT = 32
#: The mask's dtype as an object (``np.frombuffer`` given the type converts it each call).
_INT8 = np.dtype(np.int8)


def legal_table(game: Game, state: State) -> dict[int, Action]:
    """The legal actions of ``state`` by their integers (ascending, as the contract lists them)."""
    legal = state.legal_actions()
    to_int = functools.partial(game.action_to_int, state)
    return dict(zip(map(to_int, legal), legal, strict=True))


class LegalInts:
    """The legal action integers of the position to act, and a cheap test of one.

    :meth:`update` reads the legal integers once per position and keeps the list as it is.
    The contract lists them in ascending order, so membership is a binary search of that
    list (:meth:`index`): no numpy array and no flag vector to keep in step on every ply
    (they cost more than the search). Where the game leaves ``legal_action_ints`` to the
    contract's default (``action_to_int`` of each of ``state.legal_actions()``), the actions
    it made are kept beside their integers, in the same order, so the action played is read
    back by its index (:meth:`action`) instead of being rebuilt by ``int_to_action``; so too
    where the game gives both at once (``Game.legal_actions_and_ints``: Gunkimono's stored
    integers). A game with its own ``legal_action_ints`` and nothing more (Gungi's native
    codes) makes no actions for the list, and the one played is ``int_to_action`` of its
    integer.
    """

    __slots__ = (
        "game",
        "num_actions",
        "list",
        "actions",
        "pair",
        "ints_of",
        "action_int",
        "with_ints",
    )

    def __init__(self, game: Game, num_actions: int) -> None:
        self.game = game
        self.num_actions = num_actions
        #: The legal integers, ascending (empty where no seat is to act). Never changed in
        #: place: :meth:`update` replaces it.
        self.list: list[int] = []
        #: The legal actions, ``actions[i]`` the one of ``list[i]`` (None: not kept).
        self.actions: list[Action] | None = None
        #: The game's ``legal_actions_and_ints`` (core/game.py), or None.
        self.with_ints = game.legal_actions_and_ints
        #: Whether the actions are kept beside their integers: the default
        #: ``legal_action_ints`` makes the actions anyway, and ``legal_actions_and_ints``
        #: gives them.
        self.pair = (
            type(game).legal_action_ints is Game.legal_action_ints or self.with_ints is not None
        )
        #: The game's ``legal_action_ints``, read once (it runs on every step; an
        #: environment that keeps no actions may set :attr:`list` from it directly).
        self.ints_of = game.legal_action_ints
        #: The game's ``action_int`` (core/game.py): an action's integer without the state.
        self.action_int = game.action_int

    def update(self, state: State | None) -> None:
        """The legal integers of ``state`` (None: nothing is legal, as at the end)."""
        if state is None:
            self.list = []
            self.actions = None
        elif self.pair:
            with_ints = self.with_ints
            if with_ints is not None:  # both in one call (Gunkimono's stored integers)
                self.actions, self.list = with_ints(state)
                return
            actions = self.actions = state.legal_actions()
            action_int = self.action_int
            if action_int is not None:  # the game's integer needs no state (Gunshi's)
                self.list = list(map(action_int, actions))
            else:
                to_int = self.game.action_to_int
                self.list = [to_int(state, action) for action in actions]
        else:
            self.list = self.ints_of(state)
            self.actions = None

    @property
    def ints(self) -> np.ndarray:
        """The legal integers as a new numpy array."""
        return np.array(self.list, np.intp)

    def index(self, action: Any) -> int:
        """The position of ``action`` (an integer, or what ``int()`` takes) in :attr:`list`,
        or -1 where it is not legal."""
        if type(action) is not int:
            action = int(action)
        legal = self.list
        i = bisect_left(legal, action)
        return i if i < len(legal) and legal[i] == action else -1

    def action(self, state: State, i: int) -> Action:
        """The legal action at position ``i`` of :attr:`list` in ``state`` (the position of
        the last :meth:`update`)."""
        actions = self.actions
        if actions is not None:
            return actions[i]
        return self.game.int_to_action(state, self.list[i])

    def __contains__(self, action: int) -> bool:
        legal = self.list
        i = bisect_left(legal, action)
        return i < len(legal) and legal[i] == action

    def __len__(self) -> int:
        return len(self.list)

    def mask(self) -> np.ndarray:
        """A new ``int8`` vector over ``num_distinct_actions``: 1 at the legal integers."""
        return mask_of(self.list, self.num_actions)

    def preview(self, count: int = 12) -> str:
        """The first ``count`` legal integers, ascending, for error messages."""
        return str(self.list[:count])


__all__ = [
    "DEFAULT_JSON_SIZE",
    "Encoder",
    "Entries",
    "JsonBytesEncoder",
    "LegalInts",
    "capturer_of",
    "canonical_json",
    "encoder_for",
    "entries_of",
    "legal_table",
    "mask_of",
]
