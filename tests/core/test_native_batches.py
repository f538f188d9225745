"""The native batches of the three contract games (``CoreBatch``: Gunkimono's, Gunshi's,
Sashimono's) give the contract batch's numbers.

The same seeds and the same random draws in ``ContractBatch`` (one contract state a game)
and in the native batch, through game ends and restarts: every step the legal lists, the
kept mask, the dense mask, the observations from the seat to act and from every other seat,
the seats to act, the returns and the outcomes must be equal, entry for entry. Bad input
(an illegal action, buffers of the wrong shape or kind, positions of other options) is
refused and changes nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from sengoku.core.batch import ContractBatch
from sengoku.core.game import IllegalAction
from sengoku.core.native_batch import CoreBatch
from sengoku.core.registry import load_game

#: Option sets of each game (every player count and mode, rulings off their defaults).
STEPPED: list[tuple[str, dict[str, Any]]] = [
    ("gunkimono", {"players": 2}),
    ("gunkimono", {"players": 4, "own_double_stronghold": True, "end_tile_replacement": False}),
    ("gunkimono", {"players": 5, "empty_banner_stack": "stay", "link_own_formations": False}),
    ("gunshi", {}),
    ("gunshi", {"variant": "inspiration", "modification": 1, "time_control": "tournament"}),
    ("gunshi", {"variant": "custom", "custom_selection": "secret", "sanryaku": True}),
    ("gunshi", {"preset": "first_battle", "shield_hit_facing": "keep"}),
    ("sashimono", {"mode": "duel"}),
    ("sashimono", {"mode": "solo", "vp": 2}),
    (
        "sashimono",
        {"mode": "solo", "army": "east", "challenge_six_sashimono": True, "challenge_train": True},
    ),
]
#: Each game's options for the checks of bad input and loaded positions, and other options.
GAMES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "gunkimono": ({"players": 3}, {"players": 2}),
    "gunshi": ({"variant": "inspiration"}, {}),
    "sashimono": ({"mode": "solo"}, {"mode": "duel"}),
}


def _skip_without_core(name: str) -> None:
    native_core = importlib.import_module(f"sengoku.games.{name}.native_core")
    if not native_core.native_available():
        pytest.skip(f"{name}'s native core is not in use: {native_core.UNAVAILABLE_REASON}")


def _batches(name: str, n: int, seed: int, **options: Any) -> tuple[ContractBatch, CoreBatch]:
    _skip_without_core(name)
    game = load_game(name)
    contract = ContractBatch(game, **options)
    native = game.batch(**options)
    assert isinstance(native, CoreBatch)
    first = contract.reset(n, seed=seed)
    assert np.array_equal(native.reset(n, seed=seed), first)
    return contract, native


def _label(case: Any) -> str:
    if isinstance(case, str):
        return case
    return "-".join(f"{k}={v}" for k, v in case.items()) or "defaults"


@pytest.mark.parametrize(("name", "options"), STEPPED, ids=_label)
def test_the_native_batch_gives_the_contract_batchs_numbers(
    name: str, options: dict[str, Any]
) -> None:
    n = 5
    contract, native = _batches(name, n, 7, **options)
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
            for seat in range(native.num_players):
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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_illegal_action_is_refused_and_nothing_moves(name: str) -> None:
    _contract, native = _batches(name, 3, 2, **GAMES[name][0])
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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_buffers_of_the_wrong_shape_or_kind_are_refused(name: str) -> None:
    _contract, native = _batches(name, 2, 1, **GAMES[name][0])
    size = native.shape[0]
    with pytest.raises(ValueError, match="float32"):
        native.observations(out=np.zeros((2, size), dtype=np.float64))
    with pytest.raises(ValueError, match="shape"):
        native.observations(out=np.zeros((3, size), dtype=np.float32))
    with pytest.raises(ValueError, match="int8 or bool"):
        native.legal_sparse(np.zeros((2, native.num_actions), dtype=np.float32))
    with pytest.raises(ValueError, match="no seat"):
        native.observations(np.array([0, native.num_players]))
    with pytest.raises(ValueError, match="one action per game"):
        native.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(IndexError, match="game 2"):
        native.reset_game(2, 0)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_positions_loaded_into_a_batch_play_on_as_the_states_do(name: str) -> None:
    options, others = GAMES[name]
    game = load_game(name)
    states = [game.new_state(seed, **options) for seed in (4, 5)]
    for _ in range(30):
        states[1].apply(states[1].legal_actions()[-1])
    _contract, native = _batches(name, 1, 0, **options)
    native.load(states)
    assert native.n == 2
    for i, state in enumerate(states):
        assert native.state(i).to_json() == state.to_json()
        assert native.legal_actions(i) == game.legal_action_ints(state)
    actions = np.array([native.legal_actions(0)[0], native.legal_actions(1)[-1]])
    native.step(actions)
    for i, state in enumerate(states):
        state.apply(game.int_to_action(state, int(actions[i])))
        assert native.state(i).to_json() == state.to_json()
    with pytest.raises(ValueError, match="other options"):
        native.load([game.new_state(0, **others)])
