"""Smoke: the game is registered and a random game runs to its end."""

import random

from sengoku.core.registry import load_game


def test_registered_and_plays_to_the_end() -> None:
    game = load_game("gunshi")
    state = game.new_state(3)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.outcome() is not None
    assert state.legal_actions() == []
