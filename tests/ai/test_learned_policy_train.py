"""The policy head's and the playout-valued network's training, in tiny configurations
(needs torch: skipped without)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sengoku.ai import make_agent
from sengoku.ai.learned.model import Inputs, ValueNet
from sengoku.arena.backends import LocalBackend
from sengoku.arena.training_data import generate
from sengoku.arena.training_policy import START_TEMPERATURE, generate_policy
from sengoku.cli import main
from sengoku.core.registry import load_game

pytest.importorskip("torch")


def test_policy_data_are_the_searchs_visit_shares_over_afterstates() -> None:
    game = load_game("sashimono")
    arrays, summary = generate_policy(
        game, 1, "learned:iterations=16:prior=eval", 4, max_plies=40, every=2
    )
    sizes = arrays["sizes"]
    assert summary["decisions"] == len(sizes) > 0
    assert len(arrays["x"]) == len(arrays["share"]) == int(sizes.sum())
    assert arrays["x"].shape[1] == Inputs(game, summary["options"]).size
    # Each decision's shares are a distribution over its legal actions.
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    for s, n in zip(starts, sizes, strict=True):
        assert n >= 2
        assert float(arrays["share"][s : s + n].sum()) == pytest.approx(1.0, abs=1e-5)
    assert len(arrays["value"]) == len(sizes) and np.all(np.abs(arrays["value"]) <= 1.0)


def test_tiny_policy_training_writes_a_head_the_agent_plays_with(tmp_path: Path) -> None:
    out = tmp_path / "policy.npz"
    data = tmp_path / "policy_data.npz"
    args = ["train", "sashimono", "--policy", "--tiny", "--seed", "5", "--out", str(out)]
    assert main([*args, "--save-data", str(data)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["kind"] == "policy" and meta["seed"] == 5 and "--policy" in meta["command"]
    assert meta["data"][0]["games"] == 2 and meta["data"][0]["decisions"] > 0
    history = meta["training"]["history"]
    assert history[0]["epoch"] == 0 and len(history) == 3
    assert meta["training"]["start_temperature"] == START_TEMPERATURE
    assert meta["cost"]["fit_seconds"] >= 0
    head = ValueNet.load(out)
    game = load_game("sashimono")
    assert head.inputs == Inputs(game, dict(game.new_state(1).options)).size
    st = game.new_state(2)
    while len(st.legal_actions()) < 2:
        st.apply(st.legal_actions()[0])
    agent = make_agent(game, f"learned:prior=policy:policy={out}", seed=1, iterations=20)
    assert agent.choose(st, st.current_player) in st.legal_actions()
    # The saved data trains again without self-play.
    again = tmp_path / "again.npz"
    args = ["train", "sashimono", "--policy", "--games", "0", "--data", str(data)]
    args += ["--holdout", "0.5"]
    assert main([*args, "--epochs", "1", "--hidden", "4", "--out", str(again)]) == 0
    remade = json.loads(again.with_suffix(".json").read_text())
    assert remade["data"][0]["file"] == data.name
    # One of the two games held out; the command records the policy fit's own settings
    # (the value network's --lr and --dropout do not apply to it).
    assert remade["training"]["val_games"] == 1
    assert "--holdout 0.5" in remade["command"] and "--lr" not in remade["command"]


def test_playout_targets_are_mean_playout_values_not_results() -> None:
    game = load_game("sashimono")
    x, y, index, summary = generate(
        game, 1, "greedy", 3, backend=LocalBackend(1), every=6, playouts=4
    )
    assert summary["target"] == "mean of 4 playouts" and len(y) == len(x) > 0
    # Playouts that all end the game give its result; the rest lie strictly between.
    assert np.all(np.abs(y) <= 1.0) and np.sum(np.abs(y) < 0.99) > len(y) // 2
    assert len(set(np.round(y, 4).tolist())) > 2
