"""The adapters' fast paths give exactly what the plain code gave.

Each action stores its integer when it is created: the stored integers are checked against
the action-space formulas, over random games of 2-5 players to the end. (What ``view``
shows is checked by the contract suite, ``tests/contract``, and the notation tests.)
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from sengoku.core.game import TERMINAL
from sengoku.games.gunkimono import Place, SmallTile
from sengoku.games.gunkimono.actions import (
    CELLS,
    DRAW_BASE,
    NUM_ACTIONS,
    PLACE_BASE,
    SCORE_BASE,
    SMALL_BASE,
    STRONGHOLD_BASE,
    SUPPORT_BASE,
    BuildStronghold,
    Draw,
    Score,
    int_to_action,
)
from sengoku.games.gunkimono.data import components
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
def test_integers_match_the_formulas_through_random_games(players: int) -> None:
    rng = random.Random(players)
    for seed in range(3):
        st = GAME.new_state(seed, players=players)
        while st.current_player != TERMINAL:
            legal = st.legal_actions()
            ints = [GAME.action_to_int(st, a) for a in legal]
            assert ints == [formula(a) for a in legal] == sorted(ints)
            st.apply(rng.choice(legal))
        assert st.view(0)["outcome"] is not None
