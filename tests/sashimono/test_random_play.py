"""Random-play invariants of Sashimono over hundreds of duels and solo games (thousands with
SENGOKU_SOAK), every solo challenge included: the games end by their own rules, events carry
a message, the opponent's hand and Hidden Kumi never show. The invariants every game keeps
(JSON and record round trips, refused actions, clones, views, determinize) are checked by
the contract suite, ``tests/contract``."""

from __future__ import annotations

import json
import os
import random

import pytest

from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.state import SashimonoState

SOAK = bool(os.environ.get("SENGOKU_SOAK"))
CHALLENGES = (
    "challenge_corners",
    "challenge_six_sashimono",
    "challenge_abilities",
    "challenge_discard_five",
    "challenge_fewer_kumi",
    "challenge_train",
)


def check_state(game: Sashimono, st: SashimonoState, rng: random.Random, deep: bool) -> None:
    if st.is_terminal():
        assert st.outcome() is not None
        return
    if not deep:
        return
    # the opponent's hand never shows in a seat's view, nor a Hidden Kumi's types unless
    # the seat knows them (printed at setup, turned face down in public, peeked at)
    if st.num_players == 2:
        for seat in range(2):
            other = st.sides[1 - seat]
            v = st.view(seat)["sides"][1 - seat]
            assert v["hand"] is None and v["sashimono_hand"] is None
            for cell, known, shown in zip(other.cells, other.known, v["sonae"], strict=True):
                if cell is not None and cell[-1] == "v":
                    assert shown["types"] == (cell[:-1] if known & (1 << seat) else None)


def run_games(options: dict, games: int, seed: int, deep_every: int) -> dict:
    game = Sashimono()
    rng = random.Random(seed)
    reasons: dict = {}
    for g in range(games):
        st = game.new_state(rng.randrange(2**31), **options)
        step = 0
        while not st.is_terminal():
            check_state(game, st, rng, deep=step % deep_every == 0)
            events = st.apply(rng.choice(st.legal_actions()))
            for ev in events:
                assert ev["type"] and "audience" in ev and ev.get("message")
                json.dumps(ev)
            step += 1
        check_state(game, st, rng, deep=True)
        out = st.outcome()
        assert out is not None
        reasons[out.reason] = reasons.get(out.reason, 0) + 1
        del g
    return reasons


@pytest.mark.soak
def test_random_duels() -> None:
    reasons = run_games({}, 1500 if SOAK else 120, 1, deep_every=25)
    assert reasons.get("vp", 0) > 0


@pytest.mark.soak
def test_random_duels_short_and_long() -> None:
    run_games({"vp": 2}, 300 if SOAK else 40, 2, deep_every=40)
    run_games({"vp": 4}, 300 if SOAK else 30, 3, deep_every=40)


@pytest.mark.soak
def test_random_solo_games() -> None:
    reasons = run_games({"mode": "solo"}, 1000 if SOAK else 150, 4, deep_every=10)
    assert reasons.get("kagemusha_deck", 0) > 0


@pytest.mark.soak
def test_random_solo_games_east_with_every_challenge() -> None:
    opts = {"mode": "solo", "army": "east", **{c: True for c in CHALLENGES}}
    run_games(opts, 500 if SOAK else 60, 5, deep_every=10)
    for c in CHALLENGES:
        run_games({"mode": "solo", c: True}, 100 if SOAK else 15, 6, deep_every=20)


def test_random_play_length_limit_guard() -> None:
    game = Sashimono()
    st = game.new_state(3)
    rng = random.Random(3)
    # the guard is a number of decisions; force it low by faking the count
    st.decisions = game.max_game_length() - 1
    st.apply(rng.choice(st.legal_actions()))
    if not st.is_terminal():  # pragma: no cover - depends on the first decision
        raise AssertionError("the game should have hit the length limit")
    out = st.outcome()
    assert out is not None and out.reason in ("length_limit", "vp")
