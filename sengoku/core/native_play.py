"""One game played in a game's native core, for the research adapters.

A game with a native C++ core (every game's; see ``docs/architecture.md``) can hand the
adapters its matches instead of contract states: ``Game.native_play(**options)`` returns a
:class:`NativePlay` (None where the game has none, or its core is not built). A match is
the core's own position: it deals as ``new_state(seed=...)`` deals, lists the contract's
legal integers, plays them and encodes a seat's observation exactly as the game's encoder
encodes ``view(seat)`` (each core's differential tests hold it to the Python engine and
encoder), so an environment stepped through it gives the numbers it gives through the
contract, at the core's speed. The contract state of a match is made only when asked for
(rendering, ``sengoku_state``): a copy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np

from sengoku.core.game import Game, Outcome, State
from sengoku.core.observation import Encoder


class NativeMatch(Protocol):
    """A position in a native core (the calls the adapters make)."""

    @property
    def current_player(self) -> int:
        """The seat to act (``TERMINAL`` once over)."""
        ...

    def legal_ints(self) -> list[int]:
        """The legal action integers, ascending (a new list)."""
        ...

    def apply(self, action: int) -> Any:
        """Play the legal integer ``action`` (the adapters pass only integers of
        :meth:`legal_ints`; an illegal one changes nothing: Gungi's and Gunkimono's cores answer False,
        Sashimono's raises ValueError)."""
        ...

    def is_terminal(self) -> bool: ...

    def clone(self) -> Any: ...


class NativePlay(Protocol):
    """A game's native matches with fixed options."""

    #: ``make(legal, num_actions)``: a new int8 action mask, 1 at the legal integers
    #: ``legal``, made by the core (for a wide action space: Gungi's); None where the
    #: adapters' own ``mask_of`` makes them.
    mask_of: Callable[[list[int], int], np.ndarray] | None

    #: How an observation made now keeps its tensor until read: None, the tensor itself
    #: (:meth:`observe`, encoded by the core at once); or an encoder whose
    #: ``capture(match, seat)`` is a small record of it taken now and whose ``encode`` makes
    #: the tensor from that record when read (Gungi's: a few hundred bytes where its planes
    #: are 38,880, and an agent that reads only the mask never pays for them).
    captures: Encoder | None

    def deal(self, seed: int) -> NativeMatch:
        """A new match, as ``new_state(seed=seed, **options)`` deals it."""
        ...

    def load(self, state: State) -> NativeMatch:
        """A match holding ``state``'s position (a copy)."""
        ...

    def state_of(self, match: NativeMatch) -> State:
        """The contract state of ``match``'s position (a copy)."""
        ...

    def outcome(self, match: NativeMatch) -> Outcome | None:
        """The outcome of a finished match (None while it goes on)."""
        ...

    def observe(self, match: NativeMatch, seat: int) -> np.ndarray:
        """A new float32 array: the game's encoder's observation of ``view(seat)``."""
        ...

    def observe_into(self, match: NativeMatch, seat: int | None, out: np.ndarray) -> None:
        """The same observation written into ``out`` (C-contiguous float32 of the encoder's
        size, overwritten); ``seat`` None: a spectator's."""
        ...


class CorePlay:
    """A :class:`NativePlay` over a game's pybind11 core whose ``Match`` has the shape the
    three contract games' cores share (``deal``, ``load_json``/``to_json``, ``legal_ints``,
    ``apply``, ``outcome`` as ``Outcome.to_json()``, ``encode(encoding, seat, out)``): each
    game's ``native_play`` makes one with its own match factory, deal and encoding."""

    __slots__ = ("game", "options", "_new_match", "_deal", "_load", "_encoding", "_size")

    #: The adapters make these cores' masks (their action spaces are narrow).
    mask_of: Callable[[list[int], int], np.ndarray] | None = None
    #: Their observations are small: each is encoded when made.
    captures: Encoder | None = None

    def __init__(
        self,
        game: Game,
        options: Mapping[str, Any],
        new_match: Callable[[], Any],
        deal: Callable[[Any, int], None],
        load: Callable[[State], Any],
        encoding: Any,
    ) -> None:
        self.game = game
        self.options = dict(options)
        #: A new, empty match of these options (the core's ``Match(rules)``).
        self._new_match = new_match
        #: Deals a match as ``new_state(seed=seed)`` deals (the core's ``deal``).
        self._deal = deal
        #: A match holding a contract state's position (``to_json`` read by the core).
        self._load = load
        self._encoding = encoding
        self._size = int(encoding.size)

    def deal(self, seed: int) -> Any:
        match = self._new_match()
        self._deal(match, seed)
        return match

    def load(self, state: State) -> Any:
        if dict(state.options) != self.options:
            raise ValueError(f"a state of other options: {state.options}, not {self.options}")
        return self._load(state)

    def state_of(self, match: Any) -> State:
        return self.game.state_from_json(match.to_json())

    def outcome(self, match: Any) -> Outcome | None:
        data = match.outcome()
        return None if data is None else Outcome.from_json(data)

    def observe(self, match: Any, seat: int) -> np.ndarray:
        out = np.empty(self._size, dtype=np.float32)
        match.encode(self._encoding, seat, out)
        return out

    def observe_into(self, match: Any, seat: int | None, out: np.ndarray) -> None:
        match.encode(self._encoding, -1 if seat is None else seat, out)


__all__ = ["CorePlay", "NativeMatch", "NativePlay"]
