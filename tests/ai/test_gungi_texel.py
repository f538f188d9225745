"""Gungi's tuned evaluation for the native alpha-beta (``eval=learned``; Texel tuning)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sengoku.ai import make_agent
from sengoku.ai.base import Budget
from sengoku.arena import texel
from sengoku.cli import main
from sengoku.core.game import SengokuError
from sengoku.core.registry import load_game
from sengoku.games.gungi import eval_tables as et
from sengoku.games.gungi import features as gf
from tests.ai.search_positions import unfinished_positions


def _positions(count: int, seed: int) -> list[Any]:
    """Positions of random play (captures, stacks, hands), intro mode."""
    return unfinished_positions("gungi", count, seed, (10, 120))


def _raw(states: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    towers = np.full((len(states), 81, 3), -1, dtype=np.int64)
    hands = np.zeros((len(states), 2, et.NK))
    for i, state in enumerate(states):
        for sq, tower in enumerate(state.board):
            towers[i, sq, : len(tower)] = tower
        hands[i] = state.hands
    return towers, hands


def test_the_hand_made_parameters_rebuild_the_hand_made_tables() -> None:
    top = et.top_table(et.hand_made())
    for piece in range(2 * et.NK):
        assert top[piece][1:] == gf.TOP[piece][1:]  # exactly: the same sums in the same order
    assert et.from_json(json.loads(json.dumps(et.to_json(et.hand_made())))) == pytest.approx(
        et.hand_made()
    )


def test_the_fitted_features_give_the_searchs_balance() -> None:
    # The fit's linear form and the evaluation the searches run agree, for the hand-made
    # parameters and for others (every parameter moved).
    states = _positions(12, seed=3)
    towers, hands = _raw(states)
    lin, counts = et.features(towers, hands)
    rng = np.random.default_rng(0)
    for theta in (et.hand_made(), et.hand_made() + rng.normal(0, 0.3, et.N_PARAMS)):
        top = et.top_table(theta)
        evaluation = gf.Evaluation(
            "test",
            top,
            [float(x) for x in theta[et.OFF_VALUE : et.OFF_VALUE + et.NK]],
            float(theta[et.OFF_HAND]),
            float(theta[et.OFF_BURIED]),
            gf.SCALE,
        )
        features = gf.GungiFeatures(evaluation)
        got = et.balance(theta, lin, counts)
        want = [features.balance(s) for s in states]
        assert got == pytest.approx(want, abs=1e-9)
    assert any(c[1].any() for c in counts) and any(c[2].any() for c in counts)


def test_the_fit_recovers_a_known_weight() -> None:
    # Synthetic positions from random play, labelled with the win probability of a known
    # evaluation: the hand-made one with the Knight worth 3 more on the ground tier. The fit,
    # started from the hand-made values with a light ridge, finds most of the change; the
    # other parameters stay near their start.
    states = _positions(300, seed=7)
    towers, hands = _raw(states)
    lin, counts = et.features(towers, hands)
    from sengoku.games.gungi.pieces import KIND_BY_NAME

    knight = KIND_BY_NAME["knight"] * et.HEIGHTS
    truth = et.hand_made()
    truth[knight] += 3.0
    y = 1 / (1 + np.exp(-0.3 * et.balance(truth, lin, counts)))
    theta = et.fit(lin, counts, y, et.hand_made(), 0.3, l2=0.01, steps=2000, lr=0.05)
    assert theta[knight] - et.hand_made()[knight] > 1.5
    moved = np.abs(theta - et.hand_made())
    moved[knight] = 0
    assert moved.max() < 1.5


def test_the_shipped_learned_evaluation_loads_with_its_record() -> None:
    weights = json.loads(gf.LEARNED_PATH.read_text())
    assert gf.LEARNED_PATH.stat().st_size < 100_000
    made = weights["made"]
    assert "train gungi --texel" in made["command"] and isinstance(made["seed"], int)
    assert made["data"] and made["fit"]["log_loss"]["tuned"]["held_out"] > 0
    learned = gf.evaluation_named("learned")
    assert learned is gf.evaluation_named("learned")  # loaded once
    assert learned.top != gf.TOP and learned.scale == gf.SCALE
    # The same position, valued differently, by the features of each evaluation.
    state = _positions(1, seed=2)[0]
    assert gf.FEATURES.with_evaluation("learned").balance(state) != gf.FEATURES.balance(state)
    assert gf.FEATURES.with_evaluation("default") is gf.FEATURES


def test_an_unknown_evaluation_is_refused() -> None:
    with pytest.raises(SengokuError, match="evaluation"):
        make_agent("gungi", "alphabeta:eval=nonsense")
    with pytest.raises(SengokuError, match="no evaluation but its own"):
        make_agent("gunkimono", "alphabeta:eval=learned")


def test_level_5_plays_the_tuned_evaluation_and_the_levels_below_the_hand_made() -> None:
    """Level 5 became the tuned evaluation when it beat the hand-made one at level 5's own
    time (docs/ai.md); ``level5:eval=default`` is the level 5 it replaced."""
    assert make_agent("gungi", "level5").knowledge.evaluation.name == "learned"  # type: ignore[attr-defined]
    before = make_agent("gungi", "level5:eval=default")
    assert before.knowledge is gf.FEATURES
    for level in (3, 4):
        assert make_agent("gungi", f"level{level}").knowledge is gf.FEATURES  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec", ["alphabeta:native=1:eval=learned", "level5:eval=learned", "level5"]
)
def test_the_learned_option_plays_legal_moves(spec: str) -> None:
    game = load_game("gungi")
    state: Any = game.new_state(seed=4)
    agents = [make_agent(game, spec, seed=1), make_agent(game, "alphabeta:native=1", seed=2)]
    for _ in range(24):
        if state.is_terminal():
            break
        seat = state.current_player
        move = agents[seat].choose(state, seat, Budget(iterations=300))
        assert move in state.legal_actions()
        state.apply(move)
    assert agents[0].knowledge.evaluation.name == "learned"  # type: ignore[attr-defined]


def test_tiny_tuning_run_writes_weights_that_play(tmp_path: Path) -> None:
    out = tmp_path / "eval.json"
    data = tmp_path / "data.npz"
    args = ["train", "gungi", "--texel", "--tiny", "--seed", "3"]
    assert main([*args, "--out", str(out), "--save-data", str(data)]) == 0
    made = json.loads(out.read_text())["made"]
    assert made["data"][0]["games"] == 4 and made["data"][0]["positions"] > 0
    assert set(made["fit"]["log_loss"]) == {"constant", "hand_made", "tuned"}
    assert "--texel" in made["command"] and made["seed"] == 3
    # The saved data fits again without self-play; the result plays as ``eval=PATH``.
    again = tmp_path / "again.json"
    assert (
        main(
            ["train", "gungi", "--texel", "--games", "0", "--data", str(data), "--out", str(again)]
        )
        == 0
    )
    game = load_game("gungi")
    state: Any = game.new_state(seed=1)
    agent = make_agent(game, f"alphabeta:native=1:eval={again}")
    assert agent.choose(state, 0, Budget(iterations=200)) in state.legal_actions()


def test_held_out_data_is_scored_and_never_fitted(tmp_path: Path) -> None:
    # The curve of strength against data: fits on more or less data, scored on the same games.
    train, test = tmp_path / "train.npz", tmp_path / "test.npz"
    for seed, path in ((3, train), (4, test)):
        run = ["train", "gungi", "--texel", "--tiny", "--seed", str(seed), "--save-data"]
        assert main([*run, str(path), "--out", str(tmp_path / f"{seed}.json")]) == 0
    out = tmp_path / "curve.json"
    fit = ["train", "gungi", "--texel", "--games", "0", "--data", str(train), "--steps", "50"]
    assert main([*fit, "--held-out-data", str(test), "--out", str(out)]) == 0
    made = json.loads(out.read_text())["made"]
    data, _ = texel.load_data(str(test))
    record = made["fit"]
    assert record["held_out_positions"] == len(data["result"])
    assert record["held_out_games"] == len(np.unique(data["game"]))
    assert made["held_out_data"][0]["seed"] == 4 and "--held-out-data" in made["command"]
    # The held-out loss is the loss on exactly that data (the hand-made evaluation, K kept).
    lin, counts = et.features(data["towers"].astype(np.int64), data["hands"].astype(np.float64))
    p = 1 / (1 + np.exp(-record["k"] * et.balance(et.hand_made(), lin, counts)))
    want = texel.log_loss(p, data["result"].astype(np.float64))
    assert record["log_loss"]["hand_made"]["held_out"] == pytest.approx(want, abs=2e-6)


def test_the_tuner_is_the_one_the_game_s_features_declare(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``sengoku train GAME --texel`` picks the tuner from the features' declared ``texel``
    (the command line names no game): Gungi's tables, Sashimono's terms; a game that
    declares nothing to tune is refused, naming it, and each tuner refuses the other kind."""
    from sengoku.arena import texel_terms

    assert load_game("gungi").features().texel == "tables"
    assert load_game("sashimono").features().texel == "terms"
    assert main(["train", "gunkimono", "--texel", "--tiny", "--out", "x.json"]) == 2
    assert "gunkimono's evaluation declares nothing to tune" in capsys.readouterr().err
    with pytest.raises(SengokuError, match="not made of a search's tables"):
        texel.table_tuning(load_game("sashimono"))
    with pytest.raises(SengokuError, match="not linear in per-side terms"):
        texel_terms.term_features(load_game("gungi"))
