"""``determinize(seat, rng)``, every registered game: a world the seat cannot tell from the
real state, built from what the seat knows and nothing else.

For positions of random games (mid-turn ones included) and every seat, the one to act or
not, each world:

* gives that seat the same view, and determinizing does not change the real state;
* is a full state: its JSON round-trips, and random play goes on legally from it to the
  end, whoever is to act (a world whose pending question lists cards it does not hold
  fails here);
* is the same for the same ``rng`` seed;
* for a game with hidden information, does not carry the real state's seed.

And, the strongest check: a world depends only on what the seat knows. Two real states
that the seat cannot tell apart (:mod:`tests.contract.pairs`, built without determinize)
give, for the same ``rng`` seed, the very same world, bit for bit. A world that copies a
hidden part of the real state (the real seed, another seat's real hand in a pending
question, a card order) differs between the two and fails.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sengoku.core.game import Game, State
from sengoku.core.registry import load_game
from tests.contract.cases import (
    PARAMS,
    SCALE,
    canonical,
    fingerprint,
    pair_seeds,
    sample_positions,
    view_key,
)
from tests.contract.pairs import all_pairs
from tests.contract.test_random_play import check_legal_list

GAMES = SCALE


def check_world(game: Game, state: State, seat: int, rng: random.Random) -> None:
    before = fingerprint(state)
    k = rng.randrange(1 << 30)
    world = state.determinize(seat, random.Random(k))
    where = f"{game.name}, world of seat {seat} at a position where {state.current_player} acts"
    assert fingerprint(state) == before, f"{where}: determinize changed the real state"
    assert view_key(world, seat) == view_key(state, seat), f"{where}: another view"
    assert world.current_player == state.current_player
    if game.game_type.perfect_information:
        for s in [*range(state.num_players), None]:
            assert world.view(s) == state.view(s), f"{where}: nothing is hidden, yet it differs"
    again = state.determinize(seat, random.Random(k))
    assert canonical(again.to_json()) == canonical(world.to_json()), f"{where}: not repeatable"
    back = game.state_from_json(json.loads(json.dumps(world.to_json())))
    assert fingerprint(back) == fingerprint(world), f"{where}: its JSON does not round-trip"
    if not game.game_type.perfect_information:
        true_seed = state.to_json().get("seed")
        if true_seed is not None:
            assert world.to_json().get("seed") != true_seed, f"{where}: it carries the true seed"
    # Play on to the end, every decision checked like a real game's.
    n = 0
    while not world.is_terminal():
        legal = check_legal_list(game, world)
        world.apply(rng.choice(legal))
        n += 1
        assert n <= game.max_game_length(**state.options) + 1, f"{where}: no end"
    check_legal_list(game, world)


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_worlds_look_the_same_and_play_to_the_end(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    worlds = 0
    for seed in range(GAMES):
        rng = random.Random(f"worlds-{name}-{seed}")
        for state in sample_positions(game, options, seed, 6):
            for seat in range(state.num_players):
                check_world(game, state, seat, rng)
                worlds += 1
    assert worlds > 0


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_worlds_play_on_from_every_kind_of_position(name: str, options: dict[str, Any]) -> None:
    """At many decisions of random games (a third of the mid-turn ones, where the seat to
    act also took the decision before, and some others), every seat's world takes its next
    decision (a sample of the legal ones, each on a copy) and two more, legally."""
    game = load_game(name)
    for seed in range(GAMES):
        rng = random.Random(f"worlds-every-{name}-{seed}")
        state = game.new_state(seed, **options)
        last: list[str] = []
        checked = 0
        while not state.is_terminal() and checked < 50:
            mid_turn = len(last) > 0 and last[-1].startswith(f"{state.current_player}:")
            if rng.random() < (0.35 if mid_turn else 0.08):
                checked += 1
                for seat in range(state.num_players):
                    check_next_decisions(game, state, seat, rng, last)
            actor = state.current_player
            action = rng.choice(state.legal_actions())
            state.apply(action)
            last = [*last[-2:], f"{actor}:{action}"]


def check_next_decisions(
    game: Game, state: State, seat: int, rng: random.Random, last: list[str]
) -> None:
    world = state.determinize(seat, random.Random(rng.randrange(1 << 30)))
    where = (
        f"{game.name}, world of seat {seat}, seat {state.current_player} to act, after "
        f"(seat:decision) {last}"
    )
    assert view_key(world, seat) == view_key(state, seat), where
    legal = check_legal_list(game, world)
    for action in rng.sample(legal, min(6, len(legal))):
        child = world.clone()
        try:
            child.apply(action)
            for _ in range(2):
                if child.is_terminal():
                    break
                child.apply(rng.choice(check_legal_list(game, child)))
        except Exception as exc:
            raise AssertionError(f"{where}: {action} in the world: {exc!r}") from exc


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_a_world_depends_only_on_what_the_seat_knows(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    pairs = [0]
    for seed in pair_seeds(game, pairs):
        rng = random.Random(f"world-pairs-{name}-{seed}")
        for x, y, seat in all_pairs(game, options, seed, every=11, rng=rng):
            pairs[0] += 1
            for k in (1, 2):
                wx = x.determinize(seat, random.Random(k))
                wy = y.determinize(seat, random.Random(k))
                jx, jy = wx.to_json(), wy.to_json()
                if canonical(jx) == canonical(jy):
                    continue
                diff = sorted(key for key in set(jx) | set(jy) if jx.get(key) != jy.get(key))
                legal_x = [str(a) for a in wx.legal_actions()]
                legal_y = [str(a) for a in wy.legal_actions()]
                pytest.fail(
                    f"{name}: two states seat {seat} cannot tell apart give different worlds "
                    f"for the same rng: the world copies hidden parts of the real state "
                    f"(JSON fields that differ: {diff}; the worlds' legal actions "
                    f"{'differ' if legal_x != legal_y else 'agree'}: "
                    f"{sorted(set(legal_x) ^ set(legal_y))[:8]})"
                )
    if not game.game_type.perfect_information:
        assert pairs[0] > 0


def flatten(data: Any, path: str = "") -> dict[str, Any]:
    """The parts of a JSON value by path. A list of dicts (seats, sides) is taken element
    by element; any other list as a bag (its sorted elements), since its order may mean
    nothing (a pile of cards not yet in order)."""
    out: dict[str, Any] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            out.update(flatten(value, f"{path}.{key}"))
    elif isinstance(data, list) and data and all(isinstance(v, dict) for v in data):
        out[f"{path}#len"] = len(data)
        for i, value in enumerate(data):
            out.update(flatten(value, f"{path}.{i}"))
    elif isinstance(data, list):
        out[f"{path}#bag"] = _unordered(data)
    else:
        out[path] = data
    return out


def _unordered(data: Any) -> Any:
    if isinstance(data, dict):
        return {key: _unordered(value) for key, value in data.items()}
    if isinstance(data, list):
        return sorted(canonical(_unordered(v)) for v in data)
    return data


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_worlds_keep_what_the_rules_fix_at_setup(name: str, options: dict[str, Any]) -> None:
    """What every starting position holds, whatever the seed (a setup the rules fix, such
    as Kumi set face down in a fixed place, or cards a setup guide deals), every seat knows:
    its worlds keep it, so the worlds of ten starts (each its own rng seed) agree on it too.
    (Worlds are compared with each other, not with the real state, so that a world may write its
    bookkeeping in another form; a part equal in ten seeds by chance is too unlikely to
    matter.)"""
    game = load_game(name)
    starts = [game.new_state(seed, **options) for seed in range(10)]
    flat = [flatten(s.to_json()) for s in starts]
    fixed = {p: v for p, v in flat[0].items() if all(f.get(p, not v) == v for f in flat[1:])}
    for seat in range(starts[0].num_players):
        for k in range(2):
            worlds = [
                flatten(s.determinize(seat, random.Random(10 * k + i)).to_json())
                for i, s in enumerate(starts)
            ]
            lost = sorted(
                p for p in fixed if any(w.get(p, None) != worlds[0].get(p, None) for w in worlds)
            )
            assert not lost, (
                f"{name}: the worlds of seat {seat} at the start differ in what the rules fix "
                f"for every seed: {lost[:8]}"
            )
