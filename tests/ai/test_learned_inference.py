"""The learned agent's numpy side: the network file, its inputs, and play with it. Needs no
torch, so it always runs (the training pipeline's test skips where torch is absent)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from sengoku.ai import make_agent
from sengoku.ai.learned.model import Inputs, ValueNet, default_weights, load_net
from sengoku.core.game import SengokuError, State
from sengoku.core.registry import load_game

SHIPPED = ("sashimono", "gungi")


def midgame(name: str, seed: int, plies: int) -> State:
    st = load_game(name).new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
    return st


def random_net(inputs: int, seed: int = 0) -> ValueNet:
    rng = np.random.default_rng(seed)
    return ValueNet(
        [
            (rng.normal(0, 0.1, (inputs, 8)), rng.normal(0, 0.1, 8)),
            (rng.normal(0, 0.5, (8, 1)), rng.normal(0, 0.1, 1)),
        ],
        {},
    )


def test_forward_is_the_perceptron_and_survives_a_round_trip(tmp_path: Path) -> None:
    net = random_net(5)
    x = np.random.default_rng(1).normal(size=(3, 5)).astype(np.float32)
    (w0, b0), (w1, b1) = net.layers
    expected = np.tanh(np.maximum(x @ w0 + b0, 0) @ w1 + b1)[:, 0]
    assert np.allclose(net.forward(x), expected, atol=1e-6)
    net.save(tmp_path / "n.npz", {"seed": 3})
    back = ValueNet.load(tmp_path / "n.npz")
    assert back.meta == {"seed": 3}
    assert np.allclose(back.forward(x), expected, atol=1e-6)
    assert float(back.forward(x[0])) == pytest.approx(float(back.forward(x)[0]), abs=1e-6)


def test_the_skip_adds_a_linear_term_inside_the_tanh(tmp_path: Path) -> None:
    net = random_net(4)
    skip = np.array([0.5, -1.0, 0.0, 2.0])
    with_skip = ValueNet(net.layers, {}, skip=skip)
    x = np.random.default_rng(2).normal(size=(5, 4)).astype(np.float32)
    inner = np.arctanh(net.forward(x))
    assert np.allclose(with_skip.forward(x), np.tanh(inner + x @ skip), atol=1e-5)
    with_skip.save(tmp_path / "s.npz", {})
    assert np.allclose(ValueNet.load(tmp_path / "s.npz").forward(x), with_skip.forward(x))


def test_missing_weights_are_refused_with_a_hint(tmp_path: Path) -> None:
    with pytest.raises(SengokuError, match="sengoku train"):
        ValueNet.load(tmp_path / "none.npz")


@pytest.mark.parametrize("name", SHIPPED)
def test_inputs_read_only_what_the_seat_sees(name: str) -> None:
    game = load_game(name)
    st = midgame(name, 3, 30)
    seat = st.current_player
    inputs = Inputs(game, dict(st.options))
    mine = inputs.encode(st, seat)
    assert mine.shape == (inputs.size,) and np.isfinite(mine).all()
    # The last input is the hand-made evaluation for the seat.
    assert mine[-1] == pytest.approx(game.features().evaluate(st, seat), abs=1e-6)
    for k in range(3):
        other = st.determinize(seat, random.Random(50 + k))
        assert other.view(seat) == st.view(seat)
        assert np.array_equal(inputs.encode(other, seat), mine)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_weights_load_fit_the_game_and_record_their_making(name: str) -> None:
    path = default_weights(name)
    net = load_net(path)
    game = load_game(name)
    assert net.inputs == Inputs(game, dict(game.new_state(0).options)).size
    assert path.stat().st_size < 4_000_000
    meta = json.loads(path.with_suffix(".json").read_text())
    for key in ("seed", "command", "data", "training", "cost"):
        assert key in meta
    st = midgame(name, 5, 20)
    value = float(net.forward(Inputs(game, dict(st.options)).encode(st, st.current_player)))
    assert -1.0 <= value <= 1.0


@pytest.mark.parametrize("name", SHIPPED)
def test_learned_agent_plays_legal_repeatable_moves(name: str, tmp_path: Path) -> None:
    game = load_game(name)
    st = midgame(name, 7, 25)
    seat = st.current_player
    path = tmp_path / f"{name}.npz"
    random_net(Inputs(game, dict(st.options)).size).save(path, {})
    chosen = []
    for _ in range(2):
        agent = make_agent(game, f"learned:weights={path}", seed=4, iterations=30)
        action = agent.choose(st, seat)
        assert action in st.legal_actions()
        chosen.append(action)
        assert agent.last_stats["iterations"] == 30
    assert chosen[0] == chosen[1]


def test_learned_agent_is_honest_on_hidden_cards(tmp_path: Path) -> None:
    """States that differ only in what the seat cannot see get the same move."""
    game = load_game("sashimono")
    st = midgame("sashimono", 11, 30)
    seat = st.current_player
    path = tmp_path / "s.npz"
    random_net(Inputs(game, dict(st.options)).size, seed=2).save(path, {})
    moves = set()
    for k in range(3):
        other = st.determinize(seat, random.Random(200 + k)) if k else st
        assert other.view(seat) == st.view(seat)
        agent = make_agent(game, f"learned:weights={path}", seed=9, iterations=20)
        moves.add(str(agent.choose(other, seat)))
    assert len(moves) == 1


def test_wrong_network_for_the_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.npz"
    random_net(7).save(path, {})
    st = midgame("sashimono", 1, 10)
    agent = make_agent("sashimono", f"learned:weights={path}", seed=1, iterations=5)
    with pytest.raises(SengokuError, match="inputs"):
        agent.choose(st, st.current_player)


def test_a_timed_learned_level_gets_the_floor_and_reuse_of_ismcts() -> None:
    """Should ``learned`` become a game's level 5, it keeps level 5's floor over level 4."""
    from sengoku.ai import timed_level

    options = timed_level("learned", {"seconds": 1.0}, ("ismcts", {"iterations": 32}))
    assert options == {"turn_seconds": 1.0, "floor": 40, "reuse": 1}
