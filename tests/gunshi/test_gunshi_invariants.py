"""Random-play invariants and hidden information of Gunshi, over every variant: a seat's
knowledge of the other's cards stays consistent, views hide the secrets, events for one seat
name no other seat's secrets.

Hundreds of games by default; ``SENGOKU_SOAK=1`` (``make soak``) plays thousands.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from sengoku.games.gunshi import GunshiState, knowledge
from tests.gunshi.helpers import GAME

SOAK = bool(os.environ.get("SENGOKU_SOAK"))
CONFIGS: list[dict[str, Any]] = [
    {},
    {"variant": "inspiration", "modification": 1},
    {"variant": "inspiration", "modification": 2, "sanryaku": True},
    {"variant": "inspiration", "modification": 3, "invasion_zone": "centre_three"},
    {"variant": "custom"},
    {"variant": "custom", "custom_selection": "alternate_all", "sanryaku": True},
    {"variant": "custom", "custom_selection": "secret", "sanryaku": True},
    {"variant": "custom", "custom_selection": "secret", "move_up_for_selection": True},
    {"variant": "custom", "custom_selection": "agreed", "agreed_deck": "M Re Scout Trap Fire F Rf"},
    {"preset": "who_dares_wins"},
    {"preset": "logistical_nightmare", "fence_diagonal": "front_cell_sides"},
    {"preset": "first_battle", "shoot_block": "any_crossed", "shield_hit_facing": "keep"},
    {"preset": "advanced_1", "time_control": "tournament", "logistics_cap": 25},
    {"preset": "advanced_3", "shield_hit_breaks_fences": True, "lightning_alone_resupply": 1},
]


def _check_step(state: GunshiState, rng: random.Random) -> None:
    # The invariants every game keeps (JSON and record round trips, refused actions, clones,
    # views, determinize) are checked by the contract suite, ``tests/contract``.
    for seat in (0, 1):
        # The seat's knowledge of the other's cards is never contradictory (draws succeed).
        assert any(knowledge._draw_once(state, 1 - seat, rng) is not None for _ in range(200))


def _play(config: dict[str, Any], seed: int, check_every: int) -> GunshiState:
    rng = random.Random(seed)
    state = GAME.new_state(seed, **config)
    k = 0
    while not state.is_terminal():
        if k % check_every == 0:
            _check_step(state, rng)
        legal = state.legal_actions()
        assert legal, "a live state always has a legal action"
        state.apply(rng.choice(legal))
        k += 1
    assert state.legal_actions() == [] and state.outcome() is not None
    assert state.current_player == -1
    return state


@pytest.mark.soak
@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_random_play_invariants(index: int) -> None:
    games = 250 if SOAK else 20
    for seed in range(games):
        _play(CONFIGS[index], seed * 31 + index, check_every=5 if SOAK else 37)


def test_hidden_information_never_leaks_and_determinize_resamples() -> None:
    # For many random states and both seats: view(seat) is identical for the real state and
    # for determinized states; the opponent's secrets are not in the view; determinize does
    # change hidden parts.
    changed_shogun = changed_cards = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.new_state(seed, **CONFIGS[seed % len(CONFIGS)])
        target = rng.randrange(60, 400)
        k = 0
        while not state.is_terminal() and k < target:
            state.apply(rng.choice(state.legal_actions()))
            k += 1
        if state.is_terminal():
            continue
        for seat in (0, 1):
            opp = 1 - seat
            view = state.view(seat)
            text = json.dumps(view)
            if state.shoguns.shogun[opp] >= 0 and not state.shoguns.revealed[opp]:
                assert view["players"][opp]["shogun"] is None
            for i, card in enumerate(state.cards.hand[opp]):
                if not card[1]:
                    assert view["players"][opp]["hand"][i] is None
            for i, card in enumerate(state.cards.row[opp]):
                if not (card[1] or card[2]):
                    assert view["players"][opp]["row"][i]["card"] is None
            assert "stock" not in text or all(c is None for c in view["players"][opp]["stock"])
            for trial in range(3):
                det = state.determinize(seat, random.Random(trial))
                assert det.view(seat) == view
                if det.shoguns.shogun[opp] != state.shoguns.shogun[opp]:
                    changed_shogun += 1
                if [c[0] for c in det.cards.deck[opp]] != [c[0] for c in state.cards.deck[opp]] or [
                    c[0] for c in det.cards.hand[opp]
                ] != [c[0] for c in state.cards.hand[opp]]:
                    changed_cards += 1
            a = state.determinize(seat, random.Random(5)).to_json()
            assert a == state.determinize(seat, random.Random(5)).to_json()
    assert changed_shogun > 0 and changed_cards > 0


def test_events_for_one_seat_never_name_the_other_seats_secrets() -> None:
    for seed in range(15):
        rng = random.Random(seed)
        state = GAME.new_state(seed, **CONFIGS[seed % len(CONFIGS)])
        while not state.is_terminal():
            actor = state.current_player
            action = rng.choice(state.legal_actions())
            for ev in state.apply(action):
                if ev["audience"] is not None:
                    assert ev["audience"] == [actor] or actor not in ev["audience"]
                if action.kind in ("shogun", "hand", "deck", "take", "remove", "blind") or (
                    action.kind == "pick" and state.phase in ("build", "prepare", "mod3")
                ):
                    if ev["audience"] != [actor] and "card" in ev:
                        assert ev["type"] in ("pick", "m3_reveal", "taken")
