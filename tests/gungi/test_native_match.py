"""Gungi's native matches (``Gungi.native_play``: whole games in the core, for the research
adapters) play as the contract plays: the same legal integers, observations (every seat's and
a spectator's), contract states and outcomes, ply after ply through whole games of every mode
and rules option, each ending (Marshal captured, mate, fourfold repetition, length guard) and
a match loaded from any state; an action not legal changes nothing."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from sengoku.core.game import Outcome
from sengoku.games.gungi import Gungi, GungiState, native_core

from .conftest import fen_of

pytestmark = pytest.mark.skipif(
    not native_core.HAS_MATCH, reason=f"native core without Match: {native_core.UNAVAILABLE_REASON}"
)

#: Every mode, and the rules options that change play (the archer_blockers option where the
#: mode has Archers; intro has none and refuses it).
OPTIONS: list[dict[str, Any]] = [
    {"mode": "intro"},
    {"mode": "beginner", "archer_blockers": "front_and_wing"},
    {"mode": "intermediate", "self_check": "forbidden"},
    {"mode": "advanced", "betrayal": "all_or_nothing", "first_player": "black"},
    {"mode": "advanced", "archer_blockers": "front_and_wing", "first_player": "random"},
]


def _same_position(
    gungi: Gungi, play: Any, match: Any, state: GungiState, encoder: Any, step: int
) -> None:
    """The match and the contract state agree on everything an adapter reads."""
    assert match.current_player == state.current_player, step
    assert match.is_terminal() == state.is_terminal(), step
    legal = gungi.legal_action_ints(state) if not state.is_terminal() else []
    assert match.legal_ints() == legal, step
    for seat in (0, 1, None):
        want = encoder.encode(state.view(seat), seat)
        got = np.empty(want.size, np.float32)  # a flat buffer, as OpenSpiel's observer's
        play.observe_into(match, seat, got)
        flat = want.reshape(-1)
        assert np.array_equal(got, flat), (step, seat, np.argwhere(got != flat)[:5])
        if seat is not None:
            tensor = play.observe(match, seat)
            assert tensor.shape == want.shape and tensor.dtype == np.float32
            assert np.array_equal(tensor, want), (step, seat)
    assert play.outcome(match) == state.outcome(), step


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_whole_random_games_play_as_the_contract(gungi: Gungi, options: dict[str, Any]) -> None:
    play = gungi.native_play(**options)
    assert play is not None
    encoder = gungi.observation_encoder(**options)
    rng = random.Random(f"native-match-{options}")
    endings: set[str] = set()
    for seed in range(3):
        match = play.deal(seed)
        state = gungi.new_state(seed=seed, **options)
        step = 0
        while True:
            # Every ply is compared while the game is young, then one in ten (the contract's
            # observations are the slow half).
            if step < 40 or step % 10 == 0 or state.is_terminal():
                _same_position(gungi, play, match, state, encoder, step)
            if state.is_terminal():
                break
            action = rng.choice(gungi.legal_action_ints(state))
            assert match.apply(action) is True
            state.apply(gungi.int_to_action(state, action))
            step += 1
            if step % 97 == 0:
                assert play.state_of(match).to_json() == state.to_json(), step
        assert play.state_of(match).to_json() == state.to_json()
        outcome = play.outcome(match)
        assert outcome is not None
        endings.add(outcome.reason)
    assert endings  # every game ended, by the rules or the guard


def test_an_action_not_legal_changes_nothing(gungi: Gungi) -> None:
    play = gungi.native_play(mode="beginner")
    assert play is not None
    match = play.deal(0)
    legal = match.legal_ints()
    before = play.observe(match, 0)
    not_legal = next(n for n in range(100_000) if n not in legal)
    for action in (not_legal, -1, 10**30, gungi.num_distinct_actions()):
        assert match.apply(action) is False
    with pytest.raises(TypeError):
        match.apply(1.5)
    assert match.legal_ints() == legal and match.played == [] and match.ply == 0
    assert np.array_equal(play.observe(match, 0), before)


def test_a_clone_plays_on_its_own(gungi: Gungi) -> None:
    play = gungi.native_play(mode="intermediate")
    assert play is not None
    match = play.deal(0)
    for _ in range(30):
        match.apply(match.legal_ints()[0])
    copy = match.clone()
    before = play.state_of(copy).to_json()
    match.apply(match.legal_ints()[-1])
    assert play.state_of(copy).to_json() == before
    assert copy.ply == match.ply - 1
    # A match dealt again starts from the start, whatever the first one played.
    assert play.deal(0).ply == 0 and play.deal(0).played == []


def _ended_by(gungi: Gungi, state: GungiState, moves: list[str], reason: str) -> None:
    """Playing ``moves`` from ``state`` ends the game with ``reason`` in the match as in the
    contract."""
    play = gungi.native_play(**state.options)
    assert play is not None
    match = play.load(state)
    for text in moves:
        action = gungi.action_to_int(state, gungi.parse_action(state, text))
        assert match.apply(action) is True
        state.apply(gungi.int_to_action(state, action))
    result = state.outcome()
    assert result is not None and result.reason == reason
    assert match.is_terminal() and match.current_player == -1 and match.legal_ints() == []
    assert play.outcome(match) == result
    assert play.state_of(match).to_json() == state.to_json()
    assert match.apply(0) is False


def test_each_ending_is_the_contracts(gungi: Gungi, monkeypatch: pytest.MonkeyPatch) -> None:
    # Marshal captured.
    state = gungi.from_fen(fen_of({"5-9": "M", "5-5": "G", "5-2": "m", "1-1": "d"}))
    _ended_by(gungi, state, ["5-2-1 大"], "marshal_captured")
    # Fourfold repetition.
    state = gungi.from_fen(fen_of({"5-9": "M", "5-1": "m"}))
    _ended_by(gungi, state, ["4-9-1 帥", "4-1-1 帥", "5-9-1 帥", "5-1-1 帥"] * 3, "repetition")
    # Mate: the Pawn's step leaves Black's Marshal no safe move.
    state = gungi.from_fen("8m/7D1/8D/7C1/9/9/9/9/M8 -/- w 3 - 1")
    _ended_by(gungi, state, ["2-3-1 兵(2-2)"], "mate")
    # A state over already (mated): the match is over with the state's own outcome.
    mated = (
        "3img3/1ra1|n:G|1as1/d1fwdwf2/9/8d/9/D1FWDWF1D/1SA1N1AR1/4MI3 J2N2S1R1D1/j2n2s1r1d1 b 1 - 3"
    )
    before = gungi.from_fen(mated)
    play = gungi.native_play(**before.options)
    assert play is not None
    match = play.load(before)
    assert match.is_terminal() and play.outcome(match) == before.outcome()
    # The length guard, where the limit is reached.
    monkeypatch.setattr(gungi, "length_limit", 7)
    state = gungi.from_fen(fen_of({"5-9": "M", "5-1": "m", "9-9": "D", "1-1": "d"}))
    state.ply = 5
    _ended_by(gungi, state, ["9-8-1 兵", "1-2-1 兵"], "length_limit")


def test_a_state_over_by_resignation_loads_as_over(gungi: Gungi) -> None:
    state = gungi.new_state(mode="intro")
    state.concede(0, "resignation")
    play = gungi.native_play(mode="intro")
    assert play is not None
    match = play.load(state)
    assert match.is_terminal() and match.legal_ints() == []
    assert play.outcome(match) == Outcome.win(1, 2, "resignation")
    assert play.state_of(match).to_json() == state.to_json()


def test_a_state_of_other_options_is_refused(gungi: Gungi) -> None:
    play = gungi.native_play(mode="intro")
    assert play is not None
    with pytest.raises(ValueError, match="other options"):
        play.load(gungi.new_state(mode="advanced"))


def test_a_loaded_state_plays_on_as_the_contract(gungi: Gungi) -> None:
    rng = random.Random(5)
    options = {"mode": "advanced"}
    state = gungi.new_state(**options)
    for _ in range(60):  # the setup and some play
        state.apply(gungi.int_to_action(state, rng.choice(gungi.legal_action_ints(state))))
    play = gungi.native_play(**options)
    assert play is not None
    match = play.load(state)
    encoder = gungi.observation_encoder(**options)
    for step in range(40):
        _same_position(gungi, play, match, state, encoder, step)
        if state.is_terminal():
            break
        action = rng.choice(gungi.legal_action_ints(state))
        match.apply(action)
        state.apply(gungi.int_to_action(state, action))
    assert play.state_of(match).to_json() == state.to_json()


def test_the_cores_masks_are_the_adapters(gungi: Gungi) -> None:
    from sengoku.interop.encoders import mask_of

    play = gungi.native_play(mode="intro")
    assert play is not None and play.mask_of is not None
    n = gungi.num_distinct_actions()
    rng = random.Random(2)
    for size in (0, 1, 31, 33, 200):
        legal = sorted(rng.sample(range(n), size))
        got, want = play.mask_of(legal, n), mask_of(legal, n)
        assert got.dtype == want.dtype == np.int8 and np.array_equal(got, want)
    # A fresh array each time: a mask kept by an observation never changes.
    first = play.mask_of([1], n)
    play.mask_of([2], n)
    assert first[1] == 1 and first[2] == 0
    for bad, error in (([n], IndexError), ([-1], IndexError), (["1"], TypeError)):
        with pytest.raises(error):
            play.mask_of(bad, n)
