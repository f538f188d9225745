"""Game analysis (issue 38): honest for hidden information, reproducible, finds a blunder."""

from __future__ import annotations

import json
import random

import pytest

import sengoku
from sengoku.analysis import (
    AnalysisBudget,
    analyse,
    analyse_position,
    classify,
    format_table,
    game_accuracy,
    move_accuracy,
)
from sengoku.core.game import SengokuError, State
from sengoku.core.record import GameRecord
from tests.analysis.clock import IterationClock, searches, used
from tests.gungi.conftest import fen_of

SMALL = AnalysisBudget(iterations=48)


def random_record(game: str, seed: int, plies: int) -> tuple[GameRecord, State]:
    record, state = GameRecord.start(sengoku.load_game(game), seed)
    rng = random.Random(seed)
    while not state.is_terminal() and len(record.actions) < plies:
        record.play(state, rng.choice(state.legal_actions()))
    return record, state


def choice_points(game: str, seed: int, count: int) -> list[tuple[State, object, int]]:
    """``count`` positions of a random game, from its 40th ply on (past the set-up, where much
    is hidden), where the mover has a choice, with the move played there and the ply number."""
    record, state = GameRecord.start(sengoku.load_game(game), seed)
    rng = random.Random(seed)
    found = []
    while not state.is_terminal() and len(found) < count:
        legal = state.legal_actions()
        action = rng.choice(legal)
        if len(legal) > 1 and len(record.actions) >= 40 and rng.random() < 0.3:
            found.append((state.clone(), action, len(record.actions) + 1))
        record.play(state, action)
    return found


@pytest.mark.parametrize("game", ["gunshi", "sashimono"])
def test_a_ply_reads_only_what_the_mover_could_see(game: str) -> None:
    """Two games that differ only in what the mover cannot see at a ply (the second built from
    the first's state by ``determinize`` for the mover with another generator, not by the
    analysis) get the same analysis of that ply: preferred move, winning chances, all."""
    points = choice_points(game, seed=11, count=3)
    assert len(points) == 3
    for state, played, ply in points:
        mover = state.current_player
        other = state.determinize(mover, random.Random(ply * 31 + 7))
        assert other.view(mover) == state.view(mover)
        # The worlds do differ where the mover cannot look (else the test proves nothing).
        assert json.dumps(other.to_json(), sort_keys=True, default=str) != json.dumps(
            state.to_json(), sort_keys=True, default=str
        )
        first = analyse_position(state, played, budget=SMALL, seed=4, ply=ply)
        second = analyse_position(other, str(played), budget=SMALL, seed=4, ply=ply)
        assert first == second
        assert first.before is not None and first.candidates


@pytest.mark.parametrize("game", ["gunshi", "sashimono"])
def test_hindsight_reads_the_true_state(game: str) -> None:
    """The hindsight mode, by contrast, sees the hidden parts: some ply's analysis differs
    between the two worlds (so the honesty test above would catch a search of the true
    state)."""
    differs = False
    for state, played, ply in choice_points(game, seed=11, count=3):
        other = state.determinize(state.current_player, random.Random(ply * 31 + 7))
        a = analyse_position(state, played, budget=SMALL, seed=4, ply=ply, hindsight=True)
        b = analyse_position(other, played, budget=SMALL, seed=4, ply=ply, hindsight=True)
        differs = differs or a != b
    assert differs


def test_hindsight_is_only_for_finished_games() -> None:
    record, _ = random_record("sashimono", 2, 10)
    with pytest.raises(SengokuError, match="finished game"):
        analyse(record, SMALL, hindsight=True)


def test_same_seed_same_analysis() -> None:
    record, _ = random_record("gungi", 3, 24)
    first = analyse(record, SMALL, seed=9).to_json()
    second = analyse(record, SMALL, seed=9).to_json()
    for key in ("seconds", "cpu_seconds"):  # measured, not computed
        first.pop(key)
        second.pop(key)
    assert first == second
    assert first["information"] == "mover"
    assert len(first["plies"]) == 24
    assert [p["ply"] for p in first["plies"]] == list(range(1, 25))
    # Each ply's analysis depends only on the seed and the ply: analysing a few alone agrees.
    part = analyse(record, SMALL, seed=9, plies=range(20, 23))
    assert [p.to_json() for p in part.plies] == first["plies"][19:22]


def test_hidden_information_game_record_is_analysed_from_the_mover() -> None:
    record, _ = random_record("gunshi", 5, 12)
    result = analyse(record, AnalysisBudget(iterations=16), seed=1)
    assert result.information == "mover"
    assert len(result.plies) == 12
    text = format_table(result)
    assert "mover's information" in text and "accuracy" in text


def test_a_move_that_allows_the_marshal_capture_is_a_blunder() -> None:
    """White can take Black's Marshal with its General (1-5 to 1-1); moving its Knight off
    the 5-file instead opens its own Marshal to Black's General on 5-1."""
    gungi = sengoku.load_game("gungi")
    state = gungi.from_fen(fen_of({"5-9": "M", "5-8": "R", "5-1": "g", "1-1": "m", "1-5": "G"}))
    blunder = gungi.parse_action(state, "4-8-1 馬(5-8)")
    result = analyse_position(state, blunder, budget=AnalysisBudget(iterations=200), seed=0)
    assert result.best == "1-1-1 大(1-5)取"
    assert result.before is not None and result.before > 0.95
    assert result.after is not None and result.after < 0.1
    assert result.classification == "blunder"
    assert result.accuracy < 10
    good = analyse_position(state, "1-1-1 大(1-5)取", budget=AnalysisBudget(iterations=200))
    assert good.drop == 0 and good.classification is None and good.accuracy == 100


def test_thresholds_and_accuracy_formula() -> None:
    assert [classify(d) for d in (0.05, 0.1, 0.2, 0.29, 0.3, 1.0)] == [
        None,
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert move_accuracy(0.6, 0.6) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.6, 0.7) == pytest.approx(100.0, abs=0.01)
    # lichess: a 10-point drop of win percentage is about 63.9% accuracy
    assert move_accuracy(0.6, 0.5) == pytest.approx(103.1668 * 2.718281828 ** (-0.4354) - 3.1669)
    assert move_accuracy(1.0, 0.0) == 0.0
    assert game_accuracy([]) is None
    assert game_accuracy([100.0, 100.0]) == pytest.approx(100.0)
    # one blunder among good moves pulls the harmonic half down hard
    assert game_accuracy([100.0, 100.0, 100.0, 1.0]) < 0.6 * 100


def test_budget_is_checked() -> None:
    with pytest.raises(SengokuError, match="iterations"):
        AnalysisBudget(iterations=1)
    with pytest.raises(SengokuError, match="seconds"):
        AnalysisBudget(seconds=0)
    with pytest.raises(SengokuError, match="cpu_seconds"):
        AnalysisBudget(cpu_seconds=0)


def test_the_search_stops_at_its_cpu_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """``cpu_seconds`` is a budget for the whole game, counted on the CPU clock: the searches
    stop when it is spent (each search still runs its ``floor`` of iterations), where the
    iteration budget alone would search 200 + 100 times a ply."""
    record, _ = random_record("gungi", 4, 10)
    clock = IterationClock(monkeypatch)
    free = analyse(record, AnalysisBudget(iterations=40, floor=1), seed=2, clock=clock)
    searched = [p for p in free.plies if not p.forced]
    assert searched and all(p.iterations[0] == 40 for p in searched)
    assert free.cpu_seconds == sum(sum(p.iterations) for p in free.plies)

    clock.now = 0.0
    budget = AnalysisBudget(iterations=200, floor=1, cpu_seconds=30)
    cut = analyse(record, budget, seed=2, clock=clock)
    plies = [p.to_json() for p in cut.plies]
    assert cut.cpu_seconds == used(plies)
    # Within the budget, but for the one iteration each search runs whatever is left.
    assert used(plies) <= 30 + searches(plies), [p.iterations for p in cut.plies]
    assert all(p.iterations[0] < 200 for p in cut.plies)
    assert cut.to_json()["budget"]["cpu_seconds"] == 30
