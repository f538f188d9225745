"""The adapters' fast paths give exactly what the plain code gave.

Each action stores its integer when it is created, and ``view`` names tiles, squares and
troops from tables built once. Here the stored integers are checked against the action-space
formulas, and ``view`` against a reference that formats every name per call (the code
``view`` had before the tables), over random positions of 2-5 players, every seat and the
spectator, through to the end of the game.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

from sengoku.core.game import TERMINAL
from sengoku.games.gunkimono import Place, SmallTile
from sengoku.games.gunkimono.actions import (
    CELLS,
    DRAW_BASE,
    LETTERS,
    NUM_ACTIONS,
    PLACE_BASE,
    SCORE_BASE,
    SMALL_BASE,
    STRONGHOLD_BASE,
    SUPPORT_BASE,
    WIDTH,
    BuildStronghold,
    Draw,
    Score,
    cell_name,
    int_to_action,
    tile_name,
)
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.state import FACE_DOWN, HEIGHT, NAMES, REMOVED, GunkimonoState
from tests.gunkimono.helpers import GAME

_C = components()


def formula(action: Any) -> int:
    """The action-space formulas, written out independently of the actions' code."""
    if isinstance(action, Place):
        vertical = 0 if action.b == action.a + 1 else 1
        pair = action.first * 10 + action.second
        return PLACE_BASE + (pair * CELLS + action.a) * 2 + vertical
    if isinstance(action, SmallTile):
        base = SUPPORT_BASE if action.support else SMALL_BASE
        return base + action.troop * CELLS + action.cell
    if isinstance(action, Score):
        return SCORE_BASE + (int(action.honor) * 5 + action.troop) * CELLS + action.cell
    if isinstance(action, BuildStronghold):
        return STRONGHOLD_BASE + action.cell
    assert isinstance(action, Draw)
    return DRAW_BASE + (0 if action.tile is None else 1 + action.tile)


def reference_view(st: GunkimonoState, seat: int | None) -> dict[str, Any]:
    """``view`` as it was written before the name tables: every name formatted per call."""
    n = st.num_players
    over = st.phase == "over"
    players = []
    for s in range(n):
        mine = s == seat
        players.append(
            {
                "score": st.score[s],
                "hand": [tile_name(t) for t in st.hands[s]] if mine else None,
                "hand_size": len(st.hands[s]),
                "hand_known": [tile_name(t) for t in st.known[s]],
                "reserve": [LETTERS[t] for t in st.reserve[s]],
                "honor": [None if r == REMOVED else r for r in st.honor[s]],
                "strongholds": [cell_name(c) for c in st.strongholds[s]],
                "strongholds_left": 2 - len(st.strongholds[s]),
                "banners": [
                    {
                        "kind": _C.banner_kinds[k],
                        "column": NAMES[col],
                        "value": v if (mine or over) else None,
                    }
                    for k, v, col in st.banners[s]
                ],
            }
        )
    return {
        "game": "gunkimono",
        "seat": seat,
        "players_count": n,
        "options": dict(st.options),
        "current_player": st.current_player,
        "phase": st.phase,
        "turn": st.turn,
        "turns": st.turns,
        "decisions": st.decisions,
        "board": {
            "width": WIDTH,
            "height": HEIGHT,
            "troops": ["?" if t == FACE_DOWN else LETTERS[t] for t in st.top],
            "symbols": list(st.sym),
            "levels": list(st.level),
            "strongholds": list(st.sh_owner),
        },
        "row": [tile_name(t) for t in st.row],
        "stack_size": len(st.stack),
        "end_stack_size": len(st.end_stack),
        "end_stack_in_play": st.end_stack_in_play,
        "end_triggered": st.end_triggered,
        "removed_count": len(st.removed),
        "placed": [tile_name(t) for t in st.placed],
        "placed_small": [list(p) for p in st.placed_small],
        "banner_stacks": [
            [_C.banner_kinds[k] for k, _v in st.banner_stacks[col]] for col in range(5)
        ],
        "ending_row": _C.ending_row[n],
        "stronghold_rows": list(_C.stronghold_rows[n]),
        "pending": [
            {
                "square": cell_name(c),
                "troop": LETTERS[t],
                "symbols": s,
                "vp": vp,
                "vp_allowed": bool(ok),
            }
            for c, t, s, vp, ok in st.pending
        ],
        "support_square": cell_name(st.support_cell) if st.support_cell >= 0 else None,
        "placed_large": st.placed_large,
        "passes": st.passes,
        "built_at": [list(b) for b in st.built_at],
        "players": players,
        "outcome": (o.to_json() if (o := st.outcome()) else None),
    }


def test_every_action_number_is_stored_on_its_action() -> None:
    for n in range(NUM_ACTIONS):
        action = int_to_action(n)
        assert action.int_id == n == formula(action) == action.to_int()
        assert GAME.action_to_int(None, action) == n  # type: ignore[arg-type]


def test_stored_integer_is_not_part_of_equality_repr_or_pickle_shape() -> None:
    a, b = Place(2, 10, 5, 11), Place(2, 10, 5, 11)
    assert a == b and hash(a) == hash(b) and a.int_id == formula(a)
    assert repr(a) == "Place(first=2, a=10, second=5, b=11)"
    copy = pickle.loads(pickle.dumps(a))
    assert copy == a and copy.int_id == a.int_id
    with pytest.raises(AttributeError):
        a.int_id = 0  # type: ignore[misc]


def test_action_to_int_refuses_foreign_objects() -> None:
    for thing in ("vp c3", 7, object()):
        with pytest.raises(ValueError, match="not a Gunkimono action"):
            GAME.action_to_int(None, thing)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_view_and_integers_match_the_reference_through_random_games(players: int) -> None:
    rng = random.Random(players)
    for seed in range(3):
        st = GAME.new_state(seed, players=players)
        while True:
            for seat in [None, *range(players)]:
                view, ref = st.view(seat), reference_view(st, seat)
                assert view == ref and json.dumps(view) == json.dumps(ref)  # same keys, same order
            if st.current_player == TERMINAL:
                break
            legal = st.legal_actions()
            ints = [GAME.action_to_int(st, a) for a in legal]
            assert ints == [formula(a) for a in legal] == sorted(ints)
            st.apply(rng.choice(legal))
        assert st.view(0)["outcome"] is not None
