"""N Gunkimono games stepped at once in the native core, for research: numpy legal masks and
observations with the contract's numbers.

The batch contract of :mod:`sengoku.core.batch` (``ContractBatch``'s numbers, action for
action): the actions are ``Gunkimono.action_to_int``'s integers, the observations
``GunkimonoEncoder``'s of ``view(seat)``, float32, from the seat to act (or the seats given).
The games live in the native core (``native_core.py``), which deals each as the Python
setup deals ``new_state(seed=...)`` (the same shuffles of the same generator) and plays,
lists and encodes it::

    batch = GunkimonoBatch(players=3)
    batch.reset(64, seed=1)
    while not batch.done().all():
        batch.step(batch.random_actions())
    batch.returns()                               # (64, 3) float32

A finished game stays finished (its action is ignored) until :meth:`reset` or
:meth:`reset_game`. An illegal action raises :class:`~sengoku.core.game.IllegalAction`
naming the game, and nothing in the batch changes: every action is looked up first.
"""

from __future__ import annotations

from typing import Any

import sengoku.games.gunkimono.native_core as native_core
from sengoku.core.native_batch import CoreBatch
from sengoku.games.gunkimono.encoder import GunkimonoEncoder
from sengoku.games.gunkimono.game import Gunkimono


class GunkimonoBatch(CoreBatch):
    """``n`` Gunkimono games with the same options, stepped together in the native core
    (:class:`~sengoku.core.native_batch.CoreBatch`)."""

    def __init__(self, game: Gunkimono | None = None, **options: Any) -> None:
        game = game if game is not None else Gunkimono()
        options = game.resolve_options(**options)
        core = native_core.module()  # raises, saying why, without the core
        limit = native_core.length_limit(game, options)
        batch = core.Batch(native_core.rules(options, limit), native_core.encoding())
        super().__init__(game, options, batch, GunkimonoEncoder(), int(options["players"]))


__all__ = ["GunkimonoBatch"]
