"""The extension path: a game from outside the package, found by its entry point alone,
plays through the CLI, the agents, the arena, the OpenSpiel and PettingZoo adapters and the
record replay, with only the generic defaults of the contract (no features, no encoder).
"""

from __future__ import annotations

import importlib.metadata
import io
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import sengoku
from sengoku.core.features import GENERIC_FEATURES
from sengoku.core.record import GameRecord
from sengoku.core.registry import ENTRY_POINT_GROUP

ROOT = Path(__file__).resolve().parents[3]


def test_registered_by_its_entry_point() -> None:
    points = {e.name: e for e in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    assert points["nim"].value == "sengoku_nim:Nim"
    assert points["nim"].dist is not None and points["nim"].dist.name == "sengoku-nim"
    assert "nim" in sengoku.list_games()
    game = sengoku.load_game("nim")
    assert game.features() is GENERIC_FEATURES and game.observation_encoder() is None
    assert game.game_type.renderer == "generic"


def test_plays_through_the_cli_with_scripted_input() -> None:
    # Heaps 1-2 ("tiny"): the first player takes b1 (leaving 1-1), the second a1, the first b1 wins.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), str(ROOT)])}
    run = subprocess.run(
        [sys.executable, "-m", "sengoku", "play", "nim", "--vs", "human", "--seed", "1",
         "-o", "heaps=tiny", "--save", os.devnull],
        input="b1\na1\nb1\n", capture_output=True, text=True, env=env, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "last_stone" in run.stdout or "wins" in run.stdout.lower(), run.stdout


def test_cli_games_perft_and_selfplay(capsys: pytest.CaptureFixture[str]) -> None:
    from sengoku.cli import main

    assert main(["games", "--json"]) == 0
    listed = [json.loads(line)["name"] for line in capsys.readouterr().out.splitlines()]
    assert "nim" in listed
    assert main(["perft", "nim", "--depth", "2", "-o", "heaps=tiny"]) == 0
    assert capsys.readouterr().out.split()[0] == "5"  # a1: b1 b2; b1: a1 b1; b2: a1
    assert main(["perft", "nim", "--depth", "1", "--fen", "x"]) == 2
    assert "no FEN" in capsys.readouterr().err
    assert main(["selfplay", "nim", "--games", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["endings"] == {"last_stone": 3}


def test_agents_and_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    from sengoku.ai import load_agent
    from sengoku.cli import main

    game = sengoku.load_game("nim")
    for level in (1, 3):
        state = game.new_state()
        agent = load_agent(game, level, seed=level, iterations=20)
        assert state.legal_actions().count(agent.choose(state, 0)) == 1
    args = ["arena", "nim", "--agents", "random,greedy", "--games", "4", "--json", "--quiet"]
    assert main(args) == 0
    assert "nim" in capsys.readouterr().out


def test_record_replay() -> None:
    game = sengoku.load_game("nim")
    record, state = GameRecord.start(game, 0, ["a", "b"], heaps="tiny")
    for text in ("b2", "a1"):
        record.play(state, game.parse_action(state, text))
    again = GameRecord.loads(record.dumps()).replay()
    assert again.outcome() == state.outcome() and again.outcome() is not None


def test_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from sengoku.interop import openspiel as osp

    game = osp.load("nim", heaps="classic")
    gt = game.get_type()
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_pettingzoo() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from sengoku.interop import pettingzoo as pz

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pz.env("nim", obs_size=256), num_cycles=50)


def test_stdin_is_not_needed_for_import() -> None:
    # The plugin is a plain package: importing it runs no game and reads nothing.
    sys.stdin = io.StringIO("")
    import sengoku_nim

    assert sengoku_nim.Nim.name == "nim"


def test_docstring_example() -> None:
    import doctest

    import sengoku_nim

    assert doctest.testmod(sengoku_nim, verbose=False).failed == 0
