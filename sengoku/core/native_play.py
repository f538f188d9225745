"""One game played in a game's native core, for the research adapters.

A game with a native C++ core (Gunkimono's, Sashimono's; see ``docs/architecture.md``) can hand the
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

from typing import Any, Protocol

import numpy as np

from sengoku.core.game import Outcome, State


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
        :meth:`legal_ints`; an illegal one changes nothing: Gunkimono's core answers False,
        Sashimono's raises ValueError)."""
        ...

    def is_terminal(self) -> bool: ...

    def clone(self) -> Any: ...


class NativePlay(Protocol):
    """A game's native matches with fixed options."""

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


__all__ = ["NativeMatch", "NativePlay"]
