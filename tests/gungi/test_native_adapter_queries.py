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
            for n in [-1, 57025, 1 << 18, 10**12, *rng.sample(range(57025), 20)]:
                if n not in legal:
                    assert native_core.code_of(state, n) == -1
            assert native_core.towers(state) == tuple(map(tuple, state.board))
            # The core's snapshot encodes as the Python engine's.
            for seat in (0, 1, None):
                snapshot = encoder.capture(state, seat)
                assert snapshot.capturable is not None  # asked of the core
                state_module._NATIVE = False
                try:
                    python_snapshot = encoder.capture(state, seat)
                finally:
                    state_module._NATIVE = True
                assert python_snapshot.capturable is None  # worked out when encoded
                assert snapshot.board == python_snapshot.board
                assert (
                    encoder.encode(snapshot, seat) == encoder.encode(python_snapshot, seat)
                ).all()
            state.apply(gungi.int_to_action(state, rng.choice(ints)))
