"""The OpenSpiel adapter: game types, OpenSpiel's own random-simulation test, its MCTS bot on
Gungi and its IS-MCTS (resampling with the contract's determinize) on Gunkimono."""

from __future__ import annotations

import doctest
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

import sengoku
from sengoku.core.game import SengokuError
from sengoku.interop import openspiel as osp
from sengoku.interop.encoders import encoder_for

GT = pyspiel.GameType


def _deal(state: pyspiel.State, seed: int) -> pyspiel.State:
    """Apply the chance outcomes that make Sengoku seed ``seed`` (nothing where none)."""
    if state.is_chance_node():
        for byte in seed.to_bytes(osp.CHANCE_NODES, "big"):
            state.apply_action(byte)
    return state


def test_module_docstring_example_runs() -> None:
    result = doctest.testmod(osp, verbose=False)
    assert result.attempted >= 4 and result.failed == 0


def test_register_is_idempotent_and_refuses_other_defaults() -> None:
    assert osp.register("gungi") == "sengoku_gungi"
    assert osp.register("gungi") == "sengoku_gungi"
    assert "sengoku_gungi" in pyspiel.registered_names()
    with pytest.raises(SengokuError, match="already registered"):
        osp.register("gungi", mode="advanced")
    with pytest.raises(SengokuError, match="option 'mode'"):
        osp.load("gungi", mode="expert")


@pytest.mark.parametrize(
    ("name", "params", "information", "chance", "utility", "players"),
    [
        ("gungi", {}, GT.Information.PERFECT_INFORMATION, GT.ChanceMode.DETERMINISTIC,
         GT.Utility.ZERO_SUM, 2),
        ("gungi", {"first_player": "random"}, GT.Information.PERFECT_INFORMATION,
         GT.ChanceMode.EXPLICIT_STOCHASTIC, GT.Utility.ZERO_SUM, 2),
        ("gunkimono", {"players": 4}, GT.Information.IMPERFECT_INFORMATION,
         GT.ChanceMode.EXPLICIT_STOCHASTIC, GT.Utility.ZERO_SUM, 4),
        ("gunshi", {}, GT.Information.IMPERFECT_INFORMATION,
         GT.ChanceMode.DETERMINISTIC, GT.Utility.ZERO_SUM, 2),
        ("gunshi", {"variant": "inspiration", "modification": 1},
         GT.Information.IMPERFECT_INFORMATION, GT.ChanceMode.EXPLICIT_STOCHASTIC,
         GT.Utility.ZERO_SUM, 2),
        ("sashimono", {}, GT.Information.IMPERFECT_INFORMATION,
         GT.ChanceMode.EXPLICIT_STOCHASTIC, GT.Utility.ZERO_SUM, 2),
        ("sashimono", {"mode": "solo"}, GT.Information.IMPERFECT_INFORMATION,
         GT.ChanceMode.EXPLICIT_STOCHASTIC, GT.Utility.GENERAL_SUM, 1),
    ],
)  # fmt: skip
def test_game_type_and_info(
    name: str, params: dict, information: object, chance: object, utility: object, players: int
) -> None:
    game = osp.load(name, **params)
    kind = game.get_type()
    assert (kind.information, kind.chance_mode, kind.utility) == (information, chance, utility)
    assert kind.dynamics == GT.Dynamics.SEQUENTIAL
    assert kind.reward_model == GT.RewardModel.TERMINAL
    contract = sengoku.load_game(name)
    assert game.num_players() == players
    assert game.num_distinct_actions() == contract.num_distinct_actions(**params)
    assert game.max_game_length() == contract.max_game_length(**params)
    stochastic = chance == GT.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.max_chance_outcomes() == (osp.CHANCE_OUTCOMES if stochastic else 0)
    assert game.new_initial_state().is_chance_node() == stochastic
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_shape() == list(encoder_for(contract, params).shape)


@pytest.mark.parametrize(
    ("name", "params", "sims"),
    [
        ("gungi", {"mode": "intro"}, 2),
        ("gungi", {"mode": "advanced", "first_player": "random"}, 1),
        ("gunkimono", {"players": 3}, 1),
        ("gunshi", {}, 2),
        ("gunshi", {"variant": "inspiration", "modification": 1}, 1),
        ("sashimono", {}, 1),
        ("sashimono", {"mode": "solo"}, 2),
    ],
)
def test_openspiel_random_simulation_test(name: str, params: dict, sims: int) -> None:
    # OpenSpiel's own checks in every state: legal actions, chance outcomes, clones, returns,
    # observation and information-state strings and tensors of the declared shapes, and
    # serialize_game_and_state / deserialize_game_and_state in every configuration (issue 15
    # item 8: it failed with "GetRNGState unimplemented" while chance was sampled inside the
    # game, as a Python game cannot give OpenSpiel its RNG state; chance is explicit now).
    pyspiel.random_sim_test(osp.load(name, **params), num_sims=sims, serialize=True,
                            verbose=False)  # fmt: skip


@pytest.mark.parametrize(
    ("name", "params"), [("gungi", {"mode": "beginner"}), ("gunkimono", {}), ("gunshi", {})]
)
def test_play_matches_the_contract(name: str, params: dict) -> None:
    game = osp.load(name, **params)
    spiel = _deal(game.new_initial_state(), 11)
    direct = spiel.sengoku_state.clone()  # played beside it, through the contract alone
    contract = sengoku.load_game(name)
    observer = make_observation(game)
    rng = random.Random(5)
    for _ in range(60):
        if spiel.is_terminal():
            break
        seat = spiel.current_player()
        assert seat == direct.current_player
        ints = spiel.legal_actions()
        assert ints == [contract.action_to_int(direct, a) for a in direct.legal_actions()]
        assert spiel.legal_actions() == ints  # asked again: the same (cached) answer
        for player in range(direct.num_players):  # views are cached per position and seat
            observer.set_from(spiel, player)
            expected = encoder_for(contract, params).encode(direct.view(player), player)
            assert np.array_equal(observer.tensor.reshape(expected.shape), expected)
            assert spiel.observation_string(player) == osp.canonical_json(direct.view(player))
        n = rng.choice(ints)
        assert spiel.action_to_string(seat, n) == str(contract.int_to_action(direct, n))
        spiel.apply_action(n)
        direct.apply(contract.int_to_action(direct, n))
        assert spiel.sengoku_state.to_json() == direct.to_json()
    assert spiel.returns() == list(direct.returns())


def test_clone_is_independent_and_cheap() -> None:
    game = osp.load("gunkimono")
    state = _deal(game.new_initial_state(), 3)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    before = state.sengoku_state.to_json()
    legal, seen = state.legal_actions(), state.observation_string(0)  # cached, then cloned
    copy = state.clone()
    assert copy.sengoku_state.to_json() == before
    assert copy.information_state_string(0) == state.information_state_string(0)
    copy.apply_action(copy.legal_actions()[-1])
    assert state.sengoku_state.to_json() == before
    assert copy.history() == state.history() + [copy.history()[-1]]
    # The clone's caches moved on with it; the original's still describe its position.
    assert state.legal_actions() == legal and state.observation_string(0) == seen
    contract = sengoku.load_game("gunkimono")
    world = copy.sengoku_state
    assert copy.observation_string(0) == osp.canonical_json(world.view(0))
    assert copy.legal_actions() == [contract.action_to_int(world, a) for a in world.legal_actions()]


def test_state_serialization_round_trip() -> None:
    game = osp.load("gunkimono", players=3)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    restored = game.deserialize_state(state.serialize())
    assert restored.sengoku_state.to_json() == state.sengoku_state.to_json()
    assert restored.history() == state.history()
    for seat in range(3):
        assert restored.information_state_string(seat) == state.information_state_string(seat)


def test_chance_outcomes_are_the_seed_bytes() -> None:
    game = osp.load("gunkimono")
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
    with pytest.raises(SengokuError, match="deal is not drawn yet"):
        state.sengoku_state  # noqa: B018
    assert "drawing the deal" in state.observation_string(0)
    dealt = _deal(state, 0x01020304)
    assert dealt.history() == [1, 2, 3, 4] and dealt.move_number() == 4
    contract = sengoku.load_game("gunkimono").new_state(seed=0x01020304)
    assert dealt.sengoku_state.to_json() == contract.to_json()
    other = _deal(game.new_initial_state(), 0x01020305)
    assert other.sengoku_state.to_json() != contract.to_json()


def test_information_state_strings_hide_what_a_seat_may_not_see() -> None:
    game = osp.load("gunkimono")
    state = _deal(game.new_initial_state(), 9)
    rng = random.Random(9)
    for _ in range(25):
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in range(2):
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        # The resampled world is one the seat cannot tell apart from the true one ...
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_string(seat) == state.observation_string(seat)
        if seat == state.current_player():
            assert world.legal_actions() == state.legal_actions()
    # ... while what only the other seat knows (its hand) is resampled.
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = {
        str(state.resample_from_infostate(0, sampler).sengoku_state.view(1)["players"][1]["hand"])
        for _ in range(8)
    }
    assert len(hands) > 1
    # The public observation is the spectator's view.
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    assert make_observation(game, public).string_from(state, 0) == osp.canonical_json(
        state.sengoku_state.view(None)
    )


class _Uniform(mcts.Evaluator):
    """No knowledge: value 0, uniform prior (the test asks MCTS's tree alone to find a win)."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        return np.zeros(state.get_game().num_players())

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def _marshal_en_prise() -> tuple[sengoku.core.game.State, int]:
    """A Beginner position (random play, seed 0) where the side to move can take the Marshal."""
    contract = sengoku.load_game("gungi")
    state = contract.new_state(mode="beginner")
    rng = random.Random(0)
    while not state.view(None)["marshal_capturable"][1 - state.current_player]:
        state.apply(rng.choice(state.legal_actions()))
    return state, state.current_player


def test_openspiel_mcts_bot_takes_the_marshal_in_gungi() -> None:
    game = osp.load("gungi", mode="beginner")
    position, mover = _marshal_en_prise()
    state = game.new_initial_state(position.to_json())
    winning = []
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal() and child.returns()[mover] == 1.0:
            winning.append(action)
    assert winning and len(winning) < len(state.legal_actions())
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=len(state.legal_actions()) + 20,
        evaluator=_Uniform(),
        solve=True,
        random_state=np.random.RandomState(0),
    )
    assert bot.step(state) in winning
    assert game.get_type().information == GT.Information.PERFECT_INFORMATION


def test_openspiel_mcts_bot_plays_gungi_with_random_rollouts() -> None:
    game = osp.load("gungi", mode="intro")
    state = game.new_initial_state()
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=3,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1)),
        random_state=np.random.RandomState(0),
    )
    action = bot.step(state)
    assert action in state.legal_actions()
    state.apply_action(action)
    assert state.current_player() == 1


@pytest.mark.parametrize(("name", "params"), [("gunkimono", {}), ("sashimono", {}), ("gunshi", {})])
def test_openspiel_ismcts_plays_on_determinized_worlds(name: str, params: dict) -> None:
    game = osp.load(name, **params)
    state = _deal(game.new_initial_state(), 1)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0)),
        uct_c=2.0,
        max_simulations=6,
        random_state=np.random.RandomState(1),
    )
    for _ in range(4):
        if state.is_terminal():
            break
        # run_search asserts that every resampled root has the root's information state.
        before = state.sengoku_state.to_json()
        action = bot.step(state)
        assert state.sengoku_state.to_json() == before
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("name", ["gungi", "gunkimono", "gunshi", "sashimono"])
def test_illegal_integer_is_refused(name: str) -> None:
    """Refused, the state unchanged, whether the legal actions are kept beside their
    integers (Gunshi's and Sashimono's: ``action_int``; Gunkimono's:
    ``legal_actions_and_ints``) or not; a legal one then plays as the contract."""
    game = osp.load(name)
    state = game.new_initial_state()
    while state.is_chance_node():  # Sashimono's deal: the seed's bytes
        state.apply_action(7)
    legal = state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    before = state.sengoku_state.to_json()
    with pytest.raises(SengokuError):
        state.apply_action(illegal)
    assert state.sengoku_state.to_json() == before
    direct = state.sengoku_state.clone()
    copy = state.clone()  # shares the kept list and actions of the same position
    contract = sengoku.load_game(name)
    state.apply_action(legal[-1])
    direct.apply(contract.int_to_action(direct, legal[-1]))
    assert state.sengoku_state.to_json() == direct.to_json()
    copy.apply_action(legal[0])
    assert copy.sengoku_state.to_json() != direct.to_json()
    assert state.legal_actions() == [
        contract.action_to_int(direct, a) for a in direct.legal_actions()
    ]


def test_race_test_game_joins_generically(race: None) -> None:
    game = osp.load("race", players=2, goal=4)
    # Not in TRAITS: the contract's perfect_information (default True), and the safe choices.
    assert game.get_type().information == GT.Information.PERFECT_INFORMATION
    assert game.get_type().chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().utility == GT.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_rl_environment_plays_a_whole_game() -> None:
    # OpenSpiel's RL agents (DQN, NFSP, PPO) see games through rl_environment: with no
    # information-state tensor it serves the observation tensor as "info_state".
    from open_spiel.python import rl_environment

    game = osp.load("sashimono", mode="solo")
    env = rl_environment.Environment(game)
    assert list(env.observation_spec()["info_state"]) == game.observation_tensor_shape()
    step = env.reset()
    rng = np.random.default_rng(0)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
    assert step.rewards[0] in (-1.0, 1.0)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("gungi", {"mode": "intro"}),
        ("gungi", {"mode": "intro", "first_player": "random"}),
        ("gunkimono", {"players": 2}),
        ("sashimono", {}),
        ("sashimono", {"mode": "solo"}),
        ("gunshi", {}),
    ],
)
def test_legal_actions_answered_in_python_are_openspiels(name: str, params: dict) -> None:
    """The state answers ``legal_actions()`` itself (no round trip through C++): the same
    lists as OpenSpiel's own ``pyspiel.State.legal_actions`` at chance nodes, for every
    player, at the end; a new list each call."""
    game = osp.load(name, **params)
    rng = random.Random(f"legal-{name}")
    for _ in range(2):
        state = game.new_initial_state()
        while True:
            mine = state.legal_actions()
            assert mine == pyspiel.State.legal_actions(state)
            for player in range(state.num_players()):
                assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
            if state.is_terminal():
                assert mine == []
                break
            mine.append(-7)  # the caller's own list
            assert -7 not in state.legal_actions()
            state.apply_action(rng.choice(mine[:-1]))
