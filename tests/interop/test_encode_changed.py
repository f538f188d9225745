"""The encoders' ``encode_changed`` (issue 40: a kept row brought up to date, only what
changed written) gives, after any run of plies and restarts, exactly the tensor that
``encode`` gives afresh.

Each seat keeps one row and its ``kept`` list over several seeded random games played one
after another without clearing either (as ``VectorBatch`` keeps them across a restart: the
new game's parts differ, and must be written over the old game's entries), from captures
(the snapshots a batch encodes) and, on some plies, from the view's dict itself; a
spectator's row (seat None) too. Every ply each row is compared with a fresh encoding of
the view, entry for entry. Run compiled (the encoders are in ``[tool.sengoku] compiled``) and
with ``SENGOKU_PURE_PYTHON=1``.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

from sengoku.core.encoding import encoder_for
from sengoku.core.registry import load_game
from sengoku.interop.encoders import capturer_of
from tests.interop.test_vector_contract import CASES as VECTOR_CASES

#: The games and options of the VectorEnv contract test (each once, whichever batch).
CASES = list({(name, repr(options)): (name, options) for name, options, _ in VECTOR_CASES}.values())


@pytest.mark.parametrize(("name", "options"), CASES)
def test_a_kept_row_is_the_fresh_encoding_after_every_ply_and_restart(
    name: str, options: dict[str, Any]
) -> None:
    game = load_game(name)
    resolved = game.resolve_options(**options)
    encoder = encoder_for(game, resolved)
    encode_changed = encoder.encode_changed  # type: ignore[attr-defined]
    rng = random.Random(5)
    seats: list[int | None] = [None, *range(game.new_state(seed=0, **resolved).num_players)]
    rows = {seat: np.zeros(encoder.shape, np.float32) for seat in seats}
    kept: dict[int | None, list[Any]] = {seat: [] for seat in seats}
    capture = capturer_of(encoder)
    plies = 0
    for seed in range(3):  # three games one after another, the rows and kept lists kept
        state = game.new_state(seed=seed, **resolved)
        while not state.is_terminal():
            plies += 1
            for seat in seats:
                view = state.view(seat)
                # Mostly the captures a batch encodes; every fifth ply the view's dict.
                seen = view if plies % 5 == 0 else capture(state, seat)
                encode_changed(seen, seat, rows[seat], kept[seat])
                want = encoder.encode(view, seat)
                assert np.array_equal(rows[seat], want), (
                    f"{name} {options}, game {seed}, ply {plies}, seat {seat}: entries "
                    f"{np.flatnonzero(rows[seat] != want)[:10].tolist()} differ"
                )
            state.apply(rng.choice(state.legal_actions()))
    assert plies > 100


@pytest.mark.parametrize(("name", "options"), CASES)
def test_an_encoder_that_has_encoded_pickles_and_copies(name: str, options: dict[str, Any]) -> None:
    """An encoder with its caches filled (Sashimono's kept stacks are memoryviews; compiled,
    an encoder is a native class) pickles and copies, and the copy encodes alike."""
    game = load_game(name)
    resolved = game.resolve_options(**options)
    encoder = encoder_for(game, resolved)
    state = game.new_state(seed=3, **resolved)
    rng = random.Random(2)
    for _ in range(30):
        encoder.encode(state.view(0), 0)
        state.apply(rng.choice(state.legal_actions()))
    want = encoder.encode(state.view(0), 0)
    for made in (pickle.loads(pickle.dumps(encoder)), copy.deepcopy(encoder), copy.copy(encoder)):
        assert type(made) is type(encoder)
        assert np.array_equal(made.encode(state.view(0), 0), want)
