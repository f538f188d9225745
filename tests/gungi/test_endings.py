"""How a Gungi game ends: Marshal captured, mate, resignation, repetition, length guard."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import sengoku.games.gungi.state as state_module
from sengoku.core.game import IllegalAction
from sengoku.games.gungi import Gungi

from .conftest import fen_of

# Positions published with gungi.js's tests (facts, not code): Black to move.
MATED = "3img3/1ra1|n:G|1as1/d1fwdwf2/9/8d/9/D1FWDWF1D/1SA1N1AR1/4MI3 J2N2S1R1D1/j2n2s1r1d1 b 1 - 3"
ESCAPES = "3img3/1ra1N1as1/d1fw2f1d/4dw3/9/9/D1FWDWF1D/1SA3AR1/3GMI3 J2N2S1R1D1/j2n2s1r1d1 b 1 - 3"
NO_SAFE_MOVE = "8m/9/7DD/7C1/9/9/9/9/M8 -/- b 3 - 1"


def test_mate_when_capture_is_unavoidable(gungi: Gungi) -> None:
    state = gungi.from_fen(MATED)
    assert state.is_terminal()
    result = state.outcome()
    assert result is not None and result.reason == "mate" and result.winners == (0,)
    assert state.legal_actions() == []
    assert state.current_player == -1


def test_attacked_marshal_with_an_escape_is_not_mate(gungi: Gungi) -> None:
    state = gungi.from_fen(ESCAPES)
    assert not state.is_terminal()
    assert state.marshal_capturable(1)


def test_mate_whether_or_not_attacked_now(gungi: Gungi) -> None:
    # spec: every move leaves the Marshal capturable, attacked now or not: that is mate.
    state = gungi.from_fen(NO_SAFE_MOVE)
    assert not state.marshal_capturable(1)
    result = state.outcome()
    assert result is not None and result.reason == "mate" and result.winners == (0,)


def test_marshal_capture_wins(gungi: Gungi) -> None:
    state = gungi.from_fen(fen_of({"5-9": "M", "5-5": "G", "5-2": "m", "1-1": "d"}))
    capture = gungi.parse_action(state, "5-2-1 大")
    events = state.apply(capture)
    result = state.outcome()
    assert result is not None
    assert (result.reason, result.winners, result.returns) == (
        "marshal_captured",
        (0,),
        (1.0, -1.0),
    )
    assert events[-1]["type"] == "game_over"


def test_self_check_option(gungi: Gungi) -> None:
    # The black general on 5-1 watches the whole file: moving White's knight off it exposes
    # the Marshal. Allowed by default (a legal blunder); refused with self_check=forbidden.
    towers = {"5-9": "M", "5-8": "R", "5-1": "g", "1-1": "m"}
    allowed = gungi.from_fen(fen_of(towers))
    assert "4-8-1 馬(5-8)" in [str(m) for m in allowed.legal_actions()]
    forbidden = gungi.from_fen(fen_of(towers), self_check="forbidden")
    assert "4-8-1 馬(5-8)" not in [str(m) for m in forbidden.legal_actions()]
    assert "5-7-1 馬(5-8)" in [str(m) for m in forbidden.legal_actions()]  # still blocks
    with pytest.raises(IllegalAction, match="Marshal capturable"):
        forbidden.apply(gungi.parse_action(allowed, "4-8-1 馬"))


def test_resignation(gungi: Gungi) -> None:
    state = gungi.new_state()
    state.concede(0, "resignation")
    result = state.outcome()
    assert result is not None and result.winners == (1,) and result.reason == "resignation"
    with pytest.raises(IllegalAction, match="over"):
        state.apply(gungi.new_state().legal_actions()[0])
    with pytest.raises(IllegalAction):
        state.concede(1)


def test_fourfold_repetition_is_replayed(gungi: Gungi) -> None:
    # rulebook: the same position the 4th time: no winner, the game is to be replayed.
    state = gungi.from_fen(fen_of({"5-9": "M", "5-1": "m"}))
    shuffle = ["4-9-1 帥", "4-1-1 帥", "5-9-1 帥", "5-1-1 帥"]
    for cycle in range(3):
        for text in shuffle:
            assert not state.is_terminal(), (cycle, text)
            state.apply(gungi.parse_action(state, text))
    result = state.outcome()
    assert result is not None and result.reason == "repetition" and result.winners == ()


def test_length_limit_is_a_guard(gungi: Gungi) -> None:
    state = gungi.from_fen(fen_of({"5-9": "M", "5-1": "m", "9-9": "D", "1-1": "d"}))
    state.ply = gungi.max_game_length() - 1
    state.apply(gungi.parse_action(state, "9-8-1 兵"))
    result = state.outcome()
    assert result is not None and result.reason == "length_limit" and result.winners == ()


@pytest.mark.parametrize("where", ["instance", "class"])
def test_length_guard_follows_a_limit_replaced_after_the_state_was_made(
    gungi: Gungi, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guard compares with the limit the state read when made (``max_length``) only
    while it is the game's ``length_limit``: changed since, on the game or on its class, the
    new limit holds from the next move."""
    state = gungi.from_fen(fen_of({"5-9": "M", "5-1": "m", "9-9": "D", "1-1": "d"}))
    state.ply = 5
    if where == "instance":
        monkeypatch.setattr(gungi, "length_limit", 6)
    else:
        monkeypatch.setattr(Gungi, "length_limit", 6)
    state.apply(gungi.parse_action(state, "9-8-1 兵"))
    result = state.outcome()
    assert result is not None and result.reason == "length_limit" and result.winners == ()


@pytest.fixture(params=["native", "python"])
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each engine in turn: the native core, and the Python engine (the core turned off)."""
    saved = state_module._NATIVE
    state_module._NATIVE = request.param == "native" and saved
    try:
        yield request.param
    finally:
        state_module._NATIVE = saved


def test_the_move_keeps_the_guards_of_the_flow_in_each_engine(gungi: Gungi, engine: str) -> None:
    """Gungi's move keeps the flow's first and last steps itself (``guards=True``): at the
    limit its events end with the guard's, and a finished game refuses every move, naming
    its end, and changes nothing, in either engine."""
    state = gungi.from_fen(fen_of({"5-9": "M", "5-1": "m", "9-9": "D", "1-1": "d"}))
    state.ply = gungi.max_game_length() - 1
    move = gungi.parse_action(state, "5-8-1 帥")  # legal until the game ends
    events = state.apply(gungi.parse_action(state, "9-8-1 兵"))
    assert [e["type"] for e in events] == ["move", "game_over"]
    assert events[-1]["reason"] == "length_limit"
    before = state.to_json()
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(move)
    assert state.to_json() == before
