"""Sashimono's engine compiled with mypyc and as plain Python plays the same games.

setup.py compiles the modules listed under ``[tool.sengoku] compiled`` in pyproject.toml
(Sashimono's rules among them); ``SENGOKU_PURE_PYTHON=1`` makes the package import their
Python source instead (sengoku/compiled.py). Random games over every option the game has
(the duel, the solo game with either army and each challenge, the VP to win), played in a
subprocess either way, must agree move by move: the legal actions, the action chosen, the
events told, the position's saved form, each seat's view and the observation encoder's
snapshot of it (``snapshot``), a world determinized for the seat
to play, and the result. Where the engine is not compiled (a checkout never built in place,
a pure-Python build) the comparison is skipped.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.compiled_runs import run_build

ROOT = Path(__file__).resolve().parents[2]

#: The engine's modules, all compiled (the play path: the position, its rules, the cards,
#: the Kagemusha, worlds, the evaluation's features). Not ``decisions`` (``Act`` refuses a
#: field of the wrong type with the rule, where a compiled field would raise a TypeError)
#: nor ``hidden_information`` (its view's TypedDict, compiled, loses its optional keys).
ENGINE = (
    "action_turn", "battle", "bowing", "cards", "determinize", "effects", "features",
    "kagemusha", "pieces", "score_turn", "setup", "snapshot", "sonae", "state", "training",
    "turn", "winning",
)  # fmt: skip

#: Option sets reaching every option: both modes, both solo armies, every solo challenge
#: (alone and all together), a short and a long game.
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"vp": 2},
    {"vp": 5},
    {"mode": "solo"},
    {"mode": "solo", "army": "east"},
    {"mode": "solo", "challenge_corners": True},
    {"mode": "solo", "army": "east", "challenge_six_sashimono": True},
    {"mode": "solo", "challenge_abilities": True},
    {"mode": "solo", "army": "east", "challenge_discard_five": True},
    {"mode": "solo", "challenge_fewer_kumi": True},
    {"mode": "solo", "army": "east", "challenge_train": True},
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

SCRIPT = """
import importlib, json, random, sys
import sengoku.games.sashimono.state as state_module
from sengoku.compiled import is_compiled
from sengoku.core.registry import load_game
from sengoku.games.sashimono.snapshot import snapshot

option_sets = json.loads(sys.argv[1])
game = load_game("sashimono")
out = {
    "compiled": is_compiled(state_module),
    "modules": {
        name: is_compiled(importlib.import_module("sengoku.games.sashimono." + name))
        for name in json.loads(sys.argv[2])
    },
    "games": [],
}
for k, options in enumerate(option_sets):
    for seed in (3 * k + 1, 3 * k + 2):
        rng = random.Random(seed)
        state = game.new_state(seed, **options)
        plies = [json.dumps(state.to_json(), sort_keys=True)]
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            action = rng.choice(legal)
            world = state.determinize(seat, random.Random(seed))
            events = state.apply(action)
            plies.append(json.dumps([
                seat,
                [[int(a), str(a), repr(a)] for a in legal],
                repr(action),
                events,
                state.to_json(),
                [state.view(s) for s in [*range(state.num_players), None]],
                [snapshot(state, s) for s in [*range(state.num_players), None]],
                world.to_json(),
                [int(a) for a in world.legal_actions()],
            ], sort_keys=True, default=repr))
        out["games"].append({
            "options": options,
            "seed": seed,
            "plies": plies,
            "outcome": repr(state.outcome()),
        })
print("RESULT", json.dumps(out))
"""


def _play(pure: bool) -> dict[str, Any]:
    return run_build(SCRIPT, json.dumps(OPTION_SETS), json.dumps(ENGINE), pure=pure)


def test_the_compiled_engine_plays_the_plain_pythons_games() -> None:
    built = _play(pure=False)
    # A module runs as Python where nothing was built, and where its source changed since the
    # build (sengoku/compiled.py): the comparison needs every module of the engine compiled.
    as_python = sorted(name for name, compiled in built["modules"].items() if not compiled)
    if as_python:
        pytest.skip(
            f"Sashimono's engine is not compiled here, or changed since its build ({', '.join(as_python)} "
            "run as Python): make install, or setup.py build_ext --inplace, builds it in place"
        )
    assert built["compiled"]
    plain = _play(pure=True)
    assert plain["compiled"] is False  # SENGOKU_PURE_PYTHON=1 ran the source
    assert not any(plain["modules"].values()), plain["modules"]
    assert len(built["games"]) == len(plain["games"]) == 2 * len(OPTION_SETS)
    for a, b in zip(built["games"], plain["games"], strict=True):
        where = f"options {a['options']}, seed {a['seed']}"
        assert (a["options"], a["seed"]) == (b["options"], b["seed"])
        assert len(a["plies"]) > 10, where  # a game was played
        for ply, (x, y) in enumerate(zip(a["plies"], b["plies"], strict=False)):
            assert x == y, f"{where}, ply {ply}: compiled\n{x}\n!= plain\n{y}"
        assert len(a["plies"]) == len(b["plies"]), where
        assert a["outcome"] == b["outcome"], where


def test_the_engine_is_listed_for_compilation() -> None:
    with open(ROOT / "pyproject.toml", "rb") as f:
        listed = tomllib.load(f)["tool"]["sengoku"]["compiled"]
    engine = {f"sengoku/games/sashimono/{name}.py" for name in ENGINE}
    assert engine <= set(listed), sorted(engine - set(listed))
    assert all((ROOT / path).is_file() for path in engine)
