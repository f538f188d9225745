"""The native core's queries for the research adapters (``legal_ints``, ``code_of``,
``towers``, ``marshal_capturable``) answer as the Python engine does, along random games."""

from __future__ import annotations

import random

import pytest

from sengoku.core.game import IllegalAction
from sengoku.games.gungi import Gungi, native_core
from sengoku.games.gungi import state as state_module
from sengoku.games.gungi.encoder import GungiEncoder

pytestmark = pytest.mark.skipif(
    not native_core.HAS_ADAPTER_QUERIES,
    reason=f"native core without the adapter queries: {native_core.UNAVAILABLE_REASON}",
)


def python_codes(state: state_module.GungiState) -> list[int]:
    saved = state_module._NATIVE
    state_module._NATIVE = False
    try:
        return list(state.clone().legal_codes())
    finally:
        state_module._NATIVE = saved


@pytest.mark.parametrize("mode", ["intro", "beginner", "advanced"])
def test_native_ints_codes_and_towers_are_the_python_engines(mode: str) -> None:
    gungi = Gungi()
    encoder = GungiEncoder(gungi.max_game_length())
    rng = random.Random(f"queries-{mode}")
    for seed in range(3):
        state = gungi.new_state(seed=seed, mode=mode)
        for _ in range(150):
            if state.is_terminal():
                assert gungi.legal_action_ints(state) == []
                with pytest.raises(IllegalAction):
                    gungi.int_to_action(state, 0)
                break
            codes = python_codes(state)
            ints = [code >> 14 for code in codes]
            assert native_core.legal_ints(state) == ints
            assert gungi.legal_action_ints(state) == ints
            for code in codes:
                assert native_core.code_of(state, code >> 14) == code
                assert gungi.int_to_action(state, code >> 14).code == code
            legal = set(ints)
            for n in [
                -1,
                57025,
                1 << 18,
                10**12,
                1 << 70,
                -(1 << 70),
                *rng.sample(range(57025), 20),
            ]:
                if n not in legal:
                    assert native_core.code_of(state, n) == -1
            assert native_core.towers(state) == tuple(map(tuple, state.board))
            # The encoder's snapshot (the state's own tower tuples, the Marshal flags worked
            # out when encoded) is the core's board, the same with the core or without it,
            # and encodes as the whole view does.
            for seat in (0, 1, None):
                snapshot = encoder.capture(state, seat)
                assert snapshot.board == native_core.towers(state)
                state_module._NATIVE = False
                try:
                    python_snapshot = encoder.capture(state, seat)
                finally:
                    state_module._NATIVE = True
                assert snapshot == python_snapshot
                assert (
                    encoder.encode(snapshot, seat) == encoder.encode(state.view(seat), seat)
                ).all()
            state.apply(gungi.int_to_action(state, rng.choice(ints)))


def test_the_adapter_queries_check_their_arguments_and_hand_out_lists_of_their_own() -> None:
    """``legal_ints`` and ``code_of`` are plain CPython methods of the core's Position (not
    pybind11's dispatcher): they refuse what pybind11 refused, and the kept int objects the
    lists are made of never let one caller's list change another's."""
    gungi = Gungi()
    state = gungi.new_state(seed=1, mode="intro")
    first = native_core.legal_ints(state)
    first.append(-5)
    first[0] = 999_999
    assert native_core.legal_ints(state) == [code >> 14 for code in python_codes(state)]
    position = native_core.scratch(state)
    for bad in [(), (1, 2)]:
        with pytest.raises(TypeError, match="code_of"):
            position.code_of(*bad)
    for bad_value in [1.5, "3", None]:
        with pytest.raises(TypeError, match="code_of"):
            position.code_of(bad_value)
    with pytest.raises(TypeError, match="legal_ints"):
        position.legal_ints(1)


def test_the_cores_snapshot_is_the_tuples_capture_made_and_stays_put() -> None:
    """``GungiEncoder.capture`` through the core's ``snapshot`` (one call) is the GungiSnapshot
    that the Python tuple calls make, field by field and of the same class; it copies the
    state's lists (later play leaves it as it was), and refuses what it cannot make."""
    from sengoku.games.gungi import encoder as encoder_module

    assert encoder_module._native_snapshot is not None  # the core is built with it
    gungi = Gungi()
    encoder = GungiEncoder(gungi.max_game_length())
    rng = random.Random("snapshot")
    kept: list[tuple[object, tuple[object, ...]]] = []
    for mode in ("intro", "beginner", "advanced"):
        state = gungi.new_state(seed=3, mode=mode)
        for _ in range(120):
            for seat in (0, 1, None):
                native = encoder.capture(state, seat)
                encoder_module._native_snapshot = None
                try:
                    python = encoder.capture(state, seat)
                finally:
                    encoder_module._native_snapshot = native_core._native.snapshot
                assert type(native) is type(python) is encoder_module.GungiSnapshot
                assert native == python
                assert type(native.board) is type(native.hands[0]) is tuple
                assert type(native.drafting) is type(native.marshal_at) is tuple
                kept.append((native, tuple(python)))
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    for native, fields in kept:
        assert tuple(native) == fields
    with pytest.raises(TypeError, match="snapshot"):
        native_core._native.snapshot(dict, *range(11))
    with pytest.raises(TypeError, match="snapshot"):
        native_core._native.snapshot(encoder_module.GungiSnapshot)
    with pytest.raises(TypeError):  # a board that is no sequence
        native_core._native.snapshot(encoder_module.GungiSnapshot, 5, *range(10))
