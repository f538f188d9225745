"""The engine plays exactly the games it played before its speed work (issue 43): the same
legal action lists in the same order, the same events, the same states, the same results.

Seeded games over every option set (2-5 players, each spec ruling's alternative) are played
by a mixed random policy (supports, strongholds and rule 4 come up); each game is folded
into one digest of every ply's legal action numbers, the chosen action, the events, the
state's JSON and, now and then, a seat's view and a determinization, then the result. The
digests were recorded with the engine before its legal placements were generated from
per-board tables and before ``mute`` (commit 975a0c2); a change of the rules would have to
record them again, on purpose. A muted copy of each game must reach the same states and
the same result, returning no events.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from sengoku.games.gunkimono import GunkimonoState, SmallTile
from sengoku.games.gunkimono.selfplay import balanced_choice
from tests.gunkimono.helpers import GAME

#: Every player count, and each spec ruling's alternative with a different player count.
OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 2, "own_double_stronghold": True, "link_own_formations": False},
    {"players": 3, "empty_banner_stack": "stay", "removed_marker_counts": False},
    {"players": 4, "end_tile_replacement": False, "own_double_stronghold": True},
    {"players": 5, "link_own_formations": False, "empty_banner_stack": "stay"},
]
SEEDS = (1, 2, 3)

#: The digest of each option set's games, recorded with the engine of commit 975a0c2.
RECORDED: dict[str, str] = {
    '{"players": 2}': "5f48fe55a47d837d2c9094d1761fa0bd67f078d62be8ec38653966e1d4ec305e",
    '{"players": 3}': "a8b85439948477557a413810648c4aa5c0c407eb3f78ab8ec101c54764178316",
    '{"players": 4}': "7f410195cce5f8fd5e6ccca5417871bd648c5cfc63b5386d030e14002f6703c8",
    '{"players": 5}': "fc656ef6d568164dc120f0db0062a409684c8d2883c11a521bb047d5c2afee77",
    '{"link_own_formations": false, "own_double_stronghold": true, "players": 2}': "62a826333f50e4fb8daef38a557f17106c382724b244b5da14dd6795c61fe965",
    '{"empty_banner_stack": "stay", "players": 3, "removed_marker_counts": false}': "d26e6db3f9630f3c6d6be7246dfa4c1c03162c675115d37959f3f5daa0ae7829",
    '{"end_tile_replacement": false, "own_double_stronghold": true, "players": 4}': "8183dc2b5da50cff599933ea27e46e5ccbb09c778626d338b746efb8b34532af",
    '{"empty_banner_stack": "stay", "link_own_formations": false, "players": 5}': "8ca0488dff873e8e5b7db4f3994e4ae58eef653d2d9e344e1add471386f560fe",
}


def _choose(state: GunkimonoState, rng: random.Random) -> Any:
    # Mixed: the balanced player (strongholds, honor), uniform random, and supports often
    # enough that the Extra Support rule's phase comes up in every game.
    legal = state.legal_actions()
    r = rng.random()
    if r < 0.15:
        supports = [a for a in legal if isinstance(a, SmallTile) and a.support]
        if supports:
            return rng.choice(supports)
    if r < 0.6:
        return balanced_choice(state, rng)
    return rng.choice(legal)


def _games_digest(options: dict[str, Any]) -> str:
    h = hashlib.sha256()

    def fold(value: Any) -> None:
        h.update(json.dumps(value, sort_keys=True, default=str).encode())

    for seed in SEEDS:
        rng = random.Random(seed)
        state = GAME.new_state(seed, **options)
        muted = state.clone()
        muted.mute()
        ply = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert muted.legal_actions() == legal, (options, seed, ply)
            action = _choose(state, rng)
            fold([ply, [a.to_int() for a in legal], action.to_int(), str(action)])
            fold(state.apply(action))
            assert muted.apply(action) == []  # muted: no event built
            data = state.to_json()
            fold(data)
            assert muted.to_json() == data, (options, seed, ply)
            if ply % 11 == 0:
                seat = ply % state.num_players
                fold(state.view(seat))
                fold(state.determinize(seat, random.Random(ply)).to_json())
            ply += 1
        assert muted.is_terminal()
        outcome = state.outcome()
        assert outcome is not None
        assert muted.outcome() == outcome
        fold([outcome.to_json(), state.final_scores(), ply])
    return h.hexdigest()


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: json.dumps(o, sort_keys=True))
def test_the_same_games_as_recorded(options: dict[str, Any]) -> None:
    key = json.dumps(options, sort_keys=True)
    assert _games_digest(options) == RECORDED[key]


def test_the_determinizations_shuffle_draws_as_random_shuffle() -> None:
    # hidden_information shuffles with its own loop (compiled, a fifth of the Python
    # shuffle's time): the same order and the generator left in the same place, or the
    # generator's own shuffle (a subclass of Random may draw otherwise).
    from sengoku.games.gunkimono.hidden_information import _SAME_SHUFFLE, _shuffle

    assert _SAME_SHUFFLE  # this interpreter's shuffle is reproduced: the fast path runs
    for n in range(0, 70, 3):
        for seed in range(4):
            theirs, ours = random.Random(seed), random.Random(seed)
            expected, items = list(range(n)), list(range(n))
            theirs.shuffle(expected)
            _shuffle(ours, items)
            assert items == expected
            assert theirs.random() == ours.random()

    class Other(random.Random):
        def shuffle(self, x: Any) -> None:
            x.reverse()

    items = [1, 2, 3]
    _shuffle(Other(0), items)
    assert items == [3, 2, 1]
