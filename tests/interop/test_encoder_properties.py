"""Observation encoders, every registered game: a tensor is a function of the view alone.

The encoders keep parts of the last views they encoded (boards, stacks) to be fast. Whatever
they keep, the tensor must be what a fresh encoder gives for the same view: along whole
random games (up to 400 decisions), every seat and the spectator, one encoder shared by all (as an environment
shares it) agrees entry for entry with a new encoder given a copy of the view; a view the
caller changed after encoding it is encoded as changed; and two states that give a seat
the same view (pairs built without ``determinize``, ``tests/contract/pairs.py``) give that
seat the same tensor. What each tensor holds is checked per game in ``test_encoders.py``.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

from sengoku.core.registry import load_game
from sengoku.interop.encoders import capturer_of, encoder_for
from tests.contract.cases import HIDDEN_PARAMS, PARAMS, SCALE
from tests.contract.pairs import all_pairs


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_shared_encoder_agrees_with_a_fresh_one(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    shared = encoder_for(game, options)
    rng = random.Random(f"encoder-{name}")
    compared = 0
    for seed in range(SCALE):
        state = game.new_state(seed, **options)
        plies = 0
        while True:
            for seat in [*range(state.num_players), None]:
                view = state.view(seat)
                got = shared.encode(view, seat)
                fresh = encoder_for(game, options).encode(copy.deepcopy(view), seat)
                assert got.dtype == fresh.dtype == np.float32
                assert got.shape == shared.shape
                assert np.array_equal(got, fresh), (name, seed, seat)
                assert got.min() >= shared.low and got.max() <= shared.high
                compared += 1
            if state.is_terminal() or plies == 400:
                break
            state.apply(rng.choice(state.legal_actions()))
            plies += 1
    assert compared > 0


def morph(old: Any, new: Any) -> None:
    """Turn ``old`` into a copy of ``new`` in place, keeping its lists and dicts (the way a
    caller may update a view it holds)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old):
            if key not in new:
                del old[key]
        for key, value in new.items():
            if key in old and isinstance(old[key], (dict, list)) and type(old[key]) is type(value):
                morph(old[key], value)
            else:
                old[key] = copy.deepcopy(value)
    elif isinstance(old, list) and isinstance(new, list):
        del old[len(new) :]
        for i, value in enumerate(new):
            if i < len(old) and isinstance(old[i], (dict, list)) and type(old[i]) is type(value):
                morph(old[i], value)
            elif i < len(old):
                old[i] = copy.deepcopy(value)
            else:
                old.append(copy.deepcopy(value))


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_a_view_changed_after_encoding_is_encoded_as_changed(
    name: str, options: dict[str, Any]
) -> None:
    """An encoder that keeps the last board or stacks notices a view that its holder
    changed in place (into the next position's view) after encoding it."""
    game = load_game(name)
    shared = encoder_for(game, options)
    rng = random.Random(f"encoder-change-{name}")
    state = game.new_state(3, **options)
    held: dict[int | None, Any] = {}
    for _ in range(80):
        if state.is_terminal():
            break
        for seat in [*range(state.num_players), None]:
            view = state.view(seat)
            if seat in held:
                morph(held[seat], view)
                assert held[seat] == view
                fresh = encoder_for(game, options).encode(copy.deepcopy(view), seat)
                assert np.array_equal(shared.encode(held[seat], seat), fresh), (name, seat)
            else:
                held[seat] = view
            shared.encode(held[seat], seat)
        for _ in range(rng.randrange(1, 4)):
            if not state.is_terminal():
                state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_same_view_same_tensor(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    encoder = encoder_for(game, options)
    rng = random.Random(f"encoder-pairs-{name}")
    for x, y, seat in all_pairs(game, options, 0, every=17, rng=rng):
        got = encoder.encode(x.view(seat), seat)
        assert np.array_equal(got, encoder.encode(y.view(seat), seat))


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_same_view_same_snapshot(name: str, options: dict[str, Any]) -> None:
    """The snapshots the research environments keep (``capture``, and the kept capturer a
    PettingZoo environment uses), compiled from the state's own fields in Gunshi, Gunkimono
    and Sashimono, are equal in two states the seat cannot tell apart, built without
    ``determinize`` (tests/contract/pairs.py): they hide what the view hides."""
    game = load_game(name)
    encoder = encoder_for(game, options)
    rng = random.Random(f"snapshot-pairs-{name}")
    checked = 0
    for x, y, seat in all_pairs(game, options, 0, every=17, rng=rng):
        assert encoder.capture(x, seat) == encoder.capture(y, seat), (name, seat)
        kept_x, kept_y = capturer_of(encoder), capturer_of(encoder)
        assert kept_x(x, seat) == kept_y(y, seat), (name, seat)
        checked += 1
    # A game of perfect information has no such pairs; every other game has some.
    assert checked > 0 or game.traits(**options).perfect_information


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_capture_encodes_as_the_view_and_stays_put(name: str, options: dict[str, Any]) -> None:
    """``encoder.capture(state, seat)`` (what the adapters keep instead of the view where the
    encoder has a cheaper snapshot, Gungi's) encodes to the view's tensor, and later play does
    not change it; the legal integers the adapters read agree with ``action_to_int``."""
    game = load_game(name)
    encoder = encoder_for(game, options)
    rng = random.Random(f"capture-{name}")
    kept: list[tuple[Any, int | None, np.ndarray]] = []
    for seed in range(SCALE):
        state = game.new_state(seed, **options)
        plies = 0
        while True:
            legal = state.legal_actions()
            assert game.legal_action_ints(state) == [game.action_to_int(state, a) for a in legal]
            for seat in [*range(state.num_players), None]:
                snapshot = encoder.capture(state, seat)
                want = encoder.encode(state.view(seat), seat)
                assert np.array_equal(encoder.encode(snapshot, seat), want), (name, seed, seat)
                kept.append((snapshot, seat, want))
            if state.is_terminal() or plies == 400:
                break
            state.apply(rng.choice(legal))
            plies += 1
    for snapshot, seat, want in kept[:: max(1, len(kept) // 50)]:
        assert np.array_equal(encoder.encode(snapshot, seat), want)


#: Games whose encoder snapshots the state's own fields rather than taking the view
#: (Sashimono's snapshot is a dict: the view's, less what the encoder leaves out).
SNAPSHOT_GAMES = ("gungi", "gunkimono", "gunshi", "sashimono")


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_a_kept_capturer_captures_as_capture(name: str, options: dict[str, Any]) -> None:
    """The capture a PettingZoo environment keeps (``capturer_of``: Gunshi's reuses the parts
    of its last snapshots, each side per seat, the units and Reserve, the Fences, whose state
    fields are unchanged): whatever it kept, its snapshot is ``encoder.capture``'s, every seat
    and the spectator, along two random games played through one capturer (a game picked at
    random each ply: what it kept from one game is offered to the other)."""
    game = load_game(name)
    encoder = encoder_for(game, options)
    kept = capturer_of(encoder)
    rng = random.Random(f"capturer-{name}")
    compared = 0
    for seed in range(0, SCALE, 2):
        states = [game.new_state(seed, **options), game.new_state(seed + 1, **options)]
        for _ply in range(800):
            live = [state for state in states if not state.is_terminal()]
            if not live:
                break
            state = rng.choice(live)  # runs of plies of one game, now and then the other's
            for seat in [*range(state.num_players), None]:
                assert kept(state, seat) == encoder.capture(state, seat), (seed, seat)
                compared += 1
            state.apply(rng.choice(state.legal_actions()))
    assert compared > 0


@pytest.mark.parametrize(("name", "options"), HIDDEN_PARAMS)
def test_a_snapshot_holds_only_what_its_seat_sees(name: str, options: dict[str, Any]) -> None:
    """A hidden-information game's snapshot (``capture``, taken from the state's own fields
    where the encoder has one) is the same in every world the seat cannot tell from the real
    one (``determinize`` redraws all the seat may not see: other hands, face-down cards,
    decks, banner values, the Shogun), every seat, every decision of random games; and it
    encodes to the view's tensor there too."""
    game = load_game(name)
    encoder = encoder_for(game, options)
    rng = random.Random(f"snapshot-hidden-{name}")
    checked = 0
    for seed in range(SCALE):
        state = game.new_state(seed, **options)
        plies = 0
        while not state.is_terminal() and plies < 400:
            for seat in range(state.num_players):
                snapshot = encoder.capture(state, seat)
                if name in SNAPSHOT_GAMES:
                    full = isinstance(snapshot, dict) and snapshot.keys() >= state.view(seat).keys()
                    assert not full, "the snapshot is the full view"
                world = state.determinize(seat, random.Random(rng.randrange(1 << 30)))
                assert encoder.capture(world, seat) == snapshot, (name, seed, plies, seat)
                want = encoder.encode(world.view(seat), seat)
                assert np.array_equal(encoder.encode(snapshot, seat), want)
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
            plies += 1
    assert checked > 0
