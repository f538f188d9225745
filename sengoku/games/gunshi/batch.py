"""N Gunshi games stepped at once in the native core, for research: numpy legal masks and
observations with the contract's numbers.

The batch contract of :mod:`sengoku.core.batch` (``ContractBatch``'s numbers, action for
action): the actions are ``Gunshi.action_to_int``'s integers, the observations
``GunshiEncoder``'s of ``view(seat)``, float32, from the seat to act (or the seats given).
The games live in the native core (``native_core.py``), which sets each up as the Python
setup does for ``new_state(seed=...)`` (the same draws of the same generator) and plays,
lists and encodes it::

    batch = GunshiBatch(variant="inspiration")
    batch.reset(64, seed=1)
    while not batch.done().all():
        batch.step(batch.random_actions())
    batch.returns()                               # (64, 2) float32

A finished game stays finished (its action is ignored) until :meth:`reset` or
:meth:`reset_game`. An illegal action raises :class:`~sengoku.core.game.IllegalAction`
naming the game, and nothing in the batch changes: every action is looked up first.
"""

from __future__ import annotations

from typing import Any

import sengoku.games.gunshi.native_core as native_core
from sengoku.core.native_batch import CoreBatch
from sengoku.games.gunshi.encoder import GunshiEncoder
from sengoku.games.gunshi.game import Gunshi


class GunshiBatch(CoreBatch):
    """``n`` Gunshi games with the same options, stepped together in the native core
    (:class:`~sengoku.core.native_batch.CoreBatch`)."""

    def __init__(self, game: Gunshi | None = None, **options: Any) -> None:
        game = game if game is not None else Gunshi()
        options = game.resolve_options(**options)
        core = native_core.module()  # raises, saying why, without the core
        limit = native_core.length_limit(game, options)
        batch = core.Batch(native_core.rules(options, limit), native_core.encoding())
        super().__init__(game, options, batch, GunshiEncoder(), 2)


__all__ = ["GunshiBatch"]
