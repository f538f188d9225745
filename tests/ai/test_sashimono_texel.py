"""Sashimono's tuned evaluation for IS-MCTS (``eval=learned``; ``sengoku train sashimono --texel``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sengoku.ai import make_agent
from sengoku.arena import texel_terms
from sengoku.cli import main
from sengoku.core.game import SengokuError
from sengoku.core.registry import load_game
from sengoku.games.sashimono import features as sf
from sengoku.server.ai import AiLimits, check_spec
from tests.ai.search_positions import unfinished_positions


def _positions(count: int, seed: int) -> list[Any]:
    """Unfinished positions of random play in the duel (bowed Sashimono, lines, hands)."""
    return unfinished_positions("sashimono", count, seed, (5, 150))


def _heuristic_as_first_written(state: Any, seat: int) -> float:
    """The hand-made evaluation as it was written before it became weights (constants)."""

    def side(index: int) -> float:
        s = state.sides[index]
        bowed = sum(1 for c, b in zip(s.slots, s.bowed, strict=True) if c is not None and b)
        standing = sum(1 for c in s.slots if c is not None) - bowed
        attack, defence = sf.line_power(s.cells, sf.LINES)
        hand = min(len(s.hand), 3) * 0.01 + min(len(s.shand), 3) * 0.0
        return float(s.vp) + 0.6 * bowed + 0.1 * standing + 0.05 * attack + 0.04 * defence + hand

    return 0.4 * (side(seat) - side(state.enemy(seat)))


def test_the_hand_made_weights_are_the_evaluation_as_first_written() -> None:
    positions = _positions(40, 1)
    assert any(s.sides[0].vp or s.sides[1].vp for s in positions)  # the race is under way
    for state in positions:
        for seat in (0, 1):
            # exactly: the same sums in the same order, so levels 1-4 play the same moves
            assert sf.FEATURES.heuristic(state, seat) == _heuristic_as_first_written(state, seat)


def test_the_lead_terms_times_the_weights_are_the_heuristic() -> None:
    other = sf.Evaluation("test", 1.0, 0.9, 0.3, 0.2, 0.1, 0.05, 0.15, scale=0.7)
    features = sf.SashimonoFeatures(other)
    weights = np.array([getattr(other, t) for t in sf.TERMS])
    for state in _positions(20, 2):
        for seat in (0, 1):
            lead = np.array(features.lead_terms(state, seat))
            assert features.heuristic(state, seat) == pytest.approx(0.7 * lead @ weights)
            assert lead == pytest.approx(-np.array(features.lead_terms(state, 1 - seat)))


def test_the_fit_recovers_known_weights() -> None:
    rng = np.random.default_rng(0)
    lead = rng.normal(0, 2, size=(40_000, len(sf.TERMS)))
    truth = np.array([1.3, 1.2, 0.3, 0.15, 0.1, 0.05, 0.2])
    y = (rng.random(len(lead)) < 1 / (1 + np.exp(-lead @ truth))).astype(float)
    theta = texel_terms.fit(lead, y, prior=np.zeros(len(truth)), l2=1e-6)
    assert theta == pytest.approx(truth, abs=0.05)
    weights = texel_terms.weights_of(theta, sf.FEATURES)
    assert weights["vp"] == 1.0
    assert weights["scale"] == pytest.approx(truth[0] / 2, abs=0.03)
    assert weights["bowed"] == pytest.approx(truth[1] / truth[0], abs=0.05)
    # a strong ridge keeps the prior
    prior = np.full(len(truth), 0.5)
    assert texel_terms.fit(lead, y, prior=prior, l2=1e4) == pytest.approx(prior, abs=1e-3)


def test_a_fit_that_makes_victory_points_worthless_is_refused() -> None:
    with pytest.raises(SengokuError, match="vp term a weight"):
        texel_terms.weights_of(np.array([-0.1, 1, 1, 1, 1, 1, 1]), sf.FEATURES)


def test_the_shipped_learned_evaluation_loads_with_its_record() -> None:
    path = sf.LEARNED_PATH
    assert path.is_file() and path.stat().st_size < 64_000
    made = json.loads(path.read_text())["made"]
    assert made["command"].startswith("sengoku train sashimono --texel")
    assert made["data"] and all("seed" in d and "games" in d for d in made["data"])
    fit = made["fit"]["log_loss"]
    # the tuned weights predict the held-out games better than the hand-made ones
    assert fit["tuned"]["held_out"] < fit["hand_made_as_shipped"]["held_out"]
    learned = sf.evaluation_named("learned")
    assert learned != sf.HAND_MADE and learned.vp == 1.0 and learned.scale > 0


def test_the_eval_option_plays_legal_moves_and_is_refused_where_no_game_offers_it() -> None:
    game = load_game("sashimono")
    state = game.new_state(5)
    for spec in ("ismcts:iterations=12:eval=learned", "mcts:iterations=12:eval=default"):
        name, _, rest = spec.partition(":")
        options = dict(kv.split("=") for kv in rest.split(":"))
        agent = make_agent(game, name, seed=1, **{k: _number(v) for k, v in options.items()})
        action = agent.choose(state, state.current_player)
        assert action in state.legal_actions()
    with pytest.raises(SengokuError, match="gunkimono has no evaluation but its own"):
        make_agent(load_game("gunkimono"), "ismcts", eval="learned")


def test_a_server_takes_the_shipped_evaluation_by_name_never_a_path() -> None:
    limits = AiLimits()
    assert check_spec("ismcts:iterations=10:eval=learned", limits)[1]["eval"] == "learned"
    for spec in ("ismcts:eval=/etc/passwd.json", "mcts:eval=weights.json", "learned:eval=x"):
        with pytest.raises(SengokuError, match="never a path|names a file that ships"):
            check_spec(spec, limits)


def test_tiny_tuning_run_writes_weights_that_play(tmp_path: Path) -> None:
    out, data = tmp_path / "w.json", tmp_path / "d.npz"
    argv = ["train", "sashimono", "--texel", "--tiny", "--save-data", str(data)]
    assert main([*argv, "--out", str(out)]) == 0
    written = json.loads(out.read_text())
    assert set(written["weights"]) == {*sf.TERMS, "scale"}
    assert written["made"]["data"][0]["games"] == 4
    assert written["made"]["command"].startswith("sengoku train sashimono --texel --games 4")
    # the saved positions refit on their own, and the weights play as eval=FILE
    refit = tmp_path / "refit.json"
    assert main(["train", "sashimono", "--texel", "--games", "0", "--data", str(data),
                 "--out", str(refit)]) == 0  # fmt: skip
    game = load_game("sashimono")
    state = game.new_state(3)
    agent = make_agent(game, "ismcts", iterations=8, eval=str(refit))
    assert agent.choose(state, state.current_player) in state.legal_actions()
    # data that is not --texel positions is refused, naming the file
    other = tmp_path / "other.npz"
    np.savez(other, towers=np.zeros((2, 81, 3)), result=np.zeros(2), game=np.zeros(2))
    with pytest.raises(SengokuError, match="other.npz: not self-play positions"):
        texel_terms.run(_args(["--games", "0", "--data", str(other)]), {}, game)


def _args(argv: list[str]) -> Any:
    from sengoku.cli import build_parser

    return build_parser().parse_args(["train", "sashimono", "--texel", *argv])


def _number(text: str) -> Any:
    return int(text) if text.isdigit() else text


def test_a_scale_fit_keeps_the_hand_made_shape_and_learns_its_confidence() -> None:
    rng = np.random.default_rng(1)
    hand, scale = sf.FEATURES.hand_made_weights()
    lead = rng.normal(0, 2, size=(30_000, len(hand)))
    # games decided with three times the hand-made evaluation's confidence
    y = (rng.random(len(lead)) < 1 / (1 + np.exp(-3 * lead @ np.array(hand)))).astype(float)
    data = {"lead": lead, "result": y, "game": np.arange(len(y)) // 50}
    theta, record = texel_terms.tune(data, sf.FEATURES, [0.001], 0.1, 0, what="scale")
    weights = texel_terms.weights_of(theta, sf.FEATURES)
    assert [weights[t] for t in sf.TERMS] == pytest.approx(hand)
    assert weights["scale"] == pytest.approx(1.5, abs=0.1)  # K / 2, K about 3
    losses = record["log_loss"]
    assert losses["tuned"]["held_out"] < losses["hand_made_as_shipped"]["held_out"]
    with pytest.raises(SengokuError, match="--fit must be one of weights, scale"):
        texel_terms.tune(data, sf.FEATURES, [0.001], 0.1, 0, what="everything")


def test_level_5_plays_the_tuned_evaluation_with_short_playouts_and_the_levels_below_as_before() -> (
    None
):
    """Level 5 became the tuned evaluation at the end of 10-ply playouts when that beat the
    level 5 before it at level 5's own time (docs/ai.md), and then took the evaluation as a
    prior of three playouts; ``level5:eval=default:rollout_depth=30:prior_visits=0`` is the
    level 5 they replaced."""
    game = load_game("sashimono")
    five: Any = make_agent(game, "level5")
    assert five.knowledge.evaluation == sf.evaluation_named("learned")
    assert five.rollout_depth == sf.LEVEL5_ROLLOUT_DEPTH == 10
    assert five.prior_visits == sf.LEVEL5_PRIOR_VISITS == 3
    assert five.options["turn_seconds"] == 1.0 and five.options["floor"] == 40
    before: Any = make_agent(game, "level5:eval=default:rollout_depth=30:prior_visits=0")
    assert before.knowledge is sf.FEATURES and before.rollout_depth == 30
    assert before.prior_visits == 0
    for level in (3, 4):
        agent: Any = make_agent(game, f"level{level}")
        assert agent.knowledge is sf.FEATURES and agent.rollout_depth == sf.FEATURES.rollout_depth
        assert agent.prior_visits == 0
