"""Concede, timeout and the length limit: one behaviour in core, the same for every game."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import sengoku
from sengoku.core.game import Game, IllegalAction, Outcome, State
from sengoku.core.record import GameRecord

CASES = [
    pytest.param(name, dict(preset), id=f"{name}-{json.dumps(preset, sort_keys=True)}")
    for name in sengoku.list_games()
    for preset in sengoku.load_game(name).game_type.bench_presets
]


def _midgame(game: Game, options: dict[str, Any], plies: int = 7) -> State:
    state = game.new_state(3, **options)
    rng = random.Random(5)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    return state


def _check_outcome(result: Outcome | None, n: int, loser: int, reason: str) -> Outcome:
    assert result is not None and result.reason == reason
    assert len(result.scores) == len(result.returns) == n
    assert loser not in result.winners and all(0 <= w < n for w in result.winners)
    assert result.returns[loser] == -1.0
    if n == 1:
        assert result.winners == ()
    else:
        assert set(result.winners) == set(range(n)) - {loser}
        assert sum(result.returns) == pytest.approx(0.0)
        assert all(
            r == pytest.approx(1.0 / (n - 1)) for s, r in enumerate(result.returns) if s != loser
        )
    return result


@pytest.mark.parametrize(("name", "options"), CASES)
def test_concede_ends_the_game_once_with_a_valid_outcome(
    name: str, options: dict[str, Any]
) -> None:
    game = sengoku.load_game(name)
    state = _midgame(game, options)
    n = state.num_players
    before = json.dumps(state.to_json(), sort_keys=True)
    for bad in (n, -1, 5, "0", True, None):
        with pytest.raises(IllegalAction, match="concede"):
            state.concede(bad)  # type: ignore[arg-type]
        assert json.dumps(state.to_json(), sort_keys=True) == before
    loser = n - 1
    events = state.concede(loser)
    result = _check_outcome(state.outcome(), n, loser, "resignation")
    assert [e["type"] for e in events] == ["game_over"] and events[0]["winners"] == list(
        result.winners
    )
    assert state.is_terminal() and state.legal_actions() == [] and state.current_player == -1
    after = json.dumps(state.to_json(), sort_keys=True)
    for seat in range(n):  # a finished game refuses every further ending, changing nothing
        with pytest.raises(IllegalAction, match="already over"):
            state.concede(seat)
        with pytest.raises(IllegalAction, match="already over"):
            state.timeout(seat)
    assert json.dumps(state.to_json(), sort_keys=True) == after and state.outcome() == result
    again = game.state_from_json(json.loads(after))
    assert again.outcome() == result and again.is_terminal()
    assert state.clone().outcome() == result


@pytest.mark.parametrize(("name", "options"), CASES)
def test_timeout_is_a_loss_on_time_and_replays(name: str, options: dict[str, Any]) -> None:
    game = sengoku.load_game(name)
    record, state = GameRecord.start(game, 3, None, **options)
    rng = random.Random(5)
    for _ in range(4):
        record.play(state, rng.choice(state.legal_actions()))
    seat = state.current_player
    events = state.timeout(seat)
    record.concessions.append({"ply": len(record.actions), "seat": seat, "reason": "timeout"})
    record.result = state.outcome().to_json()  # type: ignore[union-attr]
    result = _check_outcome(state.outcome(), state.num_players, seat, "timeout")
    assert events[0]["reason"] == "timeout"
    assert (
        GameRecord.from_json(json.loads(json.dumps(record.to_json()))).replay().outcome() == result
    )


def test_sashimono_concede_names_a_real_seat() -> None:
    # issue 15 item 12: concede(5) gave winners=(-4,) with returns (1, 1); a second was accepted.
    state = sengoku.load_game("sashimono").new_state(0)
    with pytest.raises(IllegalAction, match="seat 5 is not in this game"):
        state.concede(5)
    assert not state.is_terminal()
    state.concede(0)
    with pytest.raises(IllegalAction, match="already over"):
        state.concede(1)
    assert state.outcome() == Outcome.loss(0, 2, "resignation", state.interim_scores())


def test_sashimono_solo_concession_has_no_winner() -> None:
    state = sengoku.load_game("sashimono").new_state(0, mode="solo")
    state.concede(0, "surrender")
    result = state.outcome()
    assert result is not None and result.winners == () and result.returns == (-1.0,)
    with pytest.raises(IllegalAction, match="seat 1 is not in this game"):
        sengoku.load_game("sashimono").new_state(0, mode="solo").concede(1)


def test_multiplayer_concession_ranks_the_loser_last_and_ties_the_rest() -> None:
    state = sengoku.load_game("gunkimono").new_state(1, players=4)
    state.concede(2)
    result = state.outcome()
    assert result is not None and result.winners == (0, 1, 3)
    assert result.returns == pytest.approx((1 / 3, 1 / 3, -1.0, 1 / 3))
    # the same as Outcome.ranked with the others tied for first
    ranked = Outcome.ranked([0, 0, 0, 0], "resignation", [0, 0, 1, 0])
    assert result.returns == pytest.approx(ranked.returns)


@pytest.mark.parametrize(("name", "options"), CASES)
def test_length_limit_ends_every_game_with_no_winner(
    name: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = sengoku.load_game(name)
    state = _midgame(game, options, plies=5)
    monkeypatch.setattr(game, "length_limit", 6)  # the documented way to set it
    events = state.apply(random.Random(1).choice(state.legal_actions()))
    result = state.outcome()
    assert result is not None and result.reason == "length_limit" and result.winners == ()
    assert result.returns == tuple(0.0 for _ in range(state.num_players))
    assert events[-1]["type"] == "game_over" and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="already over"):
        state.concede(0)
    assert game.state_from_json(json.loads(json.dumps(state.to_json()))).outcome() == result


def test_old_gunkimono_json_with_a_concession_still_loads() -> None:
    game = sengoku.load_game("gunkimono")
    data = game.new_state(0, players=3).to_json()
    data.pop("ended")
    data.update(phase="over", reason="resignation", conceded=1)
    result = game.state_from_json(data).outcome()
    assert result is not None and result.winners == (0, 2) and result.reason == "resignation"
