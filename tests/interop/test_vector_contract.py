"""The VectorEnv's own batch for the contract games (``VectorBatch``: muted states, kept legal
actions, the mask in two writes, observations rewritten per seat where they changed) shows
what the contract shows; so do Gunkimono's, Sashimono's and Gunshi's native batches
(``GunkimonoBatch``, ``SashimonoBatch``, ``GunshiBatch``: the batch ``Game.batch`` gives where
the game's core is built), and ``VectorBatch`` is still held to it for those games (the batch
of a build without the core).

Every step of seeded random games, through episode ends and automatic restarts, each game's
observation row must be the game's encoder of ``view(seat)`` of the same game played alone
(unmuted, through ``legal_actions`` and ``apply``), its mask and sparse list the integers of
``legal_actions()``, its rewards and outcome the game's; and the whole output must be the one
the contract batch (``ContractBatch``, which encodes every observation whole) gives for the
same seed and actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sengoku.core.batch import ContractBatch
from sengoku.core.encoding import encoder_for
from sengoku.core.game import State
from sengoku.games.gunkimono import native_core as gunkimono_core
from sengoku.games.gunshi import native_core as gunshi_core
from sengoku.games.sashimono import native_core as sashimono_core
from sengoku.interop.vector import VectorEnv
from sengoku.interop.vector_batch import VectorBatch

#: (game, options, the batch to step: "own" as VectorEnv picks it, "vector" VectorBatch).
CASES = [
    ("gunshi", {}, "own"),
    ("gunshi", {}, "vector"),
    ("gunkimono", {"players": 2}, "own"),
    ("gunkimono", {"players": 3}, "own"),
    ("gunkimono", {"players": 3}, "vector"),
    ("sashimono", {"mode": "duel"}, "own"),
    ("sashimono", {"mode": "solo"}, "own"),
    ("sashimono", {"mode": "solo"}, "vector"),
]


def _own_batch(game: str) -> type:
    """The batch VectorEnv steps for ``game``: Gunkimono's, Sashimono's or Gunshi's native one
    where its core is built, else its own ``VectorBatch``."""
    if game == "gunkimono" and gunkimono_core.native_available():
        from sengoku.games.gunkimono.batch import GunkimonoBatch

        return GunkimonoBatch
    if game == "sashimono" and sashimono_core.native_available():
        from sengoku.games.sashimono.batch import SashimonoBatch

        return SashimonoBatch
    if game == "gunshi" and gunshi_core.native_available():
        from sengoku.games.gunshi.batch import GunshiBatch

        return GunshiBatch
    return VectorBatch


def _alone(env: VectorEnv, i: int) -> State:
    """Game ``i`` of ``env`` rebuilt from its seed, unmuted."""
    return env.game.new_state(seed=int(env.game_seeds[i]), **env.options)


@pytest.mark.parametrize(("game", "options", "batch"), CASES)
@pytest.mark.parametrize("copy", [False, True, "switched"])
def test_the_vector_batch_shows_what_the_contract_shows(
    game: str, options: dict[str, Any], batch: str, copy: bool | str
) -> None:
    """``switched``: copies on some steps and not on others, so that the kept buffer (whose
    rows are the seats' own while they act) is left, handed back and taken up again."""
    n = 3
    env = VectorEnv(game, n, copy=copy is True, **options)
    assert type(env.batch) is _own_batch(game)
    if batch == "vector":
        env.batch = VectorBatch(env.game, **env.options)
    twin = VectorEnv(game, n, copy=copy is True, **options)
    twin.batch = ContractBatch(twin.game, **twin.options)  # the contract batch, as before
    encoder = encoder_for(env.game, env.options)
    obs = env.reset(seed=21)
    other = twin.reset(seed=21)
    alone = [_alone(env, i) for i in range(n)]
    rng = np.random.default_rng(8)
    ended = steps = 0
    # Until several games have ended and restarted (Gunshi's random games are the longest,
    # a few hundred plies each), and a while after.
    while ended < 4 or steps < 150:
        assert steps < 5000, "random games end"
        steps += 1
        for key in ("observation", "action_mask", "agent", "legal_actions", "legal_offsets"):
            assert np.array_equal(obs[key], other[key]), key
        for i, state in enumerate(alone):
            seat = state.current_player
            assert obs["agent"][i] == seat
            legal = [env.game.action_to_int(state, a) for a in state.legal_actions()]
            assert np.flatnonzero(obs["action_mask"][i]).tolist() == legal
            assert env.legal_actions(obs, i).tolist() == legal
            want = encoder.encode(state.view(seat), seat)
            assert np.array_equal(obs["observation"][i], want), f"game {i}, step {steps}"
        actions = np.array([rng.choice(env.legal_actions(obs, i)) for i in range(n)])
        if copy == "switched":
            env.copy = twin.copy = steps % 7 < 3
        obs, rewards, terminations, truncations, infos = env.step(actions)
        other, twin_rewards, twin_terms, twin_truncs, twin_infos = twin.step(actions)
        assert np.array_equal(rewards, twin_rewards)
        assert np.array_equal(terminations, twin_terms)
        assert np.array_equal(truncations, twin_truncs)
        assert infos == twin_infos
        assert np.array_equal(env.game_seeds, twin.game_seeds)
        for i, state in enumerate(alone):
            state.apply(env.game.int_to_action(state, int(actions[i])))
            result = state.outcome()
            if result is None:
                assert not terminations[i] and not truncations[i] and not rewards[i].any()
                continue
            ended += 1
            assert terminations[i] == (result.reason != "length_limit")
            assert truncations[i] == (result.reason == "length_limit")
            assert rewards[i].tolist() == list(result.returns)
            assert infos["outcome"][i] == result.to_json()
            alone[i] = _alone(env, i)  # restarted from the seed the batch tells


def test_a_restarted_game_is_encoded_afresh_in_kept_rows() -> None:
    """A game restarted by ``reset_game`` shares nothing with the game before: its seats'
    kept rows are rewritten where the new game differs (here every block, checked against
    a whole encoding), and a seat's row left from the old game is not shown."""
    env = VectorEnv("gunshi", 2, copy=False)
    env.batch = VectorBatch(env.game, **env.options)  # Gunshi's without its native core
    env.reset(seed=3)
    for _ in range(40):
        env.step(env.sample_actions())
    batch = env.batch
    assert isinstance(batch, VectorBatch)
    batch.reset_game(1, 12345)
    fresh = env.game.new_state(seed=12345, **env.options)
    seats = np.maximum(batch.to_move(), 0)
    out = batch.observations(seats)
    encoder = encoder_for(env.game, env.options)
    seat = fresh.current_player
    assert np.array_equal(out[1], encoder.encode(fresh.view(seat), seat))


@pytest.mark.parametrize("copy", [False, True])
def test_without_autoreset_finished_games_wait_as_with_the_contract_batch(copy: bool) -> None:
    """A game that ends stays over (empty mask, seen from seat 0, its actions ignored),
    exactly as the contract batch leaves it, while the others play on."""
    env = VectorEnv("sashimono", 3, autoreset=False, copy=copy, mode="duel")
    twin = VectorEnv("sashimono", 3, autoreset=False, copy=copy, mode="duel")
    twin.batch = ContractBatch(twin.game, **twin.options)
    obs, other = env.reset(seed=2), twin.reset(seed=2)
    rng = np.random.default_rng(1)
    steps = 0
    while (obs["agent"] >= 0).any() or steps < 5:
        assert steps < 3000, "random duels end"
        steps += 1
        for key in ("observation", "action_mask", "agent", "legal_actions", "legal_offsets"):
            assert np.array_equal(obs[key], other[key]), key
        actions = np.array(
            [rng.choice(env.legal_actions(obs, i)) if obs["agent"][i] >= 0 else 7 for i in range(3)]
        )
        obs, rewards, terminations, truncations, infos = env.step(actions)
        other, twin_rewards, twin_terms, twin_truncs, twin_infos = twin.step(actions)
        assert np.array_equal(rewards, twin_rewards) and np.array_equal(terminations, twin_terms)
        assert np.array_equal(truncations, twin_truncs) and infos == twin_infos
    assert not obs["action_mask"].any() and (obs["agent"] < 0).all()
