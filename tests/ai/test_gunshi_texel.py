"""Gunshi's tuned evaluation for IS-MCTS (``eval=learned``; ``sengoku train gunshi --texel``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sengoku.ai import make_agent
from sengoku.ai.base import Budget
from sengoku.arena.texel import save_data
from sengoku.cli import main
from sengoku.core.registry import load_game
from sengoku.games.gunshi import features as gf
from sengoku.games.gunshi.data import CELLS, SIZE
from tests.ai.search_positions import unfinished_positions
from tests.gunshi.helpers import battle


def _positions(count: int, seed: int) -> list[Any]:
    """Unfinished positions of random play, early and late (past the pressure's start)."""
    return unfinished_positions("gunshi", count, seed, (20, 400))


def _next_to_shogun(state: Any, seat: int) -> tuple[int, int]:
    """Written here, not read from the features: ``seat``'s units one and two orthogonal
    steps from the enemy's Shogun as the state has it."""
    shogun = state.shoguns.shogun[1 - seat]
    target = state.field.uloc[shogun] if shogun >= 0 else -1
    one = two = 0
    if 0 <= target < CELLS:
        for owner, cell in zip(state.field.uown, state.field.uloc, strict=True):
            if owner == seat and 0 <= cell < CELLS:
                steps = abs(cell // SIZE - target // SIZE) + abs(cell % SIZE - target % SIZE)
                one += steps == 1
                two += steps == 2
    return one, two


def test_the_hand_made_weights_give_the_heuristic_the_levels_play() -> None:
    positions = _positions(30, 1)
    assert any(s.ply > gf.PRESSURE_FROM for s in positions)  # the pressure term is on too
    hand, scale = gf.FEATURES.hand_made_weights()
    assert scale == gf.INVASION and hand[gf.TERMS.index("shogun_next")] == 0.0
    for state in positions:
        for seat in (0, 1):
            lead = np.array(gf.FEATURES.lead_terms(state, seat))
            weight = gf.approach_weight(state.ply)
            expected = scale * lead @ np.array(hand) + weight * lead[gf.TERMS.index("approach")]
            assert gf.FEATURES.heuristic(state, seat) == pytest.approx(expected, abs=1e-12)


def test_the_tuned_heuristic_is_the_weighted_lead_and_the_terms_are_each_sides() -> None:
    other = gf.Evaluation("test", 1.0, 0.4, 0.2, 0.03, -0.1, 0.01, 0.02, 0.5, 0.8, scale=0.3)
    features = gf.GunshiFeatures(other)
    weights = np.array([getattr(other, t) for t in gf.TERMS])
    reached = 0
    for state in _positions(30, 2):
        for seat in (0, 1):
            lead = np.array(features.lead_terms(state, seat))
            pressure = gf.approach_weight(state.ply) * lead[gf.TERMS.index("approach")]
            assert features.heuristic(state, seat) == pytest.approx(0.3 * lead @ weights + pressure)
            assert lead == pytest.approx(-np.array(features.lead_terms(state, 1 - seat)))
            one, two = _next_to_shogun(state, seat)
            theirs = _next_to_shogun(state, 1 - seat)
            assert lead[gf.TERMS.index("shogun_next")] == one - theirs[0]
            assert lead[gf.TERMS.index("shogun_close")] == two - theirs[1]
            reached += bool(one or two)
    assert reached  # some positions have units near a Shogun


def test_the_shipped_learned_evaluation_loads_with_its_record() -> None:
    path = gf.LEARNED_PATH
    assert path.is_file() and path.stat().st_size < 64_000
    made = json.loads(path.read_text())["made"]
    assert made["command"].startswith("sengoku train gunshi --texel")
    assert made["data"] and made["data"][0]["terms"] == list(gf.TERMS)
    fit = made["fit"]["log_loss"]
    # the tuned weights predict the held-out games better than the hand-made ones
    assert fit["tuned"]["held_out"] < fit["hand_made_as_shipped"]["held_out"]
    assert fit["tuned"]["held_out"] < fit["constant"]["held_out"]
    learned = gf.evaluation_named("learned")
    assert learned != gf.HAND_MADE and learned.invasion == 1.0 and learned.scale > 0


def test_level_5_plays_the_tuned_evaluation_and_the_levels_below_as_before() -> None:
    """Level 5 took the tuned evaluation when it beat the level 5 before it, at level 5's
    own time, in two pre-registered runs (docs/ai.md); ``level5:eval=default`` is the level
    5 it replaced."""
    game = load_game("gunshi")
    five: Any = make_agent(game, "level5")
    assert five.knowledge.evaluation == gf.evaluation_named("learned")
    assert five.options["turn_seconds"] == 1.0 and five.options["c"] == 0.7
    before: Any = make_agent(game, "level5:eval=default")
    assert before.knowledge is gf.FEATURES
    for level in (2, 3, 4):
        agent: Any = make_agent(game, f"level{level}")
        assert agent.knowledge is gf.FEATURES
    assert make_agent(game, "level1").knowledge is gf.FEATURES  # type: ignore[attr-defined]


def test_level_5_searches_alike_whichever_unit_is_the_hidden_enemy_shogun() -> None:
    """The tuned evaluation reads the enemy's Shogun, so it must only ever see one drawn
    from what the seat may know: two battles that differ only in Blue's hidden Shogun give
    Red the same move and the same search."""
    units = ["R I c1 n", "R C d2 n", "R A e1 n", "B I c3 s", "B C d4 s", "B A f5 s"]
    a = battle(units, shogun=(None, None))
    b = battle(units, shogun=(None, None))
    candidates = a.shoguns.candidates[1]
    b.shoguns.shogun[1] = next(u for u in candidates if u != a.shoguns.shogun[1])
    assert a.view(0) == b.view(0) and a.to_json() != b.to_json()
    # read from the true states, the tuned terms would tell the two apart
    learned = gf.FEATURES.with_evaluation("learned")
    assert learned.heuristic(a, 0) != learned.heuristic(b, 0)
    results = []
    for state in (a, b):
        agent: Any = make_agent(load_game("gunshi"), "level5:eval=learned:floor=0", seed=4)
        action = agent.choose(state, 0, Budget(iterations=150))
        stats = {k: v for k, v in agent.last_stats.items() if k != "seconds"}
        results.append((str(action), json.dumps(stats, sort_keys=True, default=str)))
    assert results[0] == results[1]


def test_saved_positions_fit_and_the_weights_play_as_a_file(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    lead = rng.normal(0, 1, size=(20_000, len(gf.TERMS)))
    truth = np.array([1.2, 0.6, 0.2, 0.05, -0.1, 0.0, 0.02, 0.5, 0.7])
    y = (rng.random(len(lead)) < 1 / (1 + np.exp(-lead @ truth))).astype(float)
    data = tmp_path / "positions.npz"
    record = {"games": 400, "agent": "synthetic", "seed": 3, "terms": list(gf.TERMS)}
    save_data(str(data), {"lead": lead, "result": y, "game": np.arange(len(y)) // 50}, record)
    out = tmp_path / "w.json"
    argv = ["train", "gunshi", "--texel", "--games", "0", "--data", str(data), "--l2", "1e-6"]
    assert main([*argv, "--out", str(out)]) == 0
    weights = json.loads(out.read_text())["weights"]
    assert weights["scale"] == pytest.approx(truth[0] / 2, abs=0.05)
    assert weights["shogun_close"] == pytest.approx(truth[-1] / truth[0], abs=0.1)
    game = load_game("gunshi")
    state = game.new_state(3)
    agent = make_agent(game, "ismcts", iterations=8, eval=str(out))
    assert agent.choose(state, state.current_player) in state.legal_actions()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_tiny_tuning_run_writes_weights_whatever_its_seed(tmp_path: Path, seed: int) -> None:
    out = tmp_path / "w.json"
    assert (
        main(["train", "gunshi", "--texel", "--tiny", "--seed", str(seed), "--out", str(out)]) == 0
    )
    written = json.loads(out.read_text())
    assert set(written["weights"]) == {*gf.TERMS, "scale"}
    assert written["made"]["fit"]["fit"] == "scale" and written["weights"]["scale"] > 0
    assert "--games 4" in written["made"]["command"] and str(out) in written["made"]["command"]
