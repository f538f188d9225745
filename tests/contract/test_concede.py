"""Concede and timeout, every registered game: a valid outcome, exactly once.

The contract (``State.concede`` and ``State.timeout`` in ``sengoku/core/game.py``): the
seat that concedes (or runs out of time) loses, every other seat shares the win (one
seat: no winner, a return of -1); the game is then over (``TERMINAL`` to act, no legal
action) and its JSON and record keep the result. A second concession, a concession in a
finished game, a seat that is not in the game and an empty reason are refused with the
library's error and change nothing.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sengoku.core.game import TERMINAL, IllegalAction, SengokuError, State
from sengoku.core.record import GameRecord
from sengoku.core.registry import load_game
from tests.contract.cases import PARAMS, SCALE, fingerprint, sample_positions
from tests.contract.test_random_play import check_outcome

GAMES = SCALE


def live_positions(name: str, options: dict[str, Any]) -> list[State]:
    game = load_game(name)
    out: list[State] = []
    for seed in range(GAMES):
        out += [s for s in sample_positions(game, options, 200 + seed, 5) if not s.is_terminal()]
    return out


def check_ended_by(state: State, seat: int, reason: str) -> None:
    result = state.outcome()
    check_outcome(result, state.num_players)
    assert result is not None
    assert result.reason == reason
    assert seat not in result.winners
    assert result.returns[seat] == -1.0
    others = [s for s in range(state.num_players) if s != seat]
    assert set(result.winners) == set(others)
    assert all(result.returns[s] > 0 for s in others)
    assert abs(sum(result.returns)) < 1e-9 or state.num_players == 1
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.legal_actions() == []
    back = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert back.outcome() == result and back.is_terminal()


def check_refused_after_the_end(state: State, how: str) -> None:
    before = fingerprint(state)
    for seat in range(state.num_players):
        with pytest.raises(IllegalAction):
            if how == "timeout":
                state.timeout(seat)  # type: ignore[attr-defined]
            else:
                state.concede(seat, how)
    assert fingerprint(state) == before, "a refused concession changed a finished game"


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
@pytest.mark.parametrize("how", ["resignation", "timeout"])
def test_concede_and_timeout_end_the_game_once(
    name: str, options: dict[str, Any], how: str
) -> None:
    for state in live_positions(name, options):
        for seat in range(state.num_players):
            ended = state.clone()
            if how == "timeout":
                events = ended.timeout(seat)  # type: ignore[attr-defined]
            else:
                events = ended.concede(seat, how)
            json.dumps(events)
            assert events and all(isinstance(ev.get("type"), str) for ev in events)
            check_ended_by(ended, seat, how)
            check_refused_after_the_end(ended, "resignation")
            check_refused_after_the_end(ended, how)


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
@pytest.mark.parametrize("how", ["resignation", "timeout"])
def test_a_seat_not_in_the_game_cannot_concede(
    name: str, options: dict[str, Any], how: str
) -> None:
    for state in live_positions(name, options)[:3]:
        before = fingerprint(state)
        n = state.num_players
        for seat in (-1, n, n + 1, 2 + n * 3, True, None, "0", 1.0):
            with pytest.raises(SengokuError):
                if how == "timeout":
                    state.timeout(seat)  # type: ignore[attr-defined]
                else:
                    state.concede(seat, how)  # type: ignore[arg-type]
        if how != "timeout":
            with pytest.raises(SengokuError):
                state.concede(0, "")
        assert fingerprint(state) == before, "a refused concession changed the state"


@pytest.mark.parametrize(("name", "options"), PARAMS)
@pytest.mark.parametrize("how", ["resignation", "timeout"])
def test_a_game_over_by_the_rules_cannot_be_conceded(
    name: str, options: dict[str, Any], how: str
) -> None:
    game = load_game(name)
    end = sample_positions(game, options, 300, 0)[-1]
    assert end.is_terminal()
    check_refused_after_the_end(end, how)


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_a_concession_in_a_record_replays(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    rng = random.Random(f"record-concede-{name}")
    record, state = GameRecord.start(game, 5, ["A", "B"], **options)
    for _ in range(rng.randrange(3, 40)):
        if state.is_terminal():
            break
        record.play(state, rng.choice(state.legal_actions()))
    if state.is_terminal():
        return
    seat = rng.randrange(state.num_players)
    record.concede(state, seat, "resignation")
    check_ended_by(state, seat, "resignation")
    again = GameRecord.loads(record.dumps()).replay()
    assert fingerprint(again) == fingerprint(state)
