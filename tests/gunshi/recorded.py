"""Seeded random Gunshi games reduced to digests, for comparing an engine with a recording.

``tools/record_gunshi_games.py`` writes the digests of the engine as it was (the recording
in ``tests/gunshi/data/recorded_games.json``); ``test_recorded_games.py`` plays the same games
with the engine as it is and requires the same digests. Everything a player or program can
observe through the contract goes in, ply by ply: the legal actions in their order, the action
drawn, the events (their JSON with its key order: the same dicts and the same texts), the
position's ``to_json()``, each seat's and a spectator's view, and the result. Every 40 plies
a clone plays a few plies of its own (another draw of actions), which must leave the original
unchanged; the clone's plies are digested too.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from sengoku.core.registry import load_game

#: Every variant, modification and deck selection, the presets, the tournament clock and
#: every rule choice (as tests/gunshi/test_compiled_engine.py's option sets).
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"preset": "first_battle"},
    {"preset": "advanced_2"},
    {"variant": "custom", "preset": "fire_at_will"},
    {"variant": "inspiration", "modification": 1},
    {"variant": "inspiration", "modification": 2, "sanryaku": True},
    {"variant": "inspiration", "modification": 3},
    {"variant": "custom", "sanryaku": True},
    {"variant": "custom", "custom_selection": "secret"},
    {"variant": "custom", "custom_selection": "alternate_all", "move_up_for_selection": True},
    {"variant": "custom", "custom_selection": "agreed", "agreed_deck": "wave_after_wave"},
    {
        "time_control": "tournament",
        "fence_diagonal": "front_cell_sides",
        "formation_fences": "inside_home",
        "invasion_zone": "centre_three",
    },
    {
        "shoot_block": "any_crossed",
        "shield_hit_breaks_fences": True,
        "shield_hit_facing": "keep",
        "lightning_alone_resupply": 1,
        "logistics_cap": 20,
    },
]
SEEDS = (0, 1, 2)
#: A digest is kept every this many plies, so a difference is found near where it begins.
CHECKPOINT = 25


def _text(value: Any) -> bytes:
    # Key order kept (no sort_keys): an event or a position whose keys moved is a change.
    return json.dumps(value, default=repr).encode()


def play(options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One seeded random game's digests: a running SHA-256 over every ply, checkpointed."""
    game = load_game("gunshi")
    rng = random.Random(seed)
    side = random.Random(seed + 1000)
    state = game.new_state(seed=seed, **options)
    digest = hashlib.sha256(_text(state.to_json()))
    checkpoints: list[str] = []
    plies = 0

    def ply(s: Any, chooser: random.Random) -> None:
        legal = s.legal_actions()
        action = chooser.choice(legal)
        events = s.apply(action)
        digest.update(_text([str(a) for a in legal]))
        digest.update(_text(str(action)))
        digest.update(_text(events))
        digest.update(_text(s.to_json()))
        for seat in (None, 0, 1):
            digest.update(_text(s.view(seat)))
        digest.update(_text([s.current_player, s.is_terminal()]))

    while not state.is_terminal():
        ply(state, rng)
        plies += 1
        if plies % 40 == 0 and not state.is_terminal():
            before = state.to_json()
            copy = state.clone()
            for _ in range(5):
                if copy.is_terminal():
                    break
                ply(copy, side)
            if state.to_json() != before:
                raise AssertionError(f"{options}, seed {seed}: a clone's plies changed ply {plies}")
        if plies % CHECKPOINT == 0:
            checkpoints.append(digest.hexdigest()[:16])
    outcome = state.outcome()
    return {
        "options": options,
        "seed": seed,
        "plies": plies,
        "checkpoints": checkpoints,
        "digest": digest.hexdigest(),
        "result": None if outcome is None else outcome.to_json(),
    }


def play_all() -> list[dict[str, Any]]:
    return [play(options, seed) for options in OPTION_SETS for seed in SEEDS]
