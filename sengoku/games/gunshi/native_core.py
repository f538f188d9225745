"""Gunshi's native core (C++, ``native/core.cpp``): the rules on the integer actions.

The core mirrors the Python engine (``state.py``'s turn and the rule modules) on the same
action integers (``GunshiAction.to_int``) and the same position: a native ``Match`` takes a
state as ``GunshiState.to_json`` writes it (hidden cards, the Shogun and the opponent's
knowledge bags included) and gives it back the same way, so ``GunshiState.from_json`` reads
a position the core played. Nothing of the game's data is typed again in C++: the Rules
handed to it are built here from ``data.py`` (``cards.json``, ``units.json``,
``presets.json``), the board's geometry and the action blocks of ``actions.py``.

A match starts from a state's JSON, or is set up by the core as ``GunshiState.setup`` sets
it up: the same deck, variant and preset, and Modification 1's ``random.sample`` of the
Advanced cards from the same ``random.Random(seed)`` (the core runs CPython's Mersenne
Twister from the seed's words, :func:`seed_key`). Events, views and notation stay in Python:
the core answers what a batch of games asks every ply (the legal integers, a decision
played, whether the game is over and its outcome, and ``GunshiEncoder``'s observation of a
seat's view, from the encoder's layout handed to it as an Encoding: :func:`encoding`).
``batch.py`` keeps a batch's games in it.

Of the options, ``time_control`` changes no rule: the core reads it only for the encoder's
"whose tournament clock runs" entries (``tournament_clock.tournament_seat``); the clock
itself is the server's.

``SENGOKU_PURE_PYTHON=1`` in the environment sets the core aside; without the built
extension importing this module warns once (a RuntimeWarning), :func:`native_available` is
False and :data:`UNAVAILABLE_REASON` says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from sengoku.core.game import State
from sengoku.core.native_module import NativeCore, length_limit
from sengoku.core.native_play import CorePlay
from sengoku.core.python_random import seed_key
from sengoku.games.gunshi.actions import NUM_ACTIONS, OFFSET
from sengoku.games.gunshi.data import (
    BASIC_DECK,
    CARD_CODES,
    CARDS,
    DECKS,
    EDGE_CELLS,
    EDGE_OF,
    FENCE_COST,
    FENCES_PER_PLAYER,
    FORMATIONS,
    HAND_SIZE,
    HOME,
    INVADERS_TO_WIN,
    LIGHTNING_COST,
    NEIGHBOUR,
    REVIEW_GAIN,
    ROW_LIMIT,
    SCOUT_COSTS,
    STARTING_POINTS,
    TOKEN_TYPE,
    UNITS,
    advanced_codes,
    agreed_cards,
)
from sengoku.games.gunshi.fences import FORMATION_CANDIDATES

if TYPE_CHECKING:
    from sengoku.games.gunshi.encoder import GunshiEncoder
    from sengoku.games.gunshi.game import Gunshi
    from sengoku.games.gunshi.state import GunshiState

_CORE = NativeCore("sengoku.games.gunshi._gunshi_native", "Gunshi")
#: Why the native core is not in use (None when it is).
UNAVAILABLE_REASON: str | None = _CORE.unavailable_reason

#: The unit types in the order of the ``place`` actions and the encoder (``"IAC"``).
TYPE_ORDER = "IAC"
_SETS = ("basic", "rikutoh", "sanryaku")


def native_available() -> bool:
    """Whether Gunshi's native core is built and in use."""
    return _CORE.available()


def module() -> Any:
    """The compiled extension module (raises, saying why, when it is not available)."""
    return _CORE.loaded()


def deck_pool(options: Mapping[str, Any]) -> list[str]:
    """``custom_deck.deck_pool`` of a state with these options (which it reads alone): the
    cards a custom deck may hold. Written from the options here, since the compiled rule
    takes a state only; tests/gunshi/test_native_core.py holds the two together."""
    sets = {"basic", "rikutoh"} | ({"sanryaku"} if options["sanryaku"] else set())
    return [c.code for c in CARDS.values() if c.set in sets]


def _deck(options: Mapping[str, Any]) -> list[str]:
    """The deck each player starts with, as ``GunshiState.setup`` chooses it."""
    preset = options["preset"]
    if preset in DECKS:
        return list(DECKS[preset])
    if options["custom_selection"] == "agreed" and options["variant"] == "custom":
        return list(agreed_cards(options["agreed_deck"]))
    return list(BASIC_DECK)


def _formation(options: Mapping[str, Any]) -> dict[str, Any] | None:
    preset = FORMATIONS.get(options["preset"])
    if preset is None:
        return None
    return {
        "public_cards": preset.public_cards,
        "sides": [
            {
                "units": [[TYPE_ORDER.index(t), cell, face] for t, cell, face in side.units],
                "fences": list(side.fences),
                "hand": list(side.hand),
                "deck": list(side.deck),
                "cost": side.cost,
            }
            for side in preset.sides
        ],
    }


def rules_spec(options: Mapping[str, Any], length_limit: int) -> dict[str, Any]:
    """What the core's Rules are made of, for a match with these resolved options
    (``Gunshi.resolve_options``): the data files' tables, the board's geometry, the action
    blocks, the setup's deck and preset, and the length guard's limit."""
    inside = options["formation_fences"] == "inside_home"
    return {
        "options": dict(options),
        "offsets": dict(OFFSET),
        "num_actions": NUM_ACTIONS,
        "codes": list(CARD_CODES),
        "copies": [CARDS[c].copies for c in CARD_CODES],
        "costs": [CARDS[c].cost for c in CARD_CODES],
        "sets": [_SETS.index(CARDS[c].set) for c in CARD_CODES],
        "lightning_cost": LIGHTNING_COST,
        "review_gain": REVIEW_GAIN,
        "hand_size": HAND_SIZE,
        "row_limit": ROW_LIMIT,
        "scout_commands": SCOUT_COSTS["commands"],
        "scout_shogun": SCOUT_COSTS["shogun"],
        "token_types": [TYPE_ORDER.index(t) for t in TOKEN_TYPE],
        "unit_costs": [UNITS[t].cost for t in TYPE_ORDER],
        "en_route_costs": [UNITS[t].en_route_cost for t in TYPE_ORDER],
        "unit_shields": [UNITS[t].shield for t in TYPE_ORDER],
        "fences_per_player": FENCES_PER_PLAYER,
        "fence_cost": FENCE_COST,
        "starting_points": STARTING_POINTS,
        "invaders_to_win": INVADERS_TO_WIN,
        "neighbour": [list(n) for n in NEIGHBOUR],
        "edge_of": [list(e) for e in EDGE_OF],
        "edge_cells": [list(e) for e in EDGE_CELLS],
        "home": [sorted(h) for h in HOME],
        "formation_edges": [list(e) for e in FORMATION_CANDIDATES[inside]],
        "length_limit": length_limit,
        "deck": _deck(options),
        "advanced": list(advanced_codes(bool(options["sanryaku"]))),
        "pool": deck_pool(options),
        "formation": _formation(options),
    }


def rules(options: Mapping[str, Any], length_limit: int) -> Any:
    """The core's Rules for these resolved options and length limit (made once each)."""
    return _CORE.rules(rules_spec, options, length_limit)


def encoding_spec(encoder: GunshiEncoder) -> dict[str, Any]:
    """What the core's Encoding is made of: ``encoder``'s layout (its blocks' offsets and
    sizes), its turned edges, and its names (the core checks them against its own)."""
    return {
        "size": int(encoder.shape[0]),
        "num_cards": encoder.num_cards,
        "offsets": dict(encoder.offsets),
        "side_size": encoder.side_size,
        "cell": encoder.CELL,
        "pile": encoder.PILE,
        "row": encoder.ROW,
        "queue_len": encoder.QUEUE,
        "edge_of": [list(e) for e in encoder.edge_of],
        "phases": list(encoder.PHASES),
        "steps": list(encoder.STEPS),
        "cmd_types": list(encoder.CMD_TYPES),
        "cmd_steps": list(encoder.CMD_STEPS),
        "modes": list(encoder.MODES),
        "rapid": list(encoder.RAPID),
    }


_ENCODING: list[Any] = []


def encoding() -> Any:
    """The core's Encoding of ``GunshiEncoder`` (made once)."""
    if not _ENCODING:
        from sengoku.games.gunshi.encoder import GunshiEncoder

        _ENCODING.append(module().Encoding(encoding_spec(GunshiEncoder())))
    return _ENCODING[0]


def match_of(state: GunshiState) -> Any:
    """A native match holding ``state``'s position (hidden parts included)."""
    game = cast("Gunshi", state.game)
    match = module().Match(rules(state.options, length_limit(game, state.options)))
    match.load_json(state.to_json())
    return match


def new_match(game: Gunshi, seed: int, **options: Any) -> Any:
    """A native match set up as ``game.new_state(seed=seed, **options)``."""
    resolved = game.resolve_options(**options)
    match = module().Match(rules(resolved, length_limit(game, resolved)))
    match.deal(seed_key(seed), seed)
    return match


def state_of(game: Gunshi, match: Any) -> GunshiState:
    """The Python state of a native match's position (``GunshiState.from_json``)."""
    return game.state_from_json(match.to_json())


def native_play(game: Gunshi, options: Mapping[str, Any]) -> CorePlay:
    """Gunshi's :class:`~sengoku.core.native_play.NativePlay` for ``options`` (resolved):
    native matches for the research adapters (``Gunshi.native_play``)."""
    resolved = dict(options)
    made = rules(resolved, length_limit(game, resolved))

    def deal(match: Any, seed: int) -> None:
        match.deal(seed_key(seed), seed)

    def load(state: State) -> Any:
        return match_of(cast("GunshiState", state))

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
    "new_match",
    "rules",
    "rules_spec",
    "seed_key",
    "state_of",
]
