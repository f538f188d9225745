"""Gunshi's native batch (``GunshiBatch``) gives the contract batch's numbers.

The same seeds and the same random draws in ``ContractBatch`` (one contract state a game)
and in the native batch, through game ends and restarts: every step the legal lists, the
kept mask, the dense mask, the observations from the seat to act and from every other seat,
the seats to act, the returns and the outcomes must be equal, entry for entry.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sengoku.core.batch import ContractBatch
from sengoku.core.game import IllegalAction
from sengoku.games.gunshi import native_core
from sengoku.games.gunshi.encoder import GunshiEncoder
from tests.gunshi.helpers import GAME

pytestmark = pytest.mark.skipif(
    not native_core.native_available(),
    reason=f"native core not in use: {native_core.UNAVAILABLE_REASON}",
)


def _batches(n: int, seed: int, **options: Any) -> tuple[ContractBatch, Any]:
    from sengoku.games.gunshi.batch import GunshiBatch

    contract = ContractBatch(GAME, **options)
    native = GAME.batch(**options)
    assert isinstance(native, GunshiBatch)
    first = contract.reset(n, seed=seed)
    assert np.array_equal(native.reset(n, seed=seed), first)
    return contract, native


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"variant": "inspiration", "modification": 1, "time_control": "tournament"},
        {"variant": "custom", "custom_selection": "secret", "sanryaku": True},
        {"preset": "first_battle", "shield_hit_facing": "keep"},
    ],
    ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "defaults",
)
def test_the_native_batch_gives_the_contract_batchs_numbers(options: dict[str, Any]) -> None:
    n = 5
    contract, native = _batches(n, 7, **options)
    players = 2
    kept_c = np.zeros((n, contract.num_actions), dtype=np.int8)
    kept_n = np.zeros((n, native.num_actions), dtype=np.int8)
    steps = restarted = 0
    while not contract.done().all() or steps < 30:
        assert steps < 6000, "random games end"
        actions = contract.random_actions()
        assert np.array_equal(native.random_actions(), actions)
        assert np.array_equal(native.step(actions), contract.step(actions))
        steps += 1
        ints_c, offsets_c = contract.legal_sparse(kept_c)
        ints_n, offsets_n = native.legal_sparse(kept_n)
        assert np.array_equal(ints_n, ints_c) and np.array_equal(offsets_n, offsets_c)
        assert np.array_equal(kept_n, kept_c), steps
        assert np.array_equal(native.to_move(), contract.to_move())
        assert np.array_equal(native.observations(), contract.observations()), steps
        if steps % 9 == 0:
            assert np.array_equal(native.legal_mask(), contract.legal_mask())
            for seat in range(players):
                seats = np.full(n, seat, dtype=np.int64)
                assert np.array_equal(native.observations(seats), contract.observations(seats)), (
                    steps,
                    seat,
                )
        assert np.array_equal(native.returns(), contract.returns())
        for i in range(n):
            assert native.outcome(i) == contract.outcome(i)
            assert native.legal_actions(i) == contract.legal_actions(i)
        if steps in (40, 90):  # a game dealt again, mid-batch: as the contract deals it
            contract.reset_game(steps % n, 1000 + steps)
            native.reset_game(steps % n, 1000 + steps)
            restarted += 1
    assert restarted == 2 and contract.done().all()
    for i in range(n):
        assert native.state(i).to_json() == contract.state(i).to_json()


def test_an_illegal_action_is_refused_and_nothing_moves() -> None:
    contract, native = _batches(3, 2)
    before = native.observations().copy()
    legal = native.legal_actions(1)
    actions = native.random_actions()
    actions[1] = max(legal) + 1
    with pytest.raises(IllegalAction, match="game 1: action"):
        native.step(actions)
    assert native.first_illegal(actions) == 1
    assert np.array_equal(native.observations(), before)
    assert native.legal_actions(1) == legal
    actions[1] = -1  # no action for game 1: it waits, the others move
    native.step(actions)
    assert native.legal_actions(1) == legal


def test_buffers_of_the_wrong_shape_or_kind_are_refused() -> None:
    _contract, native = _batches(2, 1)
    size = GunshiEncoder().shape[0]
    with pytest.raises(ValueError, match="float32"):
        native.observations(out=np.zeros((2, size), dtype=np.float64))
    with pytest.raises(ValueError, match="shape"):
        native.observations(out=np.zeros((3, size), dtype=np.float32))
    with pytest.raises(ValueError, match="int8 or bool"):
        native.legal_sparse(np.zeros((2, native.num_actions), dtype=np.float32))
    with pytest.raises(ValueError, match="no seat"):
        native.observations(np.array([0, 2]))
    with pytest.raises(ValueError, match="one action per game"):
        native.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(IndexError, match="game 2"):
        native.reset_game(2, 0)


def test_positions_loaded_into_a_batch_play_on_as_the_states_do() -> None:
    states = [GAME.new_state(seed, variant="inspiration") for seed in (4, 5)]
    for _ in range(30):
        states[1].apply(states[1].legal_actions()[-1])
    _contract, native = _batches(1, 0, variant="inspiration")
    native.load(states)
    assert native.n == 2
    for i, state in enumerate(states):
        assert native.state(i).to_json() == state.to_json()
        assert native.legal_actions(i) == [a.to_int() for a in state.legal_actions()]
    actions = np.array([native.legal_actions(0)[0], native.legal_actions(1)[-1]])
    native.step(actions)
    for i, state in enumerate(states):
        state.apply(GAME.int_to_action(state, int(actions[i])))
        assert native.state(i).to_json() == state.to_json()
    with pytest.raises(ValueError, match="other options"):
        native.load([GAME.new_state(0)])
