"""Gunshi's engine compiled with mypyc and as plain Python play the same games, move by move.

setup.py compiles Gunshi's rule modules (``[tool.sengoku] compiled`` in pyproject.toml);
``SENGOKU_PURE_PYTHON=1`` makes the package import their Python source instead
(sengoku/compiled.py). Random games over option sets that reach every phase, variant and
rule choice are played in two processes, one per build, from the same seeds: at every ply
the legal actions, the action drawn, the events the action made and ``to_json()`` must be
the same, and so must the result. Along the way the game goes on from a clone, a pickled
copy and a deep copy of its state (the server and the searches copy states), so a copy the
compiled classes made wrongly shows as a divergence. Where the engine is not compiled (a
checkout never built in place, a pure-Python build) the comparison is skipped.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.compiled_runs import run_build

ROOT = Path(__file__).resolve().parents[2]

#: Every variant, modification and deck selection, the presets (a formation, a deck), the
#: tournament clock and every rule choice the options offer (sengoku/games/gunshi/game.py).
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
SEEDS = (0, 1)

#: One process plays every game and prints, per game, a digest of each ply (the legal
#: actions, the action, its events, the position's JSON, each seat's observation tensor from
#: the encoder's capture, snapshot.py) and the result. Every 40 plies the
#: game continues from a clone, every 40 + 13 from a pickled copy, every 40 + 27 from a deep
#: copy (checked equal to the original first); the legal actions are pickled and copied too.
SCRIPT = """
import copy, hashlib, json, pickle, random, sys
import sengoku.games.gunshi.snapshot as snapshot_module
import sengoku.games.gunshi.state as state_module
from sengoku.compiled import is_compiled
from sengoku.core.registry import load_game
from sengoku.games.gunshi.encoder import GunshiEncoder

option_sets, seeds = json.loads(sys.argv[1])
game = load_game("gunshi")
out = {
    "compiled": is_compiled(state_module),
    "snapshot_compiled": is_compiled(snapshot_module),
    "games": [],
}
encoder = GunshiEncoder()
for options in option_sets:
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(seed=seed, **options)
        capture = encoder.capturer()  # the PettingZoo environment's capture, kept parts and all
        plies = []
        while not state.is_terminal():
            legal = state.legal_actions()
            action = rng.choice(legal)
            events = state.apply(action)
            position = state.to_json()
            # Each seat's tensor from the kept capture (the snapshot module's path), and from
            # a one-off capture every 7th ply: the two must agree.
            tensors = [encoder.encode(capture(state, s), s).tobytes() for s in (None, 0, 1)]
            if len(plies) % 7 == 0:
                for s, tensor in zip((None, 0, 1), tensors):
                    assert encoder.encode(encoder.capture(state, s), s).tobytes() == tensor
            plies.append([str(action)] + [
                name + " " + hashlib.sha256(
                    json.dumps(part, sort_keys=True, default=repr).encode()
                ).hexdigest()[:16]
                for name, part in (
                    ("legal", [str(a) for a in legal]), ("events", events), ("json", position)
                )
            ] + ["tensors " + hashlib.sha256(b"".join(tensors)).hexdigest()[:16]])
            k = len(plies) % 40
            if k in (0, 13, 27):
                copied = (
                    state.clone() if k == 0
                    else pickle.loads(pickle.dumps(state)) if k == 13
                    else copy.deepcopy(state)
                )
                assert copied.to_json() == position, (options, seed, len(plies), k)
                # The actions too (a searched tree keeps them; agents are pickled).
                assert pickle.loads(pickle.dumps(legal)) == legal, (options, seed, len(plies))
                assert copy.deepcopy(legal) == legal, (options, seed, len(plies))
                state = copied
        outcome = state.outcome()
        out["games"].append({
            "options": options,
            "seed": seed,
            "plies": plies,
            "result": None if outcome is None else outcome.to_json(),
        })
print("RESULT", json.dumps(out, sort_keys=True))
"""


def _games(pure: bool) -> dict[str, Any]:
    return run_build(SCRIPT, json.dumps([OPTION_SETS, list(SEEDS)]), pure=pure)


def test_the_compiled_engine_plays_the_plain_pythons_games() -> None:
    built = _games(pure=False)
    if not built["compiled"]:
        pytest.skip(
            "Gunshi's engine (sengoku/games/gunshi/state.py ...) is not compiled here "
            "(make install builds it in place)"
        )
    assert built["snapshot_compiled"]  # the encoder's capture (snapshot.py) is built too
    plain = _games(pure=True)
    assert plain["compiled"] is False  # SENGOKU_PURE_PYTHON=1 ran the source
    assert plain["snapshot_compiled"] is False
    assert len(built["games"]) == len(plain["games"]) == len(OPTION_SETS) * len(SEEDS)
    for a, b in zip(built["games"], plain["games"], strict=True):
        where = f"options {a['options']}, seed {a['seed']}"
        assert (a["options"], a["seed"]) == (b["options"], b["seed"])
        assert a["plies"], where
        for ply, (x, y) in enumerate(zip(a["plies"], b["plies"], strict=False), start=1):
            assert x == y, f"{where}, ply {ply}: compiled played {x}, plain Python {y}"
        assert len(a["plies"]) == len(b["plies"]), where
        assert a["result"] is not None and a["result"] == b["result"], where


def test_the_engines_modules_are_listed_for_compilation() -> None:
    """The rule modules are in the one list setup.py compiles (pyproject.toml); the modules
    off the play path (the game's options and notation, text, rendering, the AI's encoder and
    features) are not."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        listed = set(tomllib.load(f)["tool"]["sengoku"]["compiled"])
    package = "sengoku/games/gunshi/"
    for module in ("state", "actions", "battle", "cards", "units", "commands/move", "snapshot"):
        assert f"{package}{module}.py" in listed, module
    assert all((ROOT / path).is_file() for path in listed if path.startswith(package))
