"""The training pipeline end to end in its tiny configuration (needs torch: skipped without)."""

from __future__ import annotations

import hashlib
import json
import shlex
from pathlib import Path

import numpy as np
import pytest

from sengoku.ai import make_agent
from sengoku.ai.learned.model import Inputs, ValueNet, default_weights
from sengoku.arena.backends import LocalBackend
from sengoku.arena.training_data import generate
from sengoku.cli import build_parser, main
from sengoku.core.registry import load_game
from sengoku.games.gungi.features import LEARNED_PATH

pytest.importorskip("torch")


def test_selfplay_examples_are_the_movers_views_and_returns() -> None:
    game = load_game("sashimono")
    x, y, index, summary = generate(game, 2, "greedy", 3, backend=LocalBackend(1), every=1)
    assert len(x) == len(y) == len(index) == summary["positions"] > 0
    assert x.shape[1] == Inputs(game, summary["options"]).size
    # Every example's target is the game's return for the mover: +1 or -1 in a duel.
    assert set(np.unique(y).tolist()) <= {-1.0, 0.0, 1.0}
    assert set(index.tolist()) == {0, 1}
    assert sum(summary["outcomes"].values()) == 2


def test_tiny_training_writes_weights_with_their_record(tmp_path: Path) -> None:
    out = tmp_path / "w.npz"
    data = tmp_path / "d.npz"
    code = main(
        ["train", "sashimono", "--tiny", "--seed", "5", "--out", str(out), "--save-data", str(data)]
    )
    assert code == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["seed"] == 5 and "train sashimono" in meta["command"]
    assert meta["data"][0]["games"] == 4 and meta["data"][0]["agent"] == "greedy"
    assert meta["training"]["train_positions"] > 0 and meta["cost"]["fit_seconds"] >= 0
    net = ValueNet.load(out)
    game = load_game("sashimono")
    st = game.new_state(1)
    assert net.inputs == Inputs(game, dict(st.options)).size
    # The saved data trains again without self-play, and the agent plays with the result.
    again = tmp_path / "again.npz"
    assert (
        main(
            [
                "train",
                "sashimono",
                "--games",
                "0",
                "--data",
                str(data),
                "--epochs",
                "1",
                "--hidden",
                "8",
                "--out",
                str(again),
            ]
        )
        == 0
    )
    agent = make_agent(game, f"learned:weights={again}", seed=1, iterations=10)
    assert agent.choose(st, st.current_player) in st.legal_actions()


def test_cuda_is_refused_cleanly_without_a_gpu(tmp_path: Path) -> None:
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is present: --device cuda trains there")
    code = main(
        ["train", "sashimono", "--tiny", "--device", "cuda", "--out", str(tmp_path / "x.npz")]
    )
    assert code == 2


@pytest.mark.parametrize(
    "args",
    [["sashimono"], ["gungi"], ["sashimono", "--policy"]],
    ids=["sashimono-value", "gungi-value", "sashimono-policy"],
)
def test_cuda_trains_when_a_gpu_is_present(tmp_path: Path, args: list[str]) -> None:
    """On a GPU machine (a lent one: CI has none) ``--device cuda`` fits there, records it,
    and the numpy network it writes plays without torch's help."""
    import torch

    if not torch.cuda.is_available():
        pytest.skip("no CUDA device: the refusal is tested above")
    out = tmp_path / "w.npz"
    assert main(["train", *args, "--tiny", "--device", "cuda", "--out", str(out)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["training"]["device"] == "cuda"
    assert "--device cuda" in meta["command"]
    arrays = np.load(out)
    assert all(np.isfinite(arrays[k]).all() for k in arrays.files)
    game = load_game(args[0])
    st = game.new_state(1)
    key = "policy" if "--policy" in args else "weights"
    agent = make_agent(game, f"learned:{key}={out}", seed=1, iterations=10)
    assert agent.choose(st, st.current_player) in st.legal_actions()


def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def test_without_out_a_run_writes_in_the_current_directory_not_over_the_shipped_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before (issue 43): `sengoku train sashimono --tiny` replaced sengoku/ai/weights/
    # sashimono.npz, and its recorded command had no --out.
    shipped = default_weights("sashimono")
    before = _digest(shipped), _digest(shipped.with_suffix(".json"))
    monkeypatch.chdir(tmp_path)
    assert main(["train", "sashimono", "--tiny", "--seed", "2"]) == 0
    assert (_digest(shipped), _digest(shipped.with_suffix(".json"))) == before
    meta = json.loads((tmp_path / "sashimono.json").read_text())
    assert ValueNet.load(tmp_path / "sashimono.npz").inputs > 0
    # The recorded command reruns as is: to the same file.
    words = shlex.split(meta["command"])
    assert words[:3] == ["sengoku", "train", "sashimono"]
    rerun = build_parser().parse_args(words[1:])
    assert rerun.out == "sashimono.npz" and not rerun.overwrite_shipped
    assert rerun.games == 4 and rerun.seed == 2 and rerun.agent == "greedy"


def test_policy_and_texel_runs_record_where_they_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shipped = LEARNED_PATH
    before = _digest(shipped)
    assert main(["train", "gungi", "--texel", "--tiny", "--seed", "3"]) == 0
    assert _digest(shipped) == before
    made = json.loads((tmp_path / "gungi_eval.json").read_text())["made"]
    assert shlex.split(made["command"])[-2:] == ["--out", "gungi_eval.json"]
    policy = tmp_path / "p.npz"
    assert main(["train", "sashimono", "--policy", "--tiny", "--out", str(policy)]) == 0
    meta = json.loads(policy.with_suffix(".json").read_text())
    assert shlex.split(meta["command"])[-2:] == ["--out", str(policy)]
