"""Observation tensors of a fixed shape, built only from ``view(seat)``.

Every research adapter (OpenSpiel, PettingZoo, Gymnasium) turns what a seat may see into a
numeric array through an :class:`Encoder`. An encoder reads the JSON-ready dict that
``State.view(seat)`` returns and nothing else, so a tensor can never carry more than the
seat is allowed to know.

* :class:`GungiEncoder` - board planes per tier, owner and piece kind, plus hand counts and
  the flags of the position, from the observing seat's side of the board.
* :class:`JsonBytesEncoder` - the generic fallback for games without their own encoder: the
  canonical JSON of the view (sorted keys, no spaces), as UTF-8 bytes, zero-padded to a fixed
  length. It is lossless (two different views never give the same tensor) but a learner has
  to find the structure itself; games gain their own encoder as they need one.

:func:`encoder_for` picks the encoder of a game and its options.
"""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from sengoku.core.game import Action, Game, SengokuError, State


class Encoder(ABC):
    """Turns ``view(seat)`` into a float32 array of the fixed shape ``shape``.

    ``low`` and ``high`` bound every entry (the adapters' observation spaces use them).
    """

    shape: tuple[int, ...]
    low: float = 0.0
    high: float = 1.0

    @abstractmethod
    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        """Fill ``out`` (zeroed, of ``shape``) from the view of ``seat``."""

    def encode(self, view: Mapping[str, Any], seat: int | None) -> np.ndarray:
        out = np.zeros(self.shape, np.float32)
        self.encode_into(view, seat, out)
        return out

    def describe(self) -> str:
        """One line for documentation and error messages."""
        return f"{type(self).__name__} {self.shape}"


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


class GungiEncoder(Encoder):
    """Gungi planes, ``(CHANNELS, 9, 9)``, from the observing seat's side of the board.

    The board is turned so that the observer's forward is towards row index 0 (White as
    printed, Black rotated by 180 degrees); a spectator (``seat`` None) sees White's side.
    "Own" is the observer's colour (White for a spectator). Channels:

    * ``0 .. 83``: one plane per tier (1-3), owner (own, opponent) and piece kind (14, in
      ``pieces.json`` order): 1 where that piece stands at that tier;
    * ``84 .. 111``: hand counts per owner and kind, the count repeated over the plane;
    * ``112``: 1 when the observer is to act; ``113``: 1 during the setup phase;
      ``114``/``115``: own / opponent still placing in the setup;
      ``116``/``117``: own / opponent Marshal capturable; ``118``: 1 when the observer plays
      Black; ``119``: the ply divided by ``max_game_length`` (the length guard comes closer).

    Faithful: everything in the view except the FEN (which repeats the board, hands and side
    to move) and the outcome (terminal states have no decision to make) is in the planes.
    """

    TIERS = 3

    def __init__(self, max_game_length: int) -> None:
        from sengoku.games.gungi.pieces import PIECES

        self.kinds = {p.name: p.kind for p in PIECES}
        # A hand never holds more of a kind than the set has (4 Pawns).
        self.high = float(max(p.count for p in PIECES))
        self.num_kinds = len(PIECES)
        k = self.num_kinds
        self.hand_base = self.TIERS * 2 * k
        self.flags_base = self.hand_base + 2 * k
        self.channels = self.flags_base + 8
        self.shape = (self.channels, 9, 9)
        self.max_game_length = max_game_length
        # "c-r" square names -> (row, col) in the tensor, for White's and Black's side.
        self.squares: tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]] = ({}, {})
        for col in range(1, 10):
            for row in range(1, 10):
                x, y = 9 - col, row - 1
                self.squares[0][f"{col}-{row}"] = (y, x)
                self.squares[1][f"{col}-{row}"] = (8 - y, 8 - x)

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        me = 1 if seat == 1 else 0
        own_color = ("white", "black")[me]
        squares = self.squares[me]
        k = self.num_kinds
        kinds = self.kinds
        for entry in view["board"]:
            r, c = squares[entry["square"]]
            for tier, piece in enumerate(entry["tower"]):
                owner = 0 if piece["color"] == own_color else 1
                out[tier * 2 * k + owner * k + kinds[piece["piece"]], r, c] = 1.0
        for color, hand in view["hands"].items():
            owner = 0 if color == own_color else 1
            for name, count in hand.items():
                out[self.hand_base + owner * k + kinds[name]] = count
        f = self.flags_base
        to_move = view["to_move"]
        if view["current_player"] >= 0 and to_move == own_color:
            out[f] = 1.0
        if view["phase"] == "setup":
            out[f + 1] = 1.0
        for color in view["drafting"]:
            out[f + 2 + (0 if color == own_color else 1)] = 1.0
        capturable = view["marshal_capturable"]
        if capturable[me]:
            out[f + 4] = 1.0
        if capturable[1 - me]:
            out[f + 5] = 1.0
        if me == 1:
            out[f + 6] = 1.0
        out[f + 7] = min(1.0, view["ply"] / self.max_game_length)


def legal_table(game: Game, state: State) -> dict[int, Action]:
    """The legal actions of ``state`` by their integers (ascending, as the contract lists them)."""
    legal = state.legal_actions()
    to_int = functools.partial(game.action_to_int, state)
    return dict(zip(map(to_int, legal), legal, strict=True))


#: Game name -> factory of its encoder from the game and its resolved options.
ENCODERS: dict[str, Callable[[Game, Mapping[str, Any]], Encoder]] = {
    "gungi": lambda game, options: GungiEncoder(game.max_game_length(**options)),
}

#: Bytes of JSON the generic encoder keeps, per game (views grow with the game).
JSON_SIZES: dict[str, int] = {"gunkimono": 8192, "gunshi": 8192, "sashimono": 8192}
DEFAULT_JSON_SIZE = 16384


def encoder_for(game: Game, options: Mapping[str, Any], obs_size: int | None = None) -> Encoder:
    """The encoder of ``game`` with ``options``: its own, else the lossless JSON bytes.

    ``obs_size`` sets the length of the generic encoder (ignored by a game's own encoder).
    """
    resolved = game.resolve_options(**options)
    factory = ENCODERS.get(game.name)
    if factory is not None:
        return factory(game, resolved)
    size = obs_size or JSON_SIZES.get(game.name, DEFAULT_JSON_SIZE)
    return JsonBytesEncoder(game.name, size)


__all__ = [
    "ENCODERS",
    "Encoder",
    "GungiEncoder",
    "JsonBytesEncoder",
    "canonical_json",
    "encoder_for",
    "legal_table",
]
