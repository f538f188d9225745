"""Seeded random games of Sashimono reduced to digests, ply by ply: what the contract shows.

``tools/record_sashimono_games.py`` writes :data:`RECORDING` once, from the engine as it was
before a change that must not change what the contract shows (a speed-up: issue 43);
``test_recorded_games.py`` plays the same games again and compares. Every ply is reduced to
short digests of each thing a caller sees:

* ``turn``: the seat to play, the legal actions (integer, notation, short form, repr) in
  their order, the action chosen;
* ``events``: the events ``apply`` returned (the dicts, English texts and ``say`` parts);
* ``state``: the position's saved form after the ply;
* ``views``: each seat's view and a spectator's, the observation encoder's snapshot of each,
  and the terminal drawing each sees (hidden information);
* ``world``: a world determinized for the seat to play (seeded) and its legal actions;
* ``end``: whether the game is over, who plays next, the result and the VP.

A whole game also gets one full SHA-256 of all of it, so that a short digest colliding by
chance cannot hide a difference.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from sengoku.games.sashimono.game import Sashimono
from sengoku.games.sashimono.snapshot import snapshot
from sengoku.games.sashimono.state import SashimonoState

RECORDING = Path(__file__).resolve().parent / "data" / "recorded_games.json"

#: The parts of a ply, in the order of their digests.
PARTS = ("turn", "events", "state", "views", "world", "end")
#: Hex digits kept of each part's digest.
SHORT = 6

#: Every option of the game: both modes, both solo armies, each solo challenge alone and all
#: together, the VP to win from the smallest to the largest, the card set named.
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"vp": 1},
    {"vp": 2},
    {"vp": 5},
    {"vp": 9},
    {"cards": "sengoku"},
    {"mode": "solo"},
    {"mode": "solo", "army": "east"},
    {"mode": "solo", "vp": 1},
    {"mode": "solo", "vp": 9, "army": "east"},
    {"mode": "solo", "challenge_corners": True},
    {"mode": "solo", "army": "east", "challenge_six_sashimono": True},
    {"mode": "solo", "challenge_abilities": True},
    {"mode": "solo", "army": "east", "challenge_abilities": True},
    {"mode": "solo", "army": "east", "challenge_discard_five": True},
    {"mode": "solo", "challenge_fewer_kumi": True},
    {"mode": "solo", "army": "east", "challenge_train": True},
    {"mode": "solo", "challenge_train": True},
    {
        "mode": "solo",
        "vp": 4,
        "challenge_corners": True,
        "challenge_six_sashimono": True,
        "challenge_abilities": True,
        "challenge_discard_five": True,
        "challenge_fewer_kumi": True,
        "challenge_train": True,
    },
]
#: Games per option set (seeds ``100 * k + 1`` ...).
SEEDS = 3


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:SHORT]


def _views(state: SashimonoState) -> list[Any]:
    seats: list[int | None] = [*range(state.num_players), None]
    return [[state.view(s), snapshot(state, s), state.game.render_text(state, s)] for s in seats]


def play(game: Sashimono, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One seeded random game: its digests, ply by ply (the first "ply" is the setup), and
    checks that hold whatever was recorded: a clone made before the ply is untouched by it
    and plays it to the same events and position."""
    rng = random.Random(seed)
    state = game.new_state(seed, **options)
    whole = hashlib.sha256()
    plies: list[str] = []

    def record(parts: dict[str, Any]) -> None:
        texts = [_dump(parts[name]) for name in PARTS]
        for text in texts:
            whole.update(text.encode())
        plies.append(".".join(_digest(text) for text in texts))

    def end() -> list[Any]:
        result = state.outcome()
        return [
            state.is_terminal(),
            state.current_player,
            None if result is None else result.to_json(),
            list(state.interim_scores()),
        ]

    record({"turn": None, "events": None, "state": state.to_json(), "views": _views(state),
            "world": None, "end": end()})  # fmt: skip
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_actions()
        index = rng.randrange(len(legal))
        before = state.to_json()
        twin = state.clone()
        world = state.determinize(seat, random.Random(seed * 7919 + len(plies)))
        events = state.apply(legal[index])
        after = state.to_json()
        # The clone shares nothing the ply changed, and plays the ply the same way.
        assert twin.to_json() == before, f"options {options}, seed {seed}: a clone changed"
        assert twin.apply(legal[index]) == events
        assert twin.to_json() == after
        record({
            "turn": [seat, [[int(a), a.text, a.short, repr(a)] for a in legal], index],
            "events": events,
            "state": after,
            "views": _views(state),
            "world": [world.to_json(), [int(a) for a in world.legal_actions()]],
            "end": end(),
        })  # fmt: skip
    return {"options": options, "seed": seed, "sha256": whole.hexdigest(), "plies": plies}


def play_all() -> list[dict[str, Any]]:
    game = Sashimono()
    return [
        play(game, options, 100 * k + n + 1)
        for k, options in enumerate(OPTION_SETS)
        for n in range(SEEDS)
    ]
