"""Random-play invariants over hundreds of duels and solo games (thousands with SENGOKU_SOAK)."""

from __future__ import annotations

import json
import os
import random

import pytest

from sengoku.core.game import IllegalAction
from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.state import NUM_ACTIONS, SashimonoState

SOAK = bool(os.environ.get("SENGOKU_SOAK"))
CHALLENGES = (
    "challenge_corners",
    "challenge_six_sashimono",
    "challenge_abilities",
    "challenge_discard_five",
    "challenge_fewer_kumi",
    "challenge_train",
)


def _hidden_free(view: dict) -> str:
    return json.dumps(view, sort_keys=True)


def check_state(game: Sashimono, st: SashimonoState, rng: random.Random, deep: bool) -> None:
    legal = st.legal_actions()
    if st.is_terminal():
        assert legal == [] and st.current_player == -1 and st.outcome() is not None
        return
    ints = [game.action_to_int(st, a) for a in legal]
    assert ints == sorted(ints) and len(set(ints)) == len(ints)
    for a, n in zip(legal, ints, strict=True):
        assert game.int_to_action(st, n) == a
        assert game.parse_action(st, str(a)) == a
        assert game.parse_action(st, game.format_action(st, a)) == a
    if not deep:
        return
    before = st.to_json()
    # a sample of illegal actions is refused and changes nothing
    for _ in range(3):
        n = rng.randrange(NUM_ACTIONS)
        if n in ints:
            continue
        with pytest.raises(IllegalAction):
            st.apply(game.int_to_action(st, n))
        assert st.to_json() == before
    # clone is independent
    c = st.clone()
    c.apply(rng.choice(c.legal_actions()))
    assert st.to_json() == before
    # JSON round trip
    data = json.loads(json.dumps(before))
    back = game.state_from_json(data)
    assert back.to_json() == before
    assert back.legal_actions() == legal
    # views: JSON-ready, and exactly what the seat may see: a state resampled from the
    # seat's knowledge gives the same view (so the view cannot depend on what is hidden)
    seats = list(range(st.num_players))
    for seat in [*seats, None]:
        v = st.view(seat)
        json.dumps(v)
        if seat is None:
            continue
        d = st.determinize(seat, random.Random(rng.randrange(1000)))
        assert d.view(seat) == v
        # same view + same rng seed -> same determinization
        d2 = d.determinize(seat, random.Random(7))
        d3 = st.determinize(seat, random.Random(7))
        assert d2.to_json() == d3.to_json()
    # the opponent's hand never shows in a seat's view, nor a Hidden Kumi's types unless
    # the seat knows them (printed at setup, turned face down in public, peeked at)
    if st.num_players == 2:
        for seat in seats:
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
