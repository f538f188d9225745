"""Gunkimono's native core (C++, ``native/core.cpp``): the rules on the integer actions.

The core mirrors the Python engine (``state.py``'s turn and the rule modules) on the same
action integers (``Gunkimono.action_to_int``) and the same position: a native ``Match``
takes a state as ``GunkimonoState.to_json`` writes it and gives it back the same way, so
``GunkimonoState.from_json`` reads a position the core played. Nothing of the game's data
is typed again in C++: the Rules handed to it are built here from ``data.components()``
and the rule modules' tables (the battlefield's squares, neighbours and places, the honor
track's rows for the player count, the action blocks, the phase names).

A match starts from a state's JSON, or is dealt by the core as ``setup.py`` deals it: the
same shuffles of the same ``random.Random(seed)`` (the core runs CPython's Mersenne Twister
from the seed's words, :func:`seed_key`), the data (tiles, banners, how many tiles are removed
or dealt) handed in with the Rules. Events, views and notation stay in Python too: the core answers what a batch of
games asks every ply (the legal integers, a decision played, whether the game is over and
its outcome, and ``GunkimonoEncoder``'s observation of a seat's view, from the encoder's
layout and tables handed to it as an Encoding: :func:`encoding`). ``batch.py`` keeps a
batch's games in it.

``SENGOKU_PURE_PYTHON=1`` in the environment sets the core aside; without the built
extension :func:`native_available` is False and :data:`UNAVAILABLE_REASON` says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import sengoku.games.gunkimono.setup as setup
from sengoku.core.game import State
from sengoku.core.native_module import NativeCore, length_limit
from sengoku.core.native_play import CorePlay
from sengoku.core.python_random import seed_key
from sengoku.games.gunkimono.actions import (
    DRAW_BASE,
    NUM_ACTIONS,
    SCORE_BASE,
    SMALL_BASE,
    STRONGHOLD_BASE,
    SUPPORT_BASE,
)
from sengoku.games.gunkimono.battlefield import HEIGHT, NEIGHBOURS, PAIRS, WIDTH
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.turn_sequence import PHASES

if TYPE_CHECKING:
    from sengoku.games.gunkimono.encoder import GunkimonoEncoder
    from sengoku.games.gunkimono.game import Gunkimono
    from sengoku.games.gunkimono.state import GunkimonoState

_CORE = NativeCore("sengoku.games.gunkimono._gunkimono_native", "Gunkimono")
#: Why the native core is not in use (None when it is).
UNAVAILABLE_REASON: str | None = _CORE.unavailable_reason


def native_available() -> bool:
    """Whether Gunkimono's native core is built and in use."""
    return _CORE.available()


def module() -> Any:
    """The compiled extension module (raises, saying why, when it is not available)."""
    return _CORE.loaded()


def rules_spec(options: Mapping[str, Any], length_limit: int) -> dict[str, Any]:
    """What the core's Rules are made of, for a match with these resolved options
    (``Gunkimono.resolve_options``): the components, the tables and the rulings, and the
    length guard's limit (``Game.max_game_length``: a guard, not a rule)."""
    c = components()
    players = int(options["players"])
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "players": players,
        "printed": list(c.printed),
        "neighbours": [list(nb) for nb in NEIGHBOURS],
        "pairs": [list(p) for p in PAIRS],
        "ending_row": c.ending_row[players],
        "stronghold_rows": list(c.stronghold_rows[players]),
        "small_symbols": c.small_symbols,
        "large_tiles": list(c.large_tiles),
        "removed_tiles": setup.REMOVED_TILES.get(players, 0),
        "end_stack_tiles": setup.END_STACK_TILES,
        "row_tiles": setup.ROW_TILES,
        "hand_tiles": setup.HAND_TILES,
        "banner_values": [list(values) for values in c.banner_values],
        "banner_min_players": list(c.banner_min_players),
        "own_double_stronghold": bool(options["own_double_stronghold"]),
        "empty_banner_stay": options["empty_banner_stack"] == "stay",
        "removed_marker_counts": bool(options["removed_marker_counts"]),
        "end_tile_replacement": bool(options["end_tile_replacement"]),
        "link_own_formations": bool(options["link_own_formations"]),
        "length_limit": length_limit,
        "small_base": SMALL_BASE,
        "support_base": SUPPORT_BASE,
        "score_base": SCORE_BASE,
        "stronghold_base": STRONGHOLD_BASE,
        "draw_base": DRAW_BASE,
        "num_actions": NUM_ACTIONS,
        "phases": list(PHASES),
        "options": dict(options),
    }


def rules(options: Mapping[str, Any], length_limit: int) -> Any:
    """The core's Rules for these resolved options and length limit (made once each)."""
    return _CORE.rules(rules_spec, options, length_limit)


def encoding_spec(encoder: GunkimonoEncoder) -> dict[str, Any]:
    """What the core's Encoding is made of: ``encoder``'s layout (its blocks' offsets and
    sizes) and its tables from the state's integers to its entries."""
    return {
        "size": int(encoder.shape[0]),
        "offsets": dict(encoder.offsets),
        "cell": encoder.CELL,
        "tile": encoder.TILE,
        "codes": encoder.CODES,
        "slots": encoder.SLOTS,
        "troops": encoder.troops,
        "kinds": len(encoder.banner_kinds),
        "player_size": encoder.player_size,
        "top_entry": list(encoder.top_entry),
        "code_entry": list(encoder.code_entry),
        "row_entry": [list(entry) for entry in encoder.row_entry],
        "troop_entry": list(encoder.troop_entry),
        "kind_entry": list(encoder.kind_entry),
        "column_entry": list(encoder.column_entry),
        "cell_entry": list(encoder.cell_entry),
        "phases": list(encoder.PHASES),
    }


_ENCODING: list[Any] = []


def encoding() -> Any:
    """The core's Encoding of ``GunkimonoEncoder`` (made once)."""
    if not _ENCODING:
        from sengoku.games.gunkimono.encoder import GunkimonoEncoder

        _ENCODING.append(module().Encoding(encoding_spec(GunkimonoEncoder())))
    return _ENCODING[0]


def match_of(state: GunkimonoState) -> Any:
    """A native match holding ``state``'s position (hidden parts included)."""
    game = cast("Gunkimono", state.game)
    match = module().Match(rules(state.options, length_limit(game, state.options)))
    match.load_json(state.to_json())
    return match


def state_of(game: Gunkimono, match: Any) -> GunkimonoState:
    """The Python state of a native match's position (``GunkimonoState.from_json``)."""
    return game.state_from_json(match.to_json())


def native_play(game: Gunkimono, options: Mapping[str, Any]) -> CorePlay:
    """Gunkimono's :class:`~sengoku.core.native_play.NativePlay` for ``options`` (resolved):
    native matches for the research adapters (``Gunkimono.native_play``)."""
    resolved = dict(options)
    made = rules(resolved, length_limit(game, resolved))

    def deal(match: Any, seed: int) -> None:
        match.deal(seed_key(seed))

    def load(state: State) -> Any:
        return match_of(cast("GunkimonoState", state))

    return CorePlay(game, resolved, lambda: module().Match(made), deal, load, encoding())


__all__ = [
    "UNAVAILABLE_REASON",
    "native_play",
    "encoding",
    "encoding_spec",
    "length_limit",
    "match_of",
    "module",
    "native_available",
    "rules",
    "rules_spec",
    "seed_key",
    "state_of",
]
