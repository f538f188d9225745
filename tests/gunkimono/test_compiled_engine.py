"""Gunkimono's engine compiled with mypyc plays the same games as its plain Python.

setup.py compiles the modules listed under ``[tool.sengoku] compiled`` in pyproject.toml
(Gunkimono's rules: ``state``, ``placement``, ``scoring``, ...); ``SENGOKU_PURE_PYTHON=1``
makes the package import their Python source instead (sengoku/compiled.py). Random games
over every option set (2-5 players, each spec ruling's alternative) are played in both, in
separate processes, and compared ply by ply: the legal actions, the chosen action, the events
(messages and data), ``to_json()``, and every seventh ply the evaluation's heuristic, a clone,
a seat's view, the observation encoder's snapshot of it (``snapshot.py``) and a
determinization; then the final result.
Where the engine is not compiled (a checkout never built in place, a pure-Python build) the
comparison is skipped.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

import sengoku
from tests.compiled_runs import run_build

ROOT = Path(__file__).resolve().parents[2]

#: Each option set is played from a few seeds: every player count, and each spec ruling's
#: alternative (game.py's options) with a different player count.
OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 2, "own_double_stronghold": True, "link_own_formations": False},
    {"players": 3, "empty_banner_stack": "stay", "removed_marker_counts": False},
    {"players": 4, "end_tile_replacement": False, "own_double_stronghold": True},
    {"players": 5, "link_own_formations": False, "empty_banner_stack": "stay"},
]
SEEDS = (3, 17)

#: Plays the games and prints, per game, one row per ply (digests of the large parts: a
#: game's states written out would be megabytes) and the final result.
SCRIPT = """
import hashlib, json, random, sys
import sengoku
import sengoku.games.gunkimono.snapshot as snapshot_module
import sengoku.games.gunkimono.state as state_module
from sengoku.compiled import is_compiled
from sengoku.games.gunkimono.features import FEATURES

def digest(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]

option_sets, seeds = json.loads(sys.argv[1])
game = sengoku.load_game("gunkimono")
out = {
    "compiled": is_compiled(state_module),
    "snapshot compiled": is_compiled(snapshot_module),
    "games": [],
}
for options in option_sets:
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(seed=seed, **options)
        rows = []
        ply = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            action = rng.choice(legal)
            seat = state.current_player
            events = state.apply(action)
            row = [
                ply,
                seat,
                digest([a.to_int() for a in legal]),
                str(action),
                digest(events),
                digest(state.to_json()),
            ]
            if ply % 7 == 0:  # the search's side: evaluation, a copy, a determinization
                row.append(repr(FEATURES.heuristic(state, seat)))
                row.append(digest(state.clone().to_json()))
                view_seat = ply % state.num_players
                row.append(digest(state.view(view_seat)))
                snapshot = snapshot_module.snapshot(state, view_seat, state.num_players)
                row.append(digest(snapshot))
                sampled = state.determinize(view_seat, random.Random(ply))
                row.append(digest(sampled.to_json()))
            rows.append(row)
            ply += 1
        result = [state.outcome().to_json(), state.final_scores()]
        out["games"].append({"options": options, "seed": seed, "plies": rows, "result": result})
print("RESULT", json.dumps(out, sort_keys=True))
"""


def _play(pure: bool) -> dict[str, Any]:
    return run_build(SCRIPT, json.dumps([OPTION_SETS, SEEDS]), pure=pure)


#: What each column of a ply's row is.
COLUMNS = (
    "ply",
    "seat",
    "legal actions",
    "chosen action",
    "events",
    "to_json",
    "heuristic",
    "clone",
    "view",
    "snapshot",
    "determinization",
)


def test_the_compiled_engine_plays_the_plain_pythons_games() -> None:
    built = _play(pure=False)
    if not built["compiled"]:
        pytest.skip(
            "Gunkimono's engine (sengoku/games/gunkimono/state.py, ...) is not compiled here: "
            "`make install` or `python setup.py build_ext --inplace` builds it in place"
        )
    assert built["snapshot compiled"]  # the encoder's snapshot (snapshot.py) too
    plain = _play(pure=True)
    assert plain["compiled"] is False  # SENGOKU_PURE_PYTHON=1 ran the source
    assert plain["snapshot compiled"] is False
    assert len(built["games"]) == len(plain["games"]) == len(OPTION_SETS) * len(SEEDS)
    for a, b in zip(built["games"], plain["games"], strict=True):
        where = f"options {a['options']}, seed {a['seed']}"
        assert (a["options"], a["seed"]) == (b["options"], b["seed"])
        assert a["plies"], where
        for row_a, row_b in zip(a["plies"], b["plies"], strict=False):
            # Six columns, eleven every seventh ply.
            for column, x, y in zip(COLUMNS, row_a, row_b, strict=False):
                assert x == y, f"{where}, ply {row_a[0]}: {column} compiled {x} != plain {y}"
            assert len(row_a) == len(row_b), f"{where}, ply {row_a[0]}"
        assert len(a["plies"]) == len(b["plies"]), f"{where}: the games' lengths differ"
        assert a["result"] == b["result"], f"{where}: result {a['result']} != {b['result']}"


def test_the_engine_is_in_the_list_of_compiled_modules() -> None:
    with open(ROOT / "pyproject.toml", "rb") as f:
        listed = tomllib.load(f)["tool"]["sengoku"]["compiled"]
    engine = {p for p in listed if p.startswith("sengoku/games/gunkimono/")}
    assert "sengoku/games/gunkimono/state.py" in engine
    assert "sengoku/games/gunkimono/snapshot.py" in engine
    assert "sengoku/games/gunkimono/placement.py" in engine
    assert all((ROOT / path).is_file() for path in engine), engine


@pytest.mark.parametrize("players", [2, 5])
def test_a_state_pickles_and_copies_and_plays_on_alike(players: int) -> None:
    # Compiled (where built) as well as plain: the server and the search copy states, and a
    # compiled class's ``__new__`` runs ``__init__`` (GunkimonoState.__reduce__ rebuilds it).
    game = sengoku.load_game("gunkimono")
    state = game.new_state(seed=5, players=players)
    rng = random.Random(5)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    copies = [
        pickle.loads(pickle.dumps(state)),
        copy.deepcopy(state),
        copy.copy(state).clone(),
        state.clone(),
    ]
    saved = state.to_json()
    for other in copies:
        assert type(other) is type(state)
        assert other.to_json() == saved
        assert other.legal_actions() == state.legal_actions()
        assert other.num_players == players and other.options == state.options
    # Each copy plays on by itself: the same moves give the same positions, and the original
    # is untouched.
    moves = random.Random(9)
    for _ in range(30):
        if copies[0].is_terminal():
            break
        action = moves.choice(copies[0].legal_actions())
        events = [other.apply(action) for other in copies]
        assert all(e == events[0] for e in events)
        assert len({json.dumps(other.to_json(), sort_keys=True) for other in copies}) == 1
    assert state.to_json() == saved
