"""The balance of the card set by self-play (``sengoku selfplay sashimono``): the game's own
figures and its scripted ``greedy`` player, declared through the Game's hooks (they were a
separate tool in the arena, which now names no game)."""

from __future__ import annotations

import random

import pytest

from sengoku.arena.selfplay import selfplay
from sengoku.core.registry import load_game
from sengoku.games.sashimono.selfplay import greedy_choice, wilson


def test_the_report_counts_each_army_and_every_scored_card() -> None:
    game = load_game("sashimono")
    report = selfplay(game, 3, "greedy", seed=5)
    wins = report["wins"]
    assert sum(wins.values()) == 3
    assert set(wins) <= {"west", "east", "none"}
    assert report["west_share"] == round(wins.get("west", 0) / 3, 3)
    low, high = report["west_share_ci95"]
    assert 0.0 <= low <= report["west_share"] <= high <= 1.0
    # every scored card is counted at most once a game
    assert all(1 <= n <= 3 for n in report["scored_games"].values())
    assert report["mean_decisions"] > 0


def test_the_solo_report_counts_the_player_against_the_kagemusha() -> None:
    report = selfplay(load_game("sashimono"), 2, "random", seed=1, options={"mode": "solo"})
    assert set(report["wins"]) <= {"player", "kagemusha"}
    assert sum(report["wins"].values()) == 2
    assert "player_share_ci95" in report


def test_greedy_picks_a_legal_decision_everywhere() -> None:
    """It chooses in a determinization (what its seat may see), yet the decision it returns
    is always one of the true state's legal ones."""
    game = load_game("sashimono")
    state = game.new_state(3)
    rng = random.Random(0)
    for _ in range(40):
        if state.is_terminal():
            break
        seat = state.current_player
        chosen = greedy_choice(state, seat, random.Random(1))  # type: ignore[arg-type]
        assert chosen in state.legal_actions()
        state.apply(rng.choice(state.legal_actions()))


def test_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.404, abs=1e-3) and high == pytest.approx(0.596, abs=1e-3)
