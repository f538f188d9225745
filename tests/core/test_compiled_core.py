"""The core's per-ply path compiled with mypyc and as plain Python play the same games, for
every game.

setup.py compiles the core's turn machine, events and sentences (sengoku/core/flow.py,
events.py, sentence.py: ``[tool.sengoku] compiled`` in pyproject.toml), which every game's
``apply`` runs, and the decision stack Sashimono's turn runs on (stack.py); ``SENGOKU_PURE_PYTHON=1`` makes the package import their Python source
instead (sengoku/compiled.py). A random game of each game (each mode of Sashimono, two and
three lords of Gunkimono) is played in two processes, one per build, from the same seed: at
every ply the legal actions, the action drawn, the events it made and ``to_json()`` must be
the same, and so must the result. Every 40 plies the events are pickled and deep-copied
(the server stores events) and the game goes on from a deep copy of a clone of its state
(the searches copy states; Gunshi's own test pickles its states too, and Sashimono's states
do not pickle, compiled or not). Where the core is not compiled (a checkout never built in place, a pure-Python build)
the comparison is skipped.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.compiled_runs import run_build

ROOT = Path(__file__).resolve().parents[2]

#: The core's modules that setup.py compiles.
CORE = (
    "sengoku.core.events",
    "sengoku.core.flow",
    "sengoku.core.sentence",
    "sengoku.core.stack",
)

#: (game, options, seed): every game, through every flow shape the core runs (Gungi's one
#: judging phase, Gunshi's phase table, Gunkimono's, Sashimono's stack of questions).
GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("gungi", {"mode": "intro"}, 0),
    ("gunshi", {}, 0),
    ("gunshi", {"variant": "inspiration", "modification": 2, "sanryaku": True}, 1),
    ("gunkimono", {"players": 2}, 0),
    ("gunkimono", {"players": 3}, 1),
    ("sashimono", {"mode": "duel"}, 0),
    ("sashimono", {"mode": "solo"}, 1),
]

SCRIPT = """
import copy, hashlib, importlib, json, pickle, random, sys
from sengoku.compiled import is_compiled
from sengoku.core.registry import load_game

games, core = json.loads(sys.argv[1])
out = {"compiled": {name: is_compiled(importlib.import_module(name)) for name in core}}
out["games"] = []

def digest(part):
    text = json.dumps(part, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]

for name, options, seed in games:
    game = load_game(name)
    rng = random.Random(seed)
    state = game.new_state(seed=seed, **options)
    plies = []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = rng.choice(legal)
        events = state.apply(action)
        position = state.to_json()
        plies.append([str(action), digest([str(a) for a in legal]), digest(events),
                      digest(position)])
        if len(plies) % 40 == 0:
            assert pickle.loads(pickle.dumps(events)) == events, (name, len(plies))
            assert copy.deepcopy(events) == events, (name, len(plies))
            copied = state.clone()
            assert copied.to_json() == position, (name, len(plies))
            state = copy.deepcopy(copied)
            assert state.to_json() == position, (name, len(plies))
    outcome = state.outcome()
    out["games"].append({"game": name, "options": options, "seed": seed, "plies": plies,
                         "result": None if outcome is None else outcome.to_json()})
print("RESULT", json.dumps(out, sort_keys=True))
"""


def _games(pure: bool) -> dict[str, Any]:
    return run_build(SCRIPT, json.dumps([GAMES, list(CORE)]), pure=pure)


def test_the_compiled_core_plays_the_plain_pythons_games() -> None:
    built = _games(pure=False)
    if not any(built["compiled"].values()):
        pytest.skip("the core is not compiled here (make install builds it in place)")
    # All or none: a build that compiled some of the core and not the rest is not the one
    # the list asks for.
    assert all(built["compiled"].values()), built["compiled"]
    plain = _games(pure=True)
    assert not any(plain["compiled"].values())  # SENGOKU_PURE_PYTHON=1 ran the source
    assert len(built["games"]) == len(plain["games"]) == len(GAMES)
    for a, b in zip(built["games"], plain["games"], strict=True):
        where = f"{a['game']} {a['options']}, seed {a['seed']}"
        assert (a["game"], a["options"], a["seed"]) == (b["game"], b["options"], b["seed"])
        assert a["plies"], where
        for ply, (x, y) in enumerate(zip(a["plies"], b["plies"], strict=False), start=1):
            assert x == y, f"{where}, ply {ply}: compiled played {x}, plain Python {y}"
        assert len(a["plies"]) == len(b["plies"]), where
        assert a["result"] is not None and a["result"] == b["result"], where


def test_the_cores_hot_modules_are_listed_for_compilation() -> None:
    """The per-ply modules are in the one list setup.py compiles (pyproject.toml); the
    contract's base classes, which the games subclass in Python, are not, nor the template
    that Gungi binds as its ``apply`` method (a compiled closure made its ply slower)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        listed = set(tomllib.load(f)["tool"]["sengoku"]["compiled"])
    for name in CORE:
        assert name.replace(".", "/") + ".py" in listed, name
    assert "sengoku/core/game.py" not in listed
    assert "sengoku/core/flowing.py" not in listed
