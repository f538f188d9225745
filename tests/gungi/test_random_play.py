"""Random-play invariants over many games in every mode (thousands under ``make soak``)."""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest

from sengoku.core.game import IllegalAction
from sengoku.games.gungi import Gungi, GungiState, Move
from sengoku.games.gungi.move import drop_code, move_code
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


def check_heavy(gungi: Gungi, state: GungiState, rng: random.Random) -> None:
    fen = gungi.to_fen(state)
    assert gungi.to_fen(gungi.from_fen(fen)) == fen
    data = json.loads(json.dumps(state.to_json(), ensure_ascii=False))
    back = gungi.state_from_json(data)
    assert gungi.to_fen(back) == fen
    assert back.legal_actions() == state.legal_actions()
    assert back.seen == state.seen and back.ply == state.ply
    assert back.outcome() == state.outcome()
    # clone is independent
    twin = state.clone()
    legal = twin.legal_actions()
    if legal:
        twin.apply(rng.choice(legal))
        assert gungi.to_fen(state) == fen
    # a sample of non-legal actions is refused and changes nothing
    legal_codes = {m.code for m in state.legal_actions()}
    for _ in range(8):
        kind, tier, to = rng.randrange(14), rng.randint(1, 3), rng.randrange(81)
        if rng.random() < 0.5:
            code = move_code(rng.randrange(81), to, rng.randint(0, 1), 0, kind, tier)
        else:
            code = drop_code(kind, to, 0, tier)
        if code in legal_codes:
            continue
        with pytest.raises(IllegalAction):
            state.apply(Move(code))
        assert gungi.to_fen(state) == fen
    json.dumps(state.view(0))


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
                check_heavy(gungi, state, rng)
            events = state.apply(rng.choice(legal))
            for ev in events:
                if ev["type"] == "piece_removed":
                    removed[_KIND[ev["piece"]] * 2 + ev["seat"]] += 1
            assert inventory(state) + removed == start  # pieces are conserved
        assert state.legal_actions() == []
        assert state.current_player == -1
        check_heavy(gungi, state, rng)
        result = state.outcome()
        assert result is not None
        reasons[result.reason] += 1
    assert reasons["marshal_captured"] + reasons["mate"] > 0


_KIND = {p.name: p.kind for p in PIECES}
