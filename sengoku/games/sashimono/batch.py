"""N Sashimono games stepped at once in the native core, for research: numpy legal masks and
observations with the contract's numbers.

The batch contract of :mod:`sengoku.core.batch` (``ContractBatch``'s numbers, action for
action): the actions are ``Sashimono.action_to_int``'s integers, the observations
``SashimonoEncoder``'s of ``capture(state, seat)``, float32, from the seat to act (or the
seats given). The games live in the native core (``native_core.py``), which deals each as
the Python setup deals ``new_state(seed=...)`` (the same shuffles of the same generator) and
plays, lists and encodes it, the duel and the solo game (whose Kagemusha answers its own
questions inside a step)::

    batch = SashimonoBatch(mode="solo")
    batch.reset(64, seed=1)
    while not batch.done().all():
        batch.step(batch.random_actions())
    batch.returns()                               # (64, 1) float32

A finished game stays finished (its action is ignored) until :meth:`reset` or
:meth:`reset_game`. An illegal action raises :class:`~sengoku.core.game.IllegalAction`
naming the game, and nothing in the batch changes: every action is looked up first.
"""

from __future__ import annotations

from typing import Any

import sengoku.games.sashimono.native_core as native_core
from sengoku.core.native_batch import CoreBatch
from sengoku.games.sashimono.encoder import SashimonoEncoder
from sengoku.games.sashimono.game import Sashimono


class SashimonoBatch(CoreBatch):
    """``n`` Sashimono games with the same options, stepped together in the native core
    (:class:`~sengoku.core.native_batch.CoreBatch`)."""

    def __init__(self, game: Sashimono | None = None, **options: Any) -> None:
        game = game if game is not None else Sashimono()
        options = game.resolve_options(**options)
        core = native_core.module()  # raises, saying why, without the core
        limit = native_core.length_limit(game, options)
        batch = core.Batch(
            native_core.rules(options, limit), native_core.encoding(options["cards"])
        )
        super().__init__(
            game,
            options,
            batch,
            SashimonoEncoder(options["cards"]),
            1 if options["mode"] == "solo" else 2,
        )


__all__ = ["SashimonoBatch"]
