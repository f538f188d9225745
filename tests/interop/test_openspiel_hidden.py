"""OpenSpiel: resampled worlds, loaded positions and chance declarations (issue 15 item 8)."""

from __future__ import annotations

import json
import random
from typing import Any

import pyspiel
import pytest

import sengoku
from sengoku.core.record import GameRecord
from sengoku.interop import openspiel as osp

GT = pyspiel.GameType
SAMPLER = pyspiel.UniformProbabilitySampler(0.0, 1.0)

CONFIGURATIONS = [
    ("gungi", {}),
    ("gungi", {"first_player": "random"}),
    ("gunkimono", {"players": 3}),
    ("gunshi", {}),
    ("gunshi", {"variant": "inspiration", "modification": 1}),
    ("gunshi", {"variant": "inspiration", "modification": 2}),
    ("gunshi", {"variant": "custom"}),
    ("sashimono", {}),
    ("sashimono", {"mode": "solo"}),
]


def _played(name: str, params: dict[str, Any], plies: int, seed: int = 7) -> pyspiel.State:
    game = osp.load(name, **params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and state.move_number() < plies:
        state.apply_action(rng.choice(state.legal_actions()))  # chance outcomes too
    return state


@pytest.mark.parametrize(
    ("name", "params"),
    [("gunkimono", {"players": 3}), ("sashimono", {}), ("gunshi", {}), ("gungi", {})],
)
def test_resampled_worlds_keep_history_length_and_only_what_the_seat_was_told(
    name: str, params: dict[str, Any]
) -> None:
    state = _played(name, params, 30)
    assert not state.is_terminal()
    perfect = state.get_game().get_type().information == GT.Information.PERFECT_INFORMATION
    for seat in range(state.num_players()):
        world = state.resample_from_infostate(seat, SAMPLER)
        # Before: an empty history and move number 0.
        assert world.move_number() == state.move_number() and world.move_number() > 0
        assert len(world.history()) == len(state.history())
        for true, seen in zip(state.full_history(), world.full_history(), strict=True):
            assert seen.player == true.player
            if perfect or true.player == seat:
                assert seen.action == true.action
            else:  # chance (the seed) and other seats' choices: not the seat's to know
                assert seen.action == pyspiel.INVALID_ACTION
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_string(seat) == state.observation_string(seat)
        # Before: the world carried every seat's true event log.
        events = world._match.events
        assert all(e.get("audience") is None or seat in e["audience"] for e in events)
        hidden = [
            e
            for e in state._match.events
            if e.get("audience") is not None and seat not in e["audience"]
        ]
        assert not any(e in events for e in hidden)
        # The world plays on (OpenSpiel's IS-MCTS applies actions to it). Not yet in
        # Sashimono: its determinize loses a card being played mid-turn (issue 15 item 1,
        # fixed on another branch).
        if not world.is_terminal() and name != "sashimono":
            world.apply_action(world.legal_actions()[0])


def test_a_record_loads_with_its_whole_history() -> None:
    game = osp.load("gunkimono", players=2)
    contract = sengoku.load_game("gunkimono")
    record, direct = GameRecord.start(contract, 0x0A0B0C0D, None, players=2)
    rng = random.Random(4)
    for _ in range(20):
        record.play(direct, rng.choice(direct.legal_actions()))
    played = game.new_initial_state()
    for byte in (0x0A, 0x0B, 0x0C, 0x0D):
        played.apply_action(byte)
    for text in record.actions:
        action = contract.parse_action(played.sengoku_state, text)
        played.apply_action(contract.action_to_int(played.sengoku_state, action))
    for source in (record, json.loads(json.dumps(record.to_json()))):
        loaded = game.new_initial_state(source)
        assert loaded.history() == played.history() and loaded.move_number() == 24
        assert loaded.sengoku_state.to_json() == direct.to_json()
        for seat in range(2):
            # Before: a loaded position's information state started from nothing.
            assert loaded.information_state_string(seat) == played.information_state_string(seat)
    with pytest.raises(sengoku.SengokuError, match="options"):
        osp.load("gunkimono", players=3).new_initial_state(record)


def test_a_bare_position_says_its_history_is_unknown() -> None:
    state = _played("gunkimono", {"players": 2}, 20)
    game = state.get_game()
    loaded = game.new_initial_state(state.sengoku_state.to_json())
    assert loaded.observation_string(0) == state.observation_string(0)
    assert loaded._match.events[0]["type"] == "position_loaded"
    assert loaded.information_state_string(0) != state.information_state_string(0)


@pytest.mark.parametrize(("name", "params"), CONFIGURATIONS)
def test_serialize_game_and_state_round_trips(name: str, params: dict[str, Any]) -> None:
    state = _played(name, params, 25)
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    game, restored = pyspiel.deserialize_game_and_state(text)
    assert game.get_type().chance_mode == state.get_game().get_type().chance_mode
    assert restored.history() == state.history()
    assert restored.sengoku_state.to_json() == state.sengoku_state.to_json()
    for seat in range(state.num_players()):
        assert restored.information_state_string(seat) == state.information_state_string(seat)


def _trace(name: str, params: dict[str, Any], seed: int) -> list[str]:
    """The whole state (its copy of the seed left out) along one fixed random line of play
    from ``seed``: what the seed decided, seen or not."""
    contract = sengoku.load_game(name)
    state = contract.new_state(seed=seed, **params)
    rng = random.Random(1)
    seen = []
    for _ in range(40):
        data = {k: v for k, v in state.to_json().items() if k != "seed"}
        seen.append(json.dumps(data, sort_keys=True))
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return seen


@pytest.mark.parametrize(("name", "params"), CONFIGURATIONS)
def test_chance_is_declared_where_the_setup_draws_from_the_seed(
    name: str, params: dict[str, Any]
) -> None:
    # Before: Gunshi was declared stochastic in every configuration, though only
    # Modification 1 of the Inspiration variant draws from the seed.
    declared = osp.load(name, **params).get_type().chance_mode
    differs = len({"\n".join(_trace(name, params, seed)) for seed in range(4)}) > 1
    assert differs == (declared == GT.ChanceMode.EXPLICIT_STOCHASTIC)


HIDDEN_CONFIGURATIONS = [
    ("gunkimono", {"players": 2}),
    ("gunshi", {}),
    ("sashimono", {"mode": "duel"}),
    ("sashimono", {"mode": "solo"}),
]


def _told_directly(name: str, params: dict[str, Any], state: pyspiel.State) -> list[Any]:
    """The events of ``state``'s game played again through the contract (unmuted), from its
    seed and its actions (the history's first CHANCE_NODES entries are the seed's bytes)."""
    contract = sengoku.load_game(name)
    history = state.history()
    chance = osp.CHANCE_NODES if state.get_game().stochastic else 0
    seed = int.from_bytes(bytes(history[:chance]), "big") if chance else 0
    direct = contract.new_state(seed=seed, **params)
    told: list[Any] = []
    for n in history[chance:]:
        told.extend(direct.apply(contract.int_to_action(direct, n)))
    return told


@pytest.mark.parametrize(("name", "params"), HIDDEN_CONFIGURATIONS)
def test_events_told_late_are_the_events_of_the_game(name: str, params: dict[str, Any]) -> None:
    """The state played builds no events (muted) until they are read; read at any point,
    through clones, serialization and a concession, they are the contract's events of the
    same game, in order, and so are the information-state strings."""
    game = osp.load(name, **params)
    rng = random.Random(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.randrange(osp.CHANCE_OUTCOMES))
    played = 0
    while played < 40 and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        played += 1
    match = state._match
    # Before: every apply's events were built and kept at once. (With native play the
    # actions are not even played on the contract state yet: they lag, as integers.)
    assert match._events == [] and len(match.pending) + len(match.lag) == played
    clone = state.clone()  # a clone with actions still untold
    for _ in range(25):
        if clone.is_terminal():
            break
        clone.apply_action(rng.choice(clone.legal_actions()))
    assert state._match.pending == []  # cloning told the original's first
    reference = game.new_initial_state()
    for n in state.history():  # played eagerly: told at each step, as before
        reference.apply_action(n)
        for seat in range(game.num_players()):
            reference.information_state_string(seat)
    for seat in range(game.num_players()):
        assert state.information_state_string(seat) == reference.information_state_string(seat)
    assert state._match.events == _told_directly(name, params, state)
    assert clone._match.events == _told_directly(name, params, clone)
    text = pyspiel.serialize_game_and_state(game, clone)
    _game, restored = pyspiel.deserialize_game_and_state(text)
    for _ in range(10):
        if clone.is_terminal():
            break
        action = rng.choice(clone.legal_actions())
        clone.apply_action(action)
        restored.apply_action(action)
    assert restored._match.events == clone._match.events == _told_directly(name, params, clone)
    for seat in range(game.num_players()):
        assert restored.information_state_string(seat) == clone.information_state_string(seat)
    # A resampled world tells as it plays (IS-MCTS reads its information state every step),
    # though the state it was sampled from is muted. Not in Sashimono yet (its determinize
    # loses a card being played mid-turn: issue 15 item 1, fixed on another branch).
    if name != "sashimono" and not clone.is_terminal():
        world = clone.resample_from_infostate(clone.current_player(), SAMPLER)
        told = list(world._match.events)
        twin = world.sengoku_state.clone()
        n = world.legal_actions()[0]
        told.extend(twin.apply(twin.game.int_to_action(twin, n)))
        world.apply_action(n)
        assert world._match.events == told


def test_a_concession_is_told_after_the_actions_told_late() -> None:
    game = osp.load("gunshi")
    contract = sengoku.load_game("gunshi")
    record, direct = GameRecord.start(contract, 0, None)
    rng = random.Random(5)
    for _ in range(30):
        record.play(direct, rng.choice(direct.legal_actions()))
    record.concede(direct, 1)
    loaded = game.new_initial_state(record)
    assert loaded.is_terminal() and loaded.returns() == [1.0, -1.0]
    replayed = contract.new_state(seed=0)
    told: list[Any] = []
    for text in record.actions:
        told.extend(replayed.apply(contract.parse_action(replayed, text)))
    told.extend(replayed.concede(1))
    assert loaded._match.events == told
