"""Refused input changes nothing, bit for bit, every registered game.

At positions of random games (the end included): actions that are not legal here (from
the integer action space, and actions legal elsewhere in the game: another seat's, another
phase's), things that are no action at all, and notation that names no legal action are
each refused with the library's error, and afterwards the state's JSON, every view, the
player to act, the legal actions and the outcome are exactly what they were.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from sengoku.core.game import IllegalAction, ParseError, SengokuError, State
from sengoku.core.registry import load_game
from tests.contract.cases import PARAMS, SCALE, fingerprint, sample_positions

GAMES = SCALE
NOT_ACTIONS: list[Any] = [None, 12345, -1, 3.5, object(), (), b"x", ["move"]]
GARBAGE = [
    "",
    "   ",
    "xyzzy",
    "??",
    "-",
    "1-1-1-1-1-1",
    "\x00",
    "\u26e9\u26e9\u26e9",
    "a" * 500,
    "resign please",
]


def positions(name: str, options: dict[str, Any]) -> list[State]:
    game = load_game(name)
    out: list[State] = []
    for seed in range(GAMES):
        out += sample_positions(game, options, 100 + seed, 8)
    return out


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_illegal_actions_change_nothing(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    states = positions(name, options)
    rng = random.Random(f"refuse-{name}")
    elsewhere = {str(a): a for st in states for a in st.legal_actions()}
    size = game.num_distinct_actions(**states[0].options)
    refused = 0
    for state in states:
        before = fingerprint(state)
        legal = state.legal_actions()
        candidates = [a for a in elsewhere.values() if a not in legal]
        tries = rng.sample(candidates, min(12, len(candidates)))
        for n in rng.sample(range(size), min(24, size)):
            try:
                action = game.int_to_action(state, n)
            except SengokuError:
                continue
            if action not in legal:
                tries.append(action)
        for action in tries:
            with pytest.raises(IllegalAction):
                state.apply(action)
            refused += 1
        assert fingerprint(state) == before, f"{name}: a refused action changed the state"
        for thing in NOT_ACTIONS:
            with pytest.raises(SengokuError):
                state.apply(thing)
        assert fingerprint(state) == before, f"{name}: a refused non-action changed the state"
    assert refused > 0


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_why_illegal_is_the_refusal(name: str, options: dict[str, Any]) -> None:
    """``why_illegal`` (the contract's explanation of a refusal): None for every legal
    action; for an action legal elsewhere in the game, or a thing that is no action, the
    reason, which is exactly what ``apply`` refuses with; asking changes nothing."""
    states = positions(name, options)
    rng = random.Random(f"why-{name}")
    elsewhere = {str(a): a for st in states for a in st.legal_actions()}
    explained = 0
    for state in states:
        before = fingerprint(state)
        legal = state.legal_actions()
        assert all(state.why_illegal(a) is None for a in legal), name
        candidates = [a for a in elsewhere.values() if a not in legal]
        for action in [*rng.sample(candidates, min(8, len(candidates))), *NOT_ACTIONS[:3]]:
            why = state.why_illegal(action)
            assert isinstance(why, str) and why, f"{name}: no reason for {action!r}"
            with pytest.raises(SengokuError) as refused:
                state.apply(action)
            if isinstance(refused.value, IllegalAction):
                assert str(refused.value) == why
            explained += 1
        assert fingerprint(state) == before, f"{name}: why_illegal changed the state"
    assert explained > 0


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_garbage_notation_changes_nothing(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    for state in positions(name, options):
        before = fingerprint(state)
        legal = state.legal_actions()
        texts = [*GARBAGE, *(f"{a} {a} {a} zz" for a in legal[:2])]
        for text in texts:
            with pytest.raises(ParseError):
                game.parse_action(state, text)
        assert fingerprint(state) == before, f"{name}: refused notation changed the state"


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_notation_that_is_not_text_is_refused(name: str, options: dict[str, Any]) -> None:
    """``parse_action`` given something that is not a string: the library's error, not an
    ``AttributeError`` from inside the parser."""
    game = load_game(name)
    state = game.new_state(0, **options)
    before = fingerprint(state)
    for thing in (None, 42, b"abc", ["a"]):
        with pytest.raises(SengokuError):
            game.parse_action(state, thing)  # type: ignore[arg-type]
    assert fingerprint(state) == before
