"""Random-play invariants of Gungi over many games in every mode (thousands under
``make soak``): pieces are conserved, the FEN round-trips, games end by the Marshal.

The invariants every game keeps (JSON and record round trips, refused actions, clones,
views) are checked by the contract suite, ``tests/contract``."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from sengoku.games.gungi import Gungi, GungiState
from sengoku.games.gungi.pieces import PIECES

SOAK = os.environ.get("SENGOKU_SOAK") == "1"
GAMES_PER_MODE = 600 if SOAK else 50
MODES = ["intro", "beginner", "intermediate", "advanced"]


def inventory(state: GungiState) -> Counter[int]:
    pieces: Counter[int] = Counter(p for tower in state.board for p in tower)
    for color in (0, 1):
        for kind, n in enumerate(state.hands[color]):
            pieces[kind * 2 + color] += n
    return pieces


def check_heavy(gungi: Gungi, state: GungiState) -> None:
    """Gungi's own round trip: the FEN (JSON, clones, refused actions and views are checked
    for every game by the contract suite, ``tests/contract``)."""
    fen = gungi.to_fen(state)
    assert gungi.to_fen(gungi.from_fen(fen)) == fen


@pytest.mark.soak
@pytest.mark.parametrize("mode", MODES)
def test_random_games_keep_invariants(gungi: Gungi, mode: str) -> None:
    rng = random.Random(f"gungi-{mode}")
    reasons: Counter[str] = Counter()
    for game_index in range(GAMES_PER_MODE):
        state = gungi.new_state(seed=game_index, mode=mode, first_player="random")
        start = inventory(state)
        removed: Counter[int] = Counter()
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, "a non-terminal state has a legal action"
            if rng.random() < 0.03:
                check_heavy(gungi, state)
            events = state.apply(rng.choice(legal))
            for ev in events:
                if ev["type"] == "piece_removed":
                    removed[_KIND[ev["piece"]] * 2 + ev["seat"]] += 1
            assert inventory(state) + removed == start  # pieces are conserved
        assert state.legal_actions() == []
        assert state.current_player == -1
        check_heavy(gungi, state)
        result = state.outcome()
        assert result is not None
        reasons[result.reason] += 1
    assert reasons["marshal_captured"] + reasons["mate"] > 0


_KIND = {p.name: p.kind for p in PIECES}
