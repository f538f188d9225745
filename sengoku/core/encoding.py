"""The observation encoder of a game and options: the game's own, else a lossless fallback.

Every research adapter (OpenSpiel, PettingZoo, Gymnasium, the batched environments) turns
what a seat may see into a numeric array through an :class:`~sengoku.core.observation.Encoder`
that reads ``view(seat)`` and nothing else. :func:`encoder_for` picks the game's own
(``Game.observation_encoder``) or :class:`JsonBytesEncoder`, the canonical JSON of the view
as bytes. It lives in the core because ``Game.batch`` uses it; ``sengoku.interop.encoders``
re-exports it for the adapters.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from sengoku.core.game import Game, SengokuError
from sengoku.core.observation import Encoder


def canonical_json(view: Mapping[str, Any]) -> str:
    """The one spelling of a view: sorted keys, no white space, non-ASCII kept."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class JsonBytesEncoder(Encoder):
    """The view's canonical JSON as UTF-8 byte values, zero-padded to ``size`` entries.

    Faithful (injective) by construction: the JSON is the view, byte for byte. A view longer
    than ``size`` bytes raises a :class:`SengokuError` naming the game and the sizes, rather
    than being cut.
    """

    high = 255.0

    def __init__(self, game_name: str, size: int) -> None:
        self.game_name = game_name
        self.shape = (size,)

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        data = canonical_json(view).encode("utf-8")
        if len(data) > self.shape[0]:
            raise SengokuError(
                f"{self.game_name}: the view of seat {seat} is {len(data)} bytes of JSON, more "
                f"than the observation size {self.shape[0]}; pass a larger obs_size"
            )
        out[: len(data)] = np.frombuffer(data, np.uint8)


#: Bytes of JSON the generic encoder keeps (views grow with the game).
DEFAULT_JSON_SIZE = 16384


def encoder_for(game: Game, options: Mapping[str, Any], obs_size: int | None = None) -> Encoder:
    """The encoder of ``game`` with ``options``: its own, else the lossless JSON bytes.

    ``obs_size`` sets the length of the generic encoder (ignored by a game's own encoder).
    """
    resolved = game.resolve_options(**options)
    own = game.observation_encoder(**resolved)
    if own is not None:
        return own
    size = obs_size or DEFAULT_JSON_SIZE
    return JsonBytesEncoder(game.name, size)
