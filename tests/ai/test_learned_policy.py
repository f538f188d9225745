"""The learned agent's PUCT search and its policy head, numpy side (always runs)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from sengoku.ai import make_agent
from sengoku.ai.learned.agent import LearnedAgent
from sengoku.ai.learned.model import Inputs, ValueNet, default_policy, load_net
from sengoku.core.game import SengokuError, State
from sengoku.core.registry import load_game


def midgame(seed: int, plies: int) -> State:
    st = load_game("sashimono").new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
    while len(st.legal_actions()) < 2:
        st.apply(st.legal_actions()[0])
    return st


def random_policy(inputs: int, seed: int = 0) -> ValueNet:
    rng = np.random.default_rng(seed)
    return ValueNet(
        [
            (rng.normal(0, 0.05, (inputs, 8)), rng.normal(0, 0.1, 8)),
            (rng.normal(0, 0.5, (8, 1)), rng.normal(0, 0.1, 1)),
        ],
        {"kind": "policy"},
        skip=np.where(np.arange(inputs) == inputs - 1, 10.0, 0.0),
    )


def test_policy_scores_are_the_perceptron_plus_the_skip_without_tanh(tmp_path: Path) -> None:
    net = random_policy(6, seed=3)
    x = np.random.default_rng(4).normal(size=(4, 6)).astype(np.float32)
    (w0, b0), (w1, b1) = net.layers
    assert net.skip is not None
    expected = (np.maximum(x @ w0 + b0, 0) @ w1 + b1)[:, 0] + x @ net.skip
    assert np.allclose(net.logits(x), expected, atol=1e-5)
    assert np.allclose(net.forward(x), np.tanh(expected), atol=1e-5)
    net.save(tmp_path / "p.npz", {"kind": "policy", "seed": 8})
    back = ValueNet.load(tmp_path / "p.npz")
    assert back.meta == {"kind": "policy", "seed": 8}
    assert np.allclose(back.logits(x), expected, atol=1e-5)


@pytest.mark.parametrize("prior", ["eval", "net"])
def test_the_prior_is_the_afterstate_value_for_the_chooser_over_the_temperature(
    prior: str,
) -> None:
    game = load_game("sashimono")
    st = midgame(13, 40)
    seat = st.current_player
    agent = LearnedAgent(game, seed=1, prior=prior, prior_temperature=0.05)
    legal = st.legal_actions()
    logits: dict[object, float] = {}
    agent.action_logits(st, seat, legal, logits)
    inputs = Inputs(game, dict(st.options))
    for action in legal:
        after = st.clone()
        after.apply(action)
        if prior == "eval":
            value = game.features().evaluate(after, seat)
        else:
            assert agent.net is not None
            value = float(agent.net.forward(inputs.encode(after, seat)))
        assert logits[action] == pytest.approx(value / 0.05, abs=1e-4)


def test_the_policy_prior_is_the_policy_heads_score(tmp_path: Path) -> None:
    game = load_game("sashimono")
    st = midgame(17, 30)
    seat = st.current_player
    inputs = Inputs(game, dict(st.options))
    path = tmp_path / "policy.npz"
    random_policy(inputs.size, seed=5).save(path, {"kind": "policy"})
    agent = LearnedAgent(game, seed=1, prior="policy", policy=str(path))
    legal = st.legal_actions()
    logits: dict[object, float] = {}
    agent.action_logits(st, seat, legal, logits)
    net = load_net(path)
    for action in legal:
        after = st.clone()
        after.apply(action)
        if not after.is_terminal():
            expected = float(net.logits(inputs.encode(after, seat)[None, :])[0])
            assert logits[action] == pytest.approx(expected, abs=1e-4)
    # Softmax of these scores is the prior: a distribution over the legal actions.
    top = max(logits.values())
    weights = [math.exp(v - top) for v in logits.values()]
    assert sum(w / sum(weights) for w in weights) == pytest.approx(1.0)


@pytest.mark.parametrize("prior", ["eval", "net", "policy"])
def test_puct_agent_plays_legal_repeatable_moves(prior: str) -> None:
    game = load_game("sashimono")
    st = midgame(7, 25)
    seat = st.current_player
    chosen = []
    for _ in range(2):
        agent = make_agent(game, f"learned:prior={prior}", seed=4, iterations=40)
        action = agent.choose(st, seat)
        assert action in st.legal_actions()
        assert agent.last_stats["iterations"] == 40
        assert agent.last_root is not None and agent.last_root.visits == 40
        chosen.append(action)
    assert chosen[0] == chosen[1]


def swap_hidden_kumi(st: State, seat: int) -> State:
    """The position with one card of the other seat's Kumi hand swapped with a card of a
    different type from its deck: something ``seat`` cannot see, changed by hand."""
    other: object = st.clone()
    side = other.sides[1 - seat]  # type: ignore[attr-defined]
    for i, card in enumerate(side.hand):
        for j, deck_card in enumerate(side.deck):
            if deck_card != card:
                side.hand[i], side.deck[j] = deck_card, card
                other._legal = None  # type: ignore[attr-defined]
                return other  # type: ignore[return-value]
    raise AssertionError("no card to swap")


def test_states_that_differ_only_in_hidden_cards_get_the_same_move() -> None:
    game = load_game("sashimono")
    st = midgame(11, 30)
    seat = st.current_player
    other = swap_hidden_kumi(st, seat)
    assert other.sides[1 - seat].hand != st.sides[1 - seat].hand  # type: ignore[attr-defined]
    assert other.view(seat) == st.view(seat)
    for prior in ("eval", "net", "policy"):
        moves = set()
        for position in (st, other):
            agent = make_agent(game, f"learned:prior={prior}", seed=9, iterations=30)
            moves.add(str(agent.choose(position, seat)))
        assert len(moves) == 1, prior


def test_bad_prior_options_are_refused() -> None:
    with pytest.raises(SengokuError, match="prior"):
        make_agent("sashimono", "learned:prior=oracle")
    with pytest.raises(SengokuError, match="prior_temperature"):
        make_agent("sashimono", "learned:prior=eval:prior_temperature=0")
    with pytest.raises(SengokuError, match="c_puct"):
        make_agent("sashimono", "learned:prior=eval:c_puct=-1")


def test_shipped_policy_head_loads_fits_and_records_its_making() -> None:
    path = default_policy("sashimono")
    if not path.is_file():
        pytest.skip("no policy head shipped for sashimono")
    net = load_net(path)
    game = load_game("sashimono")
    assert net.inputs == Inputs(game, dict(game.new_state(0).options)).size
    assert path.stat().st_size < 4_000_000
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["kind"] == "policy"
    for key in ("seed", "command", "data", "training", "cost"):
        assert key in meta


def test_a_node_made_where_another_world_had_ended_gets_the_seat_that_acts() -> None:
    """A node first made where a determinization had ended the game records no seat (-1);
    met again in a world where the game goes on, the seat acting there chooses (this crashed
    the encoder with a negative seat in a 1 s arena run)."""
    from sengoku.ai.mcts import Node

    game = load_game("sashimono")
    st = midgame(19, 30)
    seat = st.current_player
    agent = LearnedAgent(game, seed=2, prior="net")
    root = Node(None, -1, 2)
    agent.iterate(root, st.determinize(seat, random.Random(3)), seat)
    assert root.player == seat and root.visits == 1


@pytest.mark.parametrize("seat", [0, 1])
def test_worlds_that_share_a_view_get_the_same_moves_as_play_goes_on(seat: int) -> None:
    """Two worlds built by hand that ``seat`` cannot tell apart (one of the other seat's
    hidden Kumi swapped with a deck card of another type) are played on together: every
    decision of ``seat``, mid-turn ones included, gets the same move in both, for each prior;
    the other seat plays the same action in both (one legal in both), until what ``seat``
    sees differs (the swapped card shown) or the game ends."""
    game = load_game("sashimono")
    st = midgame(13 + seat, 20)
    while st.current_player != seat:
        st.apply(st.legal_actions()[0])
    for prior in ("none", "eval", "net"):
        worlds = [st.clone(), swap_hidden_kumi(st, seat)]
        assert worlds[0].view(seat) == worlds[1].view(seat)
        decisions = 0
        for ply in range(40):
            if worlds[0].is_terminal() or worlds[0].view(seat) != worlds[1].view(seat):
                break
            if worlds[0].current_player == seat:
                chosen = {
                    str(
                        make_agent(game, f"learned:prior={prior}", seed=ply, iterations=12).choose(
                            world, seat
                        )
                    )
                    for world in worlds
                }
                assert len(chosen) == 1, (prior, ply)
                decisions += 1
                text = chosen.pop()
            else:
                in_both = sorted(
                    {str(a) for a in worlds[0].legal_actions()}
                    & {str(a) for a in worlds[1].legal_actions()}
                )
                if not in_both:
                    break
                text = in_both[0]
            for world in worlds:
                world.apply(next(a for a in world.legal_actions() if str(a) == text))
        assert decisions >= 3, prior


def test_policy_depth_asks_the_head_near_the_root_and_the_evaluation_deeper(
    tmp_path: Path,
) -> None:
    game = load_game("sashimono")
    st = midgame(23, 30)
    seat = st.current_player
    inputs = Inputs(game, dict(st.options))
    path = tmp_path / "policy.npz"
    random_policy(inputs.size, seed=6).save(path, {"kind": "policy"})
    net = load_net(path)
    agent = LearnedAgent(game, seed=1, prior="policy", policy=str(path), policy_depth=1)
    legal = st.legal_actions()
    near: dict[object, float] = {}
    deep: dict[object, float] = {}
    agent.action_logits(st, seat, legal, near, 0)
    agent.action_logits(st, seat, legal, deep, 1)
    for action in legal:
        after = st.clone()
        after.apply(action)
        if after.is_terminal():
            continue
        head = float(net.logits(inputs.encode(after, seat)[None, :])[0])
        assert near[action] == pytest.approx(head, abs=1e-4)
        assert deep[action] == pytest.approx(game.features().evaluate(after, seat) / 0.1)
    assert near != deep
    with pytest.raises(SengokuError, match="policy_depth"):
        LearnedAgent(game, seed=1, prior="policy", policy=str(path), policy_depth=-1)


def test_a_policy_head_near_the_root_reads_nothing_hidden(tmp_path: Path) -> None:
    """The head at the root only (``policy_depth=1``), the evaluation below: two positions
    that differ only in the other seat's hidden Kumi get the same move and the same root."""
    game = load_game("sashimono")
    inputs = Inputs(game, dict(load_game("sashimono").new_state(0).options))
    path = tmp_path / "policy.npz"
    random_policy(inputs.size, seed=7).save(path, {"kind": "policy"})
    for seed in (11, 29):
        st = midgame(seed, 30)
        seat = st.current_player
        other = swap_hidden_kumi(st, seat)
        assert other.view(seat) == st.view(seat)
        roots = []
        for position in (st, other):
            agent = make_agent(
                game, f"learned:prior=policy:policy={path}:policy_depth=1", seed=9, iterations=30
            )
            agent.choose(position, seat)
            assert agent.last_root is not None
            roots.append({str(a): c.visits for a, c in agent.last_root.children.items()})
        assert roots[0] == roots[1]
